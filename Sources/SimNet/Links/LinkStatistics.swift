import SimCore

/// Counters of one link direction since the host was added.
public struct LinkStatistics: Hashable, Sendable {
    /// Packets handed to the direction.
    public var packetsOffered = 0
    /// Packets serialized (lost ones included: they used the rate).
    public var packetsSerialized = 0
    /// Bytes serialized, IP size plus per-packet overhead.
    public var bytesSerialized = 0
    /// Packets passed on after propagation.
    public var packetsPassed = 0
    /// Packets dropped at the tail of a full queue.
    public var packetsDroppedByQueue = 0
    /// Packets lost by the loss model or a loss burst.
    public var packetsLost = 0
    /// Packets dropped because the direction was down, out or offline.
    public var packetsDroppedWhileDown = 0

    /// All counters at zero.
    public init() {}
}
