import SimCore
import SyncProtocol

/// The reference client sync engine (DESIGN.md §7): connection manager, request tracker, history cache with chunks
/// and a persistent task queue over SQLite. A sans-IO state machine; select a broken variant with
/// `ClientParameters.mutant`.
///
/// Policy for requests in flight at a disconnect: each fails at once with "disconnected" and its owner decides.
/// Sends and uploads go back to pending without counting an attempt and run again after the next LOGIN with the
/// same cid; history loads are forgotten and the open chat asks again after LOGIN; SESSION_INIT, LOGIN and PING are
/// not retried (the reconnect covers them).
public struct ReferenceClient: SyncClientEngine {
    /// The parameters the engine runs with.
    public private(set) var parameters: ClientParameters
    /// The metrics collected since this instance started.
    public internal(set) var metrics = ClientMetrics()

    var store: ClientStore
    var generator: SeededGenerator
    var state: State = .stopped
    var backoffAttempts = 0
    /// SESSION_INIT and LOGIN requests that timed out since the last LOGIN answer: each doubles the next handshake
    /// request's timeout (`handshakeTimeout`).
    var handshakeTimeouts = 0
    var hasConnectedBefore = false
    var nextConnectionNumber = 1
    var tracker: RequestTracker<RequestPurpose>
    /// The `seq-reuse-inflight` mutant's own seq counter, which never skips a seq in flight.
    var mutantNextSeq: Int
    var chatList: [Int64: ChatSummary] = [:]
    /// The user's contacts from LOGIN responses, by id.
    var contacts: [Int64: Contact] = [:] {
        didSet { viewCache = ViewCache(keeping: viewCache, contacts: false) }
    }
    var histories: [Int64: ChunkStore] = [:]
    var historyLoads: [Int64: HistoryLoad] = [:]
    /// History pages that failed (timed out or refused) since one was last answered: the open chat's next ask backs
    /// off by it (`retryDelay(afterConsecutiveFailures:)`).
    var consecutiveHistoryFailures = 0
    /// CHAT_MARKs that failed (refused or timed out) since one was last answered: the next retry backs off by it.
    var consecutiveReadMarkFailures = 0
    var tasks = TaskTable() {
        // A new box, not a cleared one: copies of the engine (the world's views) may share the old one.
        didSet { viewCache = ViewCache(keeping: viewCache, tasks: false) }
    }
    var runningTaskIds: Set<Int64> = [] {
        didSet { viewCache = ViewCache(keeping: viewCache, runningTaskIds: false) }
    }
    /// What the view derives from `tasks`, `runningTaskIds` and `contacts`, built by the first `view` after a change.
    var viewCache = ViewCache()
    var lastSync: Int64 = 0
    /// The catch-up past a full LOGIN page, while it lasts.
    var chatListCatchUp: ChatListCatchUp?
    /// The live timers, ascending by id: ids are handed out in increasing order, so a new timer goes last. An array
    /// searched by halving, not a table keyed by id: a client has a few live timers (the PING, a request's timeout,
    /// a reconnect), and each lookup of the table hashed its key, four times per PING answered.
    var timers: [(timer: ClientTimerID, purpose: TimerPurpose)] = []
    var nextTimerNumber: Int64 = 1
    var nextUploadNumber: Int64 = 1
    var uploads: [UploadID: Int64] = [:]
    var taskWakeup: (timer: ClientTimerID, at: SimInstant)?
    /// Wakes requests that wait for a seq when a seq held back for a lost connection's stale answer is free again.
    var seqWakeup: (timer: ClientTimerID, at: SimInstant)?
    var pingTimer: ClientTimerID?
    /// When the last packet came on the current connection (nil before the first): a request that times out with
    /// nothing received since it was sent makes the engine probe the connection with a PING (`probeSilentConnection`).
    var lastPacketReceivedAt: SimInstant?
    /// The `connectTimeout` timer of the attempt in `.connecting`.
    var connectTimer: ClientTimerID?
    /// False while the OS reports no usable network: no connection attempts until it is back.
    var isNetworkAvailable = true
    var screen: Screen?
    /// Read marks by chat id.
    var readMarks: [Int64: ReadMark] = [:]
    /// Chats with a push since the last LOGIN (for the `catch-up-from-live-push` mutant).
    var pushedChatsSinceLogin: Set<Int64> = []
    /// Chats a push named while the chat list lacked them, in the order first pushed: a chat that changed during a
    /// catch-up moved above the page that would have listed it (found by `syncsim explore --param
    /// loginChatsCount=1 --param historyPageSize=1`, seed 703138). A CHATS_LIST pass from the top lists them once the
    /// catch-up in flight, if any, is over (`listPushedChats`).
    var unlistedPushedChats: [Int64] = []
    /// Server time minus this engine's clock (milliseconds), at most: the last LOGIN answer's time minus the instant
    /// its request was sent (`loginSentAt`). The `marker` of a CHATS_LIST pass from the top is the server's time now
    /// by this estimate, plus a minute, and a catch-up is followed by such a pass once the estimate is past its first
    /// marker.
    var serverClockAheadMilliseconds: Int64 = 0
    /// When the LOGIN in flight was sent: its answer was made after that, however long the answer then took.
    var loginSentAt = SimInstant.start
    var dirtyChats: Set<Int64> = [] {
        didSet { hasDirtyChats = !dirtyChats.isEmpty }
    }
    /// Whether `dirtyChats` holds a chat: read after every event in place of the set, whose storage (kept between
    /// events) is an object of its own per client, a cache miss on every event at thousands of clients.
    private(set) var hasDirtyChats = false
    /// Chats with rows in the `pendingEdits` table (a chat without pending edits then costs no statement).
    var chatsWithStoredPendingEdits: Set<Int64> = []
    /// Chats whose newest page the engine must fetch to learn a message no push or response carried (a send
    /// answered "already exists"): asked again after a failure or a busy chat, and after LOGIN, until a page came.
    var chatsAwaitingNewestPage: Set<Int64> = []
    /// Sends answered "already exists" (`message.duplicate`): stored, but no answer carried the message, so it is
    /// not in the cache yet. Each stays on screen as a local echo until the message is cached (a page brought it)
    /// or its chat's newest page came (the message is older than that page: history holds it in its place). The
    /// echo used to go with the task at once, and the user's own message vanished from the open chat until a page
    /// came, or for good when newer messages pushed it out of the newest page (round 37's field sequences,
    /// `send-answer-lost-echo-stays`). Not stored: a restarted app shows what its cache holds.
    var echoesAwaitingPage: [ClientView.LocalEcho] = [] {
        didSet { viewCache = ViewCache(keeping: viewCache, tasks: false) }
    }
    /// A request found every seq in flight or held back; the next completed request wakes the queue, and a
    /// connection whose free seqs all wait for late answers is replaced (`handle`). Cleared when the connection goes.
    var isWaitingForSeq = false
    /// History loads that found no seq free (`isWaitingForSeq`), by chat: asked when a request completes and frees
    /// one, as the task queue and the chat-list catch-up are (`resumeRequestsWaitingForSeq`). Without it an open, a
    /// scroll or a newest page asked while every seq was in flight was never asked again on that connection (found by
    /// seq13's scenarios: an open with a seq space of 2 and two sends held left the chat unopened for good). Cleared
    /// when the connection goes (LOGIN resumes the screen).
    var historyLoadsWaitingForSeq: [Int64: HistoryLoad] = [:]
    /// New-message pushes that came before the first LOGIN answer ever (last-sync still "never"), applied once it
    /// comes and dropped with their connection: no last-sync covers them, and a "never synced" LOGIN brings no change
    /// of a message the client holds (explore seed 8117).
    var pushesBeforeFirstSync: [Packet] = []
    var actions: [ClientAction] = []
    /// The largest action list whose storage `handle` keeps for the next event.
    static let keptActionCapacity = 8
    var now = SimInstant.start

