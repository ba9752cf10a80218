import Foundation
/// One run of a scenario: the sans-IO server and client cores wired onto a SimNet network, in virtual time.
///
/// A world is built per (scenario, seed): a `Network` seeded from the run seed, a server host on a datacenter link
/// running `SyncServer`, a CDN host on another datacenter link, and one host per client on its profile's access
/// link, each with a client engine over its own in-memory SQLite database. Packets cross the wire as bytes through
/// the real codec (`Frame(packet:)`, `FrameEncoder`, `FrameDecoder`, `Packet(frame:)`). Timeline steps run at
/// their scheduled instants; after every kernel step the world feeds its checkers and the `ExpectationMonitor`.
///
/// ```swift
/// let world = try World(scenario: Catalog.reconnectDuringSend, seed: 1)
/// let result = world.run()          // RunResult: verdict, digest, violations, metrics
/// ```
///
/// Single-threaded and deterministic: no wall clock, every random draw from a stream derived from (seed, name).
public final class World {
    /// The scenario being run (with any `--mutant` already applied to its clients).
    public let scenario: Scenario
    /// The run seed.
    public let seed: UInt64
    /// How the run was asked for.
    public let options: RunOptions
    /// The network every host lives on; its trace log holds the run's digest.
    public let network: Network
    /// Whether `run()` may end before `runLength` once the run is quiescent (see `isQuiescent`).
    public var stopsWhenQuiescent: Bool
    /// The run length: `scenario.runLength` unless overridden before `run()`.
    public var runLength: SimDuration

    // The world's storage skips the dynamic exclusivity checks (`swift_beginAccess` was 4% of a 300-client run's
    // instructions, mostly here and in `InvariantChecker`): the world is single-threaded, and the accesses that
    // outlive a statement were read one by one: `withServer`'s bodies (the checker, reading `clients` through
    // `checkedView`), an engine handling an event in `clients[index]` (a pure function of the event), a socket's
    // stream decoding into `repeatedFrames`. `monitor` keeps its checks: `observe` is handed the world itself.
    /// The virtual server core.
    @exclusivity(unchecked) public internal(set) var server: SyncServer
    let serverHost: HostID
    let cdnHost: HostID
    let serverEncoder = FrameEncoder()
    /// The last push the server sent, encoded (`sendPacket(_:on:encoder:from:countsBytes:reusesLastEncoding:)`).
    @exclusivity(unchecked) var lastServerPush: EncodedPacket?
    /// The last `rx` trace detail a client recorded and the header fields it was made from (`receivedSummary(_:)`).
    @exclusivity(unchecked) var lastReceivedSummary: (opcode: Opcode, cmd: Command, seq: UInt16, text: String)?
    /// `NOTIF_MESSAGE request seq=` and the like, by `opcode << 2 | cmd` for opcodes below 256, built on first use
    /// (`summaryPrefix(_:)`): every frame's trace detail starts with one.
    @exclusivity(unchecked) var summaryPrefixes = [String?](repeating: nil, count: 1024)

    @exclusivity(unchecked) var clients: [ClientSlot] = []
    let clientIndexByName: [String: Int]
    /// Chat ids by chat name, and names by id (ids 1... in `scenario.chatNames` order).
    let chatIdByName: [String: Int64]
    let chatNameById: [Int64: String]
    /// Chats each client is a member of, ascending by id.
    @exclusivity(unchecked) var chatIdsOfClient: [[Int64]] = []

    @exclusivity(unchecked) var sockets = SocketTable<SocketRole>()
    @exclusivity(unchecked) var decoders = SocketTable<StreamDecoder>()
    /// Hands every socket's decoder one shared map-key cache (`FrameDecoder.decoderSharingKeyCache()`): one per
    /// world instead of about 2.5 KB per socket.
    @exclusivity(unchecked) var keyCacheDecoder = FrameDecoder()
    /// Pushes decoded once for every member they reach: a chat's push is the same bytes on each member's
    /// connection, so each frame after the first is answered from here (`FrameDecoder.decodePacket(_:cache:)`).
    @exclusivity(unchecked) var repeatedFrames = RepeatedFrameCache(
        matching: FrameDecoder(), opcodes: [.notifMessage, .notifMark, .notifMsgDelete])
    /// A spare buffer for the packets `decode` returns, handed back by its callers (`recycle(_:)`): one array
    /// allocation fewer per segment received.
    @exclusivity(unchecked) var decodedPackets: [Packet] = []
    @exclusivity(unchecked) var serverSockets = ServerSocketTable()
    @exclusivity(unchecked) var nextServerConnection = 1
    @exclusivity(unchecked) var serverTimers: [ServerTimerID: TimerHandle] = [:]
    @exclusivity(unchecked) var faults = FaultState()
    @exclusivity(unchecked) var faultGenerator: SeededGenerator

