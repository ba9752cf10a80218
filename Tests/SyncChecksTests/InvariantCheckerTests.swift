import SimCore
import SyncChecks
import SyncProtocol
import SyncServer
import Testing
@testable import SyncClient

private let connection = ServerConnectionID(rawValue: 1)
private let clientConnection = ClientConnectionID(rawValue: 1)

/// A server with user 1 (alice) logged in on one connection and chat 100 (members 1, 2) holding 3 messages.
private func makeServer() -> SyncServer {
    var server = SyncServer(generator: RandomStreams(runSeed: 1).stream("server"))
    server.addUser(id: 1, name: "alice", token: "t")
    server.addUser(id: 2, name: "bob", token: "u")
    server.addChat(id: 100, members: [1, 2], now: .start)
    server.seedHistory(chatId: 100, sender: 2, texts: ["a", "b", "c"], now: .start)
    _ = server.handle(.connectionOpened(connection), now: .start)
    let login = LoginRequest(token: "t", chatsSync: 0, contactsSync: 0, chatsCount: 10)
    _ = server.handle(.packetReceived(Packet(cmd: .request, seq: 1, opcode: .login, body: .login(login)),
                                      on: connection), now: .start)
    return server
}

/// Stores a message from alice through MSG_SEND with `cid`.
private func send(_ server: inout SyncServer, cid: Int64, text: String) {
    let body = Packet.Body.msgSend(MsgSendRequest(chatId: 100, message: OutgoingMessage(text: text, cid: cid)))
    _ = server.handle(.packetReceived(Packet(cmd: .request, seq: 2, opcode: .msgSend, body: body), on: connection),
                      now: .start)
}

private func task(_ id: Int64, _ kind: TaskRecord.Kind = .sendText, state: TaskRecord.State = .pending, cid: Int64 = 0,
                  dependsOn: Int64? = nil, lastError: String? = nil) -> TaskRecord {
    TaskRecord(id: id, kind: kind, state: state, chatId: 100, text: "t\(id)", sizeBytes: 0, cid: cid,
               photoToken: nil, dependsOn: dependsOn, attempts: 0, nextAttemptAt: .start, enqueuedAt: .start,
               lastError: lastError, messageId: nil)
}

private func view(tasks: [TaskRecord] = [], stores: [Int64: ChunkStore] = [:], lastSync: Int64 = 0,
                  inFlight: [ClientView.InFlightRequest] = [], running: [Int64] = []) -> ClientView {
    ClientView(chunkStores: stores, chatList: [:], localEchoes: [], tasks: tasks, lastSyncMilliseconds: lastSync,
               inFlightRequests: inFlight, isOnline: true, openChatId: nil, visibleMessageIds: [],
               runningTaskIds: running)
}

private func makeChecker(_ options: CheckOptions = CheckOptions()) -> InvariantChecker {
    let checker = InvariantChecker(options: options)
    checker.register(client: "alice", userId: 1, parameters: ClientParameters(token: "t"))
    return checker
}

private func request(_ seq: UInt16, _ opcode: Opcode = .msgSend, cmd: Command = .request) -> Packet {
    Packet(cmd: cmd, seq: seq, opcode: opcode, body: .empty)
}

private let t1 = SimInstant.start + .seconds(Int64(1))

@Suite struct InvariantCheckerTests {
    @Test("a sound view of a sound server yields nothing") func sound() {
        let server = makeServer()
        let checker = makeChecker()
        var store = ChunkStore()
        store.insertPage(server.messages(inChat: 100), isStartOfHistory: true)
        let found = checker.afterClientEvent(client: "alice", server: server, at: t1,
                                             view: { view(tasks: [task(1, state: .done)], stores: [100: store]) })
        #expect(found == [])
    }

