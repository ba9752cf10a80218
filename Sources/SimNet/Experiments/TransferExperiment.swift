import SimCore

/// The ns-3 reference transfer, run in SimNet: a server connects to a phone over one access link and at once sends
/// a number of bytes; the figure is the time from the connect to the last byte received.
///
/// It mirrors `transfer.cc` of the project's ns-3 tools (ns-3 3.37, point-to-point link): the phone's link carries
/// `downlinkRateBitsPerSecond` towards the phone and `uplinkRateBitsPerSecond` back, both directions with the same
/// one-way delay, a drop-tail queue of `queueCapacityPackets` waiting packets, and Bernoulli loss of
/// `lossProbability` per packet (ns-3's `RateErrorModel` on both receiving devices). The server sits behind a
/// 10 Gbit/s link without delay, so the phone's link is the only bottleneck, as the single p2p link in ns-3. TCP:
/// MSS 1,448, initial window 10, delayed ACK 40 ms, SYN timeout 1 s, minimum RTO `minimumRTO`; every packet
/// carries 52 IP and TCP header bytes (timestamps on, as in ns-3) plus 2 bytes of PPP framing (ns-3's
/// `PointToPointNetDevice` adds a PPP header).
public struct TransferExperiment: Hashable, Sendable {
    /// Application bytes the server sends.
    public var bytes: Int
    /// Rate from the server to the phone, bit/s.
    public var downlinkRateBitsPerSecond: Int
    /// Rate from the phone to the server, bit/s.
    public var uplinkRateBitsPerSecond: Int
    /// Propagation delay each way (ns-3's p2p channel delay is symmetric).
    public var oneWayDelay: SimDuration
    /// Probability that a packet is lost, each direction, independently.
    public var lossProbability: Double
    /// Drop-tail queue per direction in waiting packets. Default 100 (ns-3's default `DropTailQueue` size).
    public var queueCapacityPackets: Int
    /// The lower bound on the RTO. Default 200 ms (Linux; the ns-3 reference setup).
    public var minimumRTO: SimDuration
    /// What holds packets that find the queue full. Default `.ns3Default`: CoDel, as the `FqCoDelQueueDisc` that
    /// ns-3 installs in front of every device queue (`transfer.cc` does not remove it).
    public var activeQueue: ActiveQueueManagement
    /// The connection model; `minimumRTO` above overrides its own. Default `.ns3Reference`.
    public var tcp: TCPConfiguration

    /// PPP framing bytes per packet on a point-to-point link (ns-3 `PppHeader`, RFC 1661 protocol field).
    public static let pppOverheadBytes = 2

    /// An experiment; defaults as `transfer.cc`.
    /// - Parameters:
    ///   - bytes: application bytes to send, at least 1.
    ///   - downlinkRateBitsPerSecond, uplinkRateBitsPerSecond: the two rates in bit/s, positive.
    ///   - oneWayDelay: propagation delay each way.
    ///   - lossProbability: per-packet loss in [0, 1), each direction.
    ///   - queueCapacityPackets: waiting packets per direction (default 100).
    ///   - minimumRTO: RTO floor (default 200 ms).
    ///   - activeQueue: CoDel in front of the queue as in ns-3 (default), or `.none` for plain drop-tail.
    ///   - tcp: the rest of the connection model (default `.ns3Reference`).
    public init(bytes: Int, downlinkRateBitsPerSecond: Int, uplinkRateBitsPerSecond: Int, oneWayDelay: SimDuration,
                lossProbability: Double, queueCapacityPackets: Int = 100, minimumRTO: SimDuration = .milliseconds(200),
                activeQueue: ActiveQueueManagement = .ns3Default, tcp: TCPConfiguration = .ns3Reference) {
        precondition(bytes > 0 && downlinkRateBitsPerSecond > 0 && uplinkRateBitsPerSecond > 0)
        precondition(lossProbability >= 0 && lossProbability < 1 && queueCapacityPackets >= 0)
        self.bytes = bytes
        self.downlinkRateBitsPerSecond = downlinkRateBitsPerSecond
        self.uplinkRateBitsPerSecond = uplinkRateBitsPerSecond
        self.oneWayDelay = oneWayDelay
        self.lossProbability = lossProbability
        self.queueCapacityPackets = queueCapacityPackets
        self.minimumRTO = minimumRTO
        self.activeQueue = activeQueue
        self.tcp = tcp
    }

