import SimCore
import SyncProtocol
import Testing
@testable import SyncServer

/// The server against field-shaped requests (the shapes PyMax 2.5.0 sends), driven packet by packet.
@Suite struct FieldSessionTests {
    var server = SyncServer(generator: SeededGenerator(seed: 1))
    var seq: UInt16 = 1
    let now = SimInstant.start

    init() {
        server.addUser(id: 1, name: "alice", token: "t-alice")
        server.addUser(id: 2, name: "bob", token: "t-bob")
        server.addChat(id: 100, members: [1, 2], now: now)
        for connection in 1...2 { _ = server.handle(.connectionOpened(ServerConnectionID(rawValue: connection)), now: now) }
    }

    mutating func call(_ opcode: Opcode, _ payload: MessagePackValue, on connection: Int = 1) -> [Packet] {
        let frame = Frame(cmd: .request, seq: seq, opcode: opcode, payload: payload)
        seq &+= 1
        let packet = try! Packet(frame: frame)
        return server.handle(.packetReceived(packet, on: ServerConnectionID(rawValue: connection)), now: now)
            .compactMap { if case .send(let packet, _) = $0 { packet } else { nil } }
    }

    static func map(_ pairs: [(String, MessagePackValue)]) -> MessagePackValue {
        .map(pairs.map { MessagePackPair(.string($0.0), $0.1) })
    }

    static let userAgent = map([("deviceType", .string("ANDROID")), ("appVersion", .string("26.37.1")),
                                ("buildNumber", .uint(6790))])

    /// Opens connection 3 and logs alice in there from a second device ("d2"): a LOGIN from the same device would
    /// replace her connection 1.
    mutating func loginAliceSecondDevice() {
        _ = server.handle(.connectionOpened(ServerConnectionID(rawValue: 3)), now: now)
        _ = call(.sessionInit, Self.map([("mt_instanceid", .string("i")), ("userAgent", Self.userAgent),
                                         ("clientSessionId", .uint(6)), ("deviceId", .string("d2"))]), on: 3)
        _ = call(.login, Self.map([("userAgent", Self.userAgent), ("token", .string("t-alice")),
                                   ("chatsSync", .int(-1)), ("contactsSync", .int(-1)), ("interactive", .bool(true))]),
                 on: 3)
    }

    mutating func login(_ token: String, on connection: Int = 1) -> [Packet] {
        _ = call(.sessionInit, Self.map([("mt_instanceid", .string("i")), ("userAgent", Self.userAgent),
                                         ("clientSessionId", .uint(5)), ("deviceId", .string("d"))]), on: connection)
        return call(.login, Self.map([("userAgent", Self.userAgent), ("token", .string(token)),
                                      ("chatsSync", .int(-1)), ("contactsSync", .int(-1)),
                                      ("chatCacheFingerprint", .binary([1, 2])), ("interactive", .bool(true))]),
                    on: connection)
    }

    @Test("mobile and web SESSION_INIT shapes are answered with a calls seed") mutating func sessionInit() {
        let mobile = call(.sessionInit, Self.map([("mt_instanceid", .string("i")), ("userAgent", Self.userAgent),
                                                  ("clientSessionId", .uint(5)), ("deviceId", .string("d"))]))
        let web = call(.sessionInit, Self.map([("userAgent", Self.map([("deviceType", .string("WEB"))])),
                                               ("deviceId", .string("w"))]), on: 2)
        for packets in [mobile, web] {
            guard case .sessionInitResponse(let response) = packets.first?.body else {
                Issue.record("expected a SESSION_INIT response, got \(packets)")
                continue
            }
            #expect(response.callsSeed != 0)
        }
    }

    @Test("a SESSION_INIT without userAgent is an error naming the key") mutating func sessionInitMissingKey() {
        let packets = call(.sessionInit, Self.map([("deviceId", .string("d")), ("clientVersion", .string("x"))]))
        guard case .error(let error) = packets.first?.body else {
            Issue.record("expected an error, got \(packets)")
            return
        }
        #expect(error.error == "proto.payload")
        #expect(error.message.contains("userAgent"))
        #expect(error.localizedMessage != nil && error.title != nil)
    }

    @Test("a first LOGIN (-1, no chatsCount) lists every chat with type, owner and the contacts")
    mutating func firstLogin() {
        server.seedHistory(chatId: 100, sender: 2, texts: ["hello"], now: now)
        guard case .loginResponse(let response) = login("t-alice").last?.body else {
            Issue.record("expected a LOGIN response")
            return
        }
        #expect(response.profile == Profile(id: 1, name: "alice"))
        #expect(response.chats.map(\.id) == [100])
        #expect(response.chats.first?.type == "DIALOG" && response.chats.first?.owner == 1)
        #expect(response.contacts.map(\.id) == [2])
    }

    @Test("every unsupported opcode gets a four-key error naming it") mutating func unsupported() {
        _ = login("t-alice")
        for raw: UInt16 in [81, 2, 999] {
            let packets = call(Opcode(rawValue: raw), Self.map([]))
            guard case .error(let error) = packets.first?.body, packets.first?.cmd == .error else {
                Issue.record("expected an error for \(raw), got \(packets)")
                continue
            }
            #expect(error.error == "proto.opcode")
            #expect(error.message.contains("opcode \(raw)"))
        }
        #expect(call(.log, Self.map([("events", .array([]))])).first?.body == .empty)
    }

    @Test("MSG_SEND twice with one cid stores one message; edit and delete push to the other member")
    mutating func sendEditDelete() {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let message = Self.map([("text", .string("hi")), ("cid", .uint(1_764_000_000_123)),
                                ("elements", .array([])), ("attaches", .array([]))])
        let send = Self.map([("chatId", .uint(100)), ("message", message), ("notify", .bool(true))])
        let first = call(.msgSend, send)
        let second = call(.msgSend, send)
        #expect(server.messages(inChat: 100).count == 1)
        #expect(first.filter(\.isPush).count == 1 && second.filter(\.isPush).isEmpty)
        // A cid already stored is answered with the field's "already exists" error, not a second message.
        #expect(second.first?.cmd == .error)
        #expect(second.first?.body == .error(.duplicateMessage(cid: 1_764_000_000_123)))
        let id = server.messages(inChat: 100)[0].id
        let edit = call(.msgEdit, Self.map([("chatId", .uint(100)), ("messageId", .int(id)),
                                            ("text", .string("hi!")), ("elements", .array([]))]))
        guard case .msgEditResponse(let edited) = edit.first?.body,
              case .notifMessage(let push) = edit.last?.body, edit.last?.cmd == .request else {
            Issue.record("expected a MSG_EDIT response and a push, got \(edit)")
            return
        }
        #expect(edited.message.status == "EDITED" && push.message == edited.message)
        let delete = call(.msgDelete, Self.map([("chatId", .uint(100)), ("messageIds", .array([.int(id)])),
                                                ("forMe", .bool(false))]))
        #expect(delete.first?.body == .empty)
        guard case .notifMsgDelete(let removal) = delete.last?.body else {
            Issue.record("expected NOTIF_MSG_DELETE, got \(delete)")
            return
        }
        #expect(removal.messageIds == [id])
        #expect(server.messages(inChat: 100)[0].isRemoved)
        #expect(server.versions(ofMessage: id, inChat: 100).map(\.text) == ["hi", "hi!", ""])
        let third = call(.msgSend, send)
        #expect(server.messages(inChat: 100).count == 1 && third.filter(\.isPush).isEmpty)
    }

    @Test("CHATS_LIST pages chats at or before the marker, newest first") mutating func chatsList() {
        server.addChat(id: 200, members: [1, 2, 3], now: now + .seconds(Int64(1)))
        _ = login("t-alice")
        let marker = server.serverTimeMilliseconds(at: now + .seconds(Int64(5)))
        guard case .chatsListResponse(let all) = call(.chatsList, Self.map([("marker", .int(marker))])).first?.body
        else {
            Issue.record("expected a CHATS_LIST response")
            return
        }
        #expect(all.chats.map(\.id) == [200, 100] && all.marker == nil)
        #expect(all.chats.first?.type == "CHAT")
    }

    @Test("a CHATS_LIST page ends where the chats' time changes: chats sharing the last one's time are not skipped")
    mutating func chatsListTies() {
        // Chats 201...203 share one `modified` time, 204 is newer; pages of two (request `count` 2).
        for id in Int64(201)...203 { server.addChat(id: id, members: [1, 2], now: now + .seconds(Int64(1))) }
        server.addChat(id: 204, members: [1, 2], now: now + .seconds(Int64(2)))
        _ = login("t-alice")
        var marker = server.serverTimeMilliseconds(at: now + .seconds(Int64(5)))
        var pages: [[Int64]] = []
        while pages.count < 5 {
            let request = Self.map([("marker", .int(marker)), ("count", .int(2))])
            guard case .chatsListResponse(let page) = call(.chatsList, request).first?.body else {
                Issue.record("expected a CHATS_LIST response")
                return
            }
            pages.append(page.chats.map(\.id))
            guard let next = page.marker else { break }
            marker = next
        }
        // 204 and the three tied chats (one page past its count), then chat 100 on its own.
        #expect(pages == [[204, 203, 202, 201], [100]])
    }

