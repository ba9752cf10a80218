import Testing

@testable import SyncProtocol

@Suite struct MessagePackValueIdentityTests {
    @Test("identical values pack the same; canonically equal strings with other bytes are not identical")
    func identity() {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let value: MessagePackValue = .map([
            MessagePackPair(.string("text"), .string(composed)),
            MessagePackPair(.string("list"), .array([.int(-1), .uint(2), .double(0.5), .nil, .bool(true)])),
            MessagePackPair(.string("bin"), .binary([1, 2])),
            MessagePackPair(.string("ext"), .ext(type: 3, data: [4])),
            MessagePackPair(.string("time"), .timestamp(seconds: 5, nanoseconds: 6)),
        ])
        #expect(value.isIdentical(to: value))
        let other: MessagePackValue = .map([MessagePackPair(.string("text"), .string(decomposed))] + Array(value.pairs.dropFirst()))
        #expect(other == value)
        #expect(!other.isIdentical(to: value))
        #expect(other.messagePackBytes() != value.messagePackBytes())
        #expect(!MessagePackValue.double(0.0).isIdentical(to: .double(-0.0)))
        #expect(MessagePackValue.double(0.0) == .double(-0.0))
        #expect(!MessagePackValue.array([.int(1)]).isIdentical(to: .array([.int(1), .int(2)])))
        #expect(!MessagePackValue.int(1).isIdentical(to: .string("1")))
    }
}

extension MessagePackValue {
    fileprivate var pairs: [MessagePackPair] {
        if case .map(let pairs) = self { return pairs }
        return []
    }
}
