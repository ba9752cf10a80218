import SimCore
import Testing

@testable import SyncProtocol

@Suite struct FrameDecoderTests {
    /// A seeded mix of frames: random small payloads (raw) and history-like pages (compressed when they shrink).
    static func randomFrames(seed: UInt64, count: Int, layout: HeaderLayout) -> [Frame] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            let payload =
                index % 3 == 2
                ? TestSupport.compressiblePayload(count: Int.random(in: 25...60, using: &generator), using: &generator)
                : .map([MessagePackPair(.string("v"), TestSupport.randomValue(depth: 3, using: &generator))])
            return Frame(
                cmd: Command.allCases.randomElement(using: &generator)!,
                seq: UInt16.random(in: 0...layout.maxSeq, using: &generator),
                opcode: Opcode(rawValue: UInt16.random(in: 0...200, using: &generator)),
                payload: payload
            )
        }
    }

    static let layoutsAndSeeds: [(HeaderLayout, UInt64)] = HeaderLayout.allCases.flatMap { layout in
        [UInt64(7), 8, 9].map { (layout, $0) }
    }

    @Test("an empty payload, and one that decompresses to no bytes, reads as {} as PyMax reads it; the count goes on")
    func emptyPayloads() throws {
        let lz4OfNothing = try #require([UInt8]().withUnsafeBytes { LZ4Block.compress($0) })
        let zstdOfNothing = try #require([UInt8]().withUnsafeBytes { ZstdFrame.compress($0) })
        #expect(!lz4OfNothing.isEmpty && !zstdOfNothing.isEmpty)
        func frame(seq: UInt8, flag: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [10, 0, 0, seq, 0, 1, flag, 0, 0, UInt8(payload.count)] + payload
        }
        var reader = ByteReader()
        reader.append(contentsOf: frame(seq: 1, flag: 0, []) + frame(seq: 2, flag: 1, []) + frame(seq: 3, flag: 0xff, [])
            + frame(seq: 4, flag: 1, lz4OfNothing) + frame(seq: 5, flag: 0xff, zstdOfNothing))
        var decoder = FrameDecoder()
        var decoded: [DecodedFrame] = []
        while let next = try decoder.decodeFrame(&reader) { decoded.append(next) }
        #expect(decoded.map(\.frame.seq) == [1, 2, 3, 4, 5])
        #expect(decoded.allSatisfy { $0.frame.payload == .map([]) && $0.payloadByteCount == 0 })
        #expect(decoded.map(\.number) == [1, 2, 3, 4, 5])
    }

    @Test("frames round-trip compressed and raw in both layouts, whatever the byte split", arguments: layoutsAndSeeds)
    func roundTripEverySplit(layout: HeaderLayout, seed: UInt64) throws {
        let frames = Self.randomFrames(seed: seed, count: 12, layout: layout)
        for threshold in [0, FrameEncoder.defaultCompressionThresholdBytes, Int.max] {
            let encoder = FrameEncoder(layout: layout, compressionThresholdBytes: threshold)
            var stream: [UInt8] = []
            for frame in frames { try encoder.encode(frame, into: &stream) }
            let decoder = FrameDecoder(layout: layout)
            var generator = SeededGenerator(seed: seed &+ UInt64(threshold & 0xFFFF))
            let splits: [[Int]] = [
                [stream.count],
                [Int](repeating: 1, count: stream.count),
                TestSupport.randomSplits(count: stream.count, maxChunk: 64, using: &generator),
                TestSupport.randomSplits(count: stream.count, maxChunk: 2000, using: &generator),
            ]
            for chunkSizes in splits {
                let decoded = try TestSupport.decodeAll(stream, chunkSizes: chunkSizes, decoder: decoder)
                #expect(decoded.map(\.frame) == frames, "seed \(seed) layout \(layout) threshold \(threshold)")
                #expect(decoded.map(\.number) == Array(1...frames.count))
                #expect(decoded.last.map { $0.offset + $0.wireByteCount } == stream.count)
            }
            let compressedCount = try TestSupport.decodeAll(stream, chunkSizes: [stream.count], decoder: decoder)
                .filter(\.header.isCompressed).count
            if threshold == Int.max {
                #expect(compressedCount == 0)
            } else {
                #expect(compressedCount >= frames.count / 3, "history pages compress (seed \(seed))")
            }
        }
    }

    @Test("decode returns nil until a whole frame is in, then the frame") func needsMoreBytes() throws {
        let bytes = try FrameEncoder().encode(Frame(cmd: .push, seq: 3, opcode: .notifMark, payload: .map([])))
        var decoder = FrameDecoder()
        var buffer = ByteReader()
        for byte in bytes.dropLast() {
            buffer.append(contentsOf: [byte])
            #expect(try decoder.decode(&buffer) == nil)
        }
        buffer.append(contentsOf: [bytes.last!])
        #expect(try decoder.decode(&buffer)?.opcode == .notifMark)
        #expect(buffer.readableByteCount == 0)
        #expect(buffer.streamOffset == bytes.count)
    }

    @Test("any non-zero compression flag means LZ4") func anyFlagIsLZ4() throws {
        var generator = SeededGenerator(seed: 5)
        let frame = Frame(
            cmd: .response, seq: 1, opcode: .chatHistory,
            payload: TestSupport.compressiblePayload(count: 40, using: &generator))
        var bytes = try FrameEncoder().encode(frame)
        #expect(bytes[6] == 1)
        bytes[6] = 0xA5
        #expect(try TestSupport.decodeAll(bytes, chunkSizes: [bytes.count]).map(\.frame) == [frame])
    }

    @Test("a block expanding far more than 8x still decodes (the exact-size path)") func highlyCompressible() throws {
        let frame = Frame(
            cmd: .response, seq: 1, opcode: .chatHistory,
            payload: .map([MessagePackPair(.string("text"), .string(String(repeating: "a", count: 60_000)))]))
        let bytes = try FrameEncoder().encode(frame)
        #expect(bytes.count < 1000)
        #expect(try TestSupport.decodeAll(bytes, chunkSizes: [bytes.count]).map(\.frame) == [frame])
    }

    // MARK: one test per error kind, each checking the offset it names

    static let good: [UInt8] = try! FrameEncoder().encode(
        Frame(
            cmd: .push, seq: 0, opcode: .notifMark,
            payload: .map([MessagePackPair(.string("chatId"), .uint(7))]))
    )

    static func expectError(
        _ stream: [UInt8], _ kind: WireError.Kind, offset: Int, frameNumber: Int = 2,
        decoder: FrameDecoder = FrameDecoder(), mentioning text: String? = nil
    ) {
        for chunkSizes in [[stream.count], [Int](repeating: 1, count: stream.count)] {
            #expect {
                _ = try TestSupport.decodeAll(stream, chunkSizes: chunkSizes, decoder: decoder)
            } throws: { error in
                guard let error = error as? WireError else { return false }
                return error.kind == kind && error.offset == offset && error.frameNumber == frameNumber
                    && (text.map { error.description.contains($0) } ?? true)
            }
        }
    }

    @Test("an unsupported version names the version byte") func unsupportedVersion() {
        var bad = Self.good
        bad[0] = 9
        Self.expectError(
            Self.good + bad, .unsupportedVersion, offset: Self.good.count,
            mentioning: "frame 2 at offset \(Self.good.count): unsupported version 9")
    }

    @Test("an unknown cmd names the cmd byte, in both layouts") func unknownCommand() throws {
        var bad = Self.good
        bad[1] = 7
        Self.expectError(Self.good + bad, .unknownCommand, offset: Self.good.count + 1, mentioning: "unknown cmd 7")
        let encoder = FrameEncoder(layout: .cmd16Seq8)
        let good16 = try encoder.encode(Frame(cmd: .request, seq: 200, opcode: .ping, payload: .map([])))
        var bad16 = good16
        bad16[1] = 1  // cmd 0x0100
        Self.expectError(
            good16 + bad16, .unknownCommand, offset: good16.count + 1,
            decoder: FrameDecoder(layout: .cmd16Seq8), mentioning: "unknown cmd 256")
    }

    @Test("a payload length over the limit is refused from the header alone") func payloadTooLarge() {
        var header: [UInt8] = [10, 1, 0, 1, 0, 19, 0, 0xFF, 0xFF, 0xFF]
        Self.expectError(
            Self.good + header, .payloadTooLarge, offset: Self.good.count + 7,
            mentioning: "payload length 16777215 exceeds the 5 MiB limit")
        header[7...9] = [0, 0, 200]
        Self.expectError(
            Self.good + header + [UInt8](repeating: 0, count: 200), .payloadTooLarge,
            offset: Self.good.count + 7, decoder: FrameDecoder(maxPayloadBytes: 100),
            mentioning: "payload length 200 exceeds the 100 bytes limit")
    }

    @Test("a stream ending inside a header is a truncated header at the end offset") func truncatedHeader() {
        Self.expectError(
            Self.good + Self.good.prefix(4), .truncatedHeader, offset: Self.good.count + 4,
            mentioning: "4 of 10 bytes")
    }

    @Test("a stream ending inside a payload is a truncated payload at the end offset") func truncatedPayload() {
        let stream = Self.good + Self.good.dropLast(2)
        Self.expectError(
            stream, .truncatedPayload, offset: stream.count,
            mentioning: "\(Self.good.count - 12) of \(Self.good.count - 10) bytes")
    }

    static func compressedFrame(block: [UInt8]) -> [UInt8] {
        [10, 1, 0, 1, 0, 49, 1, 0, UInt8(block.count >> 8), UInt8(block.count & 0xFF)] + block
    }

    @Test("a corrupt LZ4 block names the offending compressed byte") func corruptCompression() {
        // One literal 'x', then a match 5 bytes back, before the start of the output.
        let block: [UInt8] = [0x10, 0x78, 0x05, 0x00, 0x50, 1, 2, 3, 4, 5]
        Self.expectError(
            Self.good + Self.compressedFrame(block: block), .corruptCompression,
            offset: Self.good.count + 10 + 2, mentioning: "match offset 5")
    }

    @Test("an LZ4 block expanding past the limit is refused before decompressing") func decompressedTooLarge() {
        // 'a', then a match of 4 + 15 + 255 * 40 bytes at offset 1: about 10 KB from a few dozen bytes.
        let block: [UInt8] =
            [0x1F, 0x61, 0x01, 0x00] + [UInt8](repeating: 255, count: 40) + [0x00, 0x50, 1, 2, 3, 4, 5]
        Self.expectError(
            Self.good + Self.compressedFrame(block: block), .decompressedTooLarge,
            offset: Self.good.count + 10, decoder: FrameDecoder(maxPayloadBytes: 4096),
            mentioning: "expands past the 4 KiB limit")
    }

    static func rawFrame(payload: [UInt8]) -> [UInt8] {
        [10, 2, 0, 0, 0, 130, 0, 0, 0, UInt8(payload.count)] + payload
    }

    @Test(
        "MessagePack faults in a raw payload name the exact stream offset",
        arguments: [
            ([0x81, 0xa1, 0x61, 0xc1], WireError.Kind.invalidMessagePack, 3),
            ([0x81, 0xa1, 0x61, 0xa3, 0x61], .truncatedMessagePack, 3),
            ([UInt8](repeating: 0x91, count: 33) + [0], .nestedTooDeeply, 32),
            ([0x81, 0xa1, 0x61, 0xdc, 0x01, 0x00, 0x01], .countExceedsRemainingBytes, 3),
            ([0x80, 0x80], .trailingBytes, 1),
        ] as [([UInt8], WireError.Kind, Int)])
    func messagePackFaults(payload: [UInt8], kind: WireError.Kind, payloadOffset: Int) {
        let stream = Self.good + Self.rawFrame(payload: payload)
        Self.expectError(
            stream, kind, offset: Self.good.count + 10 + payloadOffset,
            mentioning: "payload byte \(payloadOffset)")
    }

    @Test("a MessagePack fault in a compressed payload names the payload and the decompressed offset")
    func messagePackFaultInCompressedPayload() throws {
        var generator = SeededGenerator(seed: 11)
        var raw = TestSupport.compressiblePayload(count: 40, using: &generator).messagePackBytes()
        raw.append(0x00)  // one trailing byte
        let block = try #require(raw.withUnsafeBytes { LZ4Block.compress($0) })
        let stream = Self.good + [10, 1, 0, 1, 0, 49, 1, 0, UInt8(block.count >> 8), UInt8(block.count & 0xFF)] + block
        Self.expectError(
            stream, .trailingBytes, offset: Self.good.count + 10,
            mentioning: "decompressed payload byte \(raw.count - 1)")
    }
}
