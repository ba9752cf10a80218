import SimCore
import Testing
@testable import SimNet

@Suite struct TransferExperimentTests {
    /// EDGE as in the ns-3 grid, with a queue small enough that slow start overflows it.
    static func overflowing(_ bytes: Int = 300_000, queuePackets: Int = 10, activeQueue: ActiveQueueManagement = .none,
                            tcp: TCPConfiguration = .ns3Reference) -> TransferExperiment {
        TransferExperiment(bytes: bytes, downlinkRateBitsPerSecond: 240_000, uplinkRateBitsPerSecond: 200_000,
                           oneWayDelay: .milliseconds(420), lossProbability: 0, queueCapacityPackets: queuePackets,
                           activeQueue: activeQueue, tcp: tcp)
    }

    @Test("SACK repairs a burst of queue drops faster than NewReno")
    func sackBeatsNewReno() throws {
        var newReno = TCPConfiguration.ns3Reference
        newReno.usesSACK = false
        let withSACK = Self.overflowing().run(seed: 1)
        let withoutSACK = Self.overflowing(tcp: newReno).run(seed: 1)
        #expect(withSACK.packetsDroppedByQueue > 3)
        let sackTime = try #require(withSACK.completionTime)
        let newRenoTime = try #require(withoutSACK.completionTime)
        // Both repair every hole; SACK may still need a timeout for a retransmission the full queue drops again
        // (there is no RACK), yet it is done sooner than NewReno's one hole per round trip.
        #expect(sackTime < newRenoTime, "SACK \(sackTime), NewReno \(newRenoTime)")
    }

    @Test("a CoDel stage holds what the drop-tail queue cannot and drops fewer packets, all at its head")
    func codelStage() throws {
        let dropTail = Self.overflowing().run(seed: 1, trace: TraceLog(keepsRecords: true))
        let codel = Self.overflowing(activeQueue: .ns3Default).run(seed: 1, trace: TraceLog(keepsRecords: true))
        #expect(codel.outcome.completionTime != nil && dropTail.outcome.completionTime != nil)
        #expect(codel.outcome.packetsDroppedByQueue < dropTail.outcome.packetsDroppedByQueue)
        #expect(codel.trace.records(ofKind: "drop-queue").isEmpty)
        #expect(!codel.trace.records(ofKind: "drop-codel").isEmpty)
        #expect(dropTail.trace.records(ofKind: "drop-codel").isEmpty)
    }

    @Test("CoDel never drops while packets wait less than the target")
    func codelBelowTarget() {
        // 3G at 100 KB: the queue never holds more than a few packets, so nothing waits 5 ms in the CoDel stage.
        let experiment = TransferExperiment(bytes: 100_000, downlinkRateBitsPerSecond: 780_000,
                                            uplinkRateBitsPerSecond: 330_000, oneWayDelay: .milliseconds(100),
                                            lossProbability: 0)
        let outcome = experiment.run(seed: 1)
        #expect(outcome.packetsDroppedByQueue == 0 && outcome.retransmittedSegments == 0)
    }

    @Test("timestamps keep the RTO above a queue that fills in slow start: no spurious timeout at 20 kbit/s")
    func noSpuriousTimeout() {
        let experiment = TransferExperiment(bytes: 100_000, downlinkRateBitsPerSecond: 20_000,
                                            uplinkRateBitsPerSecond: 18_000, oneWayDelay: .milliseconds(650),
                                            lossProbability: 0)
        let outcome = experiment.run(seed: 1)
        // The only timeout is the SYN's (its round trip, 1.34 s, exceeds the 1 s SYN timeout, as in ns-3).
        #expect(outcome.retransmissionTimeouts <= 1)
        #expect(outcome.retransmittedSegments <= 1)
    }

    @Test("with a CoDel stage the network's invariants hold after every step, and every byte arrives in order")
    func codelInvariants() {
        let experiment = Self.overflowing(120_000, activeQueue: .ns3Default)
        let network = Network(seed: 3, tcp: experiment.tcp, trace: TraceLog(isEnabled: false), checksInvariants: true)
        let server = network.addHost(named: "server", link: .datacenter)
        let phone = network.addHost(named: "phone", link: experiment.phoneLink)
        var received: [UInt8] = []
        network.eventHandler = { event in
            if case .received(let bytes) = event.kind, event.host == phone { received += bytes }
        }
        let socket = network.connect(from: server, to: phone)
        let payload = TestWorld.pattern(count: 120_000)
        network.send(payload, on: socket)
        network.run(until: .start + .milliseconds(120_000))
        #expect(sameBytes(received, payload))
        #expect(network.linkStatistics(of: phone, .downlink).packetsDroppedByQueue > 0)
    }

    @Test("every combination of SACK and congestion control finishes a lossy transfer", arguments: [
        (true, CongestionControl.cubic), (true, .reno), (false, .cubic), (false, .reno),
    ])
    func combinations(usesSACK: Bool, congestionControl: CongestionControl) {
        var tcp = TCPConfiguration.linux
        tcp.usesSACK = usesSACK
        tcp.congestionControl = congestionControl
        let experiment = TransferExperiment(bytes: 200_000, downlinkRateBitsPerSecond: 780_000,
                                            uplinkRateBitsPerSecond: 330_000, oneWayDelay: .milliseconds(100),
                                            lossProbability: 0.05, tcp: tcp)
        for seed: UInt64 in 1...4 {
            let outcome = experiment.run(seed: seed)
            #expect(outcome.completionTime != nil, "seed \(seed)")
            #expect(outcome.retransmittedSegments > 0, "seed \(seed)")
        }
    }
}
