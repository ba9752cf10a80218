import Foundation
import Testing

@testable import SyncProtocol

@Suite struct PacketTests {
    static let message = ChatMessage(
        id: 70005, time: 1_764_000_005_000, sender: 1002, text: "hi", cid: 55,
        attaches: [.photo(token: "p1")])

    static let packets: [Packet] = [
        Packet(cmd: .request, seq: 1, opcode: .sessionInit, body: .sessionInit(.mobile(deviceId: "d1"))),
        Packet(
            cmd: .request, seq: 1, opcode: .sessionInit,
            body: .sessionInit(SessionInitRequest(deviceId: "w1", userAgent: UserAgent(deviceType: "WEB")))),
        Packet(cmd: .response, seq: 1, opcode: .sessionInit, body: .sessionInitResponse(SessionInitResponse(time: 5, callsSeed: -7))),
        Packet(
            cmd: .request, seq: 2, opcode: .login,
            body: .login(LoginRequest(token: "t", chatsSync: -1, contactsSync: 10, chatsCount: 40))),
        Packet(
            cmd: .request, seq: 2, opcode: .login,
            body: .login(LoginRequest(token: "t", chatsSync: 5, contactsSync: -1, chatsCount: nil, interactive: nil))),
        Packet(
            cmd: .response, seq: 2, opcode: .login,
            body: .loginResponse(
                LoginResponse(
                    profile: Profile(id: 1, name: "Ada"),
                    chats: [
                        ChatSummary(id: 7, members: [1, 2], modified: 9, lastMessage: message),
                        ChatSummary(id: 8, members: [], modified: 3, lastMessage: nil),
                    ],
                    contacts: [Contact(id: 2, name: "Grace")], time: 11))),
        Packet(
            cmd: .response, seq: 2, opcode: .login,
            body: .loginResponse(
                LoginResponse(
                    profile: Profile(id: 1, name: "Ada"), chats: [], contacts: [],
                    messages: [
                        12: [ChatMessage(id: 5, time: 4, sender: 2, text: "", status: "REMOVED", updateTime: 9)],
                        7: [ChatMessage(id: 3, time: 2, sender: 1, text: "e", status: "EDITED", updateTime: 8)],
                    ],
                    time: 11))),
        Packet(
            cmd: .request, seq: 3, opcode: .chatHistory,
            body: .chatHistory(ChatHistoryRequest(chatId: 7, from: 70005, forward: 0, backward: 30))),
        Packet(
            cmd: .response, seq: 3, opcode: .chatHistory,
            body: .chatHistoryResponse(ChatHistoryResponse(messages: [message]))),
        Packet(
            cmd: .request, seq: 4, opcode: .chatMark,
            body: .chatMark(ChatMarkRequest(chatId: 7, messageId: 70005, mark: 1_764_000_006_000))),
        Packet(
            cmd: .response, seq: 4, opcode: .chatMark,
            body: .chatMarkResponse(ChatMarkResponse(unread: 0, mark: 1_764_000_006_000))),
        Packet(cmd: .request, seq: 10, opcode: .chatsList, body: .chatsList(ChatsListRequest(marker: 99, count: 2))),
        Packet(
            cmd: .response, seq: 10, opcode: .chatsList,
            body: .chatsListResponse(
                ChatsListResponse(
                    chats: [ChatSummary(id: 7, members: [1, 2, 3], modified: 9, lastMessage: message)], marker: 8))),
        Packet(
            cmd: .request, seq: 11, opcode: .msgEdit,
            body: .msgEdit(MsgEditRequest(chatId: 7, messageId: 70005, text: "edited"))),
        Packet(
            cmd: .response, seq: 11, opcode: .msgEdit,
            body: .msgEditResponse(
                MsgEditResponse(
                    message: ChatMessage(
                        id: 70005, time: 1_764_000_005_000, sender: 1002, text: "edited", status: "EDITED",
                        updateTime: 1_764_000_007_000)))),
        Packet(
            cmd: .request, seq: 12, opcode: .msgDelete,
            body: .msgDelete(MsgDeleteRequest(chatId: 7, messageIds: [70005], forMe: false))),
        Packet(
            cmd: .request, seq: 0, opcode: .notifMsgDelete,
            body: .notifMsgDelete(NotifMsgDelete(chatId: 7, messageIds: [70005], updateTime: 1_764_000_008_000))),
        Packet(
            cmd: .request, seq: 0, opcode: .notifMessage,
            body: .notifMessage(NotifMessage(chatId: 7, message: message))),
        Packet(
            cmd: .request, seq: 5, opcode: .msgSend,
            body: .msgSend(
                MsgSendRequest(
                    chatId: 7, message: OutgoingMessage(text: "yo", cid: -12, attaches: [.photo(token: "p1")])))),
        Packet(
            cmd: .response, seq: 5, opcode: .msgSend,
            body: .msgSendResponse(MsgSendResponse(chatId: 7, message: message))),
        Packet(cmd: .request, seq: 6, opcode: .photoUpload, body: .photoUpload(PhotoUploadRequest(sizeBytes: 80_000))),
        Packet(cmd: .request, seq: 6, opcode: .photoUpload, body: .photoUpload(PhotoUploadRequest(sizeBytes: nil))),
        Packet(
            cmd: .response, seq: 6, opcode: .photoUpload,
            body: .photoUploadResponse(PhotoUploadResponse(photoToken: "p1"))),
        Packet(
            cmd: .response, seq: 6, opcode: .photoUpload,
            body: .photoUploadResponse(PhotoUploadResponse(photoToken: "p1", url: "http://127.0.0.1:9/upload?photoIds=1"))),
        Packet(
            cmd: .request, seq: 9, opcode: .msgSend,
            body: .groupCreate(GroupCreateRequest(cid: 17, title: "Team", userIds: [2, 3]))),
        Packet(
            cmd: .request, seq: 10, opcode: .chatMembersUpdate,
            body: .chatMembersUpdate(ChatMembersUpdateRequest(chatId: 8, userIds: [3], operation: .remove))),
        Packet(cmd: .request, seq: 11, opcode: .chatLeave, body: .chatLeave(ChatLeaveRequest(chatId: 8))),
        Packet(cmd: .request, seq: 12, opcode: .chatMembers, body: .chatMembers(ChatMembersRequest(chatId: 8, marker: 2))),
        Packet(
            cmd: .response, seq: 12, opcode: .chatMembers,
            body: .chatMembersResponse(ChatMembersResponse(members: [.init(contact: Contact(id: 3, name: "c"))],
                                                           marker: 0))),
        Packet(cmd: .request, seq: 13, opcode: .profile, body: .profile(ProfileRequest(firstName: "A", lastName: "B"))),
        Packet(
            cmd: .response, seq: 13, opcode: .profile,
            body: .profileResponse(ProfileResponse(profile: Profile(id: 1, name: "A B")))),
        Packet(cmd: .request, seq: 14, opcode: .config, body: .config(ConfigRequest(userSettings: ["HIDDEN"]))),
        Packet(cmd: .response, seq: 14, opcode: .config, body: .configResponse(ConfigResponse(hash: "1-1"))),
        Packet(cmd: .request, seq: 7, opcode: .ping, body: .ping(PingRequest(interactive: true))),
        Packet(cmd: .response, seq: 7, opcode: .ping, body: .empty),
        Packet(
            cmd: .push, seq: 0, opcode: .notifMessage, body: .notifMessage(NotifMessage(chatId: 7, message: message))),
        Packet(cmd: .push, seq: 0, opcode: .notifMark, body: .notifMark(NotifMark(chatId: 7, userId: 2, mark: 70005))),
        Packet(cmd: .error, seq: 8, opcode: .login, body: .error(ErrorPayload(error: "login.token", message: "bad"))),
        Packet(
            cmd: .error, seq: 8, opcode: .login,
            body: .error(ErrorPayload(error: "e", message: "m", localizedMessage: nil, title: nil))),
        Packet(cmd: .push, seq: 0, opcode: .notifAttach, body: .raw(.map([MessagePackPair(.string("x"), .uint(1))]))),
        Packet(cmd: .request, seq: 9, opcode: Opcode(rawValue: 999), body: .raw(.map([]))),
        // What only real clients send (syncsim serve): links, lookups, reactions.
        Packet(
            cmd: .request, seq: 13, opcode: .msgSend,
            body: .msgSend(MsgSendRequest(chatId: 7, message: OutgoingMessage(
                text: "re", cid: 13, link: OutgoingLink(type: "FORWARD", messageId: 70005, chatId: 8))))),
        Packet(
            cmd: .response, seq: 13, opcode: .msgSend,
            body: .msgSendResponse(MsgSendResponse(chatId: 7, message: ChatMessage(
                id: 70006, time: 1_764_000_009_000, sender: 1, text: "re", cid: 13,
                link: MessageLink(type: "REPLY", chatId: 7, message: message))))),
        Packet(cmd: .request, seq: 14, opcode: .msgGet, body: .msgGet(MsgGetRequest(chatId: 7, messageIds: [70005]))),
        Packet(cmd: .response, seq: 14, opcode: .msgGet, body: .msgGetResponse(MsgGetResponse(messages: [message]))),
        Packet(cmd: .request, seq: 15, opcode: .chatInfo, body: .chatInfo(ChatInfoRequest(chatIds: [7, 8]))),
        Packet(
            cmd: .response, seq: 15, opcode: .chatInfo,
            body: .chatInfoResponse(ChatInfoResponse(
                chats: [ChatSummary(id: 7, members: [1, 2], modified: 9, lastMessage: message)]))),
        Packet(
            cmd: .request, seq: 16, opcode: .msgReaction,
            body: .msgReaction(MsgReactionRequest(chatId: 7, messageId: 70005, reaction: Reaction(id: "👍")))),
        Packet(
            cmd: .response, seq: 16, opcode: .msgReaction,
            body: .msgReactionResponse(MsgReactionResponse(reactionInfo: ReactionInfo(
                totalCount: 1, counters: [ReactionCounter(count: 1, reaction: "👍")], yourReaction: "👍")))),
        Packet(
            cmd: .request, seq: 17, opcode: .msgCancelReaction,
            body: .msgCancelReaction(MsgCancelReactionRequest(chatId: 7, messageId: 70005))),
        Packet(
            cmd: .request, seq: 18, opcode: .msgGetReactions,
            body: .msgGetReactions(MsgGetReactionsRequest(chatId: 7, messageIds: [70005, 70004]))),
        Packet(
            cmd: .response, seq: 18, opcode: .msgGetReactions,
            body: .msgGetReactionsResponse(MsgGetReactionsResponse(messagesReactions: [
                .init(messageId: 70005, reactionInfo: ReactionInfo(totalCount: 0, counters: [])),
                .init(messageId: 70004, reactionInfo: ReactionInfo(
                    totalCount: 2, counters: [ReactionCounter(count: 2, reaction: "🔥")])),
            ]))),
        Packet(
            cmd: .request, seq: 0, opcode: .notifMsgReactionsChanged,
            body: .notifMsgReactionsChanged(NotifMsgReactionsChanged(chatId: 7, messageId: 70005, info: ReactionInfo(
                totalCount: 1, counters: [ReactionCounter(count: 1, reaction: "👍")])))),
    ]