    /// The connection lifecycle.
    enum State: Hashable {
        case stopped
        case waitingToReconnect
        case connecting(ClientConnectionID)
        case initializing(ClientConnectionID)
        case loggingIn(ClientConnectionID)
        case online(ClientConnectionID)

        var connection: ClientConnectionID? {
            switch self {
            case .stopped, .waitingToReconnect: nil
            case .connecting(let c), .initializing(let c), .loggingIn(let c), .online(let c): c
            }
        }
    }

    /// What the view derives from the engine's tables (sorted tasks and their local echoes, running task ids,
    /// contacts), each kept until its table changes: the view is built after every event, and sorting every task
    /// the engine ever accepted twice per event was work that grew with the run. A class so that the read-only `view`
    /// can fill it; each change of one of the tables starts a new box (carrying the other two tables' values over),
    /// so a box only ever holds what its holders' tables give (copies of the engine that share it have equal
    /// tables). One box for the three rather than one each: the view reads it after every event, and each box was a
    /// cache miss of its own.
    final class ViewCache {
        // Filled by the read-only `view`, from one thread: no dynamic exclusivity checks (as in `SQLiteDatabase`).
        @exclusivity(unchecked) var tasks: (tasks: [TaskRecord], echoes: [ClientView.LocalEcho])?
        @exclusivity(unchecked) var runningTaskIds: [Int64]?
        @exclusivity(unchecked) var contacts: [Contact]?