    let steps: [ScheduledStep]
    @exclusivity(unchecked) var stepsRun = 0
    /// The `When` steps, in the order written, and which of them fired.
    let triggers: [(index: Int, step: Step, event: ProtocolEvent)]
    @exclusivity(unchecked) var firedTriggers: Set<Int> = []
    /// How often each protocol event pattern occurred (only kept when the scenario has `When` steps).
    @exclusivity(unchecked) var triggerCounts: [ProtocolEvent.Kind: Int] = [:]
    /// Per client: what it did on the wire, for windowed metrics.
    @exclusivity(unchecked) var observations: [[ClientObservation]] = []
    var monitor: ExpectationMonitor
    /// `monitor.observesNothing`, read once: then `afterStep` skips the monitor (its call built a closure per step).
    let monitorObservesNothing: Bool
    /// The invariant checker (SyncChecks), fed after every client and server event.
    public let checker: InvariantChecker
    /// Scroll-ups of the timeline as (client index, chat id, messages, server messages in the chat then), for C6 at
    /// the end of the run.
    @exclusivity(unchecked) var scrollUps: [(client: Int, chatId: Int64, messages: Int, serverCount: Int)] = []
    /// Scroll-downs of the timeline by at least as many messages as the chat held (and at least one), as (client
    /// index, chat id, server messages in the chat then), for V2 at the end of the run; a later scroll up, an open of
    /// a chat, a close or an app restart of that client ends them.
    @exclusivity(unchecked) var scrollDowns: [(client: Int, chatId: Int64, serverCount: Int)] = []
    @exclusivity(unchecked) var violations: [Violation] = []
    /// The world's last trace records (frames, steps, connections, faults), for violation reports: the trace window
    /// and room for the records of one step past a deadline.
    @exclusivity(unchecked) var traceTail: TraceRing

    @exclusivity(unchecked) private var isBusy = false
    @exclusivity(unchecked) private var queuedSocketEvents: [SocketEvent] = []
    /// Bytes LZ4 saved on frames clients sent (up) and the server sent (down).
    @exclusivity(unchecked) var compressionSavedUp = 0
    @exclusivity(unchecked) var compressionSavedDown = 0
    /// Pending tasks over all clients, kept incrementally (see `noteQueueDrain`).
    @exclusivity(unchecked) var pendingTasks = PendingTaskTally(clientCount: 0)
    @exclusivity(unchecked) var queueDrainStart: SimInstant?
    @exclusivity(unchecked) var queueDrainEnd: SimInstant?
    @exclusivity(unchecked) var hasRun = false
    /// The packet capture of the clients' access links, once `startCapture()` was called.
    @exclusivity(unchecked) public internal(set) var capture: LinkCapture?

