import SyncProtocol

/// Builds frame payloads from fuzz bytes in the field dialect's shapes (docs/protocol.md, SyncProtocol/Messages), as `MessagePackValue` maps, so the
/// state-machine targets reach the typed paths (random bytes rarely form a valid typed payload) while every
/// field's value, and sometimes the shape, stays under libFuzzer's control. The maps go through
/// `Packet(frame:)` like real input, so the targets keep compiling when the message structs change.
public struct PayloadSynth {
    /// Small pools the fuzzer indexes into, so ids, tokens and chats collide often enough to matter.
    public var chatIds: [Int64]
    public var userIds: [Int64]
    public var tokens: [String]

    public init(chatIds: [Int64], userIds: [Int64], tokens: [String]) {
        self.chatIds = chatIds
        self.userIds = userIds
        self.tokens = tokens
    }

    /// An integer: mostly small (pool-sized or near earlier values), sometimes extreme.
    public func int(_ input: inout FuzzInput) -> Int64 {
        let kind = input.byte()
        switch kind % 8 {
        case 0: return Int64(Int8(bitPattern: input.byte()))
        case 1: return [Int64.min, Int64.max, -1, 0, 1, Int64(Int32.max), 1 << 53][Int(input.byte()) % 7]
        case 2: return Int64(bitPattern: UInt64(input.uint16()) << 48 | UInt64(input.uint16()) << 32
                                 | UInt64(input.uint16()) << 16 | UInt64(input.uint16()))
        default: return Int64(input.uint16())
        }
    }

    /// A chat id from the pool, or any integer.
    public func chatId(_ input: inout FuzzInput) -> Int64 {
        let choice = input.byte()
        return choice < 240 ? chatIds[Int(choice) % chatIds.count] : int(&input)
    }

    /// A user id from the pool, or any integer.
    public func userId(_ input: inout FuzzInput) -> Int64 {
        let choice = input.byte()
        return choice < 240 ? userIds[Int(choice) % userIds.count] : int(&input)
    }

    /// A short string: a pool token, empty, or bytes (lossily) as UTF-8.
    public func string(_ input: inout FuzzInput) -> String {
        let choice = input.byte()
        switch choice % 4 {
        case 0: return tokens[Int(input.byte()) % tokens.count]
        case 1: return ""
        default: return String(decoding: input.take(Int(input.byte() % 16)), as: UTF8.self)
        }
    }

    /// A map from (key, value) pairs.
    public static func map(_ pairs: [(String, MessagePackValue)]) -> MessagePackValue {
        .map(pairs.map { MessagePackPair(.string($0.0), $0.1) })
    }

    /// A value for a field: usually the intended one, sometimes nil, a wrong type or dropped (nil result).
    public func field(_ input: inout FuzzInput, _ intended: MessagePackValue) -> MessagePackValue? {
        let choice = input.byte()
        switch choice {
        case 0..<232: return intended
        case 232..<240: return nil
        case 240..<248: return .nil
        default: return .string("x")
        }
    }

    /// A map whose fields may each be perturbed or dropped.
    public func object(_ input: inout FuzzInput, _ pairs: [(String, MessagePackValue)]) -> MessagePackValue {
        .map(pairs.compactMap { key, value in field(&input, value).map { MessagePackPair(.string(key), $0) } })
    }

    /// A server time in milliseconds since the Unix epoch: mostly near `epochMilliseconds` (the model server's clock
    /// at the start of a run, 2023-11-14T22:13:20Z), so pages by time land among stored messages; sometimes any
    /// integer.
    public func time(_ input: inout FuzzInput) -> Int64 {
        let choice = input.byte()
        return choice < 224 ? Self.epochMilliseconds &+ Int64(input.uint16()) &* Int64(choice % 8 + 1) : int(&input)
    }

    /// The model server's default clock at `SimInstant.start` (`SyncServer.init(epochMilliseconds:)`).
    public static let epochMilliseconds: Int64 = 1_700_000_000_000

    /// A photo attachment `{type: "PHOTO", photoToken}`.
    public func photoAttach(_ input: inout FuzzInput) -> MessagePackValue {
        Self.map([("type", .string("PHOTO")), ("photoToken", .string(string(&input)))])
    }

