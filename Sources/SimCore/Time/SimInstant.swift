/// A point in virtual time: integer nanoseconds since the run's start. Nothing here reads a wall clock.
public struct SimInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the start of the run.
    public var nanosecondsSinceStart: Int64

    /// The instant `nanosecondsSinceStart` nanoseconds after the run's start.
    public init(nanosecondsSinceStart: Int64) { self.nanosecondsSinceStart = nanosecondsSinceStart }

    /// The start of every run.
    public static let start = SimInstant(nanosecondsSinceStart: 0)

    /// Seconds since the start, as a fixed-point string with millisecond precision: `12.345s`.
    public var description: String {
        let ns = nanosecondsSinceStart
        let sign = ns < 0 ? "-" : ""
        let magnitude = ns.magnitude
        let seconds = magnitude / 1_000_000_000
        let millis = (magnitude % 1_000_000_000) / 1_000_000
        let padded = String(millis).count < 3 ? String(repeating: "0", count: 3 - String(millis).count) + String(millis)
            : String(millis)
        return "\(sign)\(seconds).\(padded)s"
    }

    /// The time elapsed since the start of the run.
    public var sinceStart: SimDuration { SimDuration(nanoseconds: nanosecondsSinceStart) }

    public static func < (lhs: SimInstant, rhs: SimInstant) -> Bool {
        lhs.nanosecondsSinceStart < rhs.nanosecondsSinceStart
    }
    /// The instant `rhs` after `lhs`; traps on Int64 overflow.
    public static func + (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
        SimInstant(nanosecondsSinceStart: lhs.nanosecondsSinceStart + rhs.nanoseconds)
    }
    /// The instant `rhs` before `lhs`; traps on Int64 overflow.
    public static func - (lhs: SimInstant, rhs: SimDuration) -> SimInstant {
        SimInstant(nanosecondsSinceStart: lhs.nanosecondsSinceStart - rhs.nanoseconds)
    }
    /// The duration from `rhs` to `lhs` (negative when `rhs` is later).
    public static func - (lhs: SimInstant, rhs: SimInstant) -> SimDuration {
        SimDuration(nanoseconds: lhs.nanosecondsSinceStart - rhs.nanosecondsSinceStart)
    }
    /// Moves `lhs` forward by `rhs` in place.
    public static func += (lhs: inout SimInstant, rhs: SimDuration) { lhs = lhs + rhs }
}
