import SimCore
import Testing

@testable import SyncProtocol

@Suite struct MessagePackValueTests {
    @Test("seeded random values survive encode and decode unchanged", arguments: [UInt64(1), 2, 3, 42])
    func randomRoundTrip(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for iteration in 0..<200 {
            let value = TestSupport.randomValue(depth: 4, using: &generator)
            let decoded = try MessagePackValue(messagePack: value.messagePackBytes())
            #expect(decoded == value, "seed \(seed) iteration \(iteration)")
        }
    }

    @Test("a signed encoding of a non-negative integer decodes as .int, an unsigned one as .uint")
    func keepsSignedness() throws {
        #expect(try MessagePackValue(messagePack: [0xd0, 0x05]) == .int(5))
        #expect(try MessagePackValue(messagePack: [0xcc, 0x05]) == .uint(5))
        #expect(
            try MessagePackValue(messagePack: [0x92, 0xd3, 0, 0, 0, 0, 0, 0, 0, 1, 0x01])
                == .array([.int(1), .uint(1)]))
    }

    @Test("map pairs keep their wire order") func keepsMapOrder() throws {
        let bytes: [UInt8] = [0x82, 0xa1, 0x62, 0x01, 0xa1, 0x61, 0x02]
        let value = try MessagePackValue(messagePack: bytes)
        #expect(value == .map([MessagePackPair(.string("b"), .uint(1)), MessagePackPair(.string("a"), .uint(2))]))
        #expect(value.messagePackBytes() == bytes)
    }

    @Test("0xc1 is invalid, named at its offset") func invalidByte() {
        #expect { try MessagePackValue(messagePack: [0x92, 0x01, 0xc1]) } throws: { error in
            let error = error as! WireError
            return error.kind == .invalidMessagePack && error.offset == 2
        }
    }

    @Test("invalid UTF-8 in a string is invalid MessagePack") func invalidUTF8() {
        #expect { try MessagePackValue(messagePack: [0x91, 0xa2, 0xc3, 0x28]) } throws: { error in
            let error = error as! WireError
            return error.kind == .invalidMessagePack && error.offset == 1
        }
    }

    @Test("invalid UTF-8 in a map key is invalid too, also after the same key was read valid") func invalidKey() {
        #expect { try MessagePackValue(messagePack: [0x81, 0xa2, 0xc3, 0x28, 0x01]) } throws: { error in
            let error = error as! WireError
            return error.kind == .invalidMessagePack && error.offset == 1
        }
        let bytes: [UInt8] = [0x92, 0x81, 0xa1, 0x61, 0x01, 0x81, 0xa1, 0xff, 0x02]
        #expect { try MessagePackValue(messagePack: bytes) } throws: { error in
            let error = error as! WireError
            return error.kind == .invalidMessagePack && error.offset == 6
        }
    }

    @Test("a timestamp with a bad length or nanoseconds is invalid") func invalidTimestamp() {
        #expect(throws: WireError.self) { try MessagePackValue(messagePack: [0xd5, 0xff, 0, 0]) }
        #expect(throws: WireError.self) {
            try MessagePackValue(messagePack: [0xc7, 12, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0])
        }
    }

    @Test("a value cut short is truncated at the value's offset") func truncated() {
        #expect { try MessagePackValue(messagePack: [0x91, 0xa5, 0x61, 0x62]) } throws: { error in
            let error = error as! WireError
            return error.kind == .truncatedMessagePack && error.offset == 1
        }
        #expect { try MessagePackValue(messagePack: [0xcd, 0x01]) } throws: { error in
            (error as! WireError).kind == .truncatedMessagePack
        }
        #expect { try MessagePackValue(messagePack: []) } throws: { error in
            (error as! WireError).kind == .truncatedMessagePack
        }
    }

    @Test("32 nested containers decode; 33 are nested too deeply, named at the 33rd") func nesting() throws {
        let deepest = [UInt8](repeating: 0x91, count: 32) + [0x01]
        var expected = MessagePackValue.uint(1)
        for _ in 0..<32 { expected = .array([expected]) }
        #expect(try MessagePackValue(messagePack: deepest) == expected)
        #expect { try MessagePackValue(messagePack: [UInt8](repeating: 0x91, count: 33) + [0x01]) } throws: { error in
            let error = error as! WireError
            return error.kind == .nestedTooDeeply && error.offset == 32
        }
        #expect {
            try MessagePackValue(messagePack: [0x91, 0x91, 0x91, 0x01], limits: MessagePackLimits(maxDepth: 2))
        } throws: { error in (error as! WireError).kind == .nestedTooDeeply }
    }

    @Test("an array or map claiming more elements than bytes remain is refused before allocating")
    func countExceedsRemainingBytes() {
        #expect { try MessagePackValue(messagePack: [0xdd, 0xff, 0xff, 0xff, 0xff, 0x01]) } throws: { error in
            let error = error as! WireError
            return error.kind == .countExceedsRemainingBytes && error.offset == 0
        }
        #expect { try MessagePackValue(messagePack: [0x81, 0xa1, 0x61, 0xdf, 0x7f, 0xff, 0xff, 0xff, 0x00]) } throws: {
            error in
            let error = error as! WireError
            return error.kind == .countExceedsRemainingBytes && error.offset == 3
                && error.description.contains("claims 2147483647 pairs")
        }
    }

    @Test("bytes after the value are trailing bytes, named where the value ends") func trailingBytes() {
        #expect { try MessagePackValue(messagePack: [0x80, 0x00, 0x00]) } throws: { error in
            let error = error as! WireError
            return error.kind == .trailingBytes && error.offset == 1
                && error.description.contains("2 bytes after the value")
        }
    }
}
