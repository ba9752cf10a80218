import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Reference-engine defects `syncsim explore` found, each as the focused value the fix makes right (docs/mutants.md,
/// "Defects found by explore").
@Suite struct ReferenceClientExploreTests {
    @Test("a connection attempt that gets no answer is given up after connectTimeout and retried with backoff")
    func connectTimeout() {
        let world = MutantRuns.makeWorld()
        world.setDropsConnectAttempts("alice", true)
        world.start("alice")
        world.run(for: .seconds(Int64(9)))
        #expect(world.metrics("alice").connectTimeouts == 0)
        world.run(for: .seconds(Int64(2)))
        // Default connectTimeout 10 s: the first attempt is abandoned at 10 s, the next one starts after the backoff
        // (1 s, drawn in [0.5 s, 1 s]).
        #expect(world.metrics("alice").connectTimeouts == 1)
        #expect(world.connectAttempts.filter { $0.0 == "alice" }.count == 2)
        world.setDropsConnectAttempts("alice", false)
        world.run(for: .seconds(Int64(60)))
        #expect(world.view("alice").isOnline)
        #expect(world.metrics("alice").logins == 1)
    }

    @Test("a send answered \"already exists\" fetches the chat's newest page until it comes, also when pages fail")
    func duplicateFetchesNewestPageUntilItComes() {
        let world = MutantRuns.makeWorld(knobs: MutantRuns.sendsJustTooSlow, alice: MutantRuns.slowRetries)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "once"))
        world.run(for: .seconds(Int64(23)))
        // The retry is answered "already exists"; every CHAT_HISTORY fails until 100 s.
        world.server.knobs = ServerKnobs(errorRate: [.chatHistory: 1])
        world.run(until: .start + .seconds(Int64(100)))
        #expect(world.view("alice").chunkStores[100]?.messages.contains { $0.text == "once" } != true)
        world.server.knobs = ServerKnobs()
        world.run(for: .seconds(Int64(30)))
        #expect(world.view("alice").chunkStores[100]?.messages.map(\.text).contains("once") == true)
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
    }

    @Test("with every seq not in flight waiting for a late answer, the engine replaces the connection (seed 9452)")
    func heldBackSeqsReplaceConnection() {
        // CHAT_HISTORY answers come after 100 s, long after the 20 s request timeout: with 4 seqs, the open chat's
        // retries hold seqs back one after the other until a ping finds none free.
        let knobs = ServerKnobs(processingDelay: [.chatHistory: .fixed(.seconds(Int64(100)))])
        let world = MutantRuns.makeWorld(knobs: knobs, alice: { $0.seqModulus = 4 })
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(50)))
        #expect(world.metrics("alice").reconnects == 0)
        world.run(for: .seconds(Int64(50)))
        // Reusing a held-back seq would have let a late page complete another request; a new connection instead.
        #expect(world.metrics("alice").reconnects >= 1)
        #expect(world.view("alice").isOnline)
        #expect(world.view("alice").chunkStores[100]?.messages.allSatisfy { $0.text.hasPrefix("old ") } != false)
    }

    @Test("an own message acknowledged while the user is scrolled up is joined to the chat: a scroll then reaches the top as one chunk (seeds 9815, 11761)")
    func sendWhileScrolledUpJoinsChunk() {
        let world = MutantRuns.makeWorld(history: 100)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(5)))
        world.user("alice", .scrollUp(messages: 20))
        world.run(for: .seconds(Int64(5)))
        world.user("alice", .sendText(chatId: 100, text: "sent while scrolled up"))
        world.run(for: .seconds(Int64(5)))
        world.user("alice", .scrollUp(messages: 1_000))
        world.run(for: .seconds(Int64(60)))
        let server = world.server.messages(inChat: 100)
        let chunks = world.view("alice").chunkStores[100]?.chunks ?? []
        #expect(server.last?.text == "sent while scrolled up")
        #expect(chunks.count == 1)
        #expect(chunks.first?.isStartOfHistory == true)
        #expect(chunks.first?.lower == server.first?.id && chunks.first?.upper == server.last?.id)
    }

    @Test("messages pushed while the user is at the top of the chat join the chunk on screen, also when the gap is wider than a page (seed 720068)", arguments: [1, 3])
    func pushWhileScrolledUpJoinsChunk(pushed: Int) {
        // Pages of one message: the newest page fetched for a push reaches the chunk below it only when the push was
        // the one message above that chunk. The chunk on screen is fetched upward until it joins the top chunk.
        let world = MutantRuns.makeWorld(history: 3, alice: { $0.historyPageSize = 1 })
        world.start("alice")
        world.start("bob")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(5)))
        world.user("alice", .scrollUp(messages: 1_000))
        world.run(for: .seconds(Int64(10)))
        #expect(world.view("alice").chunkStores[100]?.chunks.count == 1)
        for index in 1...pushed {
            world.user("bob", .sendText(chatId: 100, text: "new \(index)"))
        }
        world.run(for: .seconds(Int64(10)))
        world.user("alice", .scrollUp(messages: 1_000))
        world.run(for: .seconds(Int64(60)))
        let server = world.server.messages(inChat: 100)
        let chunks = world.view("alice").chunkStores[100]?.chunks ?? []
        #expect(server.count == 3 + pushed)
        #expect(chunks.count == 1)
        #expect(chunks.first?.isStartOfHistory == true)
        #expect(chunks.first?.lower == server.first?.id && chunks.first?.upper == server.last?.id)
    }

    @Test("a new message pushed before the first LOGIN answer ever waits for it, and is dropped with a connection that never got one (seed 8117)")
    func pushBeforeFirstLoginAnswer() throws {
        let pushed = ChatMessage(id: 7, time: 2_000, sender: 2, text: "photo")
        let push = Packet(cmd: .request, seq: 0, opcode: .notifMessage,
                          body: .notifMessage(NotifMessage(chatId: 100, message: pushed)))
        let newest = ChatMessage(id: 9, time: 3_000, sender: 2, text: "newest")
        let summary = ChatSummary(id: 100, members: [1, 2], modified: 3_000, lastMessage: newest)
        func answer(_ login: Packet, chats: [ChatSummary], time: Int64) -> Packet {
            Packet(cmd: .response, seq: login.seq, opcode: .login, body: .loginResponse(
                LoginResponse(profile: Profile(id: 1, name: "alice"), chats: chats, contacts: [], time: time)))
        }

        // The server took the LOGIN and pushes, but its answer never comes; message 7 is deleted meanwhile, and the
        // next LOGIN ("never synced") carries no change to say so: the push must not have been kept.
        var client = try EngineDriver()
        let first = client.connect()
        let firstLogin = client.logIn(first)
        client.receive(push, on: first)
        #expect(client.engine.view.chunkStores[100]?.message(id: 7) == nil)
        // A removal applies at once: it only ever makes a message newer, or waits for it as a tombstone (C7).
        let removal = Packet(cmd: .request, seq: 0, opcode: .notifMsgDelete,
                             body: .notifMsgDelete(NotifMsgDelete(chatId: 100, messageIds: [5], updateTime: 2_500)))
        client.receive(removal, on: first)
        #expect(client.engine.view.chunkStores[100]?.tombstones[5] == 2_500)
        let second = client.reconnect(after: first)
        let secondLogin = client.logIn(second)
        guard case .login(let request) = secondLogin.body else { Issue.record("expected a LOGIN"); return }
        #expect(request.chatsSync == LoginRequest.neverSynced && firstLogin.opcode == .login)
        client.receive(answer(secondLogin, chats: [summary], time: 4_000), on: second)
        #expect(client.engine.view.chunkStores[100]?.messageIds == [9])
        // Once a LOGIN was answered, a push applies at once.
        client.receive(push, on: second)
        #expect(client.engine.view.chunkStores[100]?.messageIds == [7, 9])

        // A push that overtakes the LOGIN answer on its connection applies when the answer comes, on top of it.
        var late = try EngineDriver()
        let connection = late.connect()
        let login = late.logIn(connection)
        late.receive(push, on: connection)
        #expect(late.engine.view.chunkStores[100]?.message(id: 7) == nil)
        late.receive(answer(login, chats: [], time: 1_500), on: connection)
        #expect(late.engine.view.chunkStores[100]?.message(id: 7)?.text == "photo")
    }
}

