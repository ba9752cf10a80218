/// A span of virtual time in integer nanoseconds. May be negative (a clock skew, a difference).
public struct SimDuration: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The length in nanoseconds.
    public var nanoseconds: Int64

    /// A span of `nanoseconds` (negative allowed).
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// No time at all.
    public static let zero = SimDuration(nanoseconds: 0)

    // The factories trap on Int64 overflow (about 292 years): callers bound values that come from input.
    /// `value` nanoseconds.
    public static func nanoseconds(_ value: Int64) -> SimDuration { SimDuration(nanoseconds: value) }
    /// `value` microseconds.
    public static func microseconds(_ value: Int64) -> SimDuration { SimDuration(nanoseconds: value * 1_000) }
    /// `value` milliseconds.
    public static func milliseconds(_ value: Int64) -> SimDuration { SimDuration(nanoseconds: value * 1_000_000) }
    /// `value` seconds.
    public static func seconds(_ value: Int64) -> SimDuration { SimDuration(nanoseconds: value * 1_000_000_000) }
    /// `value` minutes.
    public static func minutes(_ value: Int64) -> SimDuration { .seconds(value * 60) }
    /// `value` hours.
    public static func hours(_ value: Int64) -> SimDuration { .seconds(value * 3_600) }

    /// A duration from fractional seconds, rounded to the nearest nanosecond.
    public static func seconds(_ value: Double) -> SimDuration {
        SimDuration(nanoseconds: Int64((value * 1e9).rounded()))
    }

    /// Converts a Swift `Duration`, truncating below one nanosecond.
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The same span as a Swift `Duration`.
    public var duration: Duration { .nanoseconds(nanoseconds) }

    /// The length in (fractional) seconds.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// The length in (fractional) milliseconds.
    public var milliseconds: Double { Double(nanoseconds) / 1e6 }

    /// A fixed, locale-free rendering: `1.5s`, `250ms`, `12us`, `7ns`.
    public var description: String {
        let value = nanoseconds
        if value == 0 { return "0s" }
        if value % 1_000_000_000 == 0 { return "\(value / 1_000_000_000)s" }
        if value % 1_000_000 == 0 {
            let ms = value / 1_000_000
            return abs(ms) >= 1_000 ? "\(Double(ms) / 1_000)s" : "\(ms)ms"
        }
        if value % 1_000 == 0 { return "\(value / 1_000)us" }
        return "\(value)ns"
    }

    public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    /// The sum of two durations, in nanoseconds; traps on Int64 overflow.
    public static func + (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds + rhs.nanoseconds)
    }
    /// The difference of two durations (negative when `rhs` is longer); traps on Int64 overflow.
    public static func - (lhs: SimDuration, rhs: SimDuration) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds - rhs.nanoseconds)
    }
    /// The duration repeated `rhs` times; traps on Int64 overflow.
    public static func * (lhs: SimDuration, rhs: Int64) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanoseconds * rhs)
    }
    /// Adds `rhs` to `lhs` in place.
    public static func += (lhs: inout SimDuration, rhs: SimDuration) { lhs = lhs + rhs }
    /// Subtracts `rhs` from `lhs` in place.
    public static func -= (lhs: inout SimDuration, rhs: SimDuration) { lhs = lhs - rhs }
}