    /// The outcome of one run.
    public struct Outcome: Hashable, Sendable {
        /// Time from the connect to the last byte received, or nil when the bytes did not all arrive within an hour
        /// of virtual time (ns-3's program prints -1 then).
        public var completionTime: SimDuration?
        /// Kernel events run until the last byte arrived.
        public var eventsRun: Int
        /// Segments the server retransmitted.
        public var retransmittedSegments: Int
        /// Retransmission timeouts at the server.
        public var retransmissionTimeouts: Int
        /// Packets dropped at the tail of a full queue, both directions.
        public var packetsDroppedByQueue: Int
    }

    /// The phone's access link of this experiment.
    public var phoneLink: LinkProfile {
        let loss: LossModel = lossProbability > 0 ? .bernoulli(probability: lossProbability) : .none
        func direction(_ rate: Int) -> LinkDirectionProfile {
            LinkDirectionProfile(rateBitsPerSecond: rate, oneWayDelay: oneWayDelay,
                                 perPacketOverheadBytes: Self.pppOverheadBytes, queueCapacityBytes: Int.max,
                                 loss: loss, queueCapacityPackets: queueCapacityPackets, activeQueue: activeQueue)
        }
        return LinkProfile(name: "transfer", source: "ns-3 transfer.cc reference setup",
                           uplink: direction(uplinkRateBitsPerSecond), downlink: direction(downlinkRateBitsPerSecond))
    }

    /// Runs the transfer once.
    /// - Parameter seed: the run seed (loss draws derive from it).
    /// - Returns: completion time, events and counters.
    public func run(seed: UInt64) -> Outcome { run(seed: seed, trace: TraceLog(isEnabled: false)).outcome }

    /// Runs the transfer once with a trace.
    /// - Parameters:
    ///   - seed: the run seed.
    ///   - trace: the trace log to fill (segments, losses, drops, RTOs).
    /// - Returns: the outcome and the filled trace.
    public func run(seed: UInt64, trace: TraceLog) -> (outcome: Outcome, trace: TraceLog) {
        var configuration = tcp
        configuration.minimumRTO = minimumRTO
        let network = Network(seed: seed, tcp: configuration, trace: trace)
        let server = network.addHost(named: "server", link: .datacenter)
        let phone = network.addHost(named: "phone", link: phoneLink)
        var received = 0
        var finishedAt: SimInstant?
        let target = bytes
        network.eventHandler = { event in
            guard case .received(let chunk) = event.kind, event.host == phone else { return }
            received += chunk.count
            if received >= target && finishedAt == nil { finishedAt = event.time }
        }
        let socket = network.connect(from: server, to: phone)
        network.send([UInt8](repeating: 0x5A, count: bytes), on: socket)
        let limit = SimInstant.start + .hours(1)
        while finishedAt == nil, network.now < limit, network.runUntilIdle(maximumEvents: 1) == 1 {}
        let statistics = network.statistics(of: socket)
        let outcome = Outcome(
            completionTime: finishedAt.map { $0 - .start },
            eventsRun: network.eventsRun,
            retransmittedSegments: statistics?.retransmittedSegments ?? 0,
            retransmissionTimeouts: statistics?.retransmissionTimeouts ?? 0,
            packetsDroppedByQueue: network.linkStatistics(of: phone, .downlink).packetsDroppedByQueue
                + network.linkStatistics(of: phone, .uplink).packetsDroppedByQueue
        )
        return (outcome, network.trace)
    }
}
