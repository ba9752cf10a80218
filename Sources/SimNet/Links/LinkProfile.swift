import SimCore

/// A named access link shape, both directions, with the source of its figures.
///
/// Profiles are data: the standard ones (`LinkProfile.catalog`) carry the publication their numbers come from;
/// a custom profile is built with `init(name:source:uplink:downlink:)`.
public struct LinkProfile: Hashable, Sendable {
    /// A short name, e.g. `EDGE`.
    public var name: String
    /// Where the figures come from, e.g. `ATC profile Edge-Average`.
    public var source: String
    /// From the host towards the network.
    public var uplink: LinkDirectionProfile
    /// From the network towards the host.
    public var downlink: LinkDirectionProfile

    /// A custom profile; `source` says where its figures come from (a measurement, a paper, "assumption").
    public init(name: String, source: String, uplink: LinkDirectionProfile, downlink: LinkDirectionProfile) {
        self.name = name
        self.source = source
        self.uplink = uplink
        self.downlink = downlink
    }

    /// The profile of one direction.
    public subscript(direction: LinkDirection) -> LinkDirectionProfile {
        get { direction == .uplink ? uplink : downlink }
        set { if direction == .uplink { uplink = newValue } else { downlink = newValue } }
    }

    /// The same profile with `loss` on both directions (and `-lossy`-style renaming left to the caller).
    public func withLoss(_ loss: LossModel) -> LinkProfile {
        var copy = self
        copy.uplink.loss = loss
        copy.downlink.loss = loss
        return copy
    }

    /// The same profile with a drop-tail queue of `bytes` on both directions.
    public func withQueueCapacity(bytes: Int) -> LinkProfile {
        var copy = self
        copy.uplink.queueCapacityBytes = bytes
        copy.downlink.queueCapacityBytes = bytes
        return copy
    }

    /// The same profile with a drop-tail queue of `packets` waiting packets (and no byte bound) on both directions,
    /// as ns-3's `DropTailQueue` with `MaxSize` in packets.
    public func withQueueCapacity(packets: Int) -> LinkProfile {
        var copy = self
        for direction in LinkDirection.allCases {
            copy[direction].queueCapacityPackets = packets
            copy[direction].queueCapacityBytes = Int.max
        }
        return copy
    }

    /// The round-trip propagation delay without queueing, serialization or jitter.
    public var baseRTT: SimDuration { uplink.oneWayDelay + downlink.oneWayDelay }
}
