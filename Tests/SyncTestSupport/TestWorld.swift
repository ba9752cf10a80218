import SimCore
import SyncClient
import SyncProtocol
import SyncServer

/// A tiny in-test driver shared by the engine and checker tests: one server core and client cores joined by a fixed
/// one-way delay, run from a sorted event list (time, insertion number). Not SimNet: no bandwidth, no loss, only
/// reachability per client.
///
/// An `observer` sees every event (`TestWorldObserver`): by default a `ChunkStoreTrap`; checker tests plug in an
/// `InvariantChecker` (`TestWorld(observer: checker)`).
public final class TestWorld {
    /// One client: its engine over its database, and whether the network reaches it.
    public struct ClientSlot {
        public var engine: ReferenceClient
        public let database: SQLiteDatabase
        public var parameters: ClientParameters
        public let userId: Int64
        /// Bumped by each app restart; events of an older generation are dropped.
        public var generation = 0
        public var isReachable = true
        /// True while the client's connection attempts go into a dead path: the SYN vanishes, nothing answers.
        public var dropsConnectAttempts = false
    }

    private enum Event {
        case server(ServerEvent)
        case client(String, generation: Int, ClientEvent)
        case clientTimer(String, generation: Int, ClientTimerID)
        case upload(String, generation: Int, UploadID, token: String, sizeBytes: Int)
    }

    private struct Link {
        var client: String
        var generation: Int
        var clientConnection: ClientConnectionID
        var serverConnection: ServerConnectionID
        var isAlive = true
        /// Half-open: both ends think the connection is up, but nothing gets through.
        var isSilent = false
    }

    public let oneWayDelay: SimDuration
    public private(set) var now = SimInstant.start
    public var server: SyncServer
    public private(set) var clients: [String: ClientSlot] = [:]
    /// Sees every event; nil for none.
    public let observer: (any TestWorldObserver)?
    /// Every `.connect` a client asked for, as (client, instant).
    public private(set) var connectAttempts: [(String, SimInstant)] = []
    /// Every request a client sent, in order.
    public private(set) var sentRequests: [(String, Packet)] = []
    /// How many of the next uploads that reach the CDN it refuses whatever their token, as it refuses a token it
    /// never issued or one issued for a photo of another size.
    public var cdnRefusesNextUploads = 0
    /// Every upload the CDN refused because of `cdnRefusesNextUploads`, as (token, size in bytes).
    public private(set) var refusedUploads: [(token: String, sizeBytes: Int)] = []
    private var events: [(at: SimInstant, order: Int, event: Event)] = []
    private var order = 0
    private var links: [Link] = []
    private var cancelledTimers: Set<TimerKey> = []

    private struct TimerKey: Hashable {
        var client: String
        var generation: Int
        var timer: ClientTimerID
    }
    private var nextServerConnection = 1
    private var serverTimerOwners: Set<ServerTimerID> = []

    /// A world with a server and no clients yet.
    /// - Parameters:
    ///   - oneWayDelay: every hop's delay, both ways.
    ///   - knobs: the server's knobs.
    ///   - seed: the server's random stream.
    ///   - observer: what sees every event (default: a `ChunkStoreTrap`).
    public init(
        oneWayDelay: SimDuration = .milliseconds(50), knobs: ServerKnobs = ServerKnobs(), seed: UInt64 = 1,
        observer: (any TestWorldObserver)? = ChunkStoreTrap()
    ) {
        self.oneWayDelay = oneWayDelay
        self.observer = observer
        let streams = RandomStreams(runSeed: seed)
        server = SyncServer(knobs: knobs, generator: streams.stream("server"))
    }

    /// Adds a user and its client; the app starts at once.
    public func addClient(_ name: String, userId: Int64, parameters: ((inout ClientParameters) -> Void)? = nil) {
        server.addUser(id: userId, name: name, token: "token-\(name)")
        var p = ClientParameters(token: "token-\(name)", deviceId: name)
        parameters?(&p)
        let database = try! SQLiteDatabase()
        let engine = ReferenceClient(parameters: p, database: database,
                                     generator: RandomStreams(runSeed: 7).stream("client.\(name)"))
        clients[name] = ClientSlot(engine: engine, database: database, parameters: p, userId: userId)
        observer?.clientAdded(name, userId: userId, parameters: p)
    }