        init() {}

        /// A box keeping `other`'s values but those of the tables passed as false (which changed).
        init(keeping other: ViewCache, tasks keepsTasks: Bool = true, runningTaskIds keepsRunning: Bool = true,
             contacts keepsContacts: Bool = true) {
            tasks = keepsTasks ? other.tasks : nil
            runningTaskIds = keepsRunning ? other.runningTaskIds : nil
            contacts = keepsContacts ? other.contacts : nil
        }
    }

    /// Why a request was sent, so its response reaches the right owner.
    enum RequestPurpose: Hashable, Sendable {
        case sessionInit
        case login
        case ping
        case history(chatId: Int64, load: HistoryLoad)
        case send(taskId: Int64)
        case photoToken(taskId: Int64)
        case chatMark(chatId: Int64, mark: Int64)
        /// A CHATS_LIST page of the catch-up after a full LOGIN page (`ChatListCatchUp`).
        case chatsList
    }

    /// The rest of a catch-up whose LOGIN answer listed as many chats as the client asked for (`loginChatsCount`):
    /// more chats may have changed since last-sync, so CHATS_LIST pages go on from the oldest listed one until a page
    /// reaches chats unchanged since last-sync or the server has no more. Also a pass from the top for chats a push
    /// named that the list lacks (`listPushedChats`).
    ///
    /// Last-sync moves to the LOGIN answer's time at once (the answer's `messages` carry the edits of every changed
    /// chat, listed or not); the part of the list still to read is kept in the store (`marker`, `since`), so a
    /// catch-up cut short by a disconnect or a restart goes on after the next LOGIN. Keeping last-sync back instead
    /// (session 10) lost edits when the first catch-up was cut short: a LOGIN from last-sync 0 carries no changes
    /// (`syncsim explore --param loginChatsCount=1 --param historyPageSize=1`, seeds 703182 and 703217).
    struct ChatListCatchUp: Hashable {
        /// The next page's `marker` (server milliseconds, inclusive): chats modified at or before it.
        var marker: Int64
        /// Chats modified at or before this were listed before: a page reaching them ends the catch-up.
        let since: Int64
        /// Whether a page is asked for and not answered yet.
        var isInFlight = false
        /// Pages that failed (timed out or refused) since the last one answered: the next retry backs off by it
        /// (`retryDelay(afterConsecutiveFailures:)`).
        var consecutiveFailures = 0
        /// The marker of the first page: chats modified after it (changed while the pages were read) are listed by
        /// a pass from the top once the catch-up ends, if the server's time has passed it.
        let firstMarker: Int64
    }

