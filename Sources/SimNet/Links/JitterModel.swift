import SimCore

/// Random extra one-way delay added to each packet on top of the link's fixed one-way delay.
///
/// Unless the direction's profile sets `reordersPackets`, a packet never arrives before the one sent ahead of it
/// on the same direction (its arrival is held back to the previous arrival), so jitter does not reorder a flow.
public enum JitterModel: Hashable, Sendable, CustomStringConvertible {
    /// No jitter.
    case none
    /// Uniform in [0, `maximum`].
    case uniform(maximum: SimDuration)
    /// Exponential with the given mean (a long tail, like radio retransmissions below IP).
    case exponential(mean: SimDuration)

    /// `none`, `uniform(0..50ms)`, `exponential(mean 20ms)`.
    public var description: String {
        switch self {
        case .none: return "none"
        case .uniform(let maximum): return "uniform(0..\(maximum))"
        case .exponential(let mean): return "exponential(mean \(mean))"
        }
    }

    func draw(using generator: inout SeededGenerator) -> SimDuration {
        switch self {
        case .none:
            return .zero
        case .uniform(let maximum):
            guard maximum.nanoseconds > 0 else { return .zero }
            return .nanoseconds(Int64(generator.nextUnitInterval() * Double(maximum.nanoseconds)))
        case .exponential(let mean):
            guard mean.nanoseconds > 0 else { return .zero }
            return .nanoseconds(Int64(generator.nextExponential(mean: Double(mean.nanoseconds))))
        }
    }
}
