/// An invariant the checkers enforce (DESIGN.md §8). Cases keep the design's names (`C1`, `T2`) so reports,
/// docs and code use the same words.
public enum InvariantID: String, CaseIterable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Chunk invariants C1-C6 on a client's cached history (`summary` states each).
    case C1, C2, C3, C4, C5, C6
    /// Edit and delete invariant C7 on a client's cached history.
    case C7
    /// Task invariants T1-T6 on a client's send queue.
    case T1, T2, T3, T4, T5, T6
    /// Protocol invariants P1-P4 on requests, responses and last-sync.
    case P1, P2, P3, P4
    /// The view invariants: after quiescence clients agree with the server (V1); a scroll down to the newest
    /// messages reaches them (V2).
    case V1, V2

    /// The invariant in one line, as DESIGN.md §8 states it.
    public var summary: String {
        switch self {
        case .C1: "chunks are sorted and disjoint; two chunks known to be contiguous are one chunk"
        case .C2: "no server message lies strictly inside a chunk's range yet is missing from the cache"
        case .C3: "cached messages equal the server's (id, text, order), local echoes aside"
        case .C4: "no message id appears twice (in chunks or as a local echo)"
        case .C5: "a chunk marked start of history has no older message on the server"
        case .C6: "scrolling to the top with a working network ends with one chunk covering the chat"
        case .C7: "edits and deletes apply whatever their arrival order (a tombstone waits for its message)"
        case .T1: "every accepted task ends done, or failed with a visible error; none vanish, across restarts"
        case .T2: "at most one server message per cid (no duplicates), whatever was retried"
        case .T3: "no task runs before its dependencies are done (no photo message before its upload)"
        case .T4: "per chat, a user's messages reach the server in the order they were enqueued"
        case .T5: "with the network up for a bounded time, the queue drains"
        case .T6: "after a restart, the unfinished tasks are exactly those committed before it"
        case .P1: "every response matches exactly one in-flight request (seq and opcode)"
        case .P2: "no two in-flight requests share a seq"
        case .P3: "every request ends with a response, an error or a timeout"
        case .P4: "last-sync never goes backwards and always comes from server time"
        case .V1: "after quiescence each client's chat list and loaded history equal the server's"
        case .V2: "scrolling down past the newest message with a working network ends with the newest message on screen"
        }
    }

    /// Whether this is a liveness property (checked at a deadline or at quiescence, not after every event).
    public var isLiveness: Bool { self == .C6 || self == .T5 || self == .V1 || self == .V2 }

    public var description: String { rawValue }

    public static func < (lhs: InvariantID, rhs: InvariantID) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
