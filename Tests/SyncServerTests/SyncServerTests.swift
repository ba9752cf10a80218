import SimCore
import SyncProtocol
import Testing
@testable import SyncServer

/// Drives the server core directly: connections 1 (alice) and 2 (bob), packets in, actions out.
private struct Harness {
    var server: SyncServer
    var now = SimInstant.start
    var nextSeq: UInt16 = 1

    init(knobs: ServerKnobs = ServerKnobs(), seed: UInt64 = 1) {
        server = SyncServer(knobs: knobs, generator: SeededGenerator(seed: seed))
        server.addUser(id: 1, name: "alice", token: "t-alice")
        server.addUser(id: 2, name: "bob", token: "t-bob")
        server.addUser(id: 3, name: "carol", token: "t-carol")
        server.addChat(id: 100, members: [1, 2], now: now)
        server.addChat(id: 200, members: [1, 3], now: now)
    }

    mutating func connect(_ connection: Int, token: String, chatsSync: Int64 = 0) -> LoginResponse? {
        let id = ServerConnectionID(rawValue: connection)
        _ = server.handle(.connectionOpened(id), now: now)
        let actions = request(.login, .login(LoginRequest(token: token, chatsSync: chatsSync, contactsSync: 0,
                                                          chatsCount: 100)), on: connection)
        for case .send(let packet, _) in actions {
            if case .loginResponse(let response) = packet.body { return response }
        }
        return nil
    }

    mutating func request(_ opcode: Opcode, _ body: Packet.Body, on connection: Int) -> [ServerAction] {
        let packet = Packet(cmd: .request, seq: nextSeq, opcode: opcode, body: body)
        nextSeq &+= 1
        return server.handle(.packetReceived(packet, on: ServerConnectionID(rawValue: connection)), now: now)
    }

    mutating func send(_ text: String, cid: Int64, chat: Int64 = 100, on connection: Int = 1) -> [ServerAction] {
        request(.msgSend, .msgSend(MsgSendRequest(chatId: chat, message: OutgoingMessage(text: text, cid: cid))),
                on: connection)
    }
}

private func responses(_ actions: [ServerAction]) -> [Packet] {
    actions.compactMap { if case .send(let packet, _) = $0, !packet.isPush { packet } else { nil } }
}

private func pushes(_ actions: [ServerAction]) -> [(Packet, ServerConnectionID)] {
    actions.compactMap { if case .send(let packet, let c) = $0, packet.isPush { (packet, c) } else { nil } }
}

