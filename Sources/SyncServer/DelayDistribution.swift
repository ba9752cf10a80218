import SimCore

/// A distribution of virtual delays, drawn from a seeded generator.
public enum DelayDistribution: Hashable, Sendable {
    /// Always the same delay.
    case fixed(SimDuration)
    /// Uniform between the two bounds (inclusive lower, exclusive upper).
    case uniform(SimDuration, SimDuration)
    /// Exponential with the given mean (memoryless service times).
    case exponential(mean: SimDuration)

    /// No delay at all.
    public static let none = DelayDistribution.fixed(.zero)

    /// One draw, never negative.
    /// - Parameter generator: the component's own random stream.
    /// - Returns: the delay.
    public func draw(using generator: inout SeededGenerator) -> SimDuration {
        switch self {
        case .fixed(let value):
            return max(.zero, value)
        case .uniform(let low, let high):
            let span = Double(high.nanoseconds - low.nanoseconds)
            let value = low.nanoseconds + Int64((span * generator.nextUnitInterval()).rounded(.down))
            return max(.zero, SimDuration(nanoseconds: value))
        case .exponential(let mean):
            let value = generator.nextExponential(mean: Double(mean.nanoseconds))
            return max(.zero, SimDuration(nanoseconds: Int64(value.rounded())))
        }
    }
}
