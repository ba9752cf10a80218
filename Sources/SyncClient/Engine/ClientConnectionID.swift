/// Identifies one chat connection the client asked its driver to open (a fresh id per attempt).
public struct ClientConnectionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The id number, allocated in increasing order by the client.
    public var rawValue: Int
    /// Wraps an id number.
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "client-conn#\(rawValue)" }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
