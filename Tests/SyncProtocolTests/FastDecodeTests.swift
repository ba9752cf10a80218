import SimCore
import Testing

@testable import SyncProtocol

/// The direct decoders of `Packet+FastDecode.swift` against Codable (`MessagePackDecoder`), the reference: on every
/// payload, mutated or not, the fast path gives the same value or declines (nil), and it declines only where Codable
/// fails (else `Packet(frame:)` would give `.raw` where it gave a typed body before).
@Suite struct FastDecodeTests {
    /// SimCore's seeded generator, for the mutations.
    typealias Mixer = SeededGenerator

    static let message = ChatMessage(
        id: 70005, time: 1_764_000_005_000, sender: 1002, text: "hi", cid: 55,
        attaches: [.photo(token: "p1")], status: ChatMessage.edited, updateTime: 1_764_000_006_000,
        elements: [MessageElement(type: "STRONG", from: 0, length: 2), MessageElement(type: "LINK")])
    static let plain = ChatMessage(id: 1, time: 2, sender: 3, text: "")

    static let payloads: [MessagePackValue] = [
        try! MessagePackEncoder().encode(NotifMessage(chatId: 7, message: message)),
        try! MessagePackEncoder().encode(NotifMessage(chatId: -1, message: plain)),
        try! MessagePackEncoder().encode(ChatHistoryResponse(messages: [message, plain, message])),
        try! MessagePackEncoder().encode(ChatHistoryResponse(messages: [])),
        try! MessagePackEncoder().encode(MsgSendResponse(chatId: 9, message: message)),
        try! MessagePackEncoder().encode(
            MsgSendRequest(
                chatId: 9,
                message: OutgoingMessage(
                    text: "x", cid: 4, attaches: [.photo(token: "t")], elements: [MessageElement(type: "EM")]),
                notify: false)),
        try! MessagePackEncoder().encode(MsgSendRequest(chatId: 9, message: OutgoingMessage(text: "", cid: 1))),
        try! MessagePackEncoder().encode(PingRequest(interactive: true)),
    ]

    /// Fast and Codable agree on `value` for every type; returns how many types decoded.
    @discardableResult
    static func agree(_ value: MessagePackValue) -> Int {
        func check<T: Decodable & Equatable>(_ type: T.Type, _ fast: (MessagePackValue) -> T?) -> Int {
            let reference = try? MessagePackDecoder().decode(type, from: value)
            let quick = fast(value)
            #expect(quick == reference, "\(type) on \(value)")
            return quick == nil ? 0 : 1
        }
        return check(NotifMessage.self, NotifMessage.init(fastPayload:))
            + check(MsgSendResponse.self, MsgSendResponse.init(fastPayload:))
            + check(ChatHistoryResponse.self, ChatHistoryResponse.init(fastPayload:))
            + check(MsgSendRequest.self, MsgSendRequest.init(fastPayload:))
            + check(PingRequest.self, PingRequest.init(fastPayload:))
            + check(ChatMessage.self, ChatMessage.init(fastPayload:))
            + check(OutgoingMessage.self, OutgoingMessage.init(fastPayload:))
            + check(MessageElement.self, MessageElement.init(fastPayload:))
            + check(Attach.self, Attach.init(fastPayload:))
    }