    /// A CHAT_HISTORY request's shape.
    enum HistoryLoad: Hashable, Sendable {
        /// The newest page (`from` = max, backward = page size).
        case newest
        /// Older messages at or below a chunk's lower bound (backward = page size + 1, the bound included).
        case older(from: Int64)
        /// Newer messages above a chunk's upper bound (forward = page size, backward 1 to include the bound).
        case newer(from: Int64)

        /// Whether this is a `.newer` load.
        var isNewer: Bool { if case .newer = self { true } else { false } }
    }

    enum TimerPurpose: Hashable {
        case reconnect
        /// The connection attempt has not connected within `connectTimeout`.
        case connectTimeout(ClientConnectionID)
        case ping
        case requestTimeout(seq: UInt16)
        case photoProcessing(taskId: Int64)
        case taskWakeup
        /// A seq held back for a lost connection's stale answer is free again (`seqWakeup`).
        case seqWakeup
        case historyRetry
        /// A CHATS_LIST page of the catch-up timed out: asked again.
        case catchUpRetry
        /// A CHAT_MARK failed (refused or timed out): the marks the server lacks go out again.
        case readMarkRetry
    }

    enum Failure: Hashable {
        case error(ErrorPayload)
        case timeout
        case disconnected

        var text: String {
            switch self {
            case .error(let payload): "\(payload.error): \(payload.message)"
            case .timeout: "timeout"
            case .disconnected: "disconnected"
            }
        }
    }

    /// The open chat on screen.
    struct Screen: Hashable {
        var chatId: Int64
        var openedAt: SimInstant
        var isOpenComplete = false
        /// The oldest visible message.
        var anchorId: Int64?
        /// Messages still to scroll up once older ones arrive.
        var pendingScrollUp = 0
        /// Messages still to scroll down once newer ones join the chunk on screen (a scroll down that met the top
        /// of a chunk below a gap; `scrollDown`).
        var pendingScrollDown = 0
        var waitingAtTopSince: SimInstant?
        /// A push opened a chunk above a gap while the chat was open: fetch the newest page to bridge it.
        var needsNewestPage = false
        /// A push or an acknowledgement opened a chunk above the chunk on screen: pages above the chunk on screen
        /// are fetched until it joins the top chunk, as the newest page alone does not when the gap is wider than a
        /// page (`bridgeToTop`).
        var bridgesToTop = false
        /// The chat was opened and its newest page has not arrived yet: if the open completed from an older cached
        /// chunk, the newest page moves the view to the newest messages (an open shows the newest messages).
        var awaitsNewestPage = true
        /// The view shows the newest messages of the top chunk and keeps doing so as messages join it (until the
        /// user scrolls up).
        var followsNewest = false
        /// Own messages acknowledged while the view followed the newest messages but not yet in the chunk on screen:
        /// shown below it, where their local echo was, until the newest page joins them to it.
        var ackedBelow: [Int64] = []
    }

    /// A chat's read mark: the newest message the user has seen, and what the server has acknowledged.
    struct ReadMark: Hashable {
        /// The newest message id seen on screen (persisted, so a mark made offline survives a restart).
        var seen: Int64 = 0
        /// The newest mark the server acknowledged (persisted).
        var acknowledged: Int64 = 0
        /// The mark of a CHAT_MARK in flight, if any.
        var inFlight: Int64?
    }

    /// A client over `database`, which keeps its contents across app restarts.
    /// - Parameters:
    ///   - parameters: tunables and the optional mutant.
    ///   - database: the client's SQLite database (create one per client; reuse it for the restarted app). Open a
    ///     file a user supplied with `ClientDatabase.open(path:)`, which throws on a file that is not a client
    ///     database; one that was not checked stops the program here if it is not.
    ///   - generator: the client's own random stream (backoff jitter, cids).
    public init(parameters: ClientParameters, database: SQLiteDatabase, generator: SeededGenerator) {
        self.parameters = parameters
        self.generator = generator
        self.store = ClientStore(database: database)
        self.tracker = RequestTracker(seqModulus: parameters.seqModulus, firstSeq: parameters.initialSeq)
        self.mutantNextSeq = ((parameters.initialSeq % parameters.seqModulus) + parameters.seqModulus)
            % parameters.seqModulus
    }

