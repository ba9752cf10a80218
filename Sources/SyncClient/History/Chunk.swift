/// A closed range of message ids known to be contiguous on the server (DESIGN.md §7).
public struct Chunk: Hashable, Sendable, CustomStringConvertible {
    /// The oldest message id in the chunk.
    public var lower: Int64
    /// The newest message id in the chunk.
    public var upper: Int64
    /// True when no message older than `lower` exists on the server.
    public var isStartOfHistory: Bool

    /// A chunk `[lower, upper]`.
    public init(lower: Int64, upper: Int64, isStartOfHistory: Bool) {
        self.lower = lower
        self.upper = upper
        self.isStartOfHistory = isStartOfHistory
    }

    public var description: String { "[\(lower)...\(upper)\(isStartOfHistory ? " start" : "")]" }

    func overlaps(_ lower: Int64, _ upper: Int64) -> Bool { self.lower <= upper && self.upper >= lower }
}
