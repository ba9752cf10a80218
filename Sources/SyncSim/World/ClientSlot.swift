/// One simulated phone inside a `World`: its host, database, current engine and the driver state around it.
struct ClientSlot {
    // The driver state every event of the client reads comes first, then the engine, then what restarts, steps and
    // reports read: at thousands of clients a slot is out of cache when its client's next event comes, and the
    // fields an event reads were spread over the slot's 1,500 bytes.
    /// Counts app launches; events and timers of an older generation are dropped.
    var generation = 0
    /// True once a backgrounded app is suspended: its events wait in `deferredEvents` until it comes back.
    var isSuspended = false
    /// True while the app is in the background.
    var isInBackground = false
    /// Deferred events still to reach the engine after a resume: until the last, P3's deadlines wait (the overdue
    /// timers that end the requests are among them).
    var deferredEventsLeft = 0
    /// The client as the world's checker knows it: its per-event calls find the client's ledger by position.
    let registered: InvariantChecker.RegisteredClient
    /// The engine's pending tasks (`World.pendingTaskCount`), counted from the view the checker read
    /// (`World.checkedView`) or from the cached view, until the engine's next event.
    var cachedPendingTasks: Int?
    /// Bytes carried but not yet reported to the engine with `.bytesTransferred`.
    var unreportedBytesUp = 0
    var unreportedBytesDown = 0
    /// The client-side sockets the world still tracks, oldest first.
    var sockets: [SocketID] = []
    /// Timers the current engine started and has not seen fire or cancelled.
    var timers = ClientTimerTable()
    let encoder: FrameEncoder
    let name: String
    let host: HostID
    /// The engine's view, cached until its next event.
    var cachedView: ClientView?
    /// The running engine when it is the reference engine (the default factory's), held as itself; replaced on
    /// every app restart. The world mutates the engine on every event, and through an existential box each
    /// mutation first checked the box unique (`__swift_mutable_project_boxed_opaque_existential_1`: a cache miss
    /// at thousands of clients) and went through the protocol's witness.
    private var referenceEngine: ReferenceClient?
    /// The running engine when a factory built another kind (exactly one of the two is set).
    private var otherEngine: (any SyncClientEngine)?
    let userId: Int64
    /// The parameters the next engine starts with (device clock skew included).
    var parameters: ClientParameters
    let database: SQLiteDatabase
    let factory: SyncClientEngineFactory
    let streams: RandomStreams
    var deferredEvents: [ClientEvent] = []
    var suspendTimer: TimerHandle?
    /// The chat the user has open as the world last told the engine (open, or a scroll that opened it), nil after a
    /// close or a relaunch. The steps decide with it, not with the engine's view, which lags while the app is
    /// suspended and its user actions wait (found by `syncsim explore`, seeds 6024 and 7034).
    var shownChatId: Int64?
    /// Metrics of the engines that ran before the current one (restarts).
    var previousMetrics: [ClientMetrics] = []
    var uploadsInFlight = 0

    init(
        name: String, userId: Int64, host: HostID, parameters: ClientParameters, encoder: FrameEncoder,
        database: SQLiteDatabase, factory: @escaping SyncClientEngineFactory, streams: RandomStreams,
        registered: InvariantChecker.RegisteredClient
    ) {
        self.name = name
        self.userId = userId
        self.host = host
        self.parameters = parameters
        self.encoder = encoder
        self.database = database
        self.factory = factory
        self.streams = streams
        self.registered = registered
        install(factory(parameters, database, streams.stream("client.\(name).launch0")))
    }

    /// Feeds one event to the running engine, in place in the world's array.
    /// - Returns: the engine's actions, in order.
    mutating func handle(_ event: ClientEvent, now: SimInstant) -> [ClientAction] {
        if referenceEngine != nil { return referenceEngine!.handle(event, now: now) }
        return otherEngine!.handle(event, now: now)
    }