    /// Moves the device clock by `offset` against server time (negative: behind), as a user or the network time
    /// service would; only last-sync bugs that read the device clock notice.
    public mutating func skewDeviceClock(by offset: SimDuration) {
        parameters.deviceEpochMilliseconds += offset.nanoseconds / 1_000_000
    }

    func isMutant(_ mutant: Mutant) -> Bool { parameters.mutant == mutant }

    /// Whether the client is logged in on a connection.
    var isOnline: Bool {
        if case .online = state { return true }
        return false
    }

    /// Feeds one event at virtual time `now` and returns what the driver must do (connect, send, start timers, ...).
    /// - Parameters:
    ///   - event: what happened: start, a connection event, a packet, a timer, an upload, a user action, ...
    ///   - now: the driver's current virtual time; never earlier than the previous call's.
    /// - Returns: the actions, in the order the driver must carry them out.
    public mutating func handle(_ event: ClientEvent, now: SimInstant) -> [ClientAction] {
        self.now = now
        // The list's storage is reused from event to event: the driver has let go of the last event's list by now,
        // so it is emptied in place (a fresh list was one to three allocations per event: most events ask for a
        // timer or a send). A list grown large by a rare event (a LOGIN's sends) is not kept.
        if actions.capacity <= Self.keptActionCapacity {
            actions.removeAllKeepingCapacity()
        } else {
            actions = []
        }
        store.begin()
        switch event {
        case .start:
            start()
        case .connected(let connection):
            connected(connection)
        case .connectFailed(let connection), .disconnected(let connection):
            if state.connection == connection { connectionLost() }
        case .packetReceived(let packet, let connection):
            if state.connection == connection {
                lastPacketReceivedAt = now
                receive(packet)
            }
        case .timerFired(let timer):
            if let purpose = removeTimer(timer) { timerFired(timer, purpose) }
        case .uploadFinished(let upload, let succeeded):
            uploadFinished(upload, succeeded: succeeded)
        case .uploadInterrupted(let upload):
            uploadInterrupted(upload)
        case .bytesTransferred(let up, let down):
            metrics.bytesUp += up
            metrics.bytesDown += down
        case .user(let action):
            userAction(action)
        case .connectivityChanged(let isAvailable):
            connectivityChanged(isAvailable: isAvailable)
        }
        if isWaitingForSeq, tracker.hasHeldBackSeqs, state.connection != nil {
            // A request waits for a seq, and the seqs not in flight all wait for late answers that may never come
            // (lost, or held by the server): a new connection frees them. Reusing one let a late page of one chat
            // complete the next chat's CHAT_HISTORY (found by `syncsim explore`, seed 9452, 8-value seq space).
            drop()
        }
        if !echoesAwaitingPage.isEmpty { settleEchoesAwaitingPage() }
        settleScreen()
        if hasDirtyChats {
            // Most events change one chat (a push): no sorted array for it.
            if dirtyChats.count == 1, let chatId = dirtyChats.first {
                persistHistory(chatId: chatId)
            } else {
                for chatId in dirtyChats.sorted() { persistHistory(chatId: chatId) }
            }
            dirtyChats.removeAll(keepingCapacity: true)
        }
        store.commit()
        return actions
    }

