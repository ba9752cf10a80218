import SimCore

/// Random delay spikes: now and then every packet is held back by an extra delay for a while.
///
/// RFC 3481 §2.4 describes 2.5G/3G links whose delay spikes to several times the usual RTT (link-layer
/// retransmissions, handovers). Spike gaps and lengths are exponentially distributed.
public struct DelaySpikeModel: Hashable, Sendable, CustomStringConvertible {
    /// Mean time between the end of one spike and the start of the next.
    public var meanInterval: SimDuration
    /// Mean length of a spike.
    public var meanLength: SimDuration
    /// Extra one-way delay while a spike lasts.
    public var extraDelay: SimDuration

    /// Spikes of `extraDelay`, with exponential gaps (mean `meanInterval`) and lengths (mean `meanLength`).
    public init(meanInterval: SimDuration, meanLength: SimDuration, extraDelay: SimDuration) {
        self.meanInterval = meanInterval
        self.meanLength = meanLength
        self.extraDelay = extraDelay
    }

    /// `+2s every 5m for 3s`.
    public var description: String { "+\(extraDelay) every \(meanInterval) for \(meanLength)" }
}