    @Test("a removal arriving on a connection the client closed gave it nothing (no C7); on its live one it is C7")
    func c7IgnoresClosedConnections() {
        var server = makeServer()
        let first = server.messages(inChat: 100)[0]
        _ = server.delete(chatId: 100, messageId: first.id, deleter: 2, now: t1)
        let removal = server.messages(inChat: 100)[0].updateTime
        let push = Packet(cmd: .push, seq: 0, opcode: .notifMsgDelete,
                          body: .notifMsgDelete(NotifMsgDelete(chatId: 100, messageIds: [first.id],
                                                               updateTime: removal)))
        var store = ChunkStore()
        store.insertPage([first], isStartOfHistory: true)
        let stale = { view(stores: [100: store]) }
        let checker = makeChecker()
        checker.observeClientActions(client: "alice", actions: [.close(clientConnection)], at: t1)
        checker.observeClientReceived(client: "alice", packet: push, on: clientConnection, at: t1)
        #expect(checker.afterClientEvent(client: "alice", server: server, at: t1, view: stale) == [])
        let live = ClientConnectionID(rawValue: 2)
        checker.observeClientReceived(client: "alice", packet: push, on: live, at: t1)
        #expect(checker.afterClientEvent(client: "alice", server: server, at: t1, view: stale).map(\.invariant)
            == [.C7])
    }

    @Test("a broken chunk list is reported as C1 with client and chat") func c1() {
        let server = makeServer()
        let checker = makeChecker()
        let broken = ChunkStore(chunks: [Chunk(lower: 1, upper: 2, isStartOfHistory: false),
                                         Chunk(lower: 2, upper: 3, isStartOfHistory: false)],
                                messages: server.messages(inChat: 100))
        let found = checker.afterClientEvent(client: "alice", server: server, at: t1,
                                             view: { view(stores: [100: broken]) })
        #expect(found.map(\.invariant) == [.C1])
        #expect(found.first?.client == "alice" && found.first?.chatId == 100 && found.first?.time == t1)
    }

    @Test("a task retried under a new cid and stored twice is T2") func t2() {
        var server = makeServer()
        let checker = makeChecker()
        checker.afterClientEvent(client: "alice", server: server, at: t1, view: { view(tasks: [task(1, cid: 7)]) })
        send(&server, cid: 7, text: "t1")
        checker.afterServerEvent(server: server, at: t1)
        checker.afterClientEvent(client: "alice", server: server, at: t1, view: { view(tasks: [task(1, cid: 8)]) })
        send(&server, cid: 8, text: "t1")
        let found = checker.afterServerEvent(server: server, at: t1)
        #expect(found.map(\.invariant) == [.T2])
        #expect(found.first?.found == "messages 4 (cid 7), 5 (cid 8)")
    }

    @Test("sends stored out of enqueue order are T4") func t4() {
        var server = makeServer()
        let checker = makeChecker()
        checker.afterClientEvent(client: "alice", server: server, at: t1,
                                 view: { view(tasks: [task(1, cid: 7), task(2, cid: 8)]) })
        send(&server, cid: 8, text: "t2")
        send(&server, cid: 7, text: "t1")
        #expect(checker.afterServerEvent(server: server, at: t1).map(\.invariant) == [.T4])
    }

    @Test("a send the engine gave up on, stored after the next one of its chat, is not T4 (explore seed 945194)")
    func t4IgnoresGivenUpSend() {
        var server = makeServer()
        let checker = makeChecker()
        checker.afterClientEvent(client: "alice", server: server, at: t1,
                                 view: { view(tasks: [task(1, cid: 7), task(2, cid: 8)]) })
        // Task 1's answer is late: the engine gives up on it and sends task 2, which the server stores first.
        checker.afterClientEvent(client: "alice", server: server, at: t1, view: {
            view(tasks: [task(1, state: .failed, cid: 7, lastError: "timeout"), task(2, cid: 8)])
        })
        send(&server, cid: 8, text: "t2")
        checker.afterServerEvent(server: server, at: t1)
        // The engine prunes the failed task before the slow server stores it: still not counted.
        checker.afterClientEvent(client: "alice", server: server, at: t1, view: { view(tasks: [task(2, cid: 8)]) })
        send(&server, cid: 7, text: "t1")
        #expect(checker.afterServerEvent(server: server, at: t1) == [])
    }

    @Test("an unfinished task that vanishes, or a task failing without an error, is T1") func t1Vanish() {
        let server = makeServer()
        let checker = makeChecker()
        checker.afterClientEvent(client: "alice", server: server, at: t1, view: { view(tasks: [task(1), task(2)]) })
        let found = checker.afterClientEvent(client: "alice", server: server, at: t1,
                                             view: { view(tasks: [task(2, state: .failed)]) })
        #expect(found.map(\.invariant) == [.T1])
        #expect(checker.findings.count == 1, "the second T1 of the same chat is reported once")
        let all = makeChecker(CheckOptions(reportsFirstOnly: false))
        all.afterClientEvent(client: "alice", server: server, at: t1, view: { view(tasks: [task(1), task(2)]) })
        let both = all.afterClientEvent(client: "alice", server: server, at: t1,
                                        view: { view(tasks: [task(2, state: .failed)]) })
        #expect(both.map(\.invariant) == [.T1, .T1])
        let pruning = makeChecker()
        pruning.afterClientEvent(client: "alice", server: server, at: t1,
                                 view: { view(tasks: [task(1, state: .done), task(2)]) })
        #expect(pruning.afterClientEvent(client: "alice", server: server, at: t1, view: { view(tasks: [task(2)]) })
            == [], "a task that ended may be pruned")
    }

    @Test("a task running before its dependency is done is T3") func t3() {
        let server = makeServer()
        let checker = makeChecker()
        let tasks = [task(1, .uploadPhoto), task(2, .sendPhoto, cid: 9, dependsOn: 1)]
        let inFlight = [ClientView.InFlightRequest(seq: 5, opcode: .msgSend, sentAt: .start, taskId: 2)]
        let found = checker.afterClientEvent(client: "alice", server: server, at: t1,
                                             view: { view(tasks: tasks, inFlight: inFlight, running: [2]) })
        #expect(found.map(\.invariant) == [.T3])
    }

    @Test("a running send without its request in flight is P3") func p3() {
        let server = makeServer()
        let checker = makeChecker()
        let found = checker.afterClientEvent(client: "alice", server: server, at: t1,
                                             view: { view(tasks: [task(1, cid: 7)], running: [1]) })
        #expect(found.map(\.invariant) == [.P3])
    }

    @Test("a request still in flight after its timeout is P3") func p3Timeout() {
        let server = makeServer()
        let checker = makeChecker()
        let inFlight = [ClientView.InFlightRequest(seq: 4, opcode: .chatHistory, sentAt: .start)]
        #expect(checker.afterClientEvent(client: "alice", server: server, at: .start + .seconds(Int64(20)),
                                         view: { view(inFlight: inFlight) }) == [])
        let late = checker.afterClientEvent(client: "alice", server: server, at: .start + .seconds(Int64(21)),
                                            view: { view(inFlight: inFlight) })
        #expect(late.map(\.invariant) == [.P3])
    }

    /// field17: the engine doubles a handshake request's timeout after each handshake timeout, up to four times
    /// `requestTimeout`; P3 held a LOGIN to `requestTimeout` and reported the backed-off one as still in flight.
    @Test("a SESSION_INIT or LOGIN may stay in flight up to maximumHandshakeTimeout (80 s), not past it",
          arguments: [Opcode.sessionInit, .login])
    func p3HandshakeTimeout(opcode: Opcode) {
        let server = makeServer()
        let checker = makeChecker()
        let inFlight = [ClientView.InFlightRequest(seq: 1, opcode: opcode, sentAt: .start)]
        #expect(checker.afterClientEvent(client: "alice", server: server, at: .start + .seconds(Int64(80)),
                                         view: { view(inFlight: inFlight) }) == [])
        let late = checker.afterClientEvent(client: "alice", server: server, at: .start + .seconds(Int64(81)),
                                            view: { view(inFlight: inFlight) })
        #expect(late.map(\.invariant) == [.P3])
    }

    @Test("after a restart the unfinished tasks must be those before it (T6); vanished ones are T1 too")
    func t6() {
        let server = makeServer()
        let checker = makeChecker()
        let before = view(tasks: [task(1, state: .done), task(2), task(3)])
        #expect(checker.appWillRestart(client: "alice", view: before, server: server, at: t1) == [])
        let found = checker.afterClientEvent(client: "alice", server: server, at: t1,
                                             view: { view(tasks: [task(1, state: .done), task(2)]) })
        #expect(found.map(\.invariant).sorted() == [.T1, .T6])
        let sound = makeChecker()
        sound.appWillRestart(client: "alice", view: before, server: server, at: t1)
        #expect(sound.afterClientEvent(client: "alice", server: server, at: t1, view: { before }) == [])
    }

    @Test("a seq sent again while in flight is P2; its response then matches two requests, P1") func p1p2() {
        let checker = makeChecker()
        #expect(checker.observeClientSent(client: "alice", packet: request(3), on: clientConnection, at: .start) == [])
        let reused = checker.observeClientSent(client: "alice", packet: request(3), on: clientConnection, at: t1)
        #expect(reused.map(\.invariant) == [.P2])
        let answer = checker.observeClientReceived(client: "alice", packet: request(3, cmd: .response),
                                                   on: clientConnection, at: t1)
        #expect(answer.map(\.invariant) == [.P1])
    }

    @Test("a seq is free again after its response, its timeout, or a new connection") func seqsFree() {
        let checker = makeChecker()
        let other = ClientConnectionID(rawValue: 2)
        checker.observeClientSent(client: "alice", packet: request(1), on: clientConnection, at: .start)
        checker.observeClientReceived(client: "alice", packet: request(1, cmd: .error), on: clientConnection, at: t1)
        checker.observeClientSent(client: "alice", packet: request(1), on: clientConnection, at: t1)
        checker.observeClientSent(client: "alice", packet: request(2), on: clientConnection, at: t1)
        checker.observeClientSent(client: "alice", packet: request(2), on: clientConnection,
                                  at: t1 + .seconds(Int64(20)))
        checker.observeClientSent(client: "alice", packet: request(1), on: other, at: t1 + .seconds(Int64(20)))
        // A late response after a timeout matches nothing and is no finding.
        checker.observeClientReceived(client: "alice", packet: request(9, cmd: .response), on: other, at: t1)
        #expect(checker.findings == [])
    }

    @Test("last-sync going backwards, ahead of the server clock, or not from a response is P4") func p4() {
        let server = makeServer()
        let checker = makeChecker()
        let serverNow = server.serverTimeMilliseconds(at: t1)
        let login = LoginResponse(profile: Profile(id: 1, name: "alice"), chats: [], contacts: [], time: serverNow)
        checker.observeClientReceived(client: "alice", packet: Packet(cmd: .response, seq: 1, opcode: .login,
                                                                     body: .loginResponse(login)),
                                      on: clientConnection, at: t1)
        #expect(checker.afterClientEvent(client: "alice", server: server, at: t1,
                                         view: { view(lastSync: serverNow) }) == [])
        let options = CheckOptions(reportsFirstOnly: false)
        let strict = makeChecker(options)
        strict.observeClientReceived(client: "alice", packet: request(1, .ping, cmd: .response), on: clientConnection,
                                     at: t1)
        #expect(strict.afterClientEvent(client: "alice", server: server, at: t1,
                                        view: { view(lastSync: serverNow - 5) }).map(\.invariant) == [.P4])
        #expect(strict.afterClientEvent(client: "alice", server: server, at: t1,
                                        view: { view(lastSync: serverNow - 9) }).map(\.invariant) == [.P4, .P4])
        #expect(strict.afterClientEvent(client: "alice", server: server, at: t1,
                                        view: { view(lastSync: serverNow + 60_000) }).map(\.invariant) == [.P4])
    }

    @Test("pending tasks at the end are T5; a client missing a chat or its last message is V1") func liveness() {
        let server = makeServer()
        let checker = makeChecker()
        #expect(checker.checkQueueDrained(client: "alice", view: view(tasks: [task(1, state: .done)]), at: t1) == [])
        #expect(checker.checkQueueDrained(client: "alice", view: view(tasks: [task(1)]), at: t1).map(\.invariant)
            == [.T5])
        var converged = view()
        converged.chatList[100] = server.summary(ofChat: 100)
        #expect(checker.checkConverged(client: "alice", view: converged, server: server, at: t1) == [])
        #expect(checker.checkConverged(client: "alice", view: view(), server: server, at: t1).map(\.invariant)
            == [.V1])
    }

    @Test("an echo of a cached own message is C4 only when asked for") func echoOfCachedMessage() {
        var server = makeServer()
        send(&server, cid: 7, text: "t1")
        var store = ChunkStore()
        store.insertPage(server.messages(inChat: 100), isStartOfHistory: true)
        var shown = view(tasks: [task(1, cid: 7)], stores: [100: store])
        shown.localEchoes = [ClientView.LocalEcho(chatId: 100, cid: 7, text: "t1")]
        #expect(makeChecker().afterClientEvent(client: "alice", server: server, at: t1, view: { shown }) == [])
        let strict = makeChecker(CheckOptions(flagsEchoOfCachedMessage: true))
        #expect(strict.afterClientEvent(client: "alice", server: server, at: t1, view: { shown }).map(\.invariant)
            == [.C4])
    }

    @Test("sampling checks every Nth event; disabled invariants are never reported") func samplingAndEnabled() {
        let server = makeServer()
        let sampled = makeChecker(CheckOptions(sampling: 3))
        var calls = 0
        for _ in 0..<9 {
            sampled.afterClientEvent(client: "alice", server: server, at: t1, view: {
                calls += 1
                return view()
            })
        }
        #expect(calls == 3)
        let quiet = makeChecker(CheckOptions(enabled: [.C1]))
        #expect(quiet.checkQueueDrained(client: "alice", view: view(tasks: [task(1)]), at: t1) == [])
    }
}