    /// A stored message in the field's shape `{id, time, type, sender, text, cid?, status?, updateTime?, elements,
    /// attaches?}` (ChatMessage).
    public func message(_ input: inout FuzzInput, id: Int64? = nil) -> MessagePackValue {
        var pairs: [(String, MessagePackValue)] = [
            ("id", .int(id ?? int(&input))), ("time", .int(time(&input))), ("type", .string("USER")),
            ("sender", .int(userId(&input))), ("text", .string(string(&input))), ("elements", .array([])),
        ]
        let extras = input.byte()
        if extras & 1 != 0 { pairs.append(("cid", .int(int(&input)))) }
        if extras & 2 != 0 { pairs.append(("attaches", .array([photoAttach(&input)]))) }
        if extras & 4 != 0 { pairs.append(("updateTime", .int(time(&input)))) }
        if extras & 8 != 0 { pairs.append(("status", .string(extras & 16 != 0 ? "REMOVED" : "EDITED"))) }
        return object(&input, pairs)
    }

    /// A chat-list entry `{id, type, status, owner, participants: {"<userId>": ms}, modified, lastMessage?}`
    /// (ChatSummary).
    public func chatSummary(_ input: inout FuzzInput) -> MessagePackValue {
        let members = [userId(&input), userId(&input)]
        let modified = time(&input)
        var pairs: [(String, MessagePackValue)] = [
            ("id", .int(chatId(&input))), ("type", .string("CHAT")), ("status", .string("ACTIVE")),
            ("owner", .int(members[0])),
            ("participants", Self.map(members.map { ("\($0)", MessagePackValue.int(modified)) })),
            ("modified", .int(modified)),
        ]
        if input.byte() & 1 == 1 { pairs.append(("lastMessage", message(&input))) }
        return object(&input, pairs)
    }

    /// A contact `{id, names: [{name, firstName, type}]}` (Contact).
    public func contact(_ input: inout FuzzInput, id: Int64? = nil) -> MessagePackValue {
        let name = string(&input)
        return Self.map([("id", .int(id ?? userId(&input))),
                         ("names", .array([Self.map([("name", .string(name)), ("firstName", .string(name)),
                                                     ("type", .string("ONEME"))])]))])
    }

    /// A list of up to `limit` values made by `element`.
    public func list(_ input: inout FuzzInput, limit: Int, _ element: (inout FuzzInput) -> MessagePackValue)
        -> MessagePackValue {
        let count = Int(input.byte()) % (limit + 1)
        return .array((0..<count).map { _ in element(&input) })
    }

    /// A request body for `opcode` in the field dialect's shapes (the ones the server reads; docs/protocol.md).
    public func request(_ opcode: Opcode, _ input: inout FuzzInput) -> MessagePackValue {
        switch opcode {
        case .sessionInit:
            let userAgent = object(&input, [("deviceType", .string(input.byte() & 1 == 0 ? "ANDROID" : "WEB")),
                                            ("appVersion", .string("fuzz"))])
            var pairs: [(String, MessagePackValue)] = [("userAgent", userAgent), ("deviceId", .string(string(&input)))]
            if input.byte() & 1 == 0 { pairs.append(("mt_instanceid", .string(string(&input)))) }
            if input.byte() & 1 == 0 { pairs.append(("clientSessionId", .int(int(&input)))) }
            return object(&input, pairs)
        case .login:
            return object(&input, [("token", .string(string(&input))), ("chatsSync", .int(int(&input))),
                                   ("contactsSync", .int(int(&input))), ("chatsCount", .int(int(&input))),
                                   ("interactive", .bool(input.byte() & 1 == 1))])
        case .chatHistory:
            return object(&input, [("chatId", .int(chatId(&input))), ("from", .int(time(&input))),
                                   ("forward", .int(int(&input))), ("backward", .int(int(&input))),
                                   ("getMessages", .bool(true))])
        case .chatMark:
            return object(&input, [("type", .string("READ_MESSAGE")), ("chatId", .int(chatId(&input))),
                                   ("messageId", .int(int(&input))), ("mark", .int(time(&input)))])
        case .chatsList:
            return object(&input, [("marker", .int(time(&input))), ("count", .int(int(&input)))])
        case .msgSend:
            let outgoing: [(String, MessagePackValue)] = [
                ("text", .string(string(&input))), ("cid", .int(int(&input))), ("elements", .array([])),
                ("attaches", list(&input, limit: 3) { photoAttach(&$0) }),
            ]
            return object(&input, [("chatId", .int(chatId(&input))), ("message", object(&input, outgoing)),
                                   ("notify", .bool(true))])
        case .msgEdit:
            return object(&input, [("chatId", .int(chatId(&input))), ("messageId", .int(int(&input))),
                                   ("text", .string(string(&input))), ("elements", .array([]))])
        case .msgDelete:
            return object(&input, [("chatId", .int(chatId(&input))),
                                   ("messageIds", list(&input, limit: 3) { .int(int(&$0)) }),
                                   ("forMe", .bool(input.byte() & 1 == 1))])
        case .photoUpload:
            return object(&input, [("sizeBytes", .int(int(&input)))])
        case .ping:
            return object(&input, [("interactive", .bool(input.byte() & 1 == 1))])
        default:
            return .map([])
        }
    }