    @Test("CHAT_MARK answers {unread, mark}") mutating func chatMark() {
        server.seedHistory(chatId: 100, sender: 2, texts: ["a", "b"], now: now)
        _ = login("t-alice")
        let first = server.messages(inChat: 100)[0].id
        let packets = call(.chatMark, Self.map([("type", .string("READ_MESSAGE")), ("chatId", .uint(100)),
                                                ("messageId", .int(first)), ("mark", .int(5))]))
        guard case .chatMarkResponse(let response) = packets.first?.body else {
            Issue.record("expected a CHAT_MARK response, got \(packets)")
            return
        }
        #expect(response.unread == 1)
    }
    @Test("SET_AS_UNREAD (python-max-client 1.0.2) names no message: the read position stays, the user's other connection hears")
    mutating func setAsUnread() {
        server.seedHistory(chatId: 100, sender: 2, texts: ["a", "b"], now: now)
        _ = login("t-alice")
        // Alice's second device (another deviceId: a LOGIN from the same device replaces the older connection).
        loginAliceSecondDevice()
        _ = login("t-bob", on: 2)
        let first = server.messages(inChat: 100)[0].id
        _ = call(.chatMark, Self.map([("type", .string("READ_MESSAGE")), ("chatId", .uint(100)),
                                      ("messageId", .string(String(first))), ("mark", .int(5))]))
        let packets = call(.chatMark, Self.map([("chatId", .uint(100)), ("mark", .int(6)),
                                                ("type", .string("SET_AS_UNREAD"))]))
        guard case .chatMarkResponse(let response) = packets.first?.body,
              case .notifMark(let push) = packets.last?.body, packets.count == 2 else {
            Issue.record("expected a CHAT_MARK answer and one NOTIF_MARK, got \(packets)")
            return
        }
        #expect(response.unread == 1 && push.setAsUnread && push.userId == 1)
        #expect(server.marks(inChat: 100).first { $0.userId == 1 }?.mark == first)
        let missing = call(.chatMark, Self.map([("chatId", .uint(100)), ("mark", .int(6)),
                                                ("type", .string("READ_MESSAGE"))]))
        guard case .error(let error) = missing.first?.body else {
            Issue.record("expected an error, got \(missing)")
            return
        }
        #expect(error.error == "proto.payload" && error.message.contains("messageId"))
    }

    @Test("MSG_TYPING (python-max-client 1.0.2, before an upload) is answered {} and pushed to the other member")
    mutating func typing() throws {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let packets = call(.msgTyping, Self.map([("chatId", .uint(100)), ("type", .string("FILE"))]))
        #expect(packets.first?.body == .empty && packets.first?.cmd == .response)
        #expect(packets.last?.body == .notifTyping(NotifTyping(chatId: 100, userId: 1, type: "FILE")))
        let wire = Frame(packet: packets.last!)
        #expect(try Packet(frame: wire).body == packets.last!.body)
        let stranger = call(.msgTyping, Self.map([("chatId", .uint(555))]))
        guard case .error(let error) = stranger.first?.body else {
            Issue.record("expected an error, got \(stranger)")
            return
        }
        #expect(error.error == "chat.notFound")
    }

