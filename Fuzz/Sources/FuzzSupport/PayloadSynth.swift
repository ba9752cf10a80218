import SyncProtocol

/// Builds frame payloads from fuzz bytes in the shapes DESIGN.md §3 documents, as `MessagePackValue` maps, so the
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

    /// A stored message `{id, time, sender, text, cid?, attaches?}`.
    public func message(_ input: inout FuzzInput, id: Int64? = nil) -> MessagePackValue {
        var pairs: [(String, MessagePackValue)] = [
            ("id", .int(id ?? int(&input))), ("time", .int(int(&input))), ("sender", .int(userId(&input))),
            ("text", .string(string(&input))),
        ]
        let extras = input.byte()
        if extras & 1 != 0 { pairs.append(("cid", .int(int(&input)))) }
        if extras & 2 != 0 {
            pairs.append(("attaches", .array([Self.map([("type", .string("PHOTO")),
                                                        ("photoToken", .string(string(&input)))])])))
        }
        return object(&input, pairs)
    }

    /// A list of up to `limit` values made by `element`.
    public func list(_ input: inout FuzzInput, limit: Int, _ element: (inout FuzzInput) -> MessagePackValue)
        -> MessagePackValue {
        let count = Int(input.byte()) % (limit + 1)
        return .array((0..<count).map { _ in element(&input) })
    }

    /// A request body for `opcode` (the shapes the server reads).
    public func request(_ opcode: Opcode, _ input: inout FuzzInput) -> MessagePackValue {
        switch opcode {
        case .sessionInit:
            return object(&input, [("deviceId", .string(string(&input))), ("clientVersion", .string("fuzz"))])
        case .login:
            return object(&input, [("token", .string(string(&input))), ("chatsSync", .int(int(&input))),
                                   ("contactsSync", .int(int(&input))), ("chatsCount", .int(int(&input)))])
        case .chatHistory:
            return object(&input, [("chatId", .int(chatId(&input))), ("from", .int(int(&input))),
                                   ("forward", .int(int(&input))), ("backward", .int(int(&input)))])
        case .chatMark:
            return object(&input, [("chatId", .int(chatId(&input))), ("mark", .int(int(&input)))])
        case .msgSend:
            var outgoing: [(String, MessagePackValue)] = [("text", .string(string(&input))), ("cid", .int(int(&input)))]
            outgoing.append(("attaches", list(&input, limit: 2) { input in
                Self.map([("type", .string("PHOTO")), ("photoToken", .string(string(&input)))])
            }))
            return object(&input, [("chatId", .int(chatId(&input))), ("message", object(&input, outgoing))])
        case .photoUpload:
            return object(&input, [("sizeBytes", .int(int(&input)))])
        case .ping:
            return object(&input, [("interactive", .bool(input.byte() & 1 == 1))])
        default:
            return .map([])
        }
    }

    /// A response body for `opcode` (the shapes the client reads).
    public func response(_ opcode: Opcode, _ input: inout FuzzInput) -> MessagePackValue {
        switch opcode {
        case .sessionInit:
            return object(&input, [("time", .int(int(&input)))])
        case .login:
            let chats = list(&input, limit: 4) { input in
                var pairs: [(String, MessagePackValue)] = [
                    ("id", .int(chatId(&input))), ("members", .array([.int(userId(&input)), .int(userId(&input))])),
                    ("modified", .int(int(&input))),
                ]
                if input.byte() & 1 == 1 { pairs.append(("lastMessage", message(&input))) }
                return object(&input, pairs)
            }
            let contacts = list(&input, limit: 2) { input in
                Self.map([("id", .int(userId(&input))), ("name", .string(string(&input)))])
            }
            return object(&input, [("profile", Self.map([("id", .int(userId(&input))), ("name", .string("me"))])),
                                   ("chats", chats), ("contacts", contacts), ("time", .int(int(&input)))])
        case .chatHistory:
            // Ids ascending from a base with fuzzed steps (0 repeats an id, 255 goes backwards), or unordered.
            var id = int(&input)
            let messages = list(&input, limit: 12) { input in
                let step = input.byte()
                id = step == 255 ? id &- Int64(input.byte()) : id &+ Int64(step)
                return message(&input, id: id)
            }
            return object(&input, [("messages", messages)])
        case .msgSend:
            return object(&input, [("chatId", .int(chatId(&input))), ("message", message(&input))])
        case .photoUpload:
            return object(&input, [("photoToken", .string(string(&input)))])
        default:
            return .map([])
        }
    }

    /// A push body for `opcode` (NOTIF_MESSAGE, NOTIF_MARK; others empty).
    public func push(_ opcode: Opcode, _ input: inout FuzzInput) -> MessagePackValue {
        switch opcode {
        case .notifMessage:
            return object(&input, [("chatId", .int(chatId(&input))), ("message", message(&input))])
        case .notifMark:
            return object(&input, [("chatId", .int(chatId(&input))), ("userId", .int(userId(&input))),
                                   ("mark", .int(int(&input)))])
        default:
            return .map([])
        }
    }

    /// An error body `{error, message}`.
    public func error(_ input: inout FuzzInput) -> MessagePackValue {
        object(&input, [("error", .string(string(&input))), ("message", .string(string(&input)))])
    }

    /// Types a synthesized frame as the cores receive it.
    public static func packet(cmd: Command, seq: UInt16, opcode: Opcode, payload: MessagePackValue) -> Packet? {
        try? Packet(frame: Frame(cmd: cmd, seq: seq, opcode: opcode, payload: payload))
    }
}