@Suite struct SyncServerTests {
    @Test("fullListKeys: LOGIN carries the profile, contact and chat keys PyMax 1.x requires; off, none of them")
    func fullListKeys() throws {
        func payload(_ full: Bool) throws -> MessagePackValue {
            var knobs = ServerKnobs()
            knobs.fullListKeys = full
            var h = Harness(knobs: knobs)
            let response = h.connect(1, token: "t-alice")
            return try MessagePackEncoder().encode(try #require(response))
        }
        func keys(_ value: MessagePackValue?) -> [String] {
            guard case .map(let pairs)? = value else { return [] }
            return pairs.compactMap { if case .string(let key) = $0.key { key } else { nil } }
        }
        func value(_ map: MessagePackValue?, _ key: String) -> MessagePackValue? {
            guard case .map(let pairs)? = map else { return nil }
            return pairs.first { $0.key == .string(key) }?.value
        }
        func first(_ array: MessagePackValue?) -> MessagePackValue? {
            if case .array(let items)? = array { items.first } else { nil }
        }
        let full = try payload(true)
        // vkmax 1.0.2 reads the profile's own `phone` after LOGIN.
        #expect(keys(value(full, "profile")) == ["contact", "phone", "profileOptions"])
        #expect(value(value(full, "profile"), "phone") == .uint(79_000_000_001))
        let contact = value(value(full, "profile"), "contact")
        #expect(keys(contact) == ["id", "accountStatus", "phone", "updateTime", "names"])
        #expect(value(contact, "phone") == .uint(79_000_000_001))
        #expect(keys(first(value(full, "contacts"))) == ["id", "accountStatus", "updateTime", "names"])
        #expect(keys(first(value(full, "chats"))) == [
            "id", "type", "status", "owner", "participants", "modified", "created", "joinTime", "lastEventTime",
            "lastDelayedUpdateTime", "lastFireDelayedErrorTime",
        ])
        let lean = try payload(false)
        #expect(keys(value(lean, "profile")) == ["contact", "profileOptions"])
        #expect(keys(value(value(lean, "profile"), "contact")) == ["id", "names"])
        #expect(keys(first(value(lean, "contacts"))) == ["id", "names"])
        #expect(keys(first(value(lean, "chats"))) == ["id", "type", "status", "owner", "participants", "modified"])
        // The model reads both alike: the added keys are not part of it.
        #expect(try MessagePackDecoder().decode(LoginResponse.self, from: full)
            == MessagePackDecoder().decode(LoginResponse.self, from: lean))
    }

    @Test("a client's delivery receipt (a NOTIF_MESSAGE request, PyMax 1.2.5) is answered with an empty payload")
    func deliveryReceipt() {
        var h = Harness()
        _ = h.connect(1, token: "t-alice")
        let receipt = MessagePackValue.map([MessagePackPair(.string("chatId"), .uint(100)),
                                            MessagePackPair(.string("messageId"), .string("61"))])
        let answers = responses(h.request(.notifMessage, .raw(receipt), on: 1))
        #expect(answers.map(\.cmd) == [.response])
        #expect(answers.map(\.body) == [.empty])
    }

    @Test("a repeated MSG_SEND with the same cid is answered \"already exists\" and stores nothing")
    func idempotent() {
        var h = Harness()
        _ = h.connect(1, token: "t-alice")
        _ = h.connect(2, token: "t-bob")
        let first = h.send("hi", cid: 42)
        h.now = h.now + .seconds(Int64(5))
        let second = h.send("hi again", cid: 42)
        #expect(h.server.messages(inChat: 100).count == 1)
        guard case .msgSendResponse(let a) = responses(first).first?.body else {
            Issue.record("expected a MSG_SEND response")
            return
        }
        let duplicate = second.compactMap { action -> Packet? in
            if case .send(let packet, _) = action, packet.cmd == .error { packet } else { nil }
        }
        #expect(duplicate.map(\.body) == [.error(.duplicateMessage(cid: 42))])
        #expect(duplicate.first?.opcode == .msgSend)
        #expect(pushes(first).count == 1)
        #expect(pushes(second).isEmpty)
        #expect(h.server.stats.duplicateSendsAbsorbed == 1)
        let entry = IdempotencyEntry(userId: 1, cid: 42, chatId: 100, messageId: a.message.id)
        #expect(h.server.idempotencyTable == [entry])
    }

    @Test("MSG_SEND pushes NOTIF_MESSAGE to the other connected members only") func pushTargets() {
        var h = Harness()
        _ = h.connect(1, token: "t-alice")
        _ = h.connect(2, token: "t-bob")
        _ = h.connect(3, token: "t-carol")
        let sent = pushes(h.send("hi", cid: 1))
        #expect(sent.map(\.1) == [ServerConnectionID(rawValue: 2)])
    }

    @Test("pushes go to every open connection of the other members, in connection order, until it closes")
    func pushTargetsAcrossConnections() {
        // Several sessions of one device: keep them (the default replaces the older one on LOGIN).
        var knobs = ServerKnobs()
        knobs.replacesOlderSessions = false
        var h = Harness(knobs: knobs)
        _ = h.connect(7, token: "t-bob")
        _ = h.connect(1, token: "t-alice")
        _ = h.connect(4, token: "t-bob")
        _ = h.connect(5, token: "t-carol")
        let connections = { (ids: [Int]) in ids.map { ServerConnectionID(rawValue: $0) } }
        #expect(pushes(h.send("one", cid: 1, on: 1)).map(\.1) == connections([4, 7]))
        _ = h.server.handle(.connectionClosed(ServerConnectionID(rawValue: 4)), now: h.now)
        #expect(pushes(h.send("two", cid: 2, on: 1)).map(\.1) == connections([7]))
        // The same connection logging in again as another user moves its pushes with it.
        _ = h.request(.login, .login(LoginRequest(token: "t-carol", chatsSync: 0, contactsSync: 0, chatsCount: 100)),
                      on: 7)
        #expect(pushes(h.send("three", cid: 3, on: 1)).isEmpty)
        #expect(pushes(h.send("four", cid: 4, chat: 200, on: 1)).map(\.1) == connections([5, 7]))
        _ = h.server.handle(.restart, now: h.now)
        _ = h.connect(2, token: "t-alice")
        #expect(pushes(h.send("five", cid: 5, chat: 200, on: 2)).isEmpty)
    }

    @Test("the chats that stored messages since a count come once each, ascending")
    func chatsWithMessagesStoredAfter() {
        var h = Harness()
        _ = h.connect(1, token: "t-alice")
        #expect(h.server.chatIds(withMessagesStoredAfter: 0).isEmpty)
        _ = h.send("a", cid: 1, chat: 200)
        _ = h.send("b", cid: 2, chat: 100)
        _ = h.send("c", cid: 3, chat: 200)
        #expect(h.server.chatIds == [100, 200])
        #expect(h.server.chatIds(withMessagesStoredAfter: 0) == [100, 200])
        #expect(h.server.chatIds(withMessagesStoredAfter: 2) == [200])
        #expect(h.server.chatIds(withMessagesStoredAfter: 3).isEmpty)
    }

    @Test("LOGIN lists the chats changed since chatsSync, each with its last message, and the server time")
    func loginDiff() {
        var h = Harness()
        h.now = .start + .seconds(Int64(10))
        h.server.seedHistory(chatId: 100, sender: 2, texts: ["a", "b"], now: h.now)
        let sync = h.server.serverTimeMilliseconds(at: h.now)
        h.now = .start + .seconds(Int64(20))
        h.server.seedHistory(chatId: 200, sender: 3, texts: ["c"], now: h.now)
        let all = h.connect(1, token: "t-alice")
        #expect(all?.chats.map(\.id) == [200, 100])
        #expect(all?.chats.last?.lastMessage?.text == "b")
        #expect(all?.contacts.map(\.id) == [2, 3])
        #expect(all?.time == h.server.serverTimeMilliseconds(at: h.now))
        let diff = h.connect(2, token: "t-alice", chatsSync: sync)
        #expect(diff?.chats.map(\.id) == [200])
    }

    /// PyMax 2.1.0's `LoginResponse` requires `token` (`token: str`): without it that client drops the connection
    /// right after LOGIN. The server echoes the session token; on the wire the key sits before `time`.
    @Test("the LOGIN answer echoes the session token, which a token-less answer decodes as nil")
    func loginEchoesToken() throws {
        var h = Harness()
        let answer = h.connect(1, token: "t-alice")
        let response = try #require(answer)
        #expect(response.token == "t-alice")
        let payload = try MessagePackEncoder().encode(response)
        guard case .map(let pairs) = payload else { Issue.record("not a map: \(payload)"); return }
        #expect(pairs.suffix(2).map(\.key) == [.string("token"), .string("time")])
        #expect(pairs.last(where: { $0.key == .string("token") })?.value == .string("t-alice"))
        var tokenless = response
        tokenless.token = nil
        let frame = Frame(cmd: .response, seq: 1, opcode: .login, payload: try MessagePackEncoder().encode(tokenless))
        #expect(try Packet(frame: frame).body == .loginResponse(tokenless))
        #expect(try MessagePackDecoder().decode(LoginResponse.self, from: frame.payload).token == nil)
    }

    /// Found by fuzz-server (Fuzz/Regressions/fuzz-server/change-of-message-id-int64-min): looking a message up by
    /// id computed `id - 1`, which trapped for Int64.min.
    @Test("an edit or delete of a message id at Int64's ends changes nothing and does not trap",
          arguments: [Int64.min, Int64.max])
    func changeOfExtremeId(id: Int64) {
        var h = Harness()
        _ = h.server.seedHistory(chatId: 100, sender: 2, texts: ["a"], now: h.now)
        #expect(h.server.edit(chatId: 100, messageId: id, editor: 2, text: "x", now: h.now).isEmpty)
        #expect(h.server.delete(chatId: 100, messageId: id, deleter: 2, now: h.now).isEmpty)
        #expect(h.server.messages(inChat: 100).map(\.text) == ["a"])
    }

    @Test("LOGIN carries the listed chats' messages edited or deleted after chatsSync, in their newest version")
    func loginCarriesChanges() {
        var h = Harness()
        h.now = .start + .seconds(Int64(1))
        let seeded = h.server.seedHistory(chatId: 100, sender: 2, texts: ["a", "b", "c"], now: h.now)
        h.now = .start + .seconds(Int64(10))
        let sync = h.server.serverTimeMilliseconds(at: h.now)
        h.now = .start + .seconds(Int64(20))
        _ = h.server.edit(chatId: 100, messageId: seeded[0].id, editor: 2, text: "a2", now: h.now)
        h.now = .start + .seconds(Int64(21))
        _ = h.server.delete(chatId: 100, messageId: seeded[1].id, deleter: 2, now: h.now)
        let diff = h.connect(1, token: "t-alice", chatsSync: sync)
        #expect(diff?.chats.map(\.id) == [100])
        #expect(diff?.messages.keys.sorted() == [100])
        #expect(diff?.messages[100]?.map(\.id) == [seeded[0].id, seeded[1].id])
        #expect(diff?.messages[100]?.map(\.text) == ["a2", ""])
        #expect(diff?.messages[100]?.map(\.status) == [ChatMessage.edited, ChatMessage.removed])
        #expect(diff?.messages[100]?.first?.updateTime == h.server.serverTimeMilliseconds(at: .start + .seconds(Int64(20))))
        // Changes at or before chatsSync, and a never-synced client, get none.
        let later = h.connect(2, token: "t-alice", chatsSync: h.server.serverTimeMilliseconds(at: h.now))
        #expect(later?.messages == [:])
        let fresh = h.connect(3, token: "t-alice", chatsSync: LoginRequest.neverSynced)
        #expect(fresh?.messages == [:])
    }

    @Test("the LOGIN cap lists only the most recently changed chats") func loginCap() {
        var h = Harness(knobs: ServerKnobs(loginChatsCap: 1))
        h.now = .start + .seconds(Int64(1))
        h.server.seedHistory(chatId: 200, sender: 3, texts: ["old"], now: h.now)
        h.now = .start + .seconds(Int64(2))
        h.server.seedHistory(chatId: 100, sender: 2, texts: ["new"], now: h.now)
        #expect(h.connect(1, token: "t-alice")?.chats.map(\.id) == [100])
    }

    /// `from` names a message id in the table; the request carries that message's time (an id outside 1...10
    /// goes as is, a time before or after the whole history).
    @Test("CHAT_HISTORY pages by time: backward at or before from, forward after it", arguments: [
        (Int64(5), 0, 3, [3, 4, 5]), (Int64(5), 2, 0, [6, 7]), (Int64.max, 0, 4, [7, 8, 9, 10]),
        (Int64(2), 0, 5, [1, 2]), (Int64(5), 2, 2, [4, 5, 6, 7]), (Int64(0), 3, 0, [1, 2, 3]),
        // Counts straight from the wire, at Int's ends: a page of what there is, never an overflow trap.
        (Int64(5), Int.max, Int.max, Array(1...10)), (Int64(5), Int.min, Int.min, []),
        (Int64.min, Int.max, 0, Array(1...10)),
    ])
    func historyPaging(from: Int64, forward: Int, backward: Int, expected: [Int64]) {
        var h = Harness()
        h.server.seedHistory(chatId: 100, sender: 2, texts: (1...10).map { "m\($0)" }, now: h.now)
        _ = h.connect(1, token: "t-alice")
        let history = h.server.messages(inChat: 100)
        #expect(zip(history, history.dropFirst()).allSatisfy { $0.time < $1.time })
        let time = (1...10).contains(from) ? history[Int(from) - 1].time : from
        let actions = h.request(.chatHistory, .chatHistory(ChatHistoryRequest(chatId: 100, from: time, forward: forward,
                                                                                 backward: backward)), on: 1)
        guard case .chatHistoryResponse(let page) = responses(actions).first?.body else {
            Issue.record("expected a CHAT_HISTORY response")
            return
        }
        #expect(page.messages.map(\.id) == expected)
    }

    @Test("requests before LOGIN and to foreign chats get error frames") func errors() {
        var h = Harness()
        _ = h.server.handle(.connectionOpened(ServerConnectionID(rawValue: 9)), now: h.now)
        #expect(responses(h.send("x", cid: 1, on: 9)).first?.cmd == .error)
        _ = h.connect(3, token: "t-carol")
        #expect(responses(h.send("x", cid: 1, chat: 100, on: 3)).first?.cmd == .error)
        #expect(h.connect(4, token: "nope") == nil)
    }

    @Test("processing delays let a later request's response overtake an earlier one") func delays() {
        let knobs = ServerKnobs(processingDelay: [.chatHistory: .fixed(.seconds(Int64(3)))])
        var h = Harness(knobs: knobs)
        _ = h.connect(1, token: "t-alice")
        let slow = h.request(.chatHistory, .chatHistory(ChatHistoryRequest(chatId: 100, from: .max, forward: 0,
                                                                             backward: 5)), on: 1)
        let fast = h.request(.ping, .ping(PingRequest(interactive: false)), on: 1)
        #expect(responses(fast).count == 1)
        guard case .startTimer(let timer, let at) = slow.first else {
            Issue.record("expected a timer for the delayed request")
            return
        }
        #expect(at == .start + .seconds(Int64(3)))
        h.now = at
        #expect(responses(h.server.handle(.timerFired(timer), now: h.now)).first?.opcode == .chatHistory)
    }

    @Test("a request executed after its connection closed still stores the message, without a response")
    func executeAfterClose() {
        var h = Harness(knobs: ServerKnobs(processingDelay: [.msgSend: .fixed(.seconds(Int64(1)))]))
        _ = h.connect(1, token: "t-alice")
        guard case .startTimer(let timer, _) = h.send("hi", cid: 7).first else {
            Issue.record("expected a timer")
            return
        }
        _ = h.server.handle(.connectionClosed(ServerConnectionID(rawValue: 1)), now: h.now)
        #expect(responses(h.server.handle(.timerFired(timer), now: h.now)).isEmpty)
        #expect(h.server.messages(inChat: 100).map(\.cid) == [7])
    }

    @Test("push loss and duplication knobs drop and double pushes") func pushKnobs() {
        var lossy = Harness(knobs: ServerKnobs(pushLossProbability: 1))
        _ = lossy.connect(1, token: "t-alice")
        _ = lossy.connect(2, token: "t-bob")
        #expect(pushes(lossy.send("a", cid: 1)).isEmpty)
        var doubled = Harness(knobs: ServerKnobs(pushDuplicationProbability: 1))
        _ = doubled.connect(1, token: "t-alice")
        _ = doubled.connect(2, token: "t-bob")
        #expect(pushes(doubled.send("a", cid: 1)).count == 2)
    }

    @Test("an injected error has no effect on the history") func injectedErrors() {
        var h = Harness(knobs: ServerKnobs(errorRate: [.msgSend: 1]))
        _ = h.connect(1, token: "t-alice")
        #expect(responses(h.send("a", cid: 1)).first?.body == .error(ErrorPayload(
            error: "server.injected", message: "injected error for MSG_SEND")))
        #expect(h.server.messages(inChat: 100).isEmpty)
    }

    @Test("a restart closes every connection and drops requests in processing, keeping data") func restart() {
        var h = Harness(knobs: ServerKnobs(slowPeriods: [.init(start: .start, end: .start + .seconds(Int64(10)),
                                                                extraDelay: .seconds(Int64(2)))]))
        _ = h.server.handle(.connectionOpened(ServerConnectionID(rawValue: 1)), now: h.now)
        let delayed = h.request(.ping, .ping(PingRequest(interactive: false)), on: 1)
        #expect(delayed.count == 1)
        let actions = h.server.handle(.restart, now: h.now)
        #expect(actions.contains(.close(ServerConnectionID(rawValue: 1))))
        #expect(h.server.openConnections.isEmpty && h.server.requestsInProcessing == 0)
    }

    @Test("a photo message needs its upload stored on the CDN") func photoNeedsUpload() {
        var h = Harness()
        _ = h.connect(1, token: "t-alice")
        let actions = h.request(.photoUpload, .photoUpload(PhotoUploadRequest(sizeBytes: 1000)), on: 1)
        guard case .photoUploadResponse(let upload) = responses(actions).first?.body else {
            Issue.record("expected a token")
            return
        }
        let photo = OutgoingMessage(text: "", cid: 5, attaches: [.photo(token: upload.photoToken)])
        let early = h.request(.msgSend, .msgSend(MsgSendRequest(chatId: 100, message: photo)), on: 1)
        #expect(responses(early).first?.cmd == .error)
        let wrongSize = h.server.receiveUpload(token: upload.photoToken, sizeBytes: 999)
        let rightSize = h.server.receiveUpload(token: upload.photoToken, sizeBytes: 1000)
        #expect(!wrongSize && rightSize)
        let late = h.request(.msgSend, .msgSend(MsgSendRequest(chatId: 100, message: photo)), on: 1)
        #expect(responses(late).first?.cmd == .response)
    }

    @Test("a field client's PHOTO_UPLOAD names no size; readers get the photo's id, URL and size")
    func fieldPhotoUpload() {
        var h = Harness()
        h.server.knobs.cdnURL = "http://127.0.0.1:9"
        _ = h.connect(1, token: "t-alice")
        _ = h.connect(2, token: "t-bob")
        let actions = h.request(.photoUpload, .photoUpload(PhotoUploadRequest(sizeBytes: nil)), on: 1)
        guard case .photoUploadResponse(let upload) = responses(actions).first?.body else {
            Issue.record("expected a PHOTO_UPLOAD answer")
            return
        }
        #expect(upload.url == "http://127.0.0.1:9/upload?photoIds=1")
        #expect(h.server.cdn.token(photoId: 1) == upload.photoToken && h.server.cdn.token(photoId: 2) == nil)
        // Any size is taken when none was announced.
        let stored = h.server.receiveUpload(token: upload.photoToken, sizeBytes: 1_202)
        #expect(stored)
        let photo = OutgoingMessage(text: "", cid: 6, attaches: [.photo(token: upload.photoToken)])
        let sent = h.request(.msgSend, .msgSend(MsgSendRequest(chatId: 100, message: photo)), on: 1)
        let expected = Attach(type: "PHOTO", photoToken: upload.photoToken, photoId: 1,
                              baseUrl: "http://127.0.0.1:9/photo/1", width: 0, height: 0)
        guard case .msgSendResponse(let answer) = responses(sent).first?.body else {
            Issue.record("expected a MSG_SEND answer")
            return
        }
        #expect(answer.message.attaches == [expected])
        let pushed = sent.compactMap { action -> ChatMessage? in
            if case .send(let packet, _) = action, case .notifMessage(let push) = packet.body { return push.message }
            return nil
        }
        #expect(pushed.map(\.attaches) == [[expected]])
    }

    @Test("a MSG_SEND or MSG_EDIT text over maxTextBytes is refused with proto.payload and nothing is stored")
    func textLimit() throws {
        var h = Harness()
        _ = h.connect(1, token: "t-alice")
        _ = h.connect(2, token: "t-bob")
        let long = String(repeating: "я", count: SyncServer.maxTextBytes / 2 + 1)  // 2 bytes each in UTF-8
        let refused = h.send(long, cid: 1)
        #expect(pushes(refused).isEmpty)
        guard case .error(let error)? = responses(refused).first?.body else {
            Issue.record("expected an error answer, got \(refused)")
            return
        }
        #expect(error.error == "proto.payload")
        #expect(error.message.contains("\(SyncServer.maxTextBytes + 2) bytes") && error.message.contains("16384"))
        #expect(h.server.messages(inChat: 100).isEmpty)
        // The same cid goes through once the text fits (the refused send left no idempotency entry).
        let exact = String(repeating: "a", count: SyncServer.maxTextBytes)
        #expect(responses(h.send(exact, cid: 1)).first?.cmd == .response)
        let id = try #require(h.server.messages(inChat: 100).last?.id)
        let edit = h.request(.msgEdit, .msgEdit(MsgEditRequest(chatId: 100, messageId: id, text: long)), on: 1)
        #expect(responses(edit).first?.cmd == .error && pushes(edit).isEmpty)
        #expect(h.server.messages(inChat: 100).last?.text == exact)
    }

    @Test("MSG_DELETE of several ids removes all or none: a refused id leaves every message and pushes nothing")
    func deleteAllOrNone() {
        var h = Harness()
        _ = h.connect(1, token: "t-alice")
        _ = h.connect(2, token: "t-bob")
        _ = h.send("alice one", cid: 1)
        _ = h.send("alice two", cid: 2)
        _ = h.send("bob's", cid: 3, on: 2)
        let ids = h.server.messages(inChat: 100).map(\.id)
        let refused = h.request(.msgDelete, .msgDelete(MsgDeleteRequest(chatId: 100, messageIds: ids)), on: 1)
        guard case .error(let error)? = responses(refused).first?.body else {
            Issue.record("expected an error answer, got \(refused)")
            return
        }
        #expect(error.error == "message.notYours")
        #expect(pushes(refused).isEmpty)
        #expect(h.server.messages(inChat: 100).allSatisfy { !$0.isRemoved })
        let twice = h.request(.msgDelete, .msgDelete(MsgDeleteRequest(chatId: 100, messageIds: [ids[0], ids[0]])),
                              on: 1)
        #expect(responses(twice).first?.cmd == .error && !h.server.messages(inChat: 100)[0].isRemoved)
        let deleted = h.request(.msgDelete, .msgDelete(MsgDeleteRequest(chatId: 100, messageIds: Array(ids.prefix(2)))),
                                on: 1)
        #expect(responses(deleted).first?.cmd == .response)
        #expect(pushes(deleted).map(\.0.opcode) == [.notifMsgDelete])
        #expect(h.server.messages(inChat: 100).map(\.isRemoved) == [true, true, false])
    }

    /// Session 38's second real-client trial: `messageIds: []` was answered `{}` and an empty NOTIF_MSG_DELETE went to
    /// the chat; and a closed connection's idle check stayed armed, so `serve --max-connections` waited 50 s for it.
    @Test("an empty MSG_DELETE is refused; closing a connection cancels its idle check")
    func emptyDeleteAndIdleCancel() {
        var h = Harness()
        _ = h.connect(1, token: "t-alice")
        _ = h.connect(2, token: "t-bob")
        let empty = h.request(.msgDelete, .msgDelete(MsgDeleteRequest(chatId: 100, messageIds: [])), on: 1)
        guard case .error(let error)? = responses(empty).first?.body else {
            Issue.record("expected an error answer, got \(empty)")
            return
        }
        #expect(error.error == "proto.payload" && pushes(empty).isEmpty)
        let id = ServerConnectionID(rawValue: 7)
        let opened = h.server.handle(.connectionOpened(id), now: h.now)
        let armed = opened.compactMap { action -> ServerTimerID? in
            if case .startTimer(let timer, _) = action { timer } else { nil }
        }
        #expect(armed.count == 1)
        let closed = h.server.handle(.connectionClosed(id), now: h.now)
        #expect(closed.compactMap { action -> ServerTimerID? in
            if case .cancelTimer(let timer) = action { timer } else { nil }
        } == armed)
    }

    @Test("bytes that carry no request (noteActivity) keep a connection from the idle check's close")
    func activityWithoutRequests() {
        var h = Harness()
        let id = ServerConnectionID(rawValue: 1)
        let timeout = h.server.knobs.idleTimeout!
        var timers = h.server.handle(.connectionOpened(id), now: h.now)
        func fire(at now: SimInstant) -> [ServerAction] {
            var out: [ServerAction] = []
            var waiting: [ServerAction] = []
            for case .startTimer(let timer, let at) in timers {
                if at <= now {
                    out += h.server.handle(.timerFired(timer), now: now)
                } else {
                    waiting.append(.startTimer(timer, at: at))
                }
            }
            timers = waiting + out
            return out
        }
        // Every 20 s a ping frame (WebSocket control bytes): no request, but activity.
        var now = h.now
        for _ in 0..<6 {
            now = now + .seconds(Int64(20))
            h.server.noteActivity(on: id, now: now)
            #expect(!fire(at: now).contains(.close(id)))
        }
        #expect(h.server.device(of: id) != nil, "still open after 120 s of pings")
        // Then silence: closed one timeout after the last bytes.
        var closed = false
        for step in Int64(1)...8 where !closed {
            closed = fire(at: now + .seconds(Int64(10)) * step).contains(.close(id))
        }
        #expect(timeout == .seconds(Int64(50)))
        #expect(closed)
    }
}