    @Test func unmutatedPayloadsDecodeTheSame() {
        for payload in Self.payloads { #expect(Self.agree(payload) >= 1) }
    }

    static let replacements: [MessagePackValue] = [
        .nil, .bool(true), .int(-3), .int(Int64.min), .uint(5), .uint(UInt64.max), .uint(UInt64(Int64.max) + 1),
        .double(1.5), .string("USER"), .string(""), .binary([1]), .array([]), .map([]),
        .array([.map([.init(.string("type"), .string("A"))])]), .ext(type: 1, data: [0]),
    ]
    static let keys = [
        "id", "time", "type", "sender", "text", "cid", "status", "updateTime", "elements", "attaches", "chatId",
        "message", "messages", "notify", "interactive", "from", "length", "photoToken", "other",
    ]

    /// One random change somewhere in the tree: a value replaced, a pair dropped, duplicated, moved or renamed.
    static func mutate(_ value: MessagePackValue, _ mixer: inout Mixer, depth: Int = 0) -> MessagePackValue {
        switch value {
        case .map(var pairs) where !pairs.isEmpty:
            let index = mixer.below(pairs.count)
            switch mixer.below(depth < 3 ? 7 : 6) {
            case 0: pairs[index].value = replacements[mixer.below(replacements.count)]
            case 1: pairs.remove(at: index)
            case 2: pairs.insert(pairs[index], at: mixer.below(pairs.count + 1))
            case 3:
                var copy = pairs[index]
                copy.value = replacements[mixer.below(replacements.count)]
                pairs.insert(copy, at: mixer.below(pairs.count + 1))
            case 4: pairs.swapAt(index, mixer.below(pairs.count))
            case 5: pairs[index].key = mixer.below(5) == 0 ? .int(1) : .string(keys[mixer.below(keys.count)])
            default: pairs[index].value = mutate(pairs[index].value, &mixer, depth: depth + 1)
            }
            return .map(pairs)
        case .array(var elements) where !elements.isEmpty:
            let index = mixer.below(elements.count)
            switch mixer.below(3) {
            case 0: elements[index] = replacements[mixer.below(replacements.count)]
            case 1: elements.remove(at: index)
            default: elements[index] = mutate(elements[index], &mixer, depth: depth + 1)
            }
            return .array(elements)
        default:
            return replacements[mixer.below(replacements.count)]
        }
    }

    @Test func mutatedPayloadsDecodeTheSameOrFallBack() {
        var mixer = Mixer(seed: 16)
        var decoded = 0
        for round in 0..<6_000 {
            var value = Self.payloads[round % Self.payloads.count]
            for _ in 0...mixer.below(3) { value = Self.mutate(value, &mixer) }
            decoded += Self.agree(value)
        }
        // Many mutations keep a decodable shape (an optional dropped, a duplicate after the first): both sides ran.
        #expect(decoded > 1_000)
    }

    @Test func packetsFromFramesAreUnchanged() throws {
        for packet in PacketTests.packets {
            #expect(try Packet(frame: Frame(packet: packet)) == packet)
        }
    }

    @Test func directEncodingEqualsCodable() throws {
        var mixer = Mixer(seed: 61)
        func someInt() -> Int64 {
            [Int64.min, -1, 0, 1, 127, 128, 70_005, Int64.max][mixer.below(8)]
        }
        func someText() -> String { ["", "hi", "Привет 🚲", String(repeating: "x", count: 40)][mixer.below(4)] }
        for _ in 0..<300 {
            let elements = (0..<mixer.below(3)).map { _ in
                MessageElement(
                    type: someText(), from: mixer.below(2) == 0 ? nil : Int(someInt()),
                    length: mixer.below(2) == 0 ? nil : Int(someInt()))
            }
            // Every property of every type with a direct encoder is set on some values: a key the direct encoder
            // leaves out (as `link` and `options` of a chat once were) makes the two encodings differ.
            let attaches = (0..<mixer.below(3)).map { _ in
                var attach = Attach(
                    type: someText(), photoToken: mixer.below(2) == 0 ? nil : someText(),
                    photoId: mixer.below(2) == 0 ? nil : someInt(), baseUrl: mixer.below(2) == 0 ? nil : someText(),
                    width: mixer.below(2) == 0 ? nil : Int(someInt()), height: mixer.below(2) == 0 ? nil : Int(someInt()))
                if mixer.below(2) == 0 { attach.event = someText() }
                if mixer.below(2) == 0 { attach.chatType = someText() }
                if mixer.below(2) == 0 { attach.title = someText() }
                if mixer.below(2) == 0 { attach.userIds = (0..<mixer.below(3)).map { _ in someInt() } }
                if mixer.below(2) == 0 { attach[other: "fileId"] = .int(someInt()) }
                if mixer.below(2) == 0 { attach[other: "name"] = .string(someText()) }
                return attach
            }
            var message = ChatMessage(
                id: someInt(), time: someInt(), sender: someInt(), text: someText(),
                cid: mixer.below(2) == 0 ? nil : someInt(), attaches: mixer.below(3) == 0 ? nil : attaches,
                type: someText(), status: mixer.below(2) == 0 ? nil : someText(),
                updateTime: mixer.below(2) == 0 ? nil : someInt(), elements: elements)
            if mixer.below(3) == 0 {
                let linked = ChatMessage(id: someInt(), time: someInt(), sender: someInt(), text: someText())
                message.link = MessageLink(type: someText(), chatId: someInt(), message: linked)
            }
            let outgoing = OutgoingMessage(
                text: someText(), cid: someInt(), attaches: attaches, elements: elements,
                link: mixer.below(3) == 0
                    ? OutgoingLink(type: someText(), messageId: someInt(), chatId: mixer.below(2) == 0 ? nil : someInt())
                    : nil)
            let encoder = MessagePackEncoder()
            try #expect(message.fastPayload == encoder.encode(message))
            let push = NotifMessage(chatId: someInt(), message: message)
            try #expect(push.fastPayload == encoder.encode(push))
            var chat: ChatSummary?
            if mixer.below(2) == 0 {
                var made = ChatSummary(
                    id: someInt(), members: (0..<mixer.below(4)).map { _ in someInt() }, modified: someInt(),
                    lastMessage: mixer.below(2) == 0 ? nil : message)
                made.fullKeys = mixer.below(2) == 0
                if mixer.below(2) == 0 { made.pinnedMessage = message }
                if mixer.below(2) == 0 { made.title = someText() }
                if mixer.below(2) == 0 { made.descriptionText = someText() }
                if mixer.below(2) == 0 { made.groupOwner = someInt() }
                if mixer.below(2) == 0 { made.link = someText() }
                if mixer.below(2) == 0 { made.options = ["B": true, "A": false, someText(): true] }
                if mixer.below(2) == 0 { made.cid = someInt() }
                chat = made
            }
            let response = MsgSendResponse(chatId: someInt(), message: message, chat: chat)
            try #expect(response.fastPayload == encoder.encode(response))
            let page = ChatHistoryResponse(messages: Array(repeating: message, count: mixer.below(3)))
            try #expect(page.fastPayload == encoder.encode(page))
            let send = MsgSendRequest(chatId: someInt(), message: outgoing, notify: mixer.below(2) == 0)
            try #expect(send.fastPayload == encoder.encode(send))
            let ping = PingRequest(interactive: mixer.below(2) == 0)
            try #expect(ping.fastPayload == encoder.encode(ping))
            // And back: the direct decoders read what was written (a linked message is left to Codable).
            let reference = try MessagePackDecoder().decode(NotifMessage.self, from: push.fastPayload)
            let quick = NotifMessage(fastPayload: push.fastPayload)
            #expect(quick == reference || (quick == nil && message.link != nil))
        }
    }

    /// LOGIN responses: the direct encoding gives the same bytes as Codable, payload and whole frame (compressed or
    /// not), for the empty response, varied ones (duplicate and negative member ids, edited messages, texts that are
    /// canonically equal but differ in bytes) and a large one.
    @Test func loginResponseEncodingEqualsCodable() throws {
        let encoders = [FrameEncoder(), FrameEncoder(compressionThresholdBytes: 0)]
        for response in Self.loginResponses() {
            let codable = try MessagePackEncoder().encode(response)
            #expect(response.fastPayload.messagePackBytes() == codable.messagePackBytes())
            let packet = Packet(cmd: .response, seq: 9, opcode: .login, body: .loginResponse(response))
            let codableFrame = Frame(cmd: .response, seq: 9, opcode: .login, payload: codable)
            for encoder in encoders {
                #expect(try encoder.encode(packet) == encoder.encode(codableFrame))
            }
        }
    }

    /// The empty LOGIN response, a large one and 300 varied ones.
    static func loginResponses() -> [LoginResponse] {
        var mixer = Mixer(seed: 67)
        func someInt() -> Int64 { [Int64.min, -1, 0, 1, 127, 128, 70_005, Int64.max][mixer.below(8)] }
        func someText() -> String {
            ["", "hi", "caf\u{E9}", "cafe\u{301}", "Привет 🚲", String(repeating: "x", count: 40)][mixer.below(6)]
        }
        func someMessage() -> ChatMessage {
            ChatMessage(
                id: someInt(), time: someInt(), sender: someInt(), text: someText(),
                cid: mixer.below(2) == 0 ? nil : someInt(),
                attaches: mixer.below(3) == 0 ? nil : [Attach(type: someText(), photoToken: someText())],
                type: someText(), status: mixer.below(2) == 0 ? nil : ChatMessage.edited,
                updateTime: mixer.below(2) == 0 ? nil : someInt(),
                elements: mixer.below(2) == 0 ? [] : [MessageElement(type: "STRONG", from: 0, length: 2)])
        }
        func someResponse(scale: Int) -> LoginResponse {
            let chats = (0..<mixer.below(scale + 1)).map { _ in
                var chat = ChatSummary(
                    id: someInt(), members: (0..<mixer.below(scale + 1)).map { _ in someInt() }, modified: someInt(),
                    lastMessage: mixer.below(2) == 0 ? nil : someMessage())
                chat.fullKeys = mixer.below(2) == 0  // the keys `ServerKnobs.fullListKeys` adds, on some entries
                if mixer.below(3) == 0 {
                    // What CHAT_UPDATE and a group's creation set, each on some entries (link, options and cid were
                    // once left out of the direct encoding: LOGIN listed a group without its link).
                    if mixer.below(2) == 0 { chat.pinnedMessage = someMessage() }
                    if mixer.below(2) == 0 { chat.title = someText() }
                    if mixer.below(2) == 0 { chat.descriptionText = someText() }
                    if mixer.below(2) == 0 { chat.groupOwner = someInt() }
                    if mixer.below(2) == 0 { chat.link = "https://syncsim.invalid/join/" + someText() }
                    if mixer.below(2) == 0 { chat.options = ["ONLY_ADMIN_CAN_ADD_MEMBER": true, "A": false] }
                    if mixer.below(2) == 0 { chat.cid = someInt() }
                }
                return chat
            }
            let contacts = (0..<mixer.below(scale + 1)).map { _ in
                var contact = Contact(id: someInt(), name: someText())
                contact.fullKeys = mixer.below(2) == 0
                return contact
            }
            var profile = Profile(id: someInt(), name: someText())
            profile.fullKeys = mixer.below(2) == 0
            var messages: [Int64: [ChatMessage]] = [:]
            for _ in 0..<mixer.below(scale + 1) {
                messages[someInt()] = (0..<mixer.below(3)).map { _ in someMessage() }
            }
            return LoginResponse(
                profile: profile, chats: chats, contacts: contacts,
                messages: messages, token: mixer.below(2) == 0 ? nil : someText(), time: someInt())
        }
        let large = LoginResponse(
            profile: Profile(id: 1001, name: "user 1001"),
            chats: (0..<200).map { index in
                ChatSummary(
                    id: Int64(index), members: (1000..<1010).map { Int64($0) }, modified: 1_764_000_000_000,
                    lastMessage: index % 2 == 0 ? FastDecodeTests.message : nil)
            },
            contacts: (0..<2_000).map { Contact(id: Int64(1_000 + $0), name: "user \($0)") },
            messages: [5: [FastDecodeTests.message, FastDecodeTests.plain], 70: [FastDecodeTests.plain]],
            token: "token-1001", time: 1_764_000_000_000)
        let empty = LoginResponse(profile: Profile(id: 0, name: ""), chats: [], contacts: [], time: 0)
        var responses = [empty, large]
        for round in 0..<300 { responses.append(someResponse(scale: round % 3 == 0 ? 12 : 3)) }
        return responses
    }

    /// LOGIN responses decode directly to what Codable gives, or decline (nil) and leave the payload to Codable:
    /// unmutated payloads decode directly unless a chat carries a detail; mutated ones (keys repeated, renamed, values of other types,
    /// chat ids spelled twice) agree or fall back.
    @Test func loginResponseDecodingEqualsCodableOrFallsBack() throws {
        func agree(_ value: MessagePackValue) -> Bool {
            let reference = try? MessagePackDecoder().decode(LoginResponse.self, from: value)
            guard let quick = LoginResponse(fastPayload: value) else { return false }
            #expect(quick == reference, "LoginResponse on \(value)")
            return true
        }
        let responses = Self.loginResponses().prefix(120)
        let payloads = try responses.map { try MessagePackEncoder().encode($0) }
        for (response, payload) in zip(responses, payloads) {
            // A chat with a detail (pin, title, link, cid...) is left to Codable; any other decodes directly.
            let direct = agree(payload)
            #expect(direct || response.chats.contains(where: \.hasDetails))
            let frame = Frame(cmd: .response, seq: 3, opcode: .login, payload: payload)
            let reference = try MessagePackDecoder().decode(LoginResponse.self, from: payload)
            #expect(try Packet(frame: frame).body == .loginResponse(reference))
        }
        func pair(_ key: String, _ value: MessagePackValue) -> MessagePackPair { MessagePackPair(.string(key), value) }
        let contact = MessagePackValue.map([
            pair("id", .uint(5)),
            pair("names", .array([.map([pair("firstName", .string("F"))]), .map([pair("name", .string("n"))])])),
        ])
        let chat = MessagePackValue.map([
            pair("id", .int(-4)),
            pair("participants", .map([pair("9", .nil), pair("07", .uint(1)), pair("7", .bool(true)), pair("x", .nil),
                                       MessagePackPair(.uint(3), .nil)])),
            pair("lastMessage", .nil),
        ])
        let handMade: [MessagePackValue] = [
            .map([pair("profile", .map([pair("contact", contact)])), pair("chats", .array([chat])),
                  pair("contacts", .array([contact, .map([pair("id", .uint(6))])])), pair("time", .uint(1)),
                  pair("messages", .nil)]),
            .map([pair("time", .int(-1)), pair("contacts", .array([])), pair("chats", .array([])),
                  pair("profile", .map([pair("contact", contact), pair("profileOptions", .nil)])),
                  pair("messages", .map([pair("7", .array([])), MessagePackPair(.int(2), .nil)]))]),
            .map([pair("time", .int(-1)), pair("contacts", .array([])), pair("chats", .array([])),
                  pair("profile", .map([pair("contact", contact)])),
                  pair("messages", .map([pair("7", .array([])), pair("07", .array([]))]))]),
            .map([pair("time", .int(-1)), pair("contacts", .array([])), pair("chats", .array([])),
                  pair("profile", .map([pair("contact", contact)])), pair("messages", .map([pair("x", .array([]))]))]),
        ]
        #expect(agree(handMade[0]))
        #expect(agree(handMade[1]))
        for payload in handMade { _ = agree(payload) }
        var mixer = Mixer(seed: 71)
        var decoded = 0
        for round in 0..<4_000 {
            var value = round % 2 == 0 ? payloads[round % payloads.count] : handMade[round % handMade.count]
            for _ in 0...mixer.below(3) { value = Self.mutate(value, &mixer) }
            if agree(value) { decoded += 1 }
        }
        #expect(decoded > 250)  // 293 of 4,000 at this seed (chats with details decline to Codable): both sides ran on many
    }
}

extension SeededGenerator {
    /// A draw in `0..<bound`, for picking mutations.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