    @Test("every body survives Frame(packet:), encoding, decoding and Packet(frame:)", arguments: packets)
    func roundTrip(packet: Packet) throws {
        let bytes = try FrameEncoder().encode(packet)
        var decoder = FrameDecoder()
        var buffer = ByteReader(bytes)
        let frame = try #require(try decoder.decode(&buffer))
        #expect(try Packet(frame: frame) == packet)
    }

    @Test("a chat's participants map that repeats a member, or spells one id twice, gives each member once (fuzz-codable)")
    func participantsOnce() throws {
        func pair(_ key: String, _ value: MessagePackValue) -> MessagePackPair { MessagePackPair(.string(key), value) }
        let value = MessagePackValue.map([
            pair("id", .int(7)),
            pair("participants", .map([pair("1001", .int(0)), pair("01001", .int(0)), pair("1002", .int(0)),
                                       pair("1001", .int(0))])),
        ])
        let summary = try MessagePackDecoder().decode(ChatSummary.self, from: value)
        #expect(summary.members == [1001, 1002])
        let again = try MessagePackDecoder().decode(ChatSummary.self, from: try MessagePackEncoder().encode(summary))
        #expect(again == summary)
    }

    @Test("a chat's cid is read as an integer or its decimal string; a cid of another type is dropped, the chat kept")
    func chatCidLenient() throws {
        func pair(_ key: String, _ value: MessagePackValue) -> MessagePackPair { MessagePackPair(.string(key), value) }
        func chat(cid: MessagePackValue) throws -> ChatSummary {
            try MessagePackDecoder().decode(ChatSummary.self, from: .map([
                pair("id", .int(7)), pair("participants", .map([pair("1001", .int(0))])), pair("cid", cid),
            ]))
        }
        #expect(try chat(cid: .uint(42)).cid == 42)
        #expect(try chat(cid: .string("42")).cid == 42)
        #expect(try chat(cid: .int(-3)).cid == -3)
        for other in [MessagePackValue.bool(true), .string("x"), .map([]), .nil, .double(1.5)] {
            let decoded = try chat(cid: other)
            #expect(decoded.cid == nil && decoded.id == 7 && decoded.members == [1001])
        }
    }

