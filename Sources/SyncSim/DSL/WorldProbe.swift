/// A read-only view of a running world, what conditions (`Eventually`, `Always`, `Never`, `Check`) look at.
///
/// The world that executes scenarios implements it; the DSL only asks. Names are user names and chat names as
/// the scenario wrote them (a second device is its own client, `"alice:tablet"`). Every answer is a snapshot at `now`
/// in the value types below, never the world itself; an unknown name gets an empty answer. Reading never changes
/// the run (probes are not traced).
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
    /// The client names of the scenario (users, then their second devices), in topology order.
    var clientNames: [String] { get }

    /// What `client`'s screen shows: the open chat, the visible message ids and the local echoes.
    func screen(of client: String) -> ClientScreen
    /// The chunks (contiguous cached id ranges) of `client`'s cache for `chat`, ascending.
    func chunks(of client: String, in chat: String) -> [Chunk]
    /// Every task of `client`'s queue, ascending by id, whatever its state.
    func tasks(of client: String) -> [TaskSnapshot]
    /// The server's read mark of `client`'s user in `chat`: the newest message id it marked read, or nil.
    func readMark(of client: String, in chat: String) -> Int64?
    /// How many messages of `chat`'s server history `client`'s user sent (from any of its devices).
    func serverMessageCount(from client: String, in chat: String) -> Int
    /// The photo uploads the CDN stored, sorted by token.
    var cdnUploads: [CDNUpload] { get }
    /// How many open server connections are logged in as `client`'s user (its sessions, every device of the user).
    func serverSessionCount(of client: String) -> Int
    /// What `client` (every client summed when nil) did on the wire in [`from`, `until`).
    func windowMetrics(of client: String?, from: SimInstant, until: SimInstant) -> WindowMetrics
    /// When the step labelled `label` ran, or nil when it has not (yet).
    func instant(ofStep label: String) -> SimInstant?
}

extension WorldProbe {
    /// Nothing on screen (for probes that do not model screens).
    public func screen(of client: String) -> ClientScreen { ClientScreen() }
    /// No chunks.
    public func chunks(of client: String, in chat: String) -> [Chunk] { [] }
    /// No tasks.
    public func tasks(of client: String) -> [TaskSnapshot] { [] }
    /// No read mark.
    public func readMark(of client: String, in chat: String) -> Int64? { nil }
    /// Counts `serverMessages(in:)` whose sender is unknown: none.
    public func serverMessageCount(from client: String, in chat: String) -> Int { 0 }
    /// No uploads.
    public var cdnUploads: [CDNUpload] { [] }
    /// No sessions.
    public func serverSessionCount(of client: String) -> Int { 0 }
    /// Nothing observed.
    public func windowMetrics(of client: String?, from: SimInstant, until: SimInstant) -> WindowMetrics {
        WindowMetrics()
    }
    /// No step ran.
    public func instant(ofStep label: String) -> SimInstant? { nil }
    /// What `client` did over the whole run so far.
    public func windowMetrics(of client: String?) -> WindowMetrics {
        windowMetrics(of: client, from: .start, until: now + .nanoseconds(1))
    }
}

/// A client's screen as a probe sees it.
public struct ClientScreen: Hashable, Sendable {
    /// The chat open on screen, or nil.
    public var openChat: String?
    /// The ids of the server messages visible in the open chat, ascending.
    public var visibleMessageIds: [Int64]
    /// Sends shown before the server acknowledged them (in every chat), in enqueue order.
    public var localEchoes: [LocalEcho]

    /// A screen; empty by default.
    public init(openChat: String? = nil, visibleMessageIds: [Int64] = [], localEchoes: [LocalEcho] = []) {
        self.openChat = openChat
        self.visibleMessageIds = visibleMessageIds
        self.localEchoes = localEchoes
    }

    /// A send shown before its acknowledgement.
    public struct LocalEcho: Hashable, Sendable {
        /// The chat it goes to.
        public var chat: String
        /// Its idempotency key.
        public var cid: Int64
        /// The text or caption shown.
        public var text: String

        /// An echo of `text` in `chat` with idempotency key `cid`.
        public init(chat: String, cid: Int64, text: String) {
            self.chat = chat
            self.cid = cid
            self.text = text
        }
    }
}

/// One task of a client's queue as a probe sees it.
public struct TaskSnapshot: Hashable, Sendable {
    /// The task id, unique per client database.
    public var id: Int64
    /// What it does.
    public var kind: TaskRecord.Kind
    /// Pending, done or failed.
    public var state: TaskRecord.State
    /// The chat it belongs to.
    public var chat: String
    /// The text or caption.
    public var text: String
    /// Its idempotency key.
    public var cid: Int64
    /// Attempts made so far.
    public var attempts: Int
    /// The server message it produced, once done.
    public var messageId: Int64?

    /// A snapshot of a task.
    public init(
        id: Int64, kind: TaskRecord.Kind, state: TaskRecord.State, chat: String, text: String, cid: Int64,
        attempts: Int, messageId: Int64?
    ) {
        self.id = id
        self.kind = kind
        self.state = state
        self.chat = chat
        self.text = text
        self.cid = cid
        self.attempts = attempts
        self.messageId = messageId
    }
}

/// A photo upload the CDN stored.
public struct CDNUpload: Hashable, Sendable {
    /// The token the server handed out for it.
    public var token: String
    /// Its size, in bytes.
    public var sizeBytes: Int

    /// An upload of `sizeBytes` bytes under `token`.
    public init(token: String, sizeBytes: Int) {
        self.token = token
        self.sizeBytes = sizeBytes
    }
}

/// What a client did on the wire over a time window, as the world observed it (not the engine's own counters).
public struct WindowMetrics: Hashable, Sendable {
    /// Requests sent, by opcode.
    public var requestsByOpcode: [Opcode: Int] = [:]
    /// Connection attempts after the client's first.
    public var reconnects = 0
    /// Successful LOGIN responses received.
    public var logins = 0
    /// CDN uploads started.
    public var uploadsStarted = 0
    /// Pushes received, by opcode.
    public var pushesByOpcode: [Opcode: Int] = [:]

    /// Empty counts.
    public init() {}

    /// Requests of `opcode` (every opcode when nil).
    public func requests(_ opcode: Opcode? = nil) -> Int {
        opcode.map { requestsByOpcode[$0] ?? 0 } ?? requestsByOpcode.values.reduce(0, +)
    }

    /// Pushes of `opcode` (every opcode when nil).
    public func pushesReceived(_ opcode: Opcode? = nil) -> Int {
        opcode.map { pushesByOpcode[$0] ?? 0 } ?? pushesByOpcode.values.reduce(0, +)
    }

    /// The value of `metric`, restricted to `opcode` where it applies.
    public func value(of metric: WindowMetric, opcode: Opcode?) -> Int {
        switch metric {
        case .requests: requests(opcode)
        case .reconnects: reconnects
        case .logins: logins
        case .uploadsStarted: uploadsStarted
        case .pushesReceived: pushesReceived(opcode)
        }
    }
}
