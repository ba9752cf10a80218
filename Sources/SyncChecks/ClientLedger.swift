import SimCore
import SyncClient
import SyncProtocol

/// What the checker remembers about one client across events and app restarts.
struct ClientLedger {
    /// A request seen on the wire and not yet known to be over.
    struct OutstandingRequest {
        var seq: UInt16
        var opcode: Opcode
        var connection: ClientConnectionID
        var sentAt: SimInstant
        var deadline: SimInstant
    }

    let userId: Int64
    let requestTimeout: SimDuration
    let pongTimeout: SimDuration
    /// The longest the engine may wait for a SESSION_INIT or LOGIN answer (`ClientParameters.maximumHandshakeTimeout`:
    /// its handshake timeout backs off after timeouts).
    let maximumHandshakeTimeout: SimDuration

    /// The view's task list as last checked (an unchanged list is not walked again).
    var lastTasks: [TaskRecord] = []
    /// Every task the client ever accepted, last seen state, by id (T1, T3, T6).
    var tasks: [Int64: TaskRecord] = [:]
    /// Every cid each task was seen with (T2: a retry must reuse it), by task id.
    var cidsByTask: [Int64: [Int64]] = [:]
    /// The task each cid belongs to (T2, T4), by cid.
    var taskByCid: [Int64: Int64] = [:]
    /// Cids of MSG_SEND packets sent since the client's view was last read, as (seq, cid): the next
    /// `afterClientEvent` reads the view whatever the sampling and links each to its task (T2).
    var sentCidsToLink: [(seq: UInt16, cid: Int64)] = []
    /// Cids learned since the server was last matched against them, as (task, cid).
    var unlinkedCids: [(taskId: Int64, cid: Int64)] = []
    /// Server message ids stored for each task (T2), by task id.
    var messageIdsByTask: [Int64: [Int64]] = [:]
    /// Per chat, the client's stored sends as (message id, task id), ascending by message id (T4).
    var storedSendsByChat: [Int64: [(messageId: Int64, taskId: Int64)]] = [:]
    /// Send tasks seen failed (kept after the engine prunes them): the engine gave up on them, and the sends after
    /// them in their chat went out, but a request of theirs whose answer never came may still be stored later, out
    /// of enqueue order, which T4 does not count against the engine.
    var failedSendTaskIds: Set<Int64> = []
    /// The newest changed version (edit or removal) of each message delivered to the client, as (version, whether
    /// removed), by chat id then message id (C7).
    var deliveredChanges: [Int64: [Int64: (version: Int64, isRemoved: Bool)]] = [:]
    /// The connections the engine closed since its app launched: what still arrives on them never reaches the app
    /// (an app cannot read a socket it closed), so it gives the client nothing (C7). Cleared at an app restart, whose
    /// new engine numbers its connections afresh.
    var closedConnections: Set<ClientConnectionID> = []
    /// The chunk stores as last checked, by chat id (C1–C5 look again only at changed ones).
    var checkedStores: [Int64: CheckedStore] = [:]
    /// The chats whose store in `checkedStores` passed C1–C5 with no problem: a store that only grew from one of
    /// them is checked over what it added (`InvariantChecker.grewClean`).
    var cleanStores: Set<Int64> = []
    /// The last-sync value last seen (P4).
    var lastSyncMilliseconds: Int64 = 0
    /// Server times the client received in SESSION_INIT and LOGIN responses (P4).
    var serverTimesReceived: Set<Int64> = []
    /// Whether the world feeds this client's packets (P4 then demands a received server time).
    var hasObservedPackets = false
    /// Requests on the wire by seq (P1, P2).
    var outstanding: [UInt16: [OutstandingRequest]] = [:]
    /// The unfinished task ids just before an app restart, until the restarted engine is checked (T6).
    var unfinishedBeforeRestart: [Int64]?

    init(userId: Int64, requestTimeout: SimDuration, pongTimeout: SimDuration, maximumHandshakeTimeout: SimDuration) {
        self.userId = userId
        self.requestTimeout = requestTimeout
        self.pongTimeout = pongTimeout
        self.maximumHandshakeTimeout = maximumHandshakeTimeout
    }

    /// How long a request of this opcode may stay unanswered before the engine must have timed it out (P3):
    /// `pongTimeout` for PING, the handshake's bound for SESSION_INIT and LOGIN, `requestTimeout` for every other.
    func timeout(for opcode: Opcode) -> SimDuration {
        switch opcode {
        case .ping: pongTimeout
        case .sessionInit, .login: maximumHandshakeTimeout
        default: requestTimeout
        }
    }
}

extension ClientLedger {
    /// Whether chat `chatId`'s store was checked and `store` is that store unchanged (`CheckedStore.isUnchanged`).
    /// The entry is read in place (through the table's modify access): a lookup copied it out, its checkpoint's
    /// tables retained and released, for every chat on every client event.
    mutating func isCheckedAndUnchanged(_ chatId: Int64, _ store: ChunkStore) -> Bool {
        Self.isUnchanged(&checkedStores[chatId], store)
    }

    private static func isUnchanged(_ checked: inout CheckedStore?, _ store: ChunkStore) -> Bool {
        checked?.isUnchanged(store) ?? false
    }
}

/// A chat's chunk store as the checker last checked it: its checkpoint, and the store itself when the check found a
/// problem. A clean store is not kept: holding it made the engine's next insert into it copy the chat's whole
/// message table (copy on write), work per push that grew with the run.
struct CheckedStore {
    var checkpoint: ChunkStore.Checkpoint
    /// The store, kept only when it failed C1–C5 (then only the same store counts as unchanged, as before).
    var failedStore: ChunkStore?

    /// Whether `store` is the checked store unchanged. A clean store restored equal (from its rows, after an app
    /// restart) is not recognised and is checked again: it passes, as it did.
    func isUnchanged(_ store: ChunkStore) -> Bool {
        if let failedStore { return failedStore == store }
        return store.isUnchanged(since: checkpoint)
    }
}
