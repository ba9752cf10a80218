/// Identifies one client connection to the server; the driver (world, replayer) allocates them.
public struct ServerConnectionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The id number the driver allocated.
    public var rawValue: Int

    /// Wraps an id number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    public var description: String { "conn#\(rawValue)" }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
