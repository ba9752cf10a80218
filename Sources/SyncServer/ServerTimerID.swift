/// Identifies a timer the server asked its driver to start (a delayed response being processed).
public struct ServerTimerID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The id number, allocated by the server.
    public var rawValue: Int64

    /// Wraps an id number.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    public var description: String { "server-timer#\(rawValue)" }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
