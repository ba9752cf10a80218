import SimCore
import Testing

@testable import SyncProtocol

/// `MessagePackSerialization.Unpacker`, which `FrameDecoder` keeps from frame to frame: reusing its map-key
/// cache must give exactly the values a fresh unpacker gives.
@Suite struct MessagePackUnpackerTests {
    /// Keys that crowd the 64-slot cache (evictions), sit at its 15-byte edge, or are empty.
    static func key(_ number: Int, using generator: inout SeededGenerator) -> String {
        switch number % 5 {
        case 0: ""
        case 1: "k\(number % 200)"
        case 2: String(repeating: "x", count: 15)
        case 3: String(repeating: "y", count: 16)
        default: TestSupport.randomString(using: &generator)
        }
    }

    @Test("one unpacker across many values gives what a fresh one gives", arguments: [UInt64(31), 32])
    func reuseAcrossValues(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let unpacker = MessagePackSerialization.Unpacker()
        for iteration in 0..<300 {
            let value = MessagePackValue.map(
                (0..<Int.random(in: 0...12, using: &generator)).map { number in
                    MessagePackPair(
                        .string(Self.key(number + iteration, using: &generator)),
                        TestSupport.randomValue(depth: 3, using: &generator))
                })
            let bytes = value.messagePackBytes()
            let reused = try bytes.withUnsafeBytes {
                try MessagePackValue(messagePack: $0, limits: MessagePackLimits(), unpacker: unpacker)
            }
            let fresh = try MessagePackValue(messagePack: bytes)
            #expect(reused == fresh, "seed \(seed), iteration \(iteration)")
            #expect(reused == value, "seed \(seed), iteration \(iteration)")
        }
    }

    @Test("a key that is not UTF-8 is refused every time and never cached")
    func invalidKeyIsNeverCached() throws {
        let unpacker = MessagePackSerialization.Unpacker()
        let invalid = TestSupport.bytes(hex: "81-a1-ff-01")
        let valid = TestSupport.bytes(hex: "81-a1-61-01")
        for _ in 0..<2 {
            #expect(throws: WireError.self) {
                _ = try invalid.withUnsafeBytes {
                    try MessagePackValue(messagePack: $0, limits: MessagePackLimits(), unpacker: unpacker)
                }
            }
            let value = try valid.withUnsafeBytes {
                try MessagePackValue(messagePack: $0, limits: MessagePackLimits(), unpacker: unpacker)
            }
            #expect(value == .map([MessagePackPair(.string("a"), .uint(1))]))
        }
    }

    @Test("a copied frame decoder decodes the same frames as the original")
    func copiedDecoderKeepsItsOwnUnpacker() throws {
        var generator = SeededGenerator(seed: 5)
        let encoder = FrameEncoder()
        var stream: [UInt8] = []
        var frames: [Frame] = []
        for index in 0..<8 {
            let payload =
                index % 3 == 0
                ? TestSupport.compressiblePayload(count: 40, using: &generator)
                : .map([MessagePackPair(.string("k\(index)"), TestSupport.randomValue(depth: 3, using: &generator))])
            let frame = Frame(cmd: .push, seq: UInt16(index), opcode: .notifMessage, payload: payload)
            frames.append(frame)
            try encoder.encode(frame, into: &stream)
        }
        var original = FrameDecoder()
        var buffer = ByteReader(stream)
        var decoded: [Frame] = []
        for _ in 0..<3 { decoded.append(try #require(try original.decode(&buffer))) }
        var copy = original
        var copyBuffer = buffer
        var copyDecoded = decoded
        while let frame = try copy.decode(&copyBuffer) { copyDecoded.append(frame) }
        while let frame = try original.decode(&buffer) { decoded.append(frame) }
        #expect(decoded == frames)
        #expect(copyDecoded == frames)
    }

    @Test("decoders sharing one key cache, interleaved, decode what their own decoders decode")
    func sharedKeyCacheDecodesTheSame() throws {
        var generator = SeededGenerator(seed: 9)
        let encoder = FrameEncoder()
        var streams: [[UInt8]] = [[], [], []]
        var frames: [[Frame]] = [[], [], []]
        for index in 0..<30 {
            // Keys that collide across streams and values of every kind: a cache hit must give what a build gives.
            let payload: MessagePackValue =
                index % 4 == 0
                ? TestSupport.compressiblePayload(count: 40, using: &generator)
                : .map([MessagePackPair(.string("k\(index % 5)"),
                                        TestSupport.randomValue(depth: 3, using: &generator))])
            let frame = Frame(cmd: .push, seq: UInt16(index), opcode: .notifMessage, payload: payload)
            frames[index % 3].append(frame)
            try encoder.encode(frame, into: &streams[index % 3])
        }
        var template = FrameDecoder()
        var decoders = (0..<3).map { _ in template.decoderSharingKeyCache() }
        var buffers = streams.map { ByteReader($0) }
        var decoded: [[Frame]] = [[], [], []]
        var progressed = true
        while progressed {
            progressed = false
            for stream in 0..<3 {
                if let frame = try decoders[stream].decode(&buffers[stream]) {
                    decoded[stream].append(frame)
                    progressed = true
                }
            }
        }
        #expect(decoded == frames)
    }
}
