/// A read-only view of a running world, what eventually-conditions look at.
///
/// The world that executes scenarios implements it; the DSL only asks. Names are user names and chat names as
/// the scenario wrote them. Every answer is a snapshot at `now`.
public protocol WorldProbe {
    /// The current virtual time.
    var now: SimInstant { get }
    /// The chat's history on the server, oldest first.
    func serverMessages(in chat: String) -> [ChatMessage]
    /// The messages `client` holds in its history cache for `chat`, oldest first (local echoes excluded).
    func cachedMessages(of client: String, in chat: String) -> [ChatMessage]
    /// How many chunks `client`'s cache holds for `chat`.
    func chunkCount(of client: String, in chat: String) -> Int
    /// How many tasks of `client` are neither done nor failed.
    func pendingTaskCount(of client: String) -> Int
    /// Whether `client` is connected and logged in.
    func isLoggedIn(_ client: String) -> Bool
    /// Whether every client's chat list and loaded history equal the server's (invariant V1's comparison).
    var hasConverged: Bool { get }
    /// The user names of the scenario's clients, in topology order.
    var clientNames: [String] { get }
}
