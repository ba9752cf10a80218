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
            let attaches = (0..<mixer.below(3)).map { _ in
                Attach(type: someText(), photoToken: mixer.below(2) == 0 ? nil : someText())
            }
            let message = ChatMessage(
                id: someInt(), time: someInt(), sender: someInt(), text: someText(),
                cid: mixer.below(2) == 0 ? nil : someInt(), attaches: mixer.below(3) == 0 ? nil : attaches,
                type: someText(), status: mixer.below(2) == 0 ? nil : someText(),
                updateTime: mixer.below(2) == 0 ? nil : someInt(), elements: elements)
            let outgoing = OutgoingMessage(text: someText(), cid: someInt(), attaches: attaches, elements: elements)
            let encoder = MessagePackEncoder()
            try #expect(message.fastPayload == encoder.encode(message))
            let push = NotifMessage(chatId: someInt(), message: message)
            try #expect(push.fastPayload == encoder.encode(push))
            let response = MsgSendResponse(chatId: someInt(), message: message)
            try #expect(response.fastPayload == encoder.encode(response))
            let page = ChatHistoryResponse(messages: Array(repeating: message, count: mixer.below(3)))
            try #expect(page.fastPayload == encoder.encode(page))
            let send = MsgSendRequest(chatId: someInt(), message: outgoing, notify: mixer.below(2) == 0)
            try #expect(send.fastPayload == encoder.encode(send))
            let ping = PingRequest(interactive: mixer.below(2) == 0)
            try #expect(ping.fastPayload == encoder.encode(ping))
            // And back: the direct decoders read what was written.
            try #expect(
                NotifMessage(fastPayload: push.fastPayload)
                    == MessagePackDecoder().decode(NotifMessage.self, from: push.fastPayload))
        }
    }
}

extension SeededGenerator {
    /// A draw in `0..<bound`, for picking mutations.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