    /// Builds the world for one run; nothing happens until `run()`.
    /// - Parameters:
    ///   - scenario: a validated scenario (`Scenario.problems()` empty).
    ///   - seed: the run seed; every random stream derives from it.
    ///   - options: the runner's options (`mutant` forces a mutant on every client; `recordsTrace` keeps the trace).
    ///   - engineFactory: builds each client's engine; nil for the reference engine.
    ///   - checkSampling: run the per-event invariant checks on every Nth client event only (1: every event).
    /// - Throws: `WorldError` for a parameter, profile or mutant name the world does not know, or a timeline that
    ///   does not resolve.
    public init(
        scenario: Scenario,
        seed: UInt64,
        options: RunOptions = RunOptions(),
        engineFactory: SyncClientEngineFactory? = nil,
        checkSampling: Int = 1
    ) throws {
        var scenario = scenario
        if let mutant = options.mutant { scenario = scenario.withMutant(mutant) }
        self.scenario = scenario
        self.seed = seed
        self.options = options
        self.stopsWhenQuiescent = true
        self.runLength = scenario.runLength
        traceTail = TraceRing(capacity: max(options.traceWindow, 1) + 256)
        triggers = scenario.triggeredSteps
        do {
            steps = try scenario.schedule()
        } catch {
            throw WorldError.unresolvableTimeline("\(error)")
        }
        let streams = RandomStreams(runSeed: seed)
        faultGenerator = streams.stream("world.faults")
        // Records are kept only for `--trace`; the digest covers every record either way.
        network = Network(seed: seed, trace: TraceLog(keepsRecords: options.recordsTrace))
        let serverSetup = try ServerSetup(scenario.server)
        server = SyncServer(
            knobs: serverSetup.knobs, generator: streams.stream("server"),
            epochMilliseconds: 1_700_000_000_000 + scenario.server.clockOffset.nanoseconds / 1_000_000)
        serverHost = network.addHost(named: "server", link: .datacenter)
        cdnHost = network.addHost(named: "cdn", link: .datacenter)
        var indexByName: [String: Int] = [:]
        for (index, spec) in scenario.clients.enumerated() { indexByName[spec.name] = index }
        clientIndexByName = indexByName
        // Chat names and members are resolved once: the world is built in time linear in the scenario's size.
        let directory = scenario.chatDirectory()
        var idByName: [String: Int64] = [:]
        var nameById: [Int64: String] = [:]
        for (index, name) in directory.names.enumerated() {
            idByName[name] = Int64(index + 1)
            nameById[Int64(index + 1)] = name
        }
        chatIdByName = idByName
        chatNameById = nameById
        monitor = ExpectationMonitor(scenario.expectations)
        monitorObservesNothing = monitor.observesNothing
        checker = InvariantChecker(options: CheckOptions(
            enabled: Set(scenario.checkedInvariants), sampling: checkSampling))

        for (index, spec) in scenario.clients.enumerated() {
            // A second device logs in as its user (declared earlier or later in the topology).
            let userId = Int64((indexByName[spec.userName] ?? index) + 1)
            let token = "token-\(spec.userName)"
            if spec.user == nil { server.addUser(id: userId, name: spec.name, token: token) }
            let setup = try ClientSetup(spec, token: token)
            guard let profile = scenario.linkProfile(named: spec.profile.rawValue) else {
                throw WorldError.unknownProfile(spec.profile.rawValue, client: spec.name)
            }
            let host = network.addHost(named: spec.name, link: profile)
            let database: SQLiteDatabase
            do {
                if let directory = options.storeDirectory {
                    database = try Self.openStoreFile(
                        directory: directory, scenario: scenario.name, seed: seed, client: spec.name)
                } else {
                    database = try SQLiteDatabase()
                }
            } catch {
                throw WorldError.database("\(error)", client: spec.name)
            }
            let factory = engineFactory ?? { ReferenceClient(parameters: $0, database: $1, generator: $2) }
            let registered = checker.register(client: spec.name, userId: userId, parameters: setup.parameters)
            clients.append(ClientSlot(
                name: spec.name, userId: userId, host: host, parameters: setup.parameters,
                encoder: FrameEncoder(compressionThresholdBytes: setup.compressionThresholdBytes),
                database: database, factory: factory, streams: streams, registered: registered))
        }
        // A client (a user's phone or one of its second devices) belongs to the chats its user is a member of.
        var clientsByUserName: [String: [Int]] = [:]
        for (index, spec) in scenario.clients.enumerated() {
            clientsByUserName[spec.userName, default: []].append(index)
        }
        var chatIdsOfClient = [[Int64]](repeating: [], count: clients.count)
        for name in directory.names {
            let chatId = idByName[name]!
            let memberNames = directory.members(of: name)
            let members = memberNames.compactMap { indexByName[$0] }.filter { scenario.clients[$0].user == nil }
            server.addChat(id: chatId, members: members.map { Int64($0 + 1) }, now: .start)
            // Chats come in id order, so each client's list stays ascending; a member named twice counts once.
            for memberName in memberNames {
                for index in clientsByUserName[memberName] ?? [] where chatIdsOfClient[index].last != chatId {
                    chatIdsOfClient[index].append(chatId)
                }
            }
        }
        self.chatIdsOfClient = chatIdsOfClient
        pendingTasks = PendingTaskTally(clientCount: clients.count)
        for seedHistory in scenario.server.history {
            guard let chatId = idByName[seedHistory.chat] else { continue }
            let members = server.members(ofChat: chatId)
            guard !members.isEmpty else { continue }
            let texts = (0..<seedHistory.messages).map { "\(seedHistory.chat) history \($0 + 1)" }
            for (offset, text) in texts.enumerated() {
                server.seedHistory(chatId: chatId, sender: members[offset % members.count], texts: [text], now: .start)
            }
        }
        observations = Array(repeating: [], count: clients.count)
        network.eventHandler = { [unowned self] event in receiveSocketEvent(event) }
    }