    /// Starts a client's app (its `.start` event, now).
    public func start(_ name: String) {
        schedule(.client(name, generation: clients[name]!.generation, .start), at: now)
    }

    public func view(_ name: String) -> ClientView { clients[name]!.engine.view }
    public func metrics(_ name: String) -> ClientMetrics { clients[name]!.engine.metrics }

    /// A user action, now; the world runs the same instant's events.
    public func user(_ name: String, _ action: UserAction) {
        schedule(.client(name, generation: clients[name]!.generation, .user(action)), at: now)
        run(for: .zero)
    }

    /// Cuts (or restores) a client's network: its live connections break on both sides.
    public func setReachable(_ name: String, _ reachable: Bool) {
        clients[name]!.isReachable = reachable
        guard !reachable else { return }
        killLinks(of: name, notifyClient: true)
    }

    /// Makes the client's next connection attempts vanish (a SYN into a dead path: no answer, no error) or work again.
    public func setDropsConnectAttempts(_ name: String, _ drops: Bool) {
        clients[name]!.dropsConnectAttempts = drops
    }

    /// Makes a client's live connections half-open (NAT rebinding): packets vanish, neither side is told.
    public func makeHalfOpen(_ name: String) {
        for index in links.indices where links[index].client == name && links[index].isAlive {
            links[index].isSilent = true
        }
    }

    /// The app is closed and reopened: the engine and its timers are gone, a new one starts from the database.
    public func restartApp(_ name: String, crash: Bool = false) {
        var slot = clients[name]!
        observer?.appWillRestart(name, view: slot.engine.view, server: server, at: now)
        if crash { slot.database.crash() }
        killLinks(of: name, notifyClient: false)
        slot.generation += 1
        slot.engine = ReferenceClient(parameters: slot.parameters, database: slot.database,
                                      generator: RandomStreams(runSeed: UInt64(8 + slot.generation)).stream(name))
        clients[name] = slot
        start(name)
    }

    /// The server restarts: every connection drops, data stays.
    public func restartServer() {
        for link in links where link.isAlive {
            schedule(.client(link.client, generation: link.generation, .disconnected(link.clientConnection)),
                     at: now + oneWayDelay)
        }
        for index in links.indices { links[index].isAlive = false }
        apply(server.handle(.restart, now: now))
        observer?.serverEventDidRun(server: server, at: now)
    }

    /// Delivers actions the test got from the server directly (for example from `server.post`).
    public func deliverServerActions(_ actions: [ServerAction]) { apply(actions) }

    /// Runs every event up to `duration` from now.
    public func run(for duration: SimDuration) { run(until: now + duration) }

    /// Runs every event up to `end`; then `now` is `end`.
    public func run(until end: SimInstant) {
        while let first = events.first, first.at <= end {
            events.removeFirst()
            now = first.at
            dispatch(first.event)
        }
        now = max(now, end)
    }

    private func schedule(_ event: Event, at instant: SimInstant) {
        let entry = (at: instant, order: order, event: event)
        order += 1
        let index = events.firstIndex { ($0.at, $0.order) > (entry.at, entry.order) } ?? events.count
        events.insert(entry, at: index)
    }

    private func killLinks(of name: String, notifyClient: Bool) {
        for index in links.indices where links[index].client == name && links[index].isAlive {
            links[index].isAlive = false
            apply(server.handle(.connectionClosed(links[index].serverConnection), now: now))
            if notifyClient {
                schedule(.client(name, generation: links[index].generation,
                                 .disconnected(links[index].clientConnection)), at: now)
            }
        }
    }

