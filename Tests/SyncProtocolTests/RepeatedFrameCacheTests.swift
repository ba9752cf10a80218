import SimCore
import Testing

@testable import SyncProtocol

@Suite struct RepeatedFrameCacheTests {
    static let stored: [Opcode] = [.notifMessage, .notifMark]

    /// Frames with repeats: random frames, a third of them given a stored opcode, then each pushed twice more.
    static func framesWithRepeats(seed: UInt64) -> [Frame] {
        var frames = FrameDecoderTests.randomFrames(seed: seed, count: 15, layout: .standard)
        for index in frames.indices where index % 3 == 0 { frames[index].opcode = stored[index % 2] }
        return frames + frames.filter { stored.contains($0.opcode) } + frames.reversed()
    }

    /// Decodes `stream` split into `chunkSizes` one way or the other, returning the packets and the frame count.
    static func decodePackets(
        _ stream: [UInt8], chunkSizes: [Int], cache: inout RepeatedFrameCache?, decoder: FrameDecoder = FrameDecoder()
    ) throws -> (packets: [Packet], frameCount: Int) {
        var decoder = decoder
        var buffer = ByteReader()
        var packets: [Packet] = []
        var start = 0
        for size in chunkSizes where start < stream.count {
            let end = min(stream.count, start + size)
            buffer.append(contentsOf: stream[start..<end])
            start = end
            if cache != nil {
                while let packet = try decoder.decodePacket(&buffer, cache: &cache!) { packets.append(packet) }
            } else {
                while let frame = try decoder.decode(&buffer) { packets.append(try Packet(frame: frame)) }
            }
        }
        try decoder.finish(buffer)
        return (packets, decoder.frameCount)
    }

    @Test("packets through the cache are the packets decoded without it, whatever the split",
          arguments: [UInt64(1), 2, 3])
    func sameAsPlainDecode(seed: UInt64) throws {
        let frames = Self.framesWithRepeats(seed: seed)
        var stream: [UInt8] = []
        for frame in frames { try FrameEncoder().encode(frame, into: &stream) }
        var noCache: RepeatedFrameCache?
        let plain = try Self.decodePackets(stream, chunkSizes: [stream.count], cache: &noCache)
        var generator = SeededGenerator(seed: seed)
        var cache: RepeatedFrameCache? = RepeatedFrameCache(matching: FrameDecoder(), opcodes: Self.stored)
        for chunkSizes in [
            [stream.count], [Int](repeating: 1, count: stream.count),
            TestSupport.randomSplits(count: stream.count, maxChunk: 64, using: &generator),
        ] {
            let cached = try Self.decodePackets(stream, chunkSizes: chunkSizes, cache: &cache)
            #expect(cached.packets == plain.packets)
            #expect(cached.frameCount == frames.count)
        }
        #expect(cache!.hitCount > 0)
    }

    @Test("canonically equal texts with different bytes are not confused") func canonicalEquivalence() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(composed == decomposed)
        let frames = [composed, decomposed, composed, decomposed].map { text in
            Frame(cmd: .request, seq: 0, opcode: .notifMessage,
                  payload: .map([MessagePackPair(.string("text"), .string(text))]))
        }
        var stream: [UInt8] = []
        for frame in frames { try FrameEncoder().encode(frame, into: &stream) }
        var cache: RepeatedFrameCache? = RepeatedFrameCache(matching: FrameDecoder(), opcodes: [.notifMessage])
        let packets = try Self.decodePackets(stream, chunkSizes: [stream.count], cache: &cache).packets
        let texts: [[UInt8]] = packets.map {
            guard case .raw(.map(let pairs)) = $0.body, case .string(let text) = pairs[0].value else { return [] }
            return Array(text.utf8)
        }
        #expect(texts == [composed, decomposed, composed, decomposed].map { Array($0.utf8) })
        #expect(cache!.hitCount == 2)
    }

    @Test("a cache made for other limits is not used") func otherConfiguration() throws {
        let frame = Frame(cmd: .request, seq: 0, opcode: .notifMark, payload: .map([]))
        let stream = try FrameEncoder().encode(frame) + FrameEncoder().encode(frame)
        var cache: RepeatedFrameCache? = RepeatedFrameCache(
            matching: FrameDecoder(maxPayloadBytes: 100), opcodes: [.notifMark])
        let packets = try Self.decodePackets(stream, chunkSizes: [stream.count], cache: &cache).packets
        #expect(packets.count == 2)
        #expect(cache!.hitCount == 0)
    }

    @Test("a fault after cached frames throws what the plain decoder throws") func faultAfterHits() throws {
        let frame = Frame(cmd: .request, seq: 0, opcode: .notifMark, payload: .map([]))
        var stream = try FrameEncoder().encode(frame) + FrameEncoder().encode(frame) + FrameEncoder().encode(frame)
        stream[stream.count - 11] = 9  // the third frame's version byte
        var noCache: RepeatedFrameCache?
        var cache: RepeatedFrameCache? = RepeatedFrameCache(matching: FrameDecoder(), opcodes: [.notifMark])
        let plainError = #expect(throws: WireError.self) {
            try Self.decodePackets(stream, chunkSizes: [stream.count], cache: &noCache)
        }
        let cachedError = #expect(throws: WireError.self) {
            try Self.decodePackets(stream, chunkSizes: [stream.count], cache: &cache)
        }
        #expect(plainError != nil && plainError == cachedError)
        #expect(cache!.hitCount == 1)
    }

    @Test("the oldest frame is replaced once the cache is full") func replacement() throws {
        let frames = (0..<3).map { index in
            Frame(cmd: .request, seq: 0, opcode: .notifMark,
                  payload: .map([MessagePackPair(.string("i"), .int(Int64(index)))]))
        }
        var stream: [UInt8] = []
        for frame in frames + [frames[0], frames[2]] { try FrameEncoder().encode(frame, into: &stream) }
        var noCache: RepeatedFrameCache?
        let plain = try Self.decodePackets(stream, chunkSizes: [stream.count], cache: &noCache).packets
        var cache: RepeatedFrameCache? = RepeatedFrameCache(
            matching: FrameDecoder(), opcodes: [.notifMark], capacity: 2)
        let packets = try Self.decodePackets(stream, chunkSizes: [stream.count], cache: &cache).packets
        #expect(packets == plain)
        #expect(cache!.hitCount == 1)  // frames[0] was replaced by frames[2]; frames[2] is still there
    }
}