    /// The engine's view. `mutating` only so that `clients[index].engineView()` reaches the engine in place in the
    /// world's array (a read copied the slot or the engine first); nothing changes.
    mutating func engineView() -> ClientView {
        if let view = readReferenceEngine({ $0.view }) { return view }
        return otherEngine!.view
    }

    /// Runs `body` on the reference engine where it lies; nil when another engine runs. A getter called through
    /// `referenceEngine!` copied the whole engine (about a kilobyte) before it ran: twice per checked event.
    private mutating func readReferenceEngine<Value>(_ body: (inout ReferenceClient) -> Value) -> Value? {
        guard referenceEngine != nil else { return nil }
        return body(&referenceEngine!)
    }

    /// How many of the running engine's tasks are pending, when it is the reference engine (which counts only the
    /// unfinished part of its task table); nil for another engine, whose view's tasks are counted.
    mutating func referencePendingTaskCount() -> Int? {
        readReferenceEngine { $0.pendingTaskCount }
    }

    /// Whether the running engine, when it is the reference engine, has sync work of its own pending
    /// (`ReferenceClient.hasPendingSyncWork`); false for another engine.
    mutating func referenceHasPendingSyncWork() -> Bool {
        readReferenceEngine { $0.hasPendingSyncWork } ?? false
    }

    /// `engineView()` and, for the reference engine, `referencePendingTaskCount()`, the engine read once (reading it
    /// twice copied it whole for the second read).
    mutating func engineViewAndPendingTaskCount() -> (view: ClientView, pendingTaskCount: Int?) {
        if let (view, count) = readReferenceEngine({ $0.viewAndPendingTaskCount }) { return (view, count) }
        return (otherEngine!.view, nil)
    }

    /// The metrics of the running engine since it started.
    var engineMetrics: ClientMetrics {
        if let metrics = referenceEngine?.metrics { return metrics }
        return otherEngine!.metrics
    }

    /// Moves the running engine's device clock by `offset` when it is the reference engine (another engine has no
    /// such knob).
    /// - Returns: whether it moved.
    mutating func skewDeviceClock(by offset: SimDuration) -> Bool {
        guard referenceEngine != nil else { return false }
        referenceEngine!.skewDeviceClock(by: offset)
        return true
    }

    /// A fresh engine over the same database, for launch number `generation`.
    mutating func rebuildEngine() {
        install(factory(parameters, database, streams.stream("client.\(name).launch\(generation)")))
        timers = ClientTimerTable()
        cachedView = nil
        cachedPendingTasks = nil
    }

    /// Makes `engine` the running engine, unboxed when it is the reference engine.
    private mutating func install(_ engine: any SyncClientEngine) {
        // The old engine goes first, so that a reference engine is not held twice while the new one is stored.
        referenceEngine = nil
        otherEngine = nil
        if let reference = engine as? ReferenceClient {
            referenceEngine = reference
        } else {
            otherEngine = engine
        }
    }
}

/// The timers a client engine has running, by id, oldest first. An engine runs a handful at a time (the ping, a
/// request's timeout, a retry), so a linear search costs less than hashing the id into a dictionary on every start,
/// cancel and expiry.
struct ClientTimerTable {
    private(set) var entries: [(timer: ClientTimerID, handle: TimerHandle)] = []

    /// Records `timer`'s handle, replacing the one it had (as a dictionary's assignment would).
    mutating func set(_ timer: ClientTimerID, _ handle: TimerHandle) {
        for position in entries.indices where entries[position].timer == timer {
            entries[position].handle = handle
            return
        }
        entries.append((timer, handle))
    }

    /// Forgets `timer` and returns its handle, or nil when it is not running.
    @discardableResult
    mutating func remove(_ timer: ClientTimerID) -> TimerHandle? {
        for position in entries.indices where entries[position].timer == timer {
            return entries.remove(at: position).handle
        }
        return nil
    }
}