    /// Writes a changed chat's chunks, tombstones and pending edits (the rows that changed).
    private mutating func persistHistory(chatId: Int64) {
        guard let history = histories[chatId] else {
            store.replaceChunks([], chatId: chatId)
            store.replaceTombstones([:], chatId: chatId)
            if chatsWithStoredPendingEdits.remove(chatId) != nil { store.replacePendingEdits([:], chatId: chatId) }
            return
        }
        store.replaceChunks(of: history, chatId: chatId)
        store.replaceTombstones(history.tombstones, chatId: chatId)
        let edits = history.pendingEdits
        if !edits.isEmpty || chatsWithStoredPendingEdits.contains(chatId) {
            store.replacePendingEdits(edits, chatId: chatId)
            if edits.isEmpty { chatsWithStoredPendingEdits.remove(chatId) } else {
                chatsWithStoredPendingEdits.insert(chatId)
            }
        }
    }

    // MARK: Lifecycle

    private mutating func start() {
        histories = store.loadHistories()
        chatsWithStoredPendingEdits = Set(histories.keys.filter { !(histories[$0]?.pendingEdits.isEmpty ?? true) })
        chatList = store.loadChats(histories: histories)
        contacts = Dictionary(uniqueKeysWithValues: store.loadContacts().map { ($0.id, $0) })
        tasks = TaskTable(store.loadTasks())
        lastSync = store.sync("chatsSync") ?? 0
        readMarks = loadReadMarks()
        connect()
        runTasks()
    }

    // MARK: Timers

    mutating func startTimer(_ purpose: TimerPurpose, at instant: SimInstant) -> ClientTimerID {
        let timer = ClientTimerID(rawValue: nextTimerNumber)
        nextTimerNumber += 1
        timers.append((timer, purpose))
        actions.append(.startTimer(timer, at: instant))
        return timer
    }

    mutating func cancelTimer(_ timer: ClientTimerID) {
        if removeTimer(timer) != nil { actions.append(.cancelTimer(timer)) }
    }

    /// Forgets the live timer `timer` and returns its purpose; nil when it is not live (fired, cancelled, or
    /// started by an earlier engine).
    private mutating func removeTimer(_ timer: ClientTimerID) -> TimerPurpose? {
        let low = timers.partitionPoint { $0.timer < timer }
        guard low < timers.count, timers[low].timer == timer else { return nil }
        return timers.remove(at: low).purpose
    }

    private mutating func timerFired(_ timer: ClientTimerID, _ purpose: TimerPurpose) {
        switch purpose {
        case .reconnect:
            if state == .waitingToReconnect { connect() }
        case .connectTimeout(let connection):
            connectTimer = nil
            // The SYN (or its answer) went into a dead path: give the attempt up and back off.
            if state == .connecting(connection) {
                metrics.connectTimeouts += 1
                drop()
            }
        case .ping:
            pingTimer = nil
            guard case .online = state else { return }
            _ = sendRequest(.ping, .ping(PingRequest(interactive: false)), purpose: .ping)
            pingTimer = startTimer(.ping, at: now + parameters.pingInterval)
        case .requestTimeout(let seq):
            guard let entry = tracker.expire(seq: seq, timer: timer) else { return }
            metrics.requestTimeouts += 1
            if entry.purpose == .sessionInit || entry.purpose == .login { handshakeTimeouts += 1 }
            requestFailed(entry.purpose, .timeout)
            if entry.purpose != .ping { probeSilentConnection(after: entry) }
        case .photoProcessing(let taskId):
            guard runningTaskIds.contains(taskId) else { return }
            finishTask(taskId, messageId: nil)
        case .seqWakeup:
            seqWakeup = nil
            if case .initializing = state, tracker.inFlight.isEmpty {
                sendSessionInit()
            } else if isWaitingForSeq {
                resumeRequestsWaitingForSeq()
            }
        case .taskWakeup:
            taskWakeup = nil
            runTasks()
        case .historyRetry:
            if case .online = state {
                resumeScreen()
                requestAwaitedNewestPages()
            }
        case .catchUpRetry:
            requestChatListPage()
        case .readMarkRetry:
            sendReadMarks()
        }
    }

    // MARK: Read-only view

