/// Identifies a timer the server asked its driver to start (a delayed response being processed).
public struct ServerTimerID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    public var description: String { "server-timer#\(rawValue)" }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