    /// A response body for `opcode` in the field dialect's shapes (the ones the client reads; docs/protocol.md).
    public func response(_ opcode: Opcode, _ input: inout FuzzInput) -> MessagePackValue {
        switch opcode {
        case .sessionInit:
            return object(&input, [("callsSeed", .int(int(&input))), ("time", .int(time(&input)))])
        case .login:
            let chats = list(&input, limit: 4) { chatSummary(&$0) }
            let contacts = list(&input, limit: 2) { contact(&$0) }
            let profile = Self.map([("contact", contact(&input)), ("profileOptions", .array([]))])
            return object(&input, [("profile", profile), ("chats", chats), ("contacts", contacts),
                                   ("time", .int(time(&input)))])
        case .chatHistory:
            // Ids ascending from a base with fuzzed steps (0 repeats an id, 255 goes backwards), or unordered.
            var id = int(&input)
            let messages = list(&input, limit: 12) { input in
                let step = input.byte()
                id = step == 255 ? id &- Int64(input.byte()) : id &+ Int64(step)
                return message(&input, id: id)
            }
            return object(&input, [("messages", messages)])
        case .chatMark:
            return object(&input, [("unread", .int(int(&input))), ("mark", .int(time(&input)))])
        case .chatsList:
            return object(&input, [("chats", list(&input, limit: 4) { chatSummary(&$0) }),
                                   ("marker", .int(time(&input)))])
        case .msgSend:
            return object(&input, [("chatId", .int(chatId(&input))), ("message", message(&input))])
        case .msgEdit:
            return object(&input, [("message", message(&input))])
        case .photoUpload:
            return object(&input, [("photoToken", .string(string(&input)))])
        default:
            return .map([])
        }
    }

    /// The push opcodes of the field dialect, sent as `cmd` 0 (NOTIF_MESSAGE, NOTIF_MARK, NOTIF_MSG_DELETE).
    public static let pushOpcodes: [Opcode] = [.notifMessage, .notifMark, .notifMsgDelete]

    /// A push body for `opcode` (NOTIF_MESSAGE, NOTIF_MARK, NOTIF_MSG_DELETE; others empty).
    public func push(_ opcode: Opcode, _ input: inout FuzzInput) -> MessagePackValue {
        switch opcode {
        case .notifMessage:
            return object(&input, [("chatId", .int(chatId(&input))), ("message", message(&input))])
        case .notifMark:
            return object(&input, [("chatId", .int(chatId(&input))), ("userId", .int(userId(&input))),
                                   ("mark", .int(time(&input))), ("setAsUnread", .bool(input.byte() & 1 == 1))])
        case .notifMsgDelete:
            return object(&input, [("chatId", .int(chatId(&input))),
                                   ("messageIds", list(&input, limit: 3) { .int(int(&$0)) }),
                                   ("ttl", .bool(false)), ("updateTime", .int(time(&input)))])
        default:
            return .map([])
        }
    }

    /// An error body in the field's shape `{error, message, localizedMessage?, title?}`.
    public func error(_ input: inout FuzzInput) -> MessagePackValue {
        object(&input, [("error", .string(string(&input))), ("message", .string(string(&input))),
                        ("localizedMessage", .string(string(&input)))])
    }

    /// Types a synthesized frame as the cores receive it.
    public static func packet(cmd: Command, seq: UInt16, opcode: Opcode, payload: MessagePackValue) -> Packet? {
        try? Packet(frame: Frame(cmd: cmd, seq: seq, opcode: opcode, payload: payload))
    }
}
