/// Identifies a timer the client asked its driver to start. Unknown or stale timers are ignored when they fire.
public struct ClientTimerID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The id number, allocated in increasing order by the client.
    public var rawValue: Int64
    /// Wraps an id number.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { "client-timer#\(rawValue)" }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
