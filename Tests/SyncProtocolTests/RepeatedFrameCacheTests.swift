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

    @Test("PINGs and empty responses, read from their bytes, decode as the plain path does; near misses too")
    func commonFrames() throws {
        let interactive = MessagePackValue.string("interactive")
        var frames: [Frame] = []
        for (seq, flag) in [(UInt16(0), false), (1, true), (0xFFFF, false), (300, true)] {
            let payload = MessagePackValue.map([MessagePackPair(interactive, .bool(flag))])
            frames.append(Frame(cmd: .request, seq: seq, opcode: .ping, payload: payload))
        }
        for opcode in [Opcode.ping, .chatMark, .msgDelete, .login, Opcode(rawValue: 999)] {
            frames.append(Frame(cmd: .response, seq: 7, opcode: opcode, payload: .map([])))
        }
        // Near misses: other values, keys, commands and opcodes, and longer maps.
        frames += [
            Frame(cmd: .request, seq: 2, opcode: .ping, payload: .map([])),
            Frame(cmd: .request, seq: 2, opcode: .ping, payload: .map([MessagePackPair(interactive, .int(1))])),
            Frame(cmd: .request, seq: 2, opcode: .ping,
                  payload: .map([MessagePackPair(.string("interactivE"), .bool(true))])),
            Frame(cmd: .request, seq: 2, opcode: .ping, payload: .map([
                MessagePackPair(interactive, .bool(true)), MessagePackPair(.string("x"), .nil)])),
            Frame(cmd: .response, seq: 2, opcode: .ping, payload: .map([MessagePackPair(interactive, .bool(true))])),
            Frame(cmd: .push, seq: 2, opcode: .ping, payload: .map([MessagePackPair(interactive, .bool(false))])),
            Frame(cmd: .request, seq: 2, opcode: .log, payload: .map([MessagePackPair(interactive, .bool(false))])),
            Frame(cmd: .request, seq: 2, opcode: .chatMark, payload: .map([])),
            Frame(cmd: .error, seq: 2, opcode: .ping, payload: .map([])),
            Frame(cmd: .push, seq: 2, opcode: .notifMark, payload: .map([])),
            Frame(cmd: .response, seq: 2, opcode: .ping, payload: .array([])),
            Frame(cmd: .response, seq: 2, opcode: .ping, payload: .nil),
        ]
        var stream: [UInt8] = []
        for frame in frames { try FrameEncoder().encode(frame, into: &stream) }
        var noCache: RepeatedFrameCache?
        let plain = try Self.decodePackets(stream, chunkSizes: [stream.count], cache: &noCache)
        #expect(plain.packets.prefix(4).allSatisfy { if case .ping = $0.body { true } else { false } })
        #expect(plain.packets[4..<9].allSatisfy { $0.body == .empty })
        var cache: RepeatedFrameCache? = RepeatedFrameCache(matching: FrameDecoder(), opcodes: Self.stored)
        for chunkSizes in [[stream.count], [Int](repeating: 1, count: stream.count)] {
            let read = try Self.decodePackets(stream, chunkSizes: chunkSizes, cache: &cache)
            #expect(read.packets == plain.packets)
            #expect(read.frameCount == frames.count)
        }
        // An empty map behind a compression flag is not read as one: the decoder's own error.
        var compressed = try FrameEncoder().encode(Frame(cmd: .response, seq: 1, opcode: .ping, payload: .map([])))
        compressed[6] = 1
        var plainDecoder = FrameDecoder()
        var plainBuffer = ByteReader()
        plainBuffer.append(contentsOf: compressed)
        var plainError = ""
        do { _ = try plainDecoder.decode(&plainBuffer) } catch { plainError = "\(error)" }
        var decoder = FrameDecoder()
        var buffer = ByteReader()
        buffer.append(contentsOf: compressed)
        var cacheError = ""
        do { _ = try decoder.decodePacket(&buffer, cache: &cache!) } catch { cacheError = "\(error)" }
        #expect(!plainError.isEmpty && cacheError == plainError)
    }
}
