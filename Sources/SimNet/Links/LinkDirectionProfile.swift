import SimCore

/// The shape of one direction of an access link: rate, delay, jitter, queue, loss, outages and delay spikes.
///
/// A packet entering the direction waits in a drop-tail queue, is serialized at `rateBitsPerSecond` (its IP
/// size plus `perPacketOverheadBytes`), may then be lost (loss model, outage, loss burst), and otherwise arrives
/// `oneWayDelay` + jitter (+ any delay spike) later. A lost packet consumed this direction's rate but nothing
/// downstream of it.
public struct LinkDirectionProfile: Hashable, Sendable {
    /// Serialization rate in bit/s; 0 means the direction carries nothing (offline).
    public var rateBitsPerSecond: Int
    /// Link-layer bytes added to every packet's IP size when serializing (framing, e.g. 2 for PPP).
    public var perPacketOverheadBytes: Int
    /// Fixed propagation delay, one way.
    public var oneWayDelay: SimDuration
    /// Random extra delay per packet.
    public var jitter: JitterModel
    /// Whether jitter may reorder packets (false: arrivals keep the sending order).
    public var reordersPackets: Bool
    /// Drop-tail queue capacity in bytes of IP packets waiting (the packet being serialized not counted).
    public var queueCapacityBytes: Int
    /// Drop-tail queue capacity in waiting packets (the packet being serialized not counted), or nil for a queue
    /// bounded in bytes only. ns-3's `DropTailQueue` counts packets (`MaxSize 100p`): set 100 to mirror it.
    public var queueCapacityPackets: Int?
    /// What happens to a packet that finds the drop-tail queue full: dropped (`.none`, the default) or held by CoDel.
    public var activeQueue: ActiveQueueManagement
    /// Random loss after serialization.
    public var loss: LossModel
    /// Outages that come with the profile.
    public var outages: OutageModel
    /// Delay spikes that come with the profile, or nil.
    public var delaySpikes: DelaySpikeModel?

    /// A direction profile. Defaults: no overhead, jitter, loss, outages or spikes; a queue of 150,000 bytes,
    /// which is 100 packets of 1,500 bytes (ns-3's default drop-tail queue of 100 packets, and the ns-3
    /// reference setup this model is held against).
    public init(
        rateBitsPerSecond: Int,
        oneWayDelay: SimDuration,
        perPacketOverheadBytes: Int = 0,
        jitter: JitterModel = .none,
        reordersPackets: Bool = false,
        queueCapacityBytes: Int = 150_000,
        loss: LossModel = .none,
        outages: OutageModel = .none,
        delaySpikes: DelaySpikeModel? = nil,
        queueCapacityPackets: Int? = nil,
        activeQueue: ActiveQueueManagement = .none
    ) {
        precondition(rateBitsPerSecond >= 0 && perPacketOverheadBytes >= 0 && queueCapacityBytes >= 0)
        precondition((queueCapacityPackets ?? 0) >= 0)
        self.rateBitsPerSecond = rateBitsPerSecond
        self.perPacketOverheadBytes = perPacketOverheadBytes
        self.oneWayDelay = oneWayDelay
        self.jitter = jitter
        self.reordersPackets = reordersPackets
        self.queueCapacityBytes = queueCapacityBytes
        self.loss = loss
        self.outages = outages
        self.delaySpikes = delaySpikes
        self.queueCapacityPackets = queueCapacityPackets
        self.activeQueue = activeQueue
    }

    /// The time to serialize a packet of `ipBytes` (plus the per-packet overhead), rounded up to a nanosecond.
    /// - Precondition: the rate is not zero.
    public func serializationTime(ipBytes: Int) -> SimDuration {
        let bits = Int64(ipBytes + perPacketOverheadBytes) * 8
        let rate = Int64(rateBitsPerSecond)
        return .nanoseconds((bits * 1_000_000_000 + rate - 1) / rate)
    }
}