    /// The current virtual time.
    public var now: SimInstant { network.now }

    /// Bytes the clients' databases hold on SQLite's heap now, summed (`SQLiteDatabase.memoryUsedBytes`: page
    /// caches, schemas, prepared statements). For memory reports (`syncsim-bench scale`).
    public var clientDatabaseBytes: Int { clients.reduce(0) { $0 + $1.database.memoryUsedBytes } }

    /// Runs the scenario to its end and returns the result (call once).
    ///
    /// The run lasts `runLength` of virtual time, or ends at the first whole second at which the run is quiescent
    /// (`stopsWhenQuiescent`, see `isQuiescent`).
    public func run() -> RunResult { run(progress: nil) }

    /// `run()`, calling `progress` with the virtual time after each simulated second, for a driver's progress report
    /// (`syncsim-bench scale`). `progress` only observes: it must not change the world.
    public func run(progress: ((SimInstant) -> Void)?) -> RunResult {
        precondition(!hasRun, "a World runs once")
        hasRun = true
        record("world", "start", "scenario=\(scenario.name) seed=\(seed) clients=\(clients.count)")
        for step in steps {
            network.schedule(at: step.time) { [unowned self] in enter { perform(step) } }
        }
        for index in clients.indices {
            network.schedule(at: .start) { [unowned self] in enter { launch(index) } }
        }
        let end = SimInstant.start + runLength
        let slice = SimDuration.seconds(Int64(1))
        while now < end {
            network.run(until: min(end, now + slice))
            progress?(now)
            if stopsWhenQuiescent, isQuiescent { break }
        }
        return finish()
    }

    /// Whether nothing more will happen that a check cares about: every step ran, every eventually-condition held,
    /// every windowed metric bound's window has closed,
    /// every client is online and awake with an empty queue, nothing in flight and no sync work of its own pending
    /// (`ReferenceClient.hasPendingSyncWork`), the server processes nothing,
    /// every scroll to the top that C6 judges has ended in one chunk, and every client has converged with the server.
    public var isQuiescent: Bool {
        guard stepsRun == steps.count, monitor.isComplete, monitor.metricWindowsClosed(at: now),
              server.requestsInProcessing == 0 else { return false }
        for index in clients.indices {
            let client = clients[index]
            guard !client.isSuspended, client.uploadsInFlight == 0 else { return false }
            let view = self.view(index)
            guard view.isOnline, view.inFlightRequests.isEmpty, pendingTaskCount(index) == 0 else { return false }
            // Nor has work waiting on a retry timer (a refused page of the open chat, a catch-up page, a read mark).
            guard !clients[index].referenceHasPendingSyncWork() else { return false }
        }
        // A scroll to the top that C6 will judge may still wait for a retry timer (found by `syncsim explore`).
        for scroll in scrollUps {
            let count = server.messages(inChat: scroll.chatId).count
            guard count > 0, scroll.messages >= count, scroll.serverCount == count else { continue }
            let chunks = view(scroll.client).chunkStores[scroll.chatId]?.chunks ?? []
            guard chunks.count == 1, chunks[0].isStartOfHistory else { return false }
        }
        // Pushes may still be on their way to slow links: quiescent means converged too.
        return hasConverged
    }

    // MARK: - Entering the world

    /// Runs `body` as one world step: socket events it causes are handled after it, in order, then the checks.
    func enter(_ body: () -> Void) {
        if isBusy {
            body()
            return
        }
        isBusy = true
        body()
        while !queuedSocketEvents.isEmpty {
            let event = queuedSocketEvents.removeFirst()
            handleSocketEvent(event)
        }
        isBusy = false
        afterStep()
    }

    private func receiveSocketEvent(_ event: SocketEvent) {
        if isBusy {
            queuedSocketEvents.append(event)
            return
        }
        // Outside a step the queue is empty: the event is the step's body, handled at once (queuing it first only
        // copied it in and out of the queue).
        enter { handleSocketEvent(event) }
    }