    private func dispatch(_ event: Event) {
        switch event {
        case .server(let serverEvent):
            if case .timerFired(let id) = serverEvent, !serverTimerOwners.contains(id) { return }
            let actions = server.handle(serverEvent, now: now)
            observer?.serverEventDidRun(server: server, at: now)
            apply(actions)
        case .client(let name, let generation, let clientEvent):
            deliver(name, generation, clientEvent)
        case .clientTimer(let name, let generation, let timer):
            if cancelledTimers.remove(TimerKey(client: name, generation: generation, timer: timer)) != nil { return }
            deliver(name, generation, .timerFired(timer))
        case .upload(let name, let generation, let upload, let token, let sizeBytes):
            // An unreachable client's upload breaks on the network; a reachable one gets the CDN's answer.
            let event: ClientEvent
            if !clients[name]!.isReachable {
                event = .uploadInterrupted(upload)
            } else if cdnRefusesNextUploads > 0 {
                cdnRefusesNextUploads -= 1
                refusedUploads.append((token, sizeBytes))
                event = .uploadFinished(upload, succeeded: false)
            } else {
                event = .uploadFinished(upload, succeeded: server.receiveUpload(token: token, sizeBytes: sizeBytes))
            }
            schedule(.client(name, generation: generation, event), at: now + oneWayDelay)
        }
    }

    private func deliver(_ name: String, _ generation: Int, _ event: ClientEvent) {
        guard var slot = clients[name], slot.generation == generation else { return }
        observer?.clientEventWillRun(name, event: event, at: now)
        let actions = slot.engine.handle(event, now: now)
        clients[name] = slot
        let engine = slot.engine
        observer?.clientEventDidRun(name, actions: actions, view: { engine.view }, server: server, at: now)
        for action in actions { perform(action, client: name, generation: generation) }
    }

    private func perform(_ action: ClientAction, client name: String, generation: Int) {
        switch action {
        case .connect(let connection):
            connectAttempts.append((name, now))
            if clients[name]!.dropsConnectAttempts { return }
            guard clients[name]!.isReachable else {
                schedule(.client(name, generation: generation, .connectFailed(connection)), at: now + oneWayDelay * 2)
                return
            }
            let serverConnection = ServerConnectionID(rawValue: nextServerConnection)
            nextServerConnection += 1
            links.append(Link(client: name, generation: generation, clientConnection: connection,
                              serverConnection: serverConnection))
            schedule(.server(.connectionOpened(serverConnection)), at: now + oneWayDelay)
            schedule(.client(name, generation: generation, .connected(connection)), at: now + oneWayDelay * 2)
        case .send(let packet, let connection):
            sentRequests.append((name, packet))
            guard let link = links.first(where: { $0.client == name && $0.clientConnection == connection
                && $0.generation == generation && $0.isAlive }), !link.isSilent else { return }
            schedule(.server(.packetReceived(packet, on: link.serverConnection)), at: now + oneWayDelay)
        case .close(let connection):
            for index in links.indices where links[index].client == name && links[index].clientConnection == connection
                && links[index].generation == generation && links[index].isAlive {
                links[index].isAlive = false
                // A half-open link carries no FIN either: the server is not told.
                if links[index].isSilent { continue }
                schedule(.server(.connectionClosed(links[index].serverConnection)), at: now + oneWayDelay)
            }
        case .startTimer(let timer, let instant):
            schedule(.clientTimer(name, generation: generation, timer), at: instant)
        case .cancelTimer(let timer):
            cancelledTimers.insert(TimerKey(client: name, generation: generation, timer: timer))
        case .upload(let upload, let token, let sizeBytes):
            schedule(.upload(name, generation: generation, upload, token: token, sizeBytes: sizeBytes),
                     at: now + oneWayDelay + .milliseconds(Int64(sizeBytes / 100)))
        }
    }

    private func apply(_ actions: [ServerAction]) {
        for action in actions {
            switch action {
            case .send(let packet, let serverConnection):
                guard let link = links.first(where: { $0.serverConnection == serverConnection && $0.isAlive }),
                      !link.isSilent else { continue }
                schedule(.client(link.client, generation: link.generation,
                                 .packetReceived(packet, on: link.clientConnection)), at: now + oneWayDelay)
            case .close(let serverConnection):
                for index in links.indices where links[index].serverConnection == serverConnection
                    && links[index].isAlive {
                    links[index].isAlive = false
                    schedule(.client(links[index].client, generation: links[index].generation,
                                     .disconnected(links[index].clientConnection)), at: now + oneWayDelay)
                }
            case .startTimer(let timer, let instant):
                serverTimerOwners.insert(timer)
                schedule(.server(.timerFired(timer)), at: instant)
            case .cancelTimer(let timer):
                serverTimerOwners.remove(timer)
            }
        }
    }
}
