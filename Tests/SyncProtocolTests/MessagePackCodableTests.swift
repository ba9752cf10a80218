import Testing
@testable import SyncProtocol

@Suite struct MessagePackCodableTests {
    struct Sample: Codable, Hashable {
        var id: Int64
        var count: Int
        var isOn: Bool
        var name: String
        var ratio: Double
        var note: String?
        var tags: [String]
        var nested: Inner
        var inners: [Inner]?
    }

    struct Inner: Codable, Hashable {
        var offset: Int64
    }

    static let sample = Sample(id: -5, count: 3, isOn: true, name: "Ж", ratio: 0.25, note: nil, tags: ["a", "b"],
                               nested: Inner(offset: 1 << 40), inners: [Inner(offset: 0)])

    @Test("structs encode as maps in declaration order, nil optionals omitted") func encodesMap() throws {
        let value = try MessagePackEncoder().encode(Self.sample)
        #expect(value == .map([
            MessagePackPair(.string("id"), .int(-5)),
            MessagePackPair(.string("count"), .uint(3)),
            MessagePackPair(.string("isOn"), .bool(true)),
            MessagePackPair(.string("name"), .string("Ж")),
            MessagePackPair(.string("ratio"), .double(0.25)),
            MessagePackPair(.string("tags"), .array([.string("a"), .string("b")])),
            MessagePackPair(.string("nested"), .map([MessagePackPair(.string("offset"), .uint(1 << 40))])),
            MessagePackPair(.string("inners"), .array([.map([MessagePackPair(.string("offset"), .uint(0))])])),
        ]))
    }

    @Test("decoding what was encoded gives the value back, also through bytes") func roundTrip() throws {
        let value = try MessagePackEncoder().encode(Self.sample)
        #expect(try MessagePackDecoder().decode(Sample.self, from: value) == Self.sample)
        let reread = try MessagePackValue(messagePack: value.messagePackBytes())
        #expect(try MessagePackDecoder().decode(Sample.self, from: reread) == Self.sample)
    }

    @Test("integers decode from signed and unsigned encodings; keys in any order; explicit nil is nil")
    func lenientShapes() throws {
        let value = MessagePackValue.map([
            MessagePackPair(.string("offset"), .int(12)),
        ])
        #expect(try MessagePackDecoder().decode(Inner.self, from: value) == Inner(offset: 12))
        let reordered = MessagePackValue.map([
            MessagePackPair(.string("tags"), .array([])),
            MessagePackPair(.string("nested"), .map([MessagePackPair(.string("offset"), .uint(2))])),
            MessagePackPair(.string("note"), .nil),
            MessagePackPair(.string("ratio"), .uint(2)),
            MessagePackPair(.string("name"), .string("n")),
            MessagePackPair(.string("isOn"), .bool(false)),
            MessagePackPair(.string("count"), .uint(1)),
            MessagePackPair(.string("id"), .uint(9)),
        ])
        let decoded = try MessagePackDecoder().decode(Sample.self, from: reordered)
        #expect(decoded == Sample(id: 9, count: 1, isOn: false, name: "n", ratio: 2, note: nil, tags: [],
                                  nested: Inner(offset: 2), inners: nil))
    }

    @Test("a wrong shape is a DecodingError, not a crash", arguments: [
        MessagePackValue.map([MessagePackPair(.string("offset"), .string("x"))]),
        .map([]),
        .array([.uint(1)]),
        .map([MessagePackPair(.string("offset"), .uint(UInt64.max))]),
    ])
    func wrongShape(value: MessagePackValue) {
        #expect(throws: DecodingError.self) { try MessagePackDecoder().decode(Inner.self, from: value) }
    }

    @Test("a scalar of the wrong type names its full coding path")
    func scalarErrorNamesCodingPath() {
        let value = MessagePackValue.map([
            MessagePackPair(.string("chatId"), .uint(3)),
            MessagePackPair(
                .string("message"),
                .map([
                    MessagePackPair(.string("id"), .uint(1)),
                    MessagePackPair(.string("time"), .string("noon")),
                ])),
        ])
        #expect {
            try MessagePackDecoder().decode(NotifMessage.self, from: value)
        } throws: { error in
            guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["message", "time"]
        }
    }

    @Test("an error inside an array element names the full path, index included")
    func arrayElementErrorNamesFullPath() {
        func message(_ time: MessagePackValue) -> MessagePackValue {
            .map([MessagePackPair(.string("id"), .uint(1)), MessagePackPair(.string("time"), time)])
        }
        let badTime = MessagePackValue.map([
            MessagePackPair(.string("messages"), .array([message(.uint(5)), message(.string("noon"))]))
        ])
        #expect {
            try MessagePackDecoder().decode(ChatHistoryResponse.self, from: badTime)
        } throws: { error in
            guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["messages", "1", "time"]
        }
        let missingId = MessagePackValue.map([
            MessagePackPair(
                .string("messages"),
                .array([message(.uint(5)), .map([MessagePackPair(.string("time"), .uint(6))])]))
        ])
        #expect {
            try MessagePackDecoder().decode(ChatHistoryResponse.self, from: missingId)
        } throws: { error in
            guard case .keyNotFound(let key, let context) = error as? DecodingError else { return false }
            return key.stringValue == "id" && context.codingPath.map(\.stringValue) == ["messages", "1"]
        }
    }

    @Test("an optional scalar under a nil value or a missing key decodes as nil; a wrong type still throws")
    func optionalScalars() throws {
        let base: [MessagePackPair] = [
            MessagePackPair(.string("id"), .uint(1)), MessagePackPair(.string("time"), .uint(2)),
        ]
        let withNil = MessagePackValue.map(base + [MessagePackPair(.string("cid"), .nil)])
        #expect(try MessagePackDecoder().decode(ChatMessage.self, from: withNil).cid == nil)
        let missing = MessagePackValue.map(base)
        #expect(try MessagePackDecoder().decode(ChatMessage.self, from: missing).status == nil)
        let wrong = MessagePackValue.map(base + [MessagePackPair(.string("status"), .uint(3))])
        #expect {
            try MessagePackDecoder().decode(ChatMessage.self, from: wrong)
        } throws: { error in
            guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["status"]
        }
    }
}