    /// After every world step: the eventually-conditions, then queue-drain bookkeeping. (The invariant checker
    /// runs after each core event, see `deliver` and `serverHandle`.)
    func afterStep() {
        if !monitorObservesNothing {
            let broken = monitor.observe(self) { [unowned self] in tail(upTo: $0) }
            for violation in broken { report(violation) }
        }
        noteQueueDrain()
    }

    /// Reports the checker's findings as violations.
    func report(_ findings: [Finding]) {
        for finding in findings { report(Violation(finding, chatName: { [chatNameById] in chatNameById[$0] })) }
    }

    /// Adds a violation found during the run, naming the last step and the trace tail.
    func report(_ violation: Violation) {
        var violation = violation
        if violation.lastStep == nil { violation.lastStep = steps.lastStep(atOrBefore: violation.time) }
        if violation.traceTail.isEmpty { violation.traceTail = tail(upTo: now) }
        record("world", "violation", violation.description)
        violations.append(violation)
    }

    // MARK: - Trace

    /// Appends a record to the run's trace (the network's log, so the digest covers it) and to the tail ring.
    func record(_ component: String, _ kind: String, _ detail: @autoclosure () -> String = "") {
        let record = TraceRecord(time: now, component: component, kind: kind, detail: detail())
        network.trace.append(record)
        traceTail.append(record)
    }

    /// Appends a frame's record whose detail is `first + separator + second + number` and, when `last` is given,
    /// `label + last` (numbers as `String(_:)` spells them; `World.detail` builds the same text), written piece by
    /// piece into the digest and the tail ring: the same bytes as `record(component, kind, detail)`, without
    /// building the detail's string (an allocation and a UTF-8 validation per frame).
    func recordFrame(_ component: String, _ kind: String, _ first: String, _ separator: StaticString,
                     _ second: String, _ number: Int, _ label: StaticString, _ last: Int?) {
        let time = now
        network.trace.record(at: time, kind: kind, component: { $0.write(component) }, detail: { text in
            text.write(first)
            text.write(literal: separator)
            text.write(second)
            text.write(number)
            if let last {
                text.write(literal: label)
                text.write(last)
            }
        })
        traceTail.append(time: time, component: component, kind: kind) { bytes in
            bytes.write(first)
            bytes.write(literal: separator)
            bytes.write(second)
            bytes.write(decimal: number)
            if let last {
                bytes.write(literal: label)
                bytes.write(decimal: last)
            }
        }
    }

    // MARK: - Lookup

    func clientIndex(_ name: String) -> Int? { clientIndexByName[name] }

    func chatId(_ name: String) -> Int64? { chatIdByName[name] }

    /// Where `--store-dir` keeps one client's database: `DIR/SCENARIO-seedSEED-CLIENT.sqlite`.
    public static func storeFilePath(directory: String, scenario: String, seed: UInt64, client: String) -> String {
        directory + "/" + "\(scenario)-seed\(seed)-\(client).sqlite"
    }

    /// Opens a fresh database file for one client of one run. A file left by an earlier run is replaced, but only
    /// after `ClientDatabase.open` has recognised it as a SyncSim client database, so a foreign file is never
    /// deleted.
    /// - Throws: `ClientDatabaseError` for a foreign or unreadable file; a file system error when it cannot be
    ///   removed.
    private static func openStoreFile(
        directory: String, scenario: String, seed: UInt64, client: String
    ) throws -> SQLiteDatabase {
        let path = storeFilePath(directory: directory, scenario: scenario, seed: seed, client: client)
        if FileManager.default.fileExists(atPath: path) {
            _ = try ClientDatabase.open(path: path)
            try FileManager.default.removeItem(atPath: path)
        }
        return try ClientDatabase.open(path: path)
    }
}

/// The world's running count of pending tasks: per client the count last added in, and the clients whose engine
/// changed since (every client at first).
struct PendingTaskTally {
    var total = 0
    var counted: [Int]
    var needsRecount: [Bool]
    var clientsToRecount: [Int]

    init(clientCount: Int) {
        counted = Array(repeating: 0, count: clientCount)
        needsRecount = Array(repeating: true, count: clientCount)
        clientsToRecount = Array(0..<clientCount)
    }
}