    @Test("LOGIN's changed messages go under `messages` by chat id as string keys, ascending; none, no key")
    func loginMessagesMap() throws {
        let edited = ChatMessage(id: 3, time: 2, sender: 1, text: "e", status: "EDITED", updateTime: 8)
        var response = LoginResponse(profile: Profile(id: 1, name: "Ada"), chats: [], contacts: [],
                                     messages: [12: [edited], 7: [edited]], time: 11)
        guard case .map(let pairs) = try MessagePackEncoder().encode(response) else {
            Issue.record("not a map")
            return
        }
        #expect(pairs.map(\.key) == [.string("profile"), .string("chats"), .string("contacts"), .string("messages"),
                                      .string("time")])
        guard case .map(let chats) = pairs[3].value else {
            Issue.record("messages is not a map")
            return
        }
        #expect(chats.map(\.key) == [.string("7"), .string("12")])
        response.messages = [:]
        guard case .map(let empty) = try MessagePackEncoder().encode(response) else { return }
        #expect(!empty.map(\.key).contains(.string("messages")))
    }

    @Test("an opcode is a notification exactly when its field name starts with NOTIF_, for every opcode number")
    func notificationOpcodes() {
        var notifications: [UInt16] = [], mismatched: [UInt16] = []
        for raw in 0...UInt16.max {
            let opcode = Opcode(rawValue: raw)
            if opcode.isNotification != (opcode.name?.hasPrefix("NOTIF_") == true) { mismatched.append(raw) }
            if opcode.isNotification { notifications.append(raw) }
        }
        #expect(mismatched.isEmpty)
        #expect(notifications.contains(Opcode.notifMessage.rawValue))
        #expect(!Opcode.ping.isNotification && !Opcode.msgSend.isNotification)
        #expect(notifications.count == 26, "PyMax 2.5.0 names 26 NOTIF_* opcodes")
    }

    @Test("a known opcode whose payload does not fit its shape stays raw") func misshapenIsRaw() throws {
        let payload = MessagePackValue.map([MessagePackPair(.string("token"), .uint(5))])
        let packet = try Packet(frame: Frame(cmd: .request, seq: 1, opcode: .login, payload: payload))
        #expect(packet.body == .raw(payload))
    }

    @Test("an error frame whose payload is not {error, message} stays raw") func misshapenErrorIsRaw() throws {
        let packet = try Packet(frame: Frame(cmd: .error, seq: 1, opcode: .login, payload: .string("oops")))
        #expect(packet.body == .raw(.string("oops")))
    }

    @Test("an empty-map response is .empty for any opcode") func emptyResponse() throws {
        let packet = try Packet(frame: Frame(cmd: .response, seq: 1, opcode: .notifAttach, payload: .map([])))
        #expect(packet.body == .empty)
        #expect(Frame(packet: packet).payload == .map([]))
    }

    @Test("an attachment's kind goes as `_type` (the field's key); SyncSim's older captures' `type` is still read")
    func attachTypeKey() throws {
        func pair(_ key: String, _ value: MessagePackValue) -> MessagePackPair { MessagePackPair(.string(key), value) }
        let field = MessagePackValue.map([pair("_type", .string("PHOTO")), pair("photoToken", .string("t1"))])
        let legacy = MessagePackValue.map([pair("type", .string("PHOTO")), pair("photoToken", .string("t1"))])
        #expect(try MessagePackDecoder().decode(Attach.self, from: field) == .photo(token: "t1"))
        #expect(try MessagePackDecoder().decode(Attach.self, from: legacy) == .photo(token: "t1"))
        #expect(try MessagePackEncoder().encode(Attach.photo(token: "t1")) == field)
        let neither = MessagePackValue.map([pair("photoToken", .string("t1"))])
        #expect(throws: (any Error).self) { try MessagePackDecoder().decode(Attach.self, from: neither) }
        // In a frame: the fast path reads the field's key and leaves the legacy key to the Codable path.
        for attach in [field, legacy] {
            let message = MessagePackValue.map([pair("text", .string("")), pair("cid", .int(4)),
                                                pair("attaches", .array([attach]))])
            let payload = MessagePackValue.map([pair("chatId", .int(100)), pair("message", message)])
            let packet = try Packet(frame: Frame(cmd: .request, seq: 1, opcode: .msgSend, payload: payload))
            guard case .msgSend(let request) = packet.body else {
                Issue.record("not a MSG_SEND: \(packet.body)")
                continue
            }
            #expect(request.message.attaches == [.photo(token: "t1")])
        }
    }

    /// The field wraps 64-bit ids and times in extension type 1 holding one MessagePack value (PyMax 2.5.0
    /// `pymax/protocol/tcp/payload.py`, `WRAPPED_VALUE_EXT_CODE`) and may key a map by integers.
    static func wrapped(_ value: MessagePackValue) -> MessagePackValue {
        .ext(type: 1, data: value.messagePackBytes())
    }

    @Test("ids wrapped in extension type 1 and integer map keys decode as the typed model reads them")
    func fieldWrappedValues() throws {
        func map(_ pairs: [(String, MessagePackValue)]) -> MessagePackValue {
            .map(pairs.map { MessagePackPair(.string($0.0), $0.1) })
        }
        let send = map([("chatId", Self.wrapped(.int(-70_000_000_000_123))),
                        ("message", map([("text", .string("hi")), ("cid", Self.wrapped(Self.wrapped(.uint(55)))),
                                         ("elements", .array([])), ("attaches", .array([]))])),
                        ("notify", .bool(true))])
        let packet = try Packet(frame: Frame(cmd: .request, seq: 1, opcode: .msgSend, payload: send))
        guard case .msgSend(let request) = packet.body else {
            Issue.record("expected a typed MSG_SEND, got \(packet.body)")
            return
        }
        #expect(request.chatId == -70_000_000_000_123 && request.message.cid == 55)
        let mark = map([("chatId", Self.wrapped(.uint(7))), ("userId", Self.wrapped(.uint(2))),
                        ("mark", Self.wrapped(.uint(1_764_000_000_000))), ("setAsUnread", .bool(false))])
        #expect(try Packet(frame: Frame(cmd: .request, seq: 0, opcode: .notifMark, payload: mark)).body
                    == .notifMark(NotifMark(chatId: 7, userId: 2, mark: 1_764_000_000_000)))
        // Integer keys become their decimal strings; a payload with nothing wrapped is left alone (nil).
        let keyed = MessagePackValue.map([MessagePackPair(.uint(12), .array([Self.wrapped(.int(-1))]))])
        #expect(keyed.unwrappingFieldWrapping() == .map([MessagePackPair(.string("12"), .array([.int(-1)]))]))
        #expect(send.unwrappingFieldWrapping() != nil && map([("a", .uint(1))]).unwrappingFieldWrapping() == nil)
        // Data that is not one MessagePack value, another extension type, or wrapping past eight levels stays as is.
        let broken = MessagePackValue.ext(type: 1, data: [0xd3, 0x00])
        #expect(broken.unwrappingFieldWrapping() == nil)
        #expect(MessagePackValue.ext(type: 2, data: [0x01]).unwrappingFieldWrapping() == nil)
        var deep = MessagePackValue.uint(5)
        for _ in 0..<9 { deep = Self.wrapped(deep) }
        guard case .ext(1, _)? = deep.unwrappingFieldWrapping() else {
            Issue.record("expected the ninth wrapping to stay an extension value")
            return
        }
        let refused = try Packet(frame: Frame(cmd: .request, seq: 1, opcode: .msgSend,
                                              payload: map([("chatId", broken)])))
        #expect(refused.body == .raw(map([("chatId", broken)])))
    }

    @Test("an attachment kind SyncSim does not type keeps its keys, in order, through both decoders and the encoder")
    func untypedAttachKeysKept() throws {
        func pair(_ key: String, _ value: MessagePackValue) -> MessagePackPair { MessagePackPair(.string(key), value) }
        // PyMax 2.5.0 `pymax/types/domain/attachments/file.py` (`FileAttachment`) and `sticker.py`.
        let file = MessagePackValue.map([pair("_type", .string("FILE")), pair("fileId", .uint(7)),
                                         pair("name", .string("report.pdf")), pair("size", .uint(3_000)),
                                         pair("token", .string("f-7")), pair("preview", .binary([1, 2, 3]))])
        let sticker = MessagePackValue.map([pair("stickerId", .uint(55)), pair("_type", .string("STICKER")),
                                            pair("type", .string("STATIC")), pair("width", .uint(128))])
        let decoded = try MessagePackDecoder().decode(Attach.self, from: file)
        #expect(decoded.type == "FILE")
        #expect(decoded.otherInteger("fileId") == 7)
        #expect(decoded[other: "name"] == .string("report.pdf"))
        #expect(try MessagePackEncoder().encode(decoded) == file)
        let stickerAttach = try MessagePackDecoder().decode(Attach.self, from: sticker)
        // `type` beside `_type` is the sticker's own key; `width` is typed, so it moves to the typed keys' place.
        #expect(stickerAttach.width == 128)
        #expect(stickerAttach.otherKeys == [pair("stickerId", .uint(55)), pair("type", .string("STATIC"))])
        let message = MessagePackValue.map([pair("text", .string("")), pair("cid", .int(4)),
                                            pair("attaches", .array([file, sticker]))])
        let payload = MessagePackValue.map([pair("chatId", .int(100)), pair("message", message)])
        let packet = try Packet(frame: Frame(cmd: .request, seq: 1, opcode: .msgSend, payload: payload))
        guard case .msgSend(let request) = packet.body else {
            Issue.record("not a MSG_SEND: \(packet.body)")
            return
        }
        #expect(request.message.attaches == [decoded, stickerAttach])
        // A JSON round trip keeps the scalar keys; JSON keeps no key order, so they come back sorted by name.
        let json = try JSONDecoder().decode(Attach.self, from: JSONEncoder().encode(stickerAttach))
        #expect(json.width == 128 && json.otherKeys == [pair("stickerId", .uint(55)), pair("type", .string("STATIC"))])
        let reversed = try JSONDecoder().decode(Attach.self, from: JSONEncoder().encode(decoded))
        #expect(reversed.otherKeys.map(\.key) == ["fileId", "name", "preview", "size", "token"].map { .string($0) })
    }

    /// Found by `fuzz-codable` (session 45): an attachment whose map named an untyped key twice decoded with both
    /// pairs, and encoded with one, so it differed from itself encoded and decoded again.
    @Test("an untyped key listed twice is kept once, in its first place with its last value, on every path")
    func repeatedUntypedKeyKeptOnce() throws {
        func pair(_ key: String, _ value: MessagePackValue) -> MessagePackPair { MessagePackPair(.string(key), value) }
        let attach = MessagePackValue.map([pair("time", .uint(1)), pair("_type", .string("ONEME")),
                                           pair("name", .string("a")), pair("time", .uint(2))])
        let decoded = try MessagePackDecoder().decode(Attach.self, from: attach)
        #expect(decoded.otherKeys == [pair("time", .uint(2)), pair("name", .string("a"))])
        let again = try MessagePackDecoder().decode(Attach.self, from: try MessagePackEncoder().encode(decoded))
        #expect(again == decoded)
        // The fast decoder (a pushed message's attachments) reads it the same way.
        let message = MessagePackValue.map([pair("id", .uint(9)), pair("time", .uint(5)), pair("sender", .uint(2)),
                                            pair("text", .string("")), pair("attaches", .array([attach]))])
        let push = MessagePackValue.map([pair("chatId", .int(100)), pair("message", message)])
        let packet = try Packet(frame: Frame(cmd: .request, seq: 0, opcode: .notifMessage, payload: push))
        guard case .notifMessage(let notification) = packet.body else {
            Issue.record("not a NOTIF_MESSAGE: \(packet.body)")
            return
        }
        #expect(notification.message.attaches == [decoded])
    }
}