    @Test("CHAT_SUBSCRIBE (MaxBridge 1.8.0) is answered {} for the user's chats; CONTACT_INFO_BY_PHONE finds a user")
    mutating func subscribeAndPhone() {
        _ = login("t-alice")
        #expect(call(.chatSubscribe, Self.map([("chatId", .uint(100)), ("subscribe", .bool(true))])).first?.body
                    == .empty)
        #expect(call(.chatSubscribe, Self.map([("chatId", .string("100")), ("subscribe", .bool(false)),
                                               ("postId", .uint(3))])).first?.body == .empty)
        let found = call(.contactInfoByPhone, Self.map([("phone", .string("+7 900 000-00-02"))]))
        #expect(found.first?.body == .contactByPhoneResponse(ContactByPhoneResponse(contact: Contact(id: 2, name: "bob"))))
        let wire = Frame(packet: found[0])
        #expect((try? Packet(frame: wire))?.body == found[0].body)
        var codes: [String] = []
        for (opcode, payload) in [(Opcode.chatSubscribe, Self.map([("chatId", .uint(555))])),
                                  (.contactInfoByPhone, Self.map([("phone", .string("+79000000099"))])),
                                  (.contactInfoByPhone, Self.map([("phone", .string("none"))])),
                                  (.contactInfoByPhone, Self.map([("number", .string("1"))]))] {
            if case .error(let error) = call(opcode, payload).first?.body { codes.append(error.error) }
        }
        #expect(codes == ["chat.notFound", "contact.notFound", "contact.notFound", "proto.payload"])
    }

    @Test("ids wrapped in extension type 1, as the official clients send them (PyMax 2.5.0 unwraps them), are served")
    mutating func wrappedIds() {
        _ = login("t-alice")
        func wrapped(_ value: MessagePackValue) -> MessagePackValue { .ext(type: 1, data: value.messagePackBytes()) }
        let sent = call(.msgSend, Self.map([("chatId", wrapped(.uint(100))),
                                            ("message", Self.map([("text", .string("wrapped")),
                                                                  ("cid", wrapped(.uint(77))),
                                                                  ("elements", .array([])), ("attaches", .array([]))])),
                                            ("notify", .bool(true))]))
        guard case .msgSendResponse(let answer) = sent.first?.body else {
            Issue.record("expected a MSG_SEND answer, got \(sent)")
            return
        }
        #expect(answer.chatId == 100 && answer.message.text == "wrapped" && answer.message.cid == 77)
        let history = call(.chatHistory, Self.map([("chatId", wrapped(.uint(100))), ("from", wrapped(.uint(UInt64.max >> 2))),
                                                   ("forward", .uint(0)), ("backward", .uint(10))]))
        guard case .chatHistoryResponse(let page) = history.first?.body else {
            Issue.record("expected a CHAT_HISTORY answer, got \(history)")
            return
        }
        #expect(page.messages.map(\.text) == ["wrapped"])
    }

    @Test("SESSIONS_INFO lists the user's logged-in connections; LOGOUT ends the connection's session, not the token")
    mutating func sessionsAndLogout() {
        _ = login("t-alice")
        loginAliceSecondDevice()
        let listed = call(.sessionsInfo, Self.map([]), on: 3)
        #expect(listed.first?.body == .sessionsInfoResponse(SessionsInfoResponse(sessions: [
            SessionInfo(id: 1, deviceId: "d", current: false), SessionInfo(id: 3, deviceId: "d2", current: true),
        ])))
        #expect((try? Packet(frame: Frame(packet: listed[0])))?.body == listed[0].body)
        #expect(call(.logout, Self.map([]), on: 3).first?.body == .empty)
        guard case .error(let after) = call(.chatHistory, Self.map([("chatId", .uint(100)), ("from", .int(0)),
                                                                     ("forward", .uint(0)), ("backward", .uint(5))]),
                                            on: 3).first?.body else {
            Issue.record("expected an error after LOGOUT")
            return
        }
        #expect(after.error == "session.notLoggedIn")
        #expect(server.sessionCount(ofUser: 1) == 1)
        // The token still logs in.
        guard case .loginResponse = call(.login, Self.map([("userAgent", Self.userAgent), ("token", .string("t-alice")),
                                                           ("chatsSync", .int(-1)), ("contactsSync", .int(-1))]),
                                         on: 3).last?.body else {
            Issue.record("expected a LOGIN answer after LOGOUT")
            return
        }
    }

    @Test("CONTACT_UPDATE (PyMax 2.5.0) adds and removes contacts, as the next LOGIN lists them; bad ones are refused")
    mutating func contactUpdate() throws {
        server.addUser(id: 3, name: "carol", token: "t-carol")
        _ = login("t-alice")
        func contactIds() -> [Int64] {
            guard case .loginResponse(let response) = login("t-alice").last?.body else { return [-1] }
            return response.contacts.map(\.id)
        }
        #expect(contactIds() == [2])
        let added = call(.contactUpdate, Self.map([("contactId", .uint(3)), ("action", .string("ADD"))]))
        #expect(added.first?.body == .contactByPhoneResponse(ContactByPhoneResponse(contact: Contact(id: 3, name: "carol"))))
        #expect((try? Packet(frame: Frame(packet: added[0])))?.body == added[0].body)
        #expect(contactIds() == [2, 3])
        // A decimal-string id, as other clients send ids; a chat partner removed leaves the list.
        #expect(call(.contactUpdate, Self.map([("contactId", .string("2")), ("action", .string("REMOVE"))])).first?.body
                    == .empty)
        #expect(contactIds() == [3])
        let request = ContactUpdateRequest(contactId: 3, action: "REMOVE")
        let wire = try MessagePackEncoder().encode(request)
        #expect(try MessagePackDecoder().decode(ContactUpdateRequest.self, from: wire) == request)
        var codes: [String] = []
        for payload in [Self.map([("contactId", .uint(99)), ("action", .string("ADD"))]),
                        Self.map([("contactId", .uint(1)), ("action", .string("ADD"))]),
                        Self.map([("contactId", .uint(3)), ("action", .string("BLOCK"))]),
                        Self.map([("contactId", .uint(3))])] {
            if case .error(let error) = call(.contactUpdate, payload).first?.body { codes.append(error.error) }
        }
        #expect(codes == ["contact.notFound", "contact.notFound", "proto.payload", "proto.payload"])
    }

    @Test("SESSIONS_CLOSE (PyMax 2.5.0) closes the user's other connections and answers the asking one's token")
    mutating func sessionsClose() {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        // Another device of alice's (the same device's LOGIN would replace connection 1 by itself).
        loginAliceSecondDevice()
        #expect(server.sessionCount(ofUser: 1) == 2)
        let packet = try! Packet(frame: Frame(cmd: .request, seq: 90, opcode: .sessionsClose, payload: Self.map([])))
        let actions = server.handle(.packetReceived(packet, on: ServerConnectionID(rawValue: 3)), now: now)
        #expect(actions == [
            .send(Packet(cmd: .response, seq: 90, opcode: .sessionsClose,
                         body: .sessionsCloseResponse(SessionsCloseResponse(token: "t-alice"))),
                  on: ServerConnectionID(rawValue: 3)),
            .close(ServerConnectionID(rawValue: 1)),
        ])
        #expect(server.sessionCount(ofUser: 1) == 1 && server.sessionCount(ofUser: 2) == 1)
        let wire = Frame(packet: Packet(cmd: .response, seq: 90, opcode: .sessionsClose,
                                        body: .sessionsCloseResponse(SessionsCloseResponse(token: "t-alice"))))
        #expect((try? Packet(frame: wire))?.body == .sessionsCloseResponse(SessionsCloseResponse(token: "t-alice")))
        _ = server.handle(.connectionOpened(ServerConnectionID(rawValue: 4)), now: now)
        guard case .error(let error) = call(.sessionsClose, Self.map([]), on: 4).first?.body else {
            Issue.record("expected an error before LOGIN")
            return
        }
        #expect(error.error == "session.notLoggedIn")
    }

    @Test("ids sent as decimal strings (vkmax 1.0.2's MSG_EDIT messageId) are read as the integers they spell")
    mutating func stringIds() {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let sent = call(.msgSend, Self.map([("chatId", .string("100")), ("message", Self.map([
            ("text", .string("hi")), ("cid", .uint(7)), ("elements", .array([])), ("attaches", .array([]))]))]))
        guard case .msgSendResponse(let response) = sent.first?.body else {
            Issue.record("expected a MSG_SEND response to a string chatId, got \(sent)")
            return
        }
        let id = response.message.id
        let edited = call(.msgEdit, Self.map([("chatId", .uint(100)), ("messageId", .string(String(id))),
                                              ("text", .string("edited")), ("elements", .array([])),
                                              ("attachments", .array([]))]))
        guard case .msgEditResponse(let edit) = edited.first?.body else {
            Issue.record("expected a MSG_EDIT response to a string messageId, got \(edited)")
            return
        }
        #expect(edit.message.id == id && edit.message.text == "edited")
        let marked = call(.chatMark, Self.map([("type", .string("READ_MESSAGE")), ("chatId", .string("100")),
                                               ("messageId", .string(String(id))), ("mark", .uint(1))]), on: 2)
        #expect(marked.first?.cmd == .response)
        let deleted = call(.msgDelete, Self.map([("chatId", .uint(100)), ("messageIds", .array([.string(String(id))])),
                                                 ("forMe", .bool(false))]))
        #expect(deleted.first?.body == .empty)
        #expect(server.messages(inChat: 100).first { $0.id == id }?.isRemoved == true)
        // A group made and grown with user ids and the cid as strings.
        let control = Self.map([("_type", .string("CONTROL")), ("event", .string("new")), ("chatType", .string("CHAT")),
                                ("title", .string("T")), ("userIds", .array([.string("2")]))])
        let made = call(.msgSend, Self.map([("message", Self.map([("cid", .string("8")),
                                                                  ("attaches", .array([control]))]))]))
        guard case .msgSendResponse(let group) = made.first?.body else {
            Issue.record("expected a group made from string ids, got \(made)")
            return
        }
        #expect(group.chat?.members == [1, 2])
        server.addUser(id: 3, name: "carol", token: "t-carol")
        let grown = call(.chatMembersUpdate, Self.map([("chatId", .string(String(group.chatId))),
                                                       ("userIds", .array([.string("3")])), ("operation", .string("add"))]))
        #expect(grown.first?.cmd == .response && server.members(ofChat: group.chatId) == [1, 2, 3])
    }

    @Test("an id string that spells no Int64 is an error naming the key and the string")
    mutating func badStringId() {
        _ = login("t-alice")
        let packets = call(.msgEdit, Self.map([("chatId", .uint(100)), ("messageId", .string("sixty-one")),
                                               ("text", .string("x"))]))
        guard case .error(let error) = packets.first?.body else {
            Issue.record("expected an error, got \(packets)")
            return
        }
        #expect(error.error == "proto.payload")
        #expect(error.message == "MSG_EDIT payload has a bad value at `messageId`: expected Int64 or its decimal "
            + "string, found \"sixty-one\"")
        let boolean = call(.msgEdit, Self.map([("chatId", .uint(100)), ("messageId", .bool(true))]))
        guard case .error(let typeError) = boolean.first?.body else {
            Issue.record("expected an error, got \(boolean)")
            return
        }
        #expect(typeError.message.contains("`messageId`") && typeError.message.contains("Int64"))
    }

    @Test("CONTACT_INFO (vkmax's resolve_users, PyMax's fetch_users) lists the known users asked about, in order")
    mutating func contactInfo() {
        let early = call(.contactInfo, Self.map([("contactIds", .array([.uint(2)]))]))
        guard case .error(let error) = early.first?.body else {
            Issue.record("expected an error before LOGIN, got \(early)")
            return
        }
        #expect(error.error == "session.notLoggedIn")
        _ = login("t-alice")
        let packets = call(.contactInfo, Self.map([("contactIds", .array([.uint(2), .uint(999), .string("1")]))]))
        guard case .contactInfoResponse(let response) = packets.first?.body else {
            Issue.record("expected a CONTACT_INFO response, got \(packets)")
            return
        }
        #expect(response.contacts.map(\.id) == [2, 1])
        #expect(response.contacts.map(\.name) == ["bob", "alice"])
    }

    @Test("a malformed CONTACT_INFO, CHAT_INFO or MSG_GET is a payload error naming the key, not an unknown opcode",
          arguments: [Opcode.contactInfo, .chatInfo, .msgGet])
    mutating func lookupPayloadErrors(opcode: Opcode) {
        _ = login("t-alice")
        guard case .error(let error) = call(opcode, Self.map([])).first?.body else {
            Issue.record("expected an error")
            return
        }
        #expect(error.error == "proto.payload")
        #expect(error.message.contains("lacks the key"))
    }

    /// PyMax 2.5.0 `get_chats` for ids it has not cached, vkmax `resolve_channel_id`.
    @Test("CHAT_INFO lists the user's chats asked about, as LOGIN lists them; others are left out")
    mutating func chatInfo() {
        server.addChat(id: 200, members: [2], now: now)
        _ = login("t-alice")
        let packets = call(.chatInfo, Self.map([("chatIds", .array([.uint(200), .string("100"), .uint(999)]))]))
        guard case .chatInfoResponse(let response) = packets.first?.body else {
            Issue.record("expected a CHAT_INFO response, got \(packets)")
            return
        }
        #expect(response.chats.map(\.id) == [100])
        #expect(response.chats.first?.type == "DIALOG")
    }

    /// PyMax 2.5.0 `get_message(s)`: the messages asked for in the order asked, unknown ids left out, removed ones
    /// with their status; a chat not the user's is an error.
    @Test("MSG_GET returns the chat's messages by id in the order asked") mutating func msgGet() {
        server.seedHistory(chatId: 100, sender: 2, texts: ["one", "two", "three"], now: now)
        server.addChat(id: 200, members: [2], now: now)
        _ = login("t-alice")
        let packets = call(.msgGet, Self.map([("chatId", .uint(100)),
                                              ("messageIds", .array([.uint(3), .string("1"), .uint(77)]))]))
        guard case .msgGetResponse(let response) = packets.first?.body else {
            Issue.record("expected a MSG_GET response, got \(packets)")
            return
        }
        #expect(response.messages.map(\.text) == ["three", "one"])
        guard case .error(let error) = call(.msgGet, Self.map([("chatId", .uint(200)),
                                                               ("messageIds", .array([.uint(1)]))])).first?.body
        else {
            Issue.record("expected an error for another's chat")
            return
        }
        #expect(error.error == "chat.notFound")
    }

    /// PyMax 2.5.0 `send_message(reply_to:)` (an integer id) and `forward_message` (a string id and the source chat),
    /// vkmax `reply_message` (a string id): the stored message carries `{type, chatId, message}`, in the answer, the
    /// push and history, through the wire and back.
    @Test("a reply and a forward are stored with their link; a link to no message is an error")
    mutating func replyAndForwardLinks() throws {
        server.seedHistory(chatId: 100, sender: 2, texts: ["question"], now: now)
        server.addChat(id: 300, members: [1, 2], now: now)
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        func send(_ chatId: Int64, _ text: String, cid: Int64, link: [(String, MessagePackValue)]) -> [Packet] {
            call(.msgSend, Self.map([("chatId", .uint(UInt64(chatId))), ("message", Self.map([
                ("text", .string(text)), ("cid", .uint(UInt64(cid))), ("elements", .array([])),
                ("attaches", .array([])), ("link", Self.map(link)),
            ])), ("notify", .bool(true))]))
        }
        let reply = send(100, "answer", cid: 11, link: [("type", .string("REPLY")), ("messageId", .uint(1))])
        guard case .msgSendResponse(let answer) = reply.first?.body else {
            Issue.record("expected a MSG_SEND answer, got \(reply)")
            return
        }
        let link = try #require(answer.message.link)
        #expect(link.type == "REPLY" && link.chatId == 100 && link.message.text == "question")
        // The push to bob carries it too, and it survives encoding and decoding.
        guard case .notifMessage(let push) = reply.last?.body else {
            Issue.record("expected a push to bob, got \(reply)")
            return
        }
        #expect(push.message.link == link)
        let wire = try FrameEncoder().encode(try #require(reply.last))
        var decoder = FrameDecoder()
        var buffer = ByteReader(wire)
        let decoded = try Packet(frame: try #require(try decoder.decode(&buffer)))
        #expect(decoded == reply.last)
        let forward = send(300, "", cid: 12, link: [("type", .string("FORWARD")), ("messageId", .string("1")),
                                                    ("chatId", .uint(100))])
        guard case .msgSendResponse(let forwarded) = forward.first?.body else {
            Issue.record("expected a MSG_SEND answer, got \(forward)")
            return
        }
        #expect(forwarded.message.link?.type == "FORWARD" && forwarded.message.link?.chatId == 100)
        #expect(forwarded.message.link?.message.id == 1)
        guard case .error(let error) = send(100, "x", cid: 13, link: [("type", .string("REPLY")),
                                                                      ("messageId", .uint(999))]).first?.body else {
            Issue.record("expected an error for a link to no message")
            return
        }
        #expect(error.error == "message.notFound")
        #expect(server.messages(inChat: 100).count == 2)
    }

    /// PyMax 2.5.0 `add_reaction`, `get_reactions`, `remove_reaction` (and 1.2.5's, with string ids): one reaction per
    /// user and message, counted by reaction; the other member gets NOTIF_MSG_REACTIONS_CHANGED with the counts at the
    /// top level.
    @Test("reactions: one per user, counted, pushed to the other member, taken back; removed messages refuse them")
    mutating func reactions() {
        server.seedHistory(chatId: 100, sender: 2, texts: ["one", "two"], now: now)
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        func react(_ emoji: String, to messageId: MessagePackValue, on connection: Int) -> [Packet] {
            call(.msgReaction, Self.map([("chatId", .uint(100)), ("messageId", messageId), ("reaction", Self.map([
                ("reactionType", .string("EMOJI")), ("id", .string(emoji)),
            ]))]), on: connection)
        }
        _ = react("👍", to: .uint(1), on: 1)
        let second = react("🔥", to: .string("1"), on: 2)
        guard case .msgReactionResponse(let answer) = second.first?.body else {
            Issue.record("expected a MSG_REACTION answer, got \(second)")
            return
        }
        #expect(answer.reactionInfo == ReactionInfo(
            totalCount: 2, counters: [ReactionCounter(count: 1, reaction: "👍"), ReactionCounter(count: 1, reaction: "🔥")],
            yourReaction: "🔥"))
        guard case .notifMsgReactionsChanged(let push) = second.last?.body else {
            Issue.record("expected a push to alice, got \(second)")
            return
        }
        #expect(push.chatId == 100 && push.messageId == 1 && push.totalCount == 2)
        // Bob changes his mind: still one reaction of his.
        _ = react("👍", to: .uint(1), on: 2)
        let got = call(.msgGetReactions, Self.map([("chatId", .uint(100)), ("messageIds", .array([.uint(2), .uint(1)]))]))
        guard case .msgGetReactionsResponse(let all) = got.first?.body else {
            Issue.record("expected a MSG_GET_REACTIONS answer, got \(got)")
            return
        }
        #expect(all.messagesReactions.map(\.messageId) == [1, 2])
        #expect(all.messagesReactions.first?.reactionInfo == ReactionInfo(
            totalCount: 2, counters: [ReactionCounter(count: 2, reaction: "👍")], yourReaction: "👍"))
        #expect(all.messagesReactions.last?.reactionInfo == ReactionInfo(totalCount: 0, counters: []))
        let cancelled = call(.msgCancelReaction, Self.map([("chatId", .uint(100)), ("messageId", .uint(1))]))
        guard case .msgReactionResponse(let after) = cancelled.first?.body else {
            Issue.record("expected a MSG_CANCEL_REACTION answer, got \(cancelled)")
            return
        }
        #expect(after.reactionInfo == ReactionInfo(totalCount: 1, counters: [ReactionCounter(count: 1, reaction: "👍")]))
        guard case .error(let error) = react("👍", to: .uint(99), on: 1).first?.body else {
            Issue.record("expected an error for an unknown message")
            return
        }
        #expect(error.error == "message.notFound")
    }

    /// python-max-client 1.0.2 `react_to_message` sends MSG_GET_DETAILED_REACTIONS 181 `{chatId, messageId (a string),
    /// count: 100}` after each reaction (PyMax 2.5.0 only names the opcode, `pymax/protocol/enums.py`). Before session
    /// 39 it was answered `proto.opcode`; the server keeps who gave which reaction, so it answers from that.
    @Test("MSG_GET_DETAILED_REACTIONS lists who gave which reaction, at most count; unknown messages are refused")
    mutating func detailedReactions() {
        server.seedHistory(chatId: 100, sender: 2, texts: ["one", "two"], now: now)
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        for (emoji, connection) in [("👍", 1), ("🔥", 2)] {
            _ = call(.msgReaction, Self.map([("chatId", .uint(100)), ("messageId", .uint(1)), ("reaction", Self.map([
                ("reactionType", .string("EMOJI")), ("id", .string(emoji)),
            ]))]), on: connection)
        }
        let got = call(.msgGetDetailedReactions, Self.map([("chatId", .uint(100)), ("messageId", .string("1")),
                                                           ("count", .uint(100))]), on: 2)
        guard case .msgGetDetailedReactionsResponse(let answer) = got.first?.body, got.first?.cmd == .response else {
            Issue.record("expected a MSG_GET_DETAILED_REACTIONS answer, got \(got)")
            return
        }
        #expect(answer.reactions == [ReactionUser(userId: 1, reaction: "👍"), ReactionUser(userId: 2, reaction: "🔥")])
        #expect(answer.reactionInfo.totalCount == 2 && answer.reactionInfo.yourReaction == "🔥")
        let one = call(.msgGetDetailedReactions, Self.map([("chatId", .uint(100)), ("messageId", .uint(1)),
                                                           ("count", .uint(1))]))
        guard case .msgGetDetailedReactionsResponse(let first) = one.first?.body else {
            Issue.record("expected an answer, got \(one)")
            return
        }
        #expect(first.reactions == [ReactionUser(userId: 1, reaction: "👍")])
        let none = call(.msgGetDetailedReactions, Self.map([("chatId", .uint(100)), ("messageId", .uint(2))]))
        guard case .msgGetDetailedReactionsResponse(let empty) = none.first?.body else {
            Issue.record("expected an answer, got \(none)")
            return
        }
        #expect(empty.reactions.isEmpty && empty.reactionInfo.totalCount == 0)
        #expect(Self.errorCode(call(.msgGetDetailedReactions, Self.map([("chatId", .uint(100)),
                                                                         ("messageId", .uint(99))]))) == "message.notFound")
        #expect(Self.errorCode(call(.msgGetDetailedReactions, Self.map([("chatId", .uint(100))]))) == "proto.payload")
    }

    /// PyMax 2.5.0 `pin_message` (and vkmax's, with a string id) and `change_group_profile`: the answer and the other
    /// member's NOTIF_CHAT carry the chat with its pin, title and description; LOGIN lists them too.
    @Test("CHAT_UPDATE pins a message, names the chat, pushes NOTIF_CHAT; 0 unpins; a deleted pin is not shown")
    mutating func pinsAndTitles() throws {
        server.seedHistory(chatId: 100, sender: 1, texts: ["one", "two"], now: now)
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let pinned = call(.chatUpdate, Self.map([("chatId", .uint(100)), ("notifyPin", .bool(true)),
                                                 ("pinMessageId", .string("2"))]))
        guard case .chatUpdateResponse(let answer) = pinned.first?.body,
              case .notifChat(let push) = pinned.last?.body, pinned.last?.cmd == .request else {
            Issue.record("expected a CHAT_UPDATE answer and a NOTIF_CHAT push, got \(pinned)")
            return
        }
        #expect(answer.chat.pinnedMessage?.id == 2 && answer.chat.pinnedMessage?.text == "two")
        #expect(push.chat == answer.chat && pinned.count == 2)
        // Through the wire and back: the pin survives encoding, and the fast decoders leave it to Codable.
        let frame = Frame(packet: pinned.last!)
        #expect(try Packet(frame: frame).body == .notifChat(push))
        let named = call(.chatUpdate, Self.map([("chatId", .uint(100)), ("theme", .string("Team")),
                                                ("description", .string("our chat"))]), on: 2)
        guard case .chatUpdateResponse(let renamed) = named.first?.body else {
            Issue.record("expected a CHAT_UPDATE answer, got \(named)")
            return
        }
        #expect(renamed.chat.title == "Team" && renamed.chat.descriptionText == "our chat")
        #expect(renamed.chat.pinnedMessage?.id == 2)
        guard case .loginResponse(let login) = login("t-alice", on: 1).last?.body else {
            Issue.record("expected a LOGIN answer")
            return
        }
        #expect(login.chats.first?.pinnedMessage?.id == 2 && login.chats.first?.title == "Team")
        // LOGIN's fast encoder writes the pin, and its fast decoder leaves such an entry to Codable.
        let loginPacket = Packet(cmd: .response, seq: 1, opcode: .login, body: .loginResponse(login))
        #expect(try Packet(frame: Frame(packet: loginPacket)).body == .loginResponse(login))
        _ = call(.msgDelete, Self.map([("chatId", .uint(100)), ("messageIds", .array([.uint(2)]))]))
        #expect(server.summary(ofChat: 100)?.pinnedMessage == nil)
        let unknown = call(.chatUpdate, Self.map([("chatId", .uint(100)), ("pinMessageId", .uint(99))]))
        let options = call(.chatUpdate, Self.map([("chatId", .uint(100)), ("options", Self.map([]))]))
        guard case .error(let missing) = unknown.first?.body, case .error(let unmodeled) = options.first?.body else {
            Issue.record("expected errors, got \(unknown) and \(options)")
            return
        }
        #expect(missing.error == "message.notFound")
        #expect(unmodeled.error == "proto.payload" && unmodeled.message.contains("pinMessageId"))
        _ = call(.chatUpdate, Self.map([("chatId", .uint(100)), ("pinMessageId", .uint(1))]))
        #expect(server.summary(ofChat: 100)?.pinnedMessage?.id == 1)
        _ = call(.chatUpdate, Self.map([("chatId", .uint(100)), ("pinMessageId", .uint(0))]))
        #expect(server.summary(ofChat: 100)?.pinnedMessage == nil && server.summary(ofChat: 100)?.title == "Team")
        // python-max-client 1.0.2 names the pin `messageId`, beside `notifyPin`; it is written back that way.
        let forkPin = Self.map([("chatId", .uint(100)), ("notifyPin", .bool(false)), ("messageId", .string("1"))])
        _ = call(.chatUpdate, forkPin)
        #expect(server.summary(ofChat: 100)?.pinnedMessage?.id == 1)
        let request = try MessagePackDecoder().decode(ChatUpdateRequest.self, from: forkPin)
        #expect(request.pinMessageId == 1 && request.pinKeyIsMessageId)
        let written = try MessagePackEncoder().encode(request)
        guard case .map(let pairs) = written else {
            Issue.record("expected a map, got \(written)")
            return
        }
        #expect(pairs.map(\.key) == [.string("chatId"), .string("notifyPin"), .string("messageId")])
        #expect(try MessagePackDecoder().decode(ChatUpdateRequest.self, from: written) == request)
    }

    /// PyMax 1.2.5 hears of a delete only from a NOTIF_MESSAGE whose message is REMOVED; PyMax 2.x from
    /// NOTIF_MSG_DELETE. Each connection gets its own shape, and only one.
    @Test("a delete reaches each connection in its DeleteNotice shape, one NOTIF_MESSAGE per removed message")
    mutating func deleteNoticePerConnection() {
        server.seedHistory(chatId: 100, sender: 1, texts: ["one", "two"], now: now)
        server.knobs.replacesOlderSessions = false  // bob's two connections name one device
        _ = server.handle(.connectionOpened(ServerConnectionID(rawValue: 3)), now: now)
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        _ = login("t-bob", on: 3)
        server.setDeleteNotice(.removedMessage, of: ServerConnectionID(rawValue: 3))
        let delete = server.handle(.packetReceived(Packet(
            cmd: .request, seq: 9, opcode: .msgDelete, body: .msgDelete(MsgDeleteRequest(chatId: 100, messageIds: [1, 2]))),
            on: ServerConnectionID(rawValue: 1)), now: now)
        let sent = delete.compactMap { if case .send(let packet, let connection) = $0 { (packet, connection.rawValue) } else { nil } }
        #expect(sent.map(\.1) == [1, 2, 3, 3])
        #expect(sent.map(\.0.opcode) == [.msgDelete, .notifMsgDelete, .notifMessage, .notifMessage])
        let removed = sent.compactMap { if case .notifMessage(let push) = $0.0.body { push.message } else { nil } }
        #expect(removed.map(\.id) == [1, 2] && removed.allSatisfy { $0.status == "REMOVED" && $0.text.isEmpty })
    }

    /// PyMax 2.5.0's `create_group` payload: MSG_SEND without chatId, one CONTROL attachment.
    static func createGroup(cid: Int64, title: String, userIds: [Int64]) -> MessagePackValue {
        let control = map([("_type", .string("CONTROL")), ("event", .string("new")), ("chatType", .string("CHAT")),
                           ("title", .string(title)), ("userIds", .array(userIds.map { .uint(UInt64($0)) }))])
        return map([("message", map([("cid", .uint(UInt64(cid))), ("attaches", .array([control]))])),
                    ("notify", .bool(true))])
    }

    @Test("a group: made by a MSG_SEND without chatId (once per cid), its members changed, left; the others hear")
    mutating func groups() throws {
        server.addUser(id: 3, name: "carol", token: "t-carol")
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let made = call(.msgSend, Self.createGroup(cid: 7, title: "Team", userIds: [2]))
        guard case .msgSendResponse(let answer) = made.first?.body, let group = answer.chat else {
            Issue.record("expected a MSG_SEND answer with the chat, got \(made)")
            return
        }
        #expect(group.id == 101 && answer.chatId == 101 && group.members == [1, 2] && group.type == "CHAT"
                && group.owner == 1 && group.title == "Team")
        #expect(answer.message.attaches == [.control(event: "new", chatType: "CHAT", title: "Team", userIds: [2])])
        #expect(made.dropFirst().map(\.opcode) == [.notifChat, .notifMessage])
        // Through the wire and back: the answer's chat survives; the fast decoder leaves it to Codable.
        #expect(try Packet(frame: Frame(packet: made[0])).body == made[0].body)
        let again = call(.msgSend, Self.createGroup(cid: 7, title: "Team", userIds: [2]))
        #expect(again.count == 1 && again.first?.body == made.first?.body && server.chatIds == [100, 101])

        let added = call(.chatMembersUpdate, Self.map([("chatId", .uint(101)), ("userIds", .array([.uint(3)])),
                                                       ("showHistory", .bool(true)), ("operation", .string("add"))]))
        guard case .chatMembersUpdateResponse(let grown) = added.first?.body else {
            Issue.record("expected a CHAT_MEMBERS_UPDATE answer, got \(added)")
            return
        }
        #expect(grown.chat.members == [1, 2, 3] && server.members(ofChat: 101) == [1, 2, 3])
        // The per-user index V1 reads at a run's end follows every change of members: the chats found by scanning.
        func expectMemberIndex(_ expected: [Int64: [Int64]], sourceLocation: SourceLocation = #_sourceLocation) {
            for user: Int64 in 1...4 {
                let scanned = server.chatIds.filter { server.members(ofChat: $0).contains(user) }
                #expect(server.chatIds(ofMember: user) == scanned && scanned == expected[user, default: []],
                        "user \(user)", sourceLocation: sourceLocation)
            }
        }
        expectMemberIndex([1: [100, 101], 2: [100, 101], 3: [101]])
        // CHAT_MEMBERS pages them by user id; the marker is the last one's id while more follow.
        var pages: [([Int64], Int64)] = []
        for marker: UInt64 in [0, 2] {
            let page = call(.chatMembers, Self.map([("type", .string("MEMBER")), ("chatId", .uint(101)),
                                                    ("marker", .uint(marker)), ("count", .uint(2))]))
            if case .chatMembersResponse(let members) = page.first?.body {
                pages.append((members.members.map(\.contact.id), members.marker))
            }
        }
        #expect(pages.map(\.0) == [[1, 2], [3]] && pages.map(\.1) == [2, 0])
        let removed = call(.chatMembersUpdate, Self.map([("chatId", .uint(101)), ("userIds", .array([.uint(2)])),
                                                         ("operation", .string("remove")),
                                                         ("cleanMsgPeriod", .uint(0))]))
        // Bob, removed, hears of it on his connection (2): the chat without him, and the service message.
        #expect(removed.map(\.opcode) == [.chatMembersUpdate, .notifChat, .notifMessage])
        #expect(server.members(ofChat: 101) == [1, 3])
        expectMemberIndex([1: [100, 101], 2: [100], 3: [101]])
        let left = call(.chatLeave, Self.map([("chatId", .uint(101))]))
        #expect(left.first?.body == .empty && server.members(ofChat: 101) == [3])
        expectMemberIndex([1: [100], 2: [100], 3: [101]])
        let history = server.messages(inChat: 101).compactMap { $0.attaches?.first?.event }
        #expect(history == ["new", "add", "remove", "leave"])

        // A dialog is no group; unknown users and chats are refused; a malformed creation names what it lacks.
        _ = login("t-alice")
        let refusals = [
            call(.chatLeave, Self.map([("chatId", .uint(100))])),
            call(.msgSend, Self.createGroup(cid: 8, title: "X", userIds: [99])),
            call(.chatMembersUpdate, Self.map([("chatId", .uint(101)), ("userIds", .array([.uint(2)])),
                                              ("operation", .string("add"))])),
            call(.msgSend, Self.map([("message", Self.map([("cid", .uint(9)), ("attaches", .array([]))]))])),
            call(.chatMembersUpdate, Self.map([("chatId", .uint(100)), ("userIds", .array([])),
                                              ("operation", .string("mute"))])),
            call(.msgSend, Self.map([("message", Self.map([("cid", .uint(10)), ("attaches", .array([Self.map([
                ("_type", .string("CONTROL")), ("event", .string("new")), ("title", .string("News")),
                ("chatType", .string("CHANNEL"))])]))]))])),
        ]
        let codes = refusals.map { packets -> String in
            if case .error(let error) = packets.first?.body { error.error + ": " + error.message } else { "none" }
        }
        #expect(codes[0].hasPrefix("chat.notGroup: "))
        #expect(codes[1] == "user.notFound: user 99 is unknown")
        #expect(codes[2].hasPrefix("chat.notFound: "))
        #expect(codes[3].hasPrefix("proto.payload: ") && codes[3].contains("CONTROL"))
        #expect(codes[4].hasPrefix("proto.payload: ") && codes[4].contains("operation"))
        // vkmax's `create_channel`: a channel is not modelled, and is refused by name rather than made as a group.
        #expect(codes[5].hasPrefix("proto.payload: ") && codes[5].contains("chatType \"CHANNEL\" is not modelled"))
    }

    /// The error code of a call's first packet, or "none".
    static func errorCode(_ packets: [Packet]) -> String {
        if case .error(let error) = packets.first?.body { error.error } else { "none" }
    }

    @Test("invite links: CHAT_UPDATE makes one (a new one revokes it), LINK_INFO shows the group, CHAT_JOIN joins once, with the group's cid")
    mutating func inviteLinks() throws {
        server.addUser(id: 3, name: "carol", token: "t-carol")
        _ = server.handle(.connectionOpened(ServerConnectionID(rawValue: 3)), now: now)
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        _ = call(.msgSend, Self.createGroup(cid: 7, title: "Team", userIds: [2]))
        func chat(_ packets: [Packet]) -> ChatSummary? {
            if case .chatUpdateResponse(let answer) = packets.first?.body { answer.chat } else { nil }
        }
        let first = chat(call(.chatUpdate, Self.map([("revokePrivateLink", .bool(true)), ("chatId", .uint(101))])))
        #expect(first?.link == "https://syncsim.invalid/join/g101-1")
        // PyMax sends the link from `join/` on; the whole address is taken too.
        _ = login("t-carol", on: 3)
        let shown = chat(call(.linkInfo, Self.map([("link", .string("join/g101-1"))]), on: 3))
        #expect(shown?.id == 101 && shown?.title == "Team" && server.members(ofChat: 101) == [1, 2])
        // A new link: the old one leads nowhere.
        let second = chat(call(.chatUpdate, Self.map([("chatId", .uint(101)), ("revokePrivateLink", .bool(true))])))
        #expect(second?.link == "https://syncsim.invalid/join/g101-2")
        #expect(Self.errorCode(call(.chatJoin, Self.map([("link", .string("join/g101-1"))]), on: 3)) == "link.notFound")
        let joined = call(.chatJoin, Self.map([("link", .string("https://syncsim.invalid/join/g101-2"))]), on: 3)
        #expect(chat(joined)?.members == [1, 2, 3] && server.members(ofChat: 101) == [1, 2, 3])
        // Alice and bob hear of it: the chat, then the service message naming carol.
        #expect(joined.dropFirst().map(\.opcode).sorted() == [.notifMessage, .notifMessage, .notifChat, .notifChat])
        #expect(server.messages(inChat: 101).last?.attaches == [.control(event: "joinByLink", userIds: [3])])
        // Joining again changes nothing.
        let again = call(.chatJoin, Self.map([("link", .string("join/g101-2"))]), on: 3)
        #expect(again.count == 1 && chat(again)?.members == [1, 2, 3] && server.messages(inChat: 101).count == 2)
        // Through the wire and back, the link survives (a group of three owned by its lowest member reads back
        // without `groupOwner`: `ChatSummary.groupOwner`).
        let decoded = chat([try Packet(frame: Frame(packet: joined[0]))])
        #expect(decoded?.link == "https://syncsim.invalid/join/g101-2" && decoded?.members == [1, 2, 3])
        // The group carries the cid of the MSG_SEND that made it (vkmax 1.0.2's `join_group_by_link` reads it from
        // CHAT_JOIN's answer and pages history from it); a scenario's dialog has none.
        #expect(chat(joined)?.cid == 7 && decoded?.cid == 7 && shown?.cid == 7)
        #expect(server.summary(ofChat: 100)?.cid == nil)
        // A scenario's group has no cid until its first link, which gives it one (the server's milliseconds then),
        // so that CHAT_JOIN's answer carries a cid for every group (a KeyError in vkmax otherwise).
        server.addChat(id: 300, members: [1, 2, 3], now: now)
        #expect(server.summary(ofChat: 300)?.cid == nil)
        let scenarioLink = chat(call(.chatUpdate, Self.map([("chatId", .uint(300)), ("revokePrivateLink", .bool(true))])))
        let scenarioCid = try #require(scenarioLink?.cid)
        #expect(scenarioCid == server.serverTimeMilliseconds(at: now))
        _ = call(.chatUpdate, Self.map([("chatId", .uint(300)), ("revokePrivateLink", .bool(true))]))
        #expect(server.summary(ofChat: 300)?.cid == scenarioCid)

        // A dialog has no link; a link without a token, or before LOGIN, is refused.
        #expect(Self.errorCode(call(.chatUpdate, Self.map([("chatId", .uint(100)), ("revokePrivateLink", .bool(true))])))
                == "chat.notGroup")
        #expect(Self.errorCode(call(.linkInfo, Self.map([("link", .string("https://syncsim.invalid/"))]))) == "link.notFound")
        _ = server.handle(.connectionOpened(ServerConnectionID(rawValue: 4)), now: now)
        #expect(Self.errorCode(call(.chatJoin, Self.map([("link", .string("join/g101-2"))]), on: 4))
                == "session.notLoggedIn")
        #expect(Self.errorCode(call(.chatJoin, Self.map([("url", .string("join/g101-2"))]))) == "proto.payload")
    }

    @Test("CHAT_UPDATE options set a group's settings, kept by name and sent in name order")
    mutating func groupOptions() throws {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        _ = call(.msgSend, Self.createGroup(cid: 7, title: "Team", userIds: [2]))
        let set = call(.chatUpdate, Self.map([("chatId", .uint(101)), ("options", Self.map([
            ("ONLY_ADMIN_CAN_ADD_MEMBER", .bool(true)), ("ALL_CAN_PIN_MESSAGE", .bool(false)),
        ]))]))
        guard case .chatUpdateResponse(let answer) = set.first?.body else {
            Issue.record("expected a CHAT_UPDATE answer, got \(set)")
            return
        }
        #expect(answer.chat.options == ["ONLY_ADMIN_CAN_ADD_MEMBER": true, "ALL_CAN_PIN_MESSAGE": false])
        #expect(set.dropFirst().map(\.opcode) == [.notifChat])
        let wire = try MessagePackEncoder().encode(answer)
        guard case .map(let top) = wire, case .map(let chat) = top.first?.value,
              case .map(let options) = chat.first(where: { $0.key == .string("options") })?.value else {
            Issue.record("no options map in \(wire)")
            return
        }
        #expect(options.map(\.key) == [.string("ALL_CAN_PIN_MESSAGE"), .string("ONLY_ADMIN_CAN_ADD_MEMBER")])
        let changed = call(.chatUpdate, Self.map([("chatId", .uint(101)), ("options", Self.map([
            ("ALL_CAN_PIN_MESSAGE", .bool(true)),
        ]))]))
        if case .chatUpdateResponse(let later) = changed.first?.body {
            #expect(later.chat.options == ["ONLY_ADMIN_CAN_ADD_MEMBER": true, "ALL_CAN_PIN_MESSAGE": true])
        }
        #expect(Self.errorCode(call(.chatUpdate, Self.map([("chatId", .uint(100)), ("options", Self.map([
            ("ALL_CAN_PIN_MESSAGE", .bool(true)),
        ]))]))) == "chat.notGroup")
    }

    @Test("folders: FOLDERS_UPDATE creates and replaces by id, FOLDERS_GET lists in order, FOLDERS_DELETE removes")
    mutating func folders() throws {
        _ = login("t-alice")
        func answer(_ packets: [Packet]) -> FoldersResponse? {
            if case .foldersResponse(let answer) = packets.first?.body { answer } else { nil }
        }
        let empty = answer(call(.foldersGet, Self.map([("folderSync", .uint(0))])))
        #expect(empty?.folders == [] && empty?.foldersOrder == [] && empty?.folderSync == 0)
        let made = answer(call(.foldersUpdate, Self.map([
            ("id", .string("f-1")), ("title", .string("Work")), ("include", .array([.uint(100)])),
            ("filters", .array([])),
        ])))
        #expect(made?.folder?.title == "Work" && made?.folder?.include == [100] && made?.foldersOrder == ["f-1"])
        let second = answer(call(.foldersUpdate, Self.map([
            ("id", .string("f-2")), ("title", .string("Family")), ("include", .array([])),
            ("filters", .array([.string("UNREAD")])), ("options", .array([])),
        ])))
        #expect(second?.foldersOrder == ["f-1", "f-2"] && second!.folderSync > made!.folderSync)
        let renamed = answer(call(.foldersUpdate, Self.map([
            ("id", .string("f-1")), ("title", .string("Job")), ("include", .array([.string("100")])),
            ("filters", .array([])), ("options", .array([])),
        ])))
        #expect(renamed?.foldersOrder == ["f-1", "f-2"] && renamed?.folder?.title == "Job")
        let listed = answer(call(.foldersGet, Self.map([("folderSync", .uint(0))])))
        #expect(listed?.folders?.map(\.title) == ["Job", "Family"] && listed?.folderSync == renamed?.folderSync)
        #expect(listed?.folders?.last?.filters == [.string("UNREAD")] && listed?.allFilterExcludeFolders == [])
        // Through the wire and back.
        let get = call(.foldersGet, Self.map([]))
        #expect(try Packet(frame: Frame(packet: get[0])).body == get[0].body)
        let deleted = answer(call(.foldersDelete, Self.map([("folderIds", .array([.string("f-1")]))])))
        #expect(deleted?.foldersOrder == ["f-2"] && deleted?.folder == nil && deleted!.folderSync > renamed!.folderSync)
        // Bob has folders of his own: none.
        _ = login("t-bob", on: 2)
        #expect(answer(call(.foldersGet, Self.map([]), on: 2))?.folders == [])

        // Refused: a chat not the user's, an empty title or id, an unknown folder; nothing changes.
        #expect(Self.errorCode(call(.foldersUpdate, Self.map([
            ("id", .string("f-3")), ("title", .string("X")), ("include", .array([.uint(999)])),
        ]))) == "chat.notFound")
        #expect(Self.errorCode(call(.foldersUpdate, Self.map([
            ("id", .string("f-3")), ("title", .string("")), ("include", .array([])),
        ]))) == "proto.payload")
        #expect(Self.errorCode(call(.foldersUpdate, Self.map([
            ("id", .string("")), ("title", .string("X")), ("include", .array([])),
        ]))) == "proto.payload")
        #expect(Self.errorCode(call(.foldersDelete, Self.map([("folderIds", .array([.string("f-9")]))])))
                == "folder.notFound")
        #expect(Self.errorCode(call(.foldersUpdate, Self.map([("id", .string("f-3"))]))) == "proto.payload")
        #expect(answer(call(.foldersGet, Self.map([])))?.foldersOrder == ["f-2"])
    }

    @Test("PROFILE renames the user (LOGIN and CONTACT_INFO then give the new name); CONFIG answers a growing hash")
    mutating func profileAndConfig() throws {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let renamed = call(.profile, Self.map([("firstName", .string("Alice")), ("lastName", .string("Liddell")),
                                               ("description", .nil), ("avatarType", .string("USER_AVATAR"))]))
        guard case .profileResponse(let answer) = renamed.first?.body else {
            Issue.record("expected a PROFILE answer, got \(renamed)")
            return
        }
        #expect(answer.profile.id == 1 && answer.profile.name == "Alice Liddell")
        #expect(try Packet(frame: Frame(packet: renamed[0])).body == renamed[0].body)
        let looked = call(.contactInfo, Self.map([("contactIds", .array([.uint(1)]))]), on: 2)
        guard case .contactInfoResponse(let contacts) = looked.first?.body else {
            Issue.record("expected a CONTACT_INFO answer, got \(looked)")
            return
        }
        #expect(contacts.contacts.map(\.name) == ["Alice Liddell"])
        let settings = Self.map([("settings", Self.map([("user", Self.map([("HIDDEN", .bool(true)),
                                                                           ("SEARCH_BY_PHONE", .string("ALL"))]))]))])
        let hashes = [call(.config, settings), call(.config, settings)].map { packets -> String? in
            if case .configResponse(let config) = packets.first?.body { config.hash } else { nil }
        }
        #expect(hashes == ["1-1", "1-2"])
        // python-max-client 1.0.2's mute_chat: a chat's settings; the map is kept with its values.
        let mute = Self.map([("settings", Self.map([("chats", Self.map([("100", Self.map([("dontDisturbUntil",
                                                                                          .int(-1))]))]))]))])
        let muted = call(.config, mute)
        #expect(muted.first?.body == .configResponse(ConfigResponse(hash: "1-3")))
        let request = try MessagePackDecoder().decode(ConfigRequest.self, from: mute)
        #expect(request.chatSettings == ["100"] && request.userSettings.isEmpty)
        #expect(try MessagePackEncoder().encode(request) == mute)
        let other = call(.config, Self.map([("settings", Self.map([("folders", Self.map([]))]))]))
        guard case .error(let neither) = other.first?.body else {
            Issue.record("expected an error, got \(other)")
            return
        }
        #expect(neither.message.contains("names neither `user` nor `chats`"))
        let empty = call(.profile, Self.map([("firstName", .string(""))]))
        let noSettings = call(.config, Self.map([("user", Self.map([]))]))
        guard case .error(let emptyName) = empty.first?.body, case .error(let missing) = noSettings.first?.body else {
            Issue.record("expected errors, got \(empty) and \(noSettings)")
            return
        }
        #expect(emptyName.error == "proto.payload" && missing.error == "proto.payload"
                && missing.message.contains("settings"))
        // python-max-client 1.0.2's change_profile(bio=...): firstName and lastName null keep the name (refused
        // before as a malformed payload).
        let bio = call(.profile, Self.map([("firstName", .nil), ("lastName", .nil), ("description", .string("hi"))]))
        guard case .profileResponse(let kept) = bio.first?.body else {
            Issue.record("expected a PROFILE answer, got \(bio)")
            return
        }
        #expect(kept.profile.name == "Alice Liddell", "\(kept.profile)")
    }

    /// A MSG_SEND of one attachment, as PyMax 2.5.0 `send_message` sends it.
    mutating func sendAttachment(_ attach: MessagePackValue, cid: Int64, on connection: Int = 1) -> [Packet] {
        let message = Self.map([("text", .string("")), ("cid", .int(cid)), ("elements", .array([])),
                                ("attaches", .array([attach]))])
        return call(.msgSend, Self.map([("chatId", .uint(100)), ("message", message), ("notify", .bool(true))]),
                    on: connection)
    }

    @Test("a file: FILE_UPLOAD hands out a slot, its bytes bring NOTIF_ATTACH, readers get name, size and token")
    mutating func fileUpload() throws {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let upload = Self.map([("count", .uint(1)), ("type", .uint(0)), ("uploaderType", .uint(0)),
                               ("profile", .bool(false))])
        guard case .mediaUploadResponse(let answer) = call(.fileUpload, upload).first?.body,
              let slot = answer.info.first, let fileId = slot.fileId else {
            Issue.record("expected a FILE_UPLOAD answer")
            return
        }
        #expect(slot.url == "https://cdn.syncsim.invalid/upload?fileIds=\(fileId)")
        let attach = Self.map([("_type", .string("FILE")), ("fileId", .int(fileId))])
        // Before the bytes came: the field's "not ready" error, nothing stored.
        #expect(sendAttachment(attach, cid: 11).first?.body
                    == .error(ErrorPayload(error: "attachment.not.ready", message: "FILE \(fileId) was not uploaded yet")))
        #expect(server.messages(inChat: 100).isEmpty)
        let received = server.receiveMediaUpload(id: fileId, fileName: "report.pdf", sizeBytes: 3_000)
        let pushes = try #require(received)
        #expect(pushes == [.send(Packet(cmd: .request, seq: 0, opcode: .notifAttach,
                                        body: .notifAttach(NotifAttach(fileId: fileId))),
                                 on: ServerConnectionID(rawValue: 1))])
        #expect(server.receiveMediaUpload(id: 999, fileName: nil, sizeBytes: 1) == nil)
        // A second upload to the slot is refused; the first's name and size stay.
        #expect(server.receiveMediaUpload(id: fileId, fileName: "other.bin", sizeBytes: 9) == nil)
        #expect(server.mediaUpload(id: fileId)?.fileName == "report.pdf")
        #expect(server.mediaUpload(id: fileId)?.sizeBytes == 3_000)
        let sent = sendAttachment(attach, cid: 12)
        guard case .notifMessage(let push) = sent.last?.body, let stored = push.message.attaches?.first else {
            Issue.record("expected a push to bob, got \(sent)")
            return
        }
        #expect(stored.type == "FILE" && stored.otherInteger("fileId") == fileId)
        #expect(stored[other: "name"] == .string("report.pdf") && stored.otherInteger("size") == 3_000)
        #expect(stored[other: "token"] == .string(slot.token))
        // FILE_DOWNLOAD (bob, the message id as a string, as PyMax allows): where to fetch it.
        let messageId = push.message.id
        let download = call(.fileDownload, Self.map([("chatId", .uint(100)), ("messageId", .string(String(messageId))),
                                                     ("fileId", .int(fileId))]), on: 2)
        guard case .mediaFetchResponse(let where_) = download.first?.body else {
            Issue.record("expected a FILE_DOWNLOAD answer, got \(download)")
            return
        }
        #expect(where_.url.hasSuffix("/file/\(fileId)") && where_.unsafe == false)
        // Every id as a decimal string, as MaxBridge 1.5.4's `get_file` sends what it is given: the same answer.
        let allText = call(.fileDownload, Self.map([("chatId", .string("100")), ("messageId", .string(String(messageId))),
                                                    ("fileId", .string(String(fileId)))]), on: 2)
        #expect(allText.first?.body == download.first?.body)
        let wrong = call(.fileDownload, Self.map([("chatId", .uint(100)), ("messageId", .int(messageId)),
                                                  ("fileId", .int(fileId + 1))]), on: 2)
        #expect(wrong.first?.cmd == .error)
        // A file id nobody handed out is refused.
        let unknown = sendAttachment(Self.map([("_type", .string("FILE")), ("fileId", .uint(77))]), cid: 13)
        guard case .error(let error) = unknown.first?.body else {
            Issue.record("expected an error, got \(unknown)")
            return
        }
        #expect(error.error == "attachment.notFound")
    }

    @Test("a video, a voice message: VIDEO_UPLOAD's slot, NOTIF_ATTACH, the keys PyMax requires; a sticker as sent")
    mutating func videoVoiceAndSticker() throws {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        func slot(type: UInt64) -> MediaUploadSlot? {
            let upload = Self.map([("count", .uint(1)), ("type", .uint(type)), ("uploaderType", .uint(type == 0 ? 0 : 1)),
                                   ("profile", .bool(false))])
            guard case .mediaUploadResponse(let answer) = call(.videoUpload, upload).first?.body else { return nil }
            return answer.info.first
        }
        let videoSlot = slot(type: 0)
        let video = try #require(videoSlot)
        let videoId = try #require(video.videoId)
        #expect(server.receiveMediaUpload(id: videoId, fileName: "clip.mp4", sizeBytes: 10)?.first
                    == .send(Packet(cmd: .request, seq: 0, opcode: .notifAttach,
                                    body: .notifAttach(NotifAttach(videoId: videoId))),
                             on: ServerConnectionID(rawValue: 1)))
        let sent = sendAttachment(Self.map([("_type", .string("VIDEO")), ("videoId", .int(videoId)),
                                            ("token", .string(video.token)), ("videoType", .uint(0))]), cid: 21)
        guard case .notifMessage(let push) = sent.last?.body, let stored = push.message.attaches?.first else {
            Issue.record("expected a push, got \(sent)")
            return
        }
        #expect(stored.width == 0 && stored.height == 0 && stored.otherInteger("videoType") == 0)
        #expect(stored[other: "thumbnail"] != nil && stored[other: "token"] == .string(video.token))
        #expect(stored.otherInteger("duration") == 0 && stored[other: "previewData"] == .binary([]))
        let play = call(.videoPlay, Self.map([("chatId", .uint(100)), ("messageId", .int(push.message.id)),
                                              ("videoId", .int(videoId))]), on: 2)
        guard case .mediaFetchResponse(let watch) = play.first?.body else {
            Issue.record("expected a VIDEO_PLAY answer, got \(play)")
            return
        }
        #expect(watch.url.hasSuffix("/video/\(videoId)") && watch.cache == false)
        // The field's shape: `EXTERNAL`, `cache`, then the address under its quality key, where PyMax 1.2.5 and
        // 2.1.0 and python-max-client take the first key that is neither (and PyMax 2.5.0 the highest MP4_<n>).
        let wire = try MessagePackEncoder().encode(watch)
        guard case .map(let pairs) = wire else {
            Issue.record("expected a map, got \(wire)")
            return
        }
        #expect(pairs.map(\.key) == [.string("EXTERNAL"), .string("cache"), .string("MP4_720")])
        #expect(try MessagePackDecoder().decode(MediaFetchResponse.self, from: wire) == watch)
        // MaxBridge 1.8.0 names the video alone, with its session's token: answered alike for a member of a chat
        // where it was sent, refused otherwise.
        let alone = Self.map([("videoId", .int(videoId)), ("token", .string("token-bob"))])
        #expect(call(.videoPlay, alone, on: 2).first?.body == .mediaFetchResponse(watch))
        let request = try MessagePackDecoder().decode(MediaFetchRequest.self, from: alone)
        #expect(request.chatId == nil && request.messageId == nil && request.token == "token-bob")
        #expect(try MessagePackDecoder().decode(MediaFetchRequest.self, from: MessagePackEncoder().encode(request))
                    == request)
        let unseen = call(.videoPlay, Self.map([("videoId", .int(videoId + 100))]), on: 2)
        let noMessage = call(.videoPlay, Self.map([("chatId", .uint(100)), ("videoId", .int(videoId))]), on: 2)
        guard case .error(let unseenError) = unseen.first?.body, case .error(let partial) = noMessage.first?.body else {
            Issue.record("expected errors, got \(unseen) and \(noMessage)")
            return
        }
        #expect(unseenError.error == "attachment.notFound")
        #expect(partial.error == "proto.payload" && partial.message.contains("messageId"))
        // A voice message refers to its upload by token only (PyMax's VoiceAttachPayload drops the id).
        let voiceSlot = slot(type: 2)
        let voice = try #require(voiceSlot)
        let voiceId = try #require(voice.videoId)
        #expect(server.receiveMediaUpload(id: voiceId, fileName: nil, sizeBytes: 5)?.first
                    == .send(Packet(cmd: .request, seq: 0, opcode: .notifAttach,
                                    body: .notifAttach(NotifAttach(audioId: voiceId))),
                             on: ServerConnectionID(rawValue: 1)))
        let spoken = sendAttachment(Self.map([("_type", .string("AUDIO")), ("token", .string(voice.token)),
                                              ("duration", .uint(3)), ("wave", .binary([0, 0]))]), cid: 22)
        guard case .notifMessage(let voicePush) = spoken.last?.body, let audio = voicePush.message.attaches?.first else {
            Issue.record("expected a push, got \(spoken)")
            return
        }
        #expect(audio.otherInteger("audioId") == voiceId && audio[other: "wave"] == .binary([0, 0]))
        #expect(audio[other: "url"] != nil)
        // A kind no upload stands behind reaches the reader with every key it was sent with.
        let sticker = Self.map([("_type", .string("STICKER")), ("stickerId", .uint(55)), ("url", .string("u")),
                                ("type", .string("STATIC"))])
        let stuck = sendAttachment(sticker, cid: 23)
        guard case .notifMessage(let stickerPush) = stuck.last?.body,
              let reached = stickerPush.message.attaches?.first else {
            Issue.record("expected a push, got \(stuck)")
            return
        }
        #expect(try MessagePackEncoder().encode(reached) == sticker)
    }

    @Test("a link's URL reaches readers as each client wrote it (PyMax's attributes, maxion's url); a wire round trip keeps it")
    mutating func linkElements() throws {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let pymaxLink = Self.map([("type", .string("LINK")), ("from", .uint(0)), ("length", .uint(1)),
                                  ("attributes", Self.map([("url", .string("https://x.y"))]))])
        let maxionLink = Self.map([("type", .string("LINK")), ("from", .uint(2)), ("length", .uint(3)),
                                   ("url", .string("https://z.w"))])
        let message = Self.map([("text", .string("l  abc")), ("cid", .uint(21)),
                                ("elements", .array([pymaxLink, maxionLink])), ("attaches", .array([]))])
        let sent = call(.msgSend, Self.map([("chatId", .uint(100)), ("message", message)]))
        guard case .notifMessage(let push) = sent.last?.body else {
            Issue.record("expected a push to bob, got \(sent)")
            return
        }
        let elements = push.message.elements
        #expect(elements.count == 2)
        #expect(elements.first?[other: "attributes"] == Self.map([("url", .string("https://x.y"))]))
        #expect(elements.last?[other: "url"] == .string("https://z.w"))
        // Encoded and decoded again (the fast paths both ways): the same message, keys and all.
        #expect(try Packet(frame: Frame(packet: sent.last!)).body == sent.last!.body)
        let history = call(.chatHistory, Self.map([("chatId", .uint(100)), ("from", .int(Int64.max)),
                                                   ("forward", .uint(0)), ("backward", .uint(10))]), on: 2)
        guard case .chatHistoryResponse(let page) = history.first?.body else {
            Issue.record("expected a history page, got \(history)")
            return
        }
        #expect(page.messages.last?.elements == elements)
    }

    @Test("MSG_EDIT with attachments replaces them (text kept when none is sent); unuploaded photos are refused")
    mutating func editAttachments() {
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let message = Self.map([("text", .string("caption")), ("cid", .uint(31)), ("elements", .array([])),
                                ("attaches", .array([]))])
        _ = call(.msgSend, Self.map([("chatId", .uint(100)), ("message", message)]))
        let id = server.messages(inChat: 100)[0].id
        guard case .photoUploadResponse(let upload) = call(.photoUpload, Self.map([("count", .uint(1))])).first?.body
        else {
            Issue.record("expected a PHOTO_UPLOAD answer")
            return
        }
        let photo = Self.map([("_type", .string("PHOTO")), ("photoToken", .string(upload.photoToken))])
        // PyMax 2.5.0's `edit_message(attachments=...)` without text: `text` null, no elements.
        let notUploaded = call(.msgEdit, Self.map([("chatId", .uint(100)), ("messageId", .int(id)), ("text", .nil),
                                                   ("elements", .array([])), ("attachments", .array([photo]))]))
        #expect(Self.errorCode(notUploaded) == "photo.notUploaded")
        #expect(server.messages(inChat: 100)[0].status == nil)
        let accepted = server.receiveUpload(token: upload.photoToken, sizeBytes: 1_000)
        #expect(accepted)
        let edited = call(.msgEdit, Self.map([("chatId", .uint(100)), ("messageId", .int(id)), ("text", .nil),
                                              ("elements", .array([])), ("attachments", .array([photo]))]))
        guard case .msgEditResponse(let answer) = edited.first?.body else {
            Issue.record("expected a MSG_EDIT answer, got \(edited)")
            return
        }
        #expect(answer.message.text == "caption" && answer.message.status == "EDITED")
        #expect(answer.message.attaches?.map(\.type) == ["PHOTO"] && answer.message.attaches?.first?.photoId != nil)
        // A text edit without attachments keeps the photo.
        _ = call(.msgEdit, Self.map([("chatId", .uint(100)), ("messageId", .int(id)), ("text", .string("new")),
                                     ("elements", .array([])), ("attachments", .array([]))]))
        #expect(server.messages(inChat: 100)[0].text == "new")
        #expect(server.messages(inChat: 100)[0].attaches?.map(\.type) == ["PHOTO"])
    }

    @Test("what serve does not model is refused by name: polls, scheduled sends, comments, admin and join-request lists")
    mutating func unmodelledRefused() {
        server.addUser(id: 3, name: "carol", token: "t-carol")
        _ = login("t-alice")
        _ = login("t-bob", on: 2)
        let made = call(.msgSend, Self.createGroup(cid: 7, title: "Team", userIds: [2]))
        #expect(made.first?.cmd == .response)
        let messagesBefore = server.messages(inChat: 101).count
        let poll = Self.map([("_type", .string("POLL")), ("title", .string("?")),
                             ("answers", .array([Self.map([("text", .string("a"))])])), ("settings", .uint(0))])
        let scheduled = Self.map([("text", .string("later")), ("cid", .uint(41)), ("elements", .array([])),
                                  ("attaches", .array([])),
                                  ("delayedAttributes", Self.map([("timeToFire", .uint(1_800_000_000_000)),
                                                                  ("notifySender", .bool(false))]))])
        let comment = Self.map([("text", .string("c")), ("cid", .uint(42)), ("elements", .array([])),
                                ("attaches", .array([]))])
        let refusals = [
            sendAttachment(poll, cid: 40),
            call(.msgSend, Self.map([("chatId", .uint(100)), ("message", scheduled)])),
            call(.msgSend, Self.map([("chatId", .uint(100)), ("message", comment), ("postId", .uint(5))])),
            call(.msgGet, Self.map([("chatId", .uint(100)), ("messageIds", .array([.uint(1)])), ("postId", .uint(5))])),
            call(.chatMembersUpdate, Self.map([("chatId", .uint(101)), ("userIds", .array([.uint(2)])),
                                              ("type", .string("ADMIN")), ("operation", .string("remove"))])),
            call(.chatMembersUpdate, Self.map([("chatId", .uint(101)), ("userIds", .array([.uint(2)])),
                                              ("type", .string("ADMIN")), ("operation", .string("add")),
                                              ("permissions", .uint(20))])),
            call(.chatMembers, Self.map([("type", .string("ADMIN")), ("chatId", .uint(101)),
                                         ("marker", .uint(0)), ("count", .uint(10))])),
        ]
        for (index, packets) in refusals.enumerated() {
            #expect(Self.errorCode(packets) == "proto.payload", "refusal \(index): \(packets)")
        }
        // Nothing was stored or changed: bob is still a member, no service message was added.
        #expect(server.messages(inChat: 100).isEmpty)
        #expect(server.members(ofChat: 101) == [1, 2] && server.messages(inChat: 101).count == messagesBefore)
        // No join requests are modelled: PyMax's `get_join_requests` gets an empty list, not the members.
        let requests = call(.chatMembers, Self.map([("type", .string("JOIN_REQUEST")), ("chatId", .uint(101)),
                                                    ("marker", .uint(0)), ("count", .uint(100))]))
        #expect(requests.first?.body == .chatMembersResponse(ChatMembersResponse(members: [], marker: 0)))
        // Adding a member again changes nothing and stores no service message; adding a new one stores one.
        let again = call(.chatMembersUpdate, Self.map([("chatId", .uint(101)), ("userIds", .array([.uint(2)])),
                                                       ("type", .string("MEMBER")), ("operation", .string("add"))]))
        #expect(again.map(\.opcode) == [.chatMembersUpdate] && server.messages(inChat: 101).count == messagesBefore)
        _ = call(.chatMembersUpdate, Self.map([("chatId", .uint(101)), ("userIds", .array([.uint(2), .uint(3)])),
                                              ("operation", .string("add"))]))
        #expect(server.members(ofChat: 101) == [1, 2, 3])
        #expect(server.messages(inChat: 101).last?.attaches?.first?.userIds == [3])
    }

    @Test("CHATS_LIST with marker 0 (maxion 0.2.1's first page) lists from the top")
    mutating func chatsListFromTop() {
        server.addChat(id: 200, members: [1, 2], now: now + .seconds(Int64(1)))
        _ = login("t-alice")
        let page = call(.chatsList, Self.map([("marker", .uint(0)), ("count", .uint(40))]))
        guard case .chatsListResponse(let list) = page.first?.body else {
            Issue.record("expected a CHATS_LIST response, got \(page)")
            return
        }
        #expect(list.chats.map(\.id) == [200, 100] && list.marker == nil)
    }
}