/// A reference engine driven event by event, one second apart, with the server's answers written by the test.
struct EngineDriver {
    var engine: ReferenceClient
    var now = SimInstant.start
    private var actions: [ClientAction]

    init(parameters: ClientParameters = ClientParameters(token: "t")) throws {
        engine = ReferenceClient(parameters: parameters, database: try SQLiteDatabase(),
                                 generator: SeededGenerator(seed: 1))
        actions = engine.handle(.start, now: now)
    }

    mutating func step(_ event: ClientEvent) {
        now = now + .seconds(Int64(1))
        actions = engine.handle(event, now: now)
    }

    /// The connection the last step opened, now connected.
    mutating func connect() -> ClientConnectionID {
        let connection = actions.compactMap { if case .connect(let id) = $0 { id } else { nil } }.first!
        step(.connected(connection))
        return connection
    }

    /// Answers the SESSION_INIT just sent; returns the LOGIN request that follows.
    mutating func logIn(_ connection: ClientConnectionID) -> Packet {
        let sessionInit = sent[0]
        receive(Packet(cmd: .response, seq: sessionInit.seq, opcode: .sessionInit,
                       body: .sessionInitResponse(SessionInitResponse(time: 1_000))), on: connection)
        return sent[0]
    }

    /// The connection goes; the reconnect timer fires; returns the new connection, connected.
    mutating func reconnect(after connection: ClientConnectionID) -> ClientConnectionID {
        step(.disconnected(connection))
        let timer = actions.compactMap { if case .startTimer(let timer, _) = $0 { timer } else { nil } }.last!
        step(.timerFired(timer))
        return connect()
    }

    mutating func receive(_ packet: Packet, on connection: ClientConnectionID) {
        step(.packetReceived(packet, on: connection))
    }

    /// The packets the last step sent.
    var sent: [Packet] { actions.compactMap { if case .send(let packet, _) = $0 { packet } else { nil } } }

    /// The timers the last step started, with when they fire.
    var timersStarted: [(timer: ClientTimerID, at: SimInstant)] {
        actions.compactMap { if case .startTimer(let timer, let at) = $0 { (timer, at) } else { nil } }
    }
}
