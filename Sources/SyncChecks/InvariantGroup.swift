/// A named group of invariants, for `Invariants(.all)` and friends.
public enum InvariantGroup: String, Hashable, Sendable {
    /// Every invariant of DESIGN.md §8.
    case all
    /// C1–C7, the history cache, its chunks, edits and deletes.
    case chunks
    /// T1–T6, the persistent task queue.
    case tasks
    /// P1–P4, requests, responses and last-sync.
    case protocolAndSync
    /// V1 and V2, convergence at quiescence and the view at the newest messages after a scroll down to them.
    case convergence

    /// The invariants in the group, in declaration order.
    public var members: [InvariantID] {
        switch self {
        case .all: InvariantID.allCases
        case .chunks: [.C1, .C2, .C3, .C4, .C5, .C6, .C7]
        case .tasks: [.T1, .T2, .T3, .T4, .T5, .T6]
        case .protocolAndSync: [.P1, .P2, .P3, .P4]
        case .convergence: [.V1, .V2]
        }
    }
}