    /// How many tasks are pending (neither done nor failed), as the view's task list gives, counted over the
    /// unfinished part of the task table (`TaskTable.firstPending`): the world tallies it after every event, and
    /// counting the view's whole list each time was a walk over every task the engine ever accepted.
    public var pendingTaskCount: Int { tasks.pendingCount }

    /// Whether the engine still has sync work of its own to finish beyond its task queue and requests in flight: a
    /// chat-list catch-up, a newest page it must fetch, an echo waiting for its page, an open chat not shown yet, the
    /// rest of a scroll down, a history page to ask again after a failure, a read mark the server does not have. A
    /// driver that stops a run once nothing is pending asks it: a run ended while such work waited on a retry timer
    /// (a refused page of the open chat), so what the retry did went unchecked (round 37's field sequences needed a
    /// late step to keep a run going; explore seed 38401914: the open chat's newest page, which was to join a pushed
    /// message to the chunk on screen, timed out and waited for its retry when the run stopped).
    public var hasPendingSyncWork: Bool {
        if chatListCatchUp != nil || !chatsAwaitingNewestPage.isEmpty || !echoesAwaitingPage.isEmpty { return true }
        if let screen, !screen.isOpenComplete || screen.pendingScrollDown > 0 { return true }
        if timers.contains(where: { if case .historyRetry = $0.purpose { true } else { false } }) { return true }
        return readMarks.values.contains { $0.seen > $0.acknowledged }
    }

    /// The view and `pendingTaskCount` in one read of the engine (a driver holding the engine in an optional reads it
    /// once instead of twice).
    public var viewAndPendingTaskCount: (view: ClientView, pendingTaskCount: Int) { (view, tasks.pendingCount) }

    /// A read-only snapshot of the engine's state for the invariant checkers: chats, chunks, tasks, in-flight
    /// requests and last-sync, each in ascending id order.
    public var view: ClientView {
        let cache = viewCache
        let ordered: [TaskRecord]
        let echoes: [ClientView.LocalEcho]
        if let kept = cache.tasks {
            (ordered, echoes) = kept
        } else {
            // The table's own array: the engine's next task change copies it, where every read sorted and copied.
            ordered = tasks.records
            echoes = echoesAwaitingPage + tasks.fromFirstPending.compactMap { task -> ClientView.LocalEcho? in
                guard task.kind.isSend, task.state == .pending else { return nil }
                return ClientView.LocalEcho(chatId: task.chatId, cid: task.cid, text: task.text)
            }
            cache.tasks = (ordered, echoes)
        }
        let running: [Int64]
        if let kept = cache.runningTaskIds {
            running = kept
        } else {
            running = runningTaskIds.sorted()
            cache.runningTaskIds = running
        }
        let contactList: [Contact]
        if let kept = cache.contacts {
            contactList = kept
        } else {
            contactList = contacts.keys.sorted().map { contacts[$0]! }
            cache.contacts = contactList
        }
        // The tracker keeps its requests ascending by seq: one array built in that order, no sort.
        var inFlight: [ClientView.InFlightRequest] = []
        if !tracker.inFlight.isEmpty {
            inFlight.reserveCapacity(tracker.inFlight.count)
            for request in tracker.inFlight {
                let entry = request.entry
                var taskId: Int64?
                switch entry.purpose {
                case .send(let id), .photoToken(let id): taskId = id
                default: taskId = nil
                }
                inFlight.append(ClientView.InFlightRequest(seq: request.seq, opcode: entry.opcode, sentAt: entry.sentAt,
                                                           taskId: taskId))
            }
        }
        var online = false
        if case .online = state { online = true }
        return ClientView(
            chunkStores: histories, chatList: chatList, localEchoes: echoes,
            tasks: ordered, lastSyncMilliseconds: lastSync,
            inFlightRequests: inFlight, isOnline: online, openChatId: screen?.chatId,
            visibleMessageIds: visibleMessageIds(),
            runningTaskIds: running,
            uploadingTaskIds: uploads.isEmpty ? [] : uploads.values.sorted(),
            contacts: contactList, followsNewest: screen?.followsNewest ?? false)
    }
}
