/// Identifies one photo upload to the CDN the client asked its driver to perform.
public struct UploadID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The id number, allocated in increasing order by the client.
    public var rawValue: Int64
    /// Wraps an id number.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { "upload#\(rawValue)" }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
