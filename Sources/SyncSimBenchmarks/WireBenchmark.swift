import CLZ4
import CMsgPack
import Foundation
import SyncSim

/// `syncsim-bench wire`: frame encode and decode speed on a realistic mix, next to the raw C libraries doing the
/// same work (msgpack-c pack/unpack, LZ4 block compress/decompress) on the same payloads in the same run.
///
/// The mix: pushes (NOTIF_MESSAGE, 100-300 bytes, sent raw) and history pages (CHAT_HISTORY responses, 5-30 KB,
/// LZ4-compressed), 9 pushes for each page. "ours" is `FrameEncoder`/`FrameDecoder` on `MessagePackValue`
/// payloads (header, MessagePack through msgpack-c, checks, LZ4); "typed" adds the Codable conversion to and from
/// `Packet`. MB/s counts payload bytes before compression (1 MB = 10^6 bytes) per second of processor time. This
/// file is the benchmark target's only user of CLZ4 and CMsgPack.
enum WireBenchmark {
    static var benchmark: Benchmark {
        Benchmark(
            name: "wire",
            summary: "frame encode/decode vs raw msgpack-c + LZ4 (args: [FRAMES] [ROUNDS])",
            check: { _ = try parse($0) },
            run: run
        )
    }

    /// `[FRAMES] [ROUNDS]`.
    /// - Throws: `BenchmarkUsageError` for an option, a value out of range or an extra argument.
    static func parse(_ arguments: [String]) throws -> (frames: Int, rounds: Int) {
        var parsed = BenchmarkArguments(arguments, benchmark: "wire")
        try parsed.finishOptions(positionals: ["FRAMES", "ROUNDS"])
        return (try parsed.integer(0, "FRAMES", default: 2_000, in: 10...10_000_000),
                try parsed.integer(1, "ROUNDS", default: 10, in: 1...10_000))
    }

    static func run(_ arguments: [String]) throws {
        let (frameCount, rounds) = try parse(arguments)
        let packets = makeMix(count: frameCount, seed: 1)
        let frames = packets.map(Frame.init(packet:))
        let encoder = FrameEncoder()
        var stream: [UInt8] = []
        for frame in frames { try encoder.encode(frame, into: &stream) }
        let payloadBytes = frames.reduce(0) { $0 + $1.payload.messagePackBytes().count }
        let pushBytes = frames.filter { $0.opcode == .notifMessage }.map { $0.payload.messagePackBytes().count }
        let pageBytes = frames.filter { $0.opcode == .chatHistory }.map { $0.payload.messagePackBytes().count }
        print(
            "wire mix: \(frames.count) frames (\(pushBytes.count) pushes of \(pushBytes.min()!)-\(pushBytes.max()!) B, "
                + "\(pageBytes.count) history pages of \(pageBytes.min()!)-\(pageBytes.max()!) B), "
                + "\(payloadBytes) payload bytes, \(stream.count) bytes on the wire; best of \(rounds) runs each")

        var raw = RawC(stream: stream, frames: frames)
        defer { raw.destroy() }

        let oursEncode = measure(rounds: rounds) {
            var output: [UInt8] = []
            output.reserveCapacity(stream.count)
            for frame in frames { try! encoder.encode(frame, into: &output) }
            precondition(output.count == stream.count)
        }
        let rawEncode = measure(rounds: rounds) { raw.encodeAll() }
        let typedEncode = measure(rounds: rounds) {
            var output: [UInt8] = []
            for packet in packets { try! encoder.encode(Frame(packet: packet), into: &output) }
        }
        let oursDecode = measure(rounds: rounds) {
            var decoder = FrameDecoder()
            var buffer = ByteReader(stream)
            var count = 0
            while (try! decoder.decode(&buffer)) != nil { count += 1 }
            precondition(count == frames.count)
        }
        let rawDecode = measure(rounds: rounds) { raw.decodeAll() }
        let typedDecode = measure(rounds: rounds) {
            var decoder = FrameDecoder()
            var buffer = ByteReader(stream)
            while let frame = try! decoder.decode(&buffer) { _ = try! Packet(frame: frame) }
        }

        func line(_ name: String, _ seconds: Double, versus baseline: Double? = nil) {
            let framesPerSecond = Double(frames.count) / seconds
            let megabytesPerSecond = Double(payloadBytes) / seconds / 1e6
            var text =
                "wire \(name.padding(toLength: 14, withPad: " ", startingAt: 0))"
                + String(format: "%10.0f frames/s %8.1f MB/s", framesPerSecond, megabytesPerSecond)
            if let baseline { text += String(format: "   ratio vs raw C %.2f", baseline / seconds) }
            print(text)
        }
        line("encode raw C", rawEncode)
        line("encode ours", oursEncode, versus: rawEncode)
        line("encode typed", typedEncode, versus: rawEncode)
        line("decode raw C", rawDecode)
        line("decode ours", oursDecode, versus: rawDecode)
        line("decode typed", typedDecode, versus: rawDecode)
    }

    /// Processor seconds of this thread for one run of `body`, the best of `rounds` runs after a warm-up run (the
    /// machine may be shared: processor time is what a core spent, and the fastest run the least disturbed).
    static func measure(rounds: Int, _ body: () -> Void) -> Double {
        body()
        var best = Double.infinity
        for _ in 0..<max(rounds, 1) {
            best = min(best, KernelBenchmark.measure(body).cpuSeconds)
        }
        return best
    }

    /// Nine pushes of 100-300 bytes for each history page of 5-30 KB, seeded.
    static func makeMix(count: Int, seed: UInt64) -> [Packet] {
        var generator = SeededGenerator(seed: seed)
        let words = [
            "ok", "see", "you", "at", "six", "the", "train", "is", "late", "again", "lunch", "?", "sure",
            "call", "me", "when", "back", "home", "Привет", "🚲",
        ]
        func text(_ wordCount: Int) -> String {
            (0..<wordCount).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
        }
        var nextId: Int64 = 70_000
        func message(time: Int64, wordCount: Int) -> ChatMessage {
            nextId += 1
            return ChatMessage(
                id: nextId, time: time, sender: Int64.random(in: 1000...1010, using: &generator),
                text: text(wordCount), cid: Bool.random(using: &generator) ? nextId * 31 : nil)
        }
        let start: Int64 = 1_764_000_000_000
        return (0..<count).map { index in
            let time = start + Int64(index) * 1_000
            if index % 10 == 9 {
                let messages = (0..<Int.random(in: 60...340, using: &generator)).map { step in
                    message(time: time - Int64(step) * 60_000, wordCount: Int.random(in: 3...12, using: &generator))
                }
                return Packet(
                    cmd: .response, seq: UInt16(index % 65536), opcode: .chatHistory,
                    body: .chatHistoryResponse(ChatHistoryResponse(messages: messages)))
            }
            return Packet(
                cmd: .push, seq: 0, opcode: .notifMessage,
                body: .notifMessage(
                    NotifMessage(
                        chatId: Int64.random(in: 1...50, using: &generator),
                        message: message(time: time, wordCount: Int.random(in: 11...40, using: &generator))
                    )))
        }
    }

    /// The same work with msgpack-c and liblz4 alone: objects unpacked once up front, packed and compressed with
    /// the same threshold rule; decoding decompresses into a reused 8 MiB buffer and unpacks into a reused zone.
    struct RawC {
        var wirePayloads: [(bytes: [UInt8], isCompressed: Bool)] = []
        var objects: [UnsafeMutablePointer<msgpack_unpacked>] = []
        var headers: [(cmd: UInt8, seq: UInt16, opcode: UInt16)] = []
        /// Copies of the packed payloads the objects were unpacked from: msgpack-c's objects point into them.
        var sources: [UnsafeMutableRawBufferPointer] = []
        var scratch = [UInt8](repeating: 0, count: 8 << 20)
        var packBuffer = msgpack_sbuffer()
        var unpacked = msgpack_unpacked()
        let threshold = FrameEncoder.defaultCompressionThresholdBytes

        let expectedStreamByteCount: Int

        init(stream: [UInt8], frames: [Frame]) {
            expectedStreamByteCount = stream.count
            msgpack_sbuffer_init(&packBuffer)
            msgpack_unpacked_init(&unpacked)
            var offset = 0
            while offset < stream.count {
                let length = Int(stream[offset + 7]) << 16 | Int(stream[offset + 8]) << 8 | Int(stream[offset + 9])
                wirePayloads.append((Array(stream[(offset + 10)..<(offset + 10 + length)]), stream[offset + 6] != 0))
                offset += 10 + length
            }
            for frame in frames {
                let bytes = frame.payload.messagePackBytes()
                headers.append((UInt8(frame.cmd.rawValue), frame.seq, frame.opcode.rawValue))
                let holder = UnsafeMutablePointer<msgpack_unpacked>.allocate(capacity: 1)
                holder.initialize(to: msgpack_unpacked())
                msgpack_unpacked_init(holder)
                let source = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
                source.copyBytes(from: bytes)
                sources.append(source)
                var consumed = 0
                _ = msgpack_unpack_next(
                    holder, source.baseAddress!.assumingMemoryBound(to: CChar.self), source.count,
                    &consumed)
                objects.append(holder)
            }
        }

        mutating func encodeAll() {
            var output: [UInt8] = []
            output.reserveCapacity(16 << 20)
            withUnsafeMutablePointer(to: &packBuffer) { buffer in
                var packer = msgpack_packer()
                msgpack_packer_init(&packer, UnsafeMutableRawPointer(buffer), msgpack_sbuffer_write)
                for (object, header) in zip(objects, headers) {
                    msgpack_sbuffer_clear(buffer)
                    msgpack_pack_object(&packer, object.pointee.data)
                    let size = buffer.pointee.size
                    let data = UnsafeRawPointer(buffer.pointee.data!)
                    func appendHeader(flag: UInt8, length: Int) {
                        output.append(10)
                        output.append(header.cmd)
                        output.append(UInt8(header.seq >> 8))
                        output.append(UInt8(header.seq & 0xFF))
                        output.append(UInt8(header.opcode >> 8))
                        output.append(UInt8(header.opcode & 0xFF))
                        output.append(flag)
                        output.append(UInt8(truncatingIfNeeded: length >> 16))
                        output.append(UInt8(truncatingIfNeeded: length >> 8))
                        output.append(UInt8(truncatingIfNeeded: length))
                    }
                    if size >= threshold {
                        let written = scratch.withUnsafeMutableBytes { destination in
                            LZ4_compress_default(
                                data.assumingMemoryBound(to: CChar.self),
                                destination.baseAddress!.assumingMemoryBound(to: CChar.self),
                                Int32(size), Int32(destination.count))
                        }
                        if written > 0, Int(written) < size {
                            appendHeader(flag: 1, length: Int(written))
                            output.append(contentsOf: scratch[0..<Int(written)])
                            continue
                        }
                    }
                    appendHeader(flag: 0, length: size)
                    output.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size))
                }
            }
            precondition(output.count == expectedStreamByteCount, "raw C must write the same stream")
        }

        mutating func decodeAll() {
            var total = 0
            for (bytes, isCompressed) in wirePayloads {
                var consumed = 0
                if isCompressed {
                    let produced = bytes.withUnsafeBytes { source in
                        scratch.withUnsafeMutableBytes { destination in
                            LZ4_decompress_safe(
                                source.baseAddress!.assumingMemoryBound(to: CChar.self),
                                destination.baseAddress!.assumingMemoryBound(to: CChar.self),
                                Int32(source.count), Int32(destination.count))
                        }
                    }
                    scratch.withUnsafeBytes {
                        _ = msgpack_unpack_next(
                            &unpacked, $0.baseAddress!.assumingMemoryBound(to: CChar.self),
                            Int(produced), &consumed)
                    }
                } else {
                    bytes.withUnsafeBytes {
                        _ = msgpack_unpack_next(
                            &unpacked, $0.baseAddress!.assumingMemoryBound(to: CChar.self),
                            $0.count, &consumed)
                    }
                }
                total += consumed
            }
            precondition(total > 0)
        }

        mutating func destroy() {
            for object in objects {
                msgpack_unpacked_destroy(object)
                object.deallocate()
            }
            for source in sources { source.deallocate() }
            msgpack_unpacked_destroy(&unpacked)
            msgpack_sbuffer_destroy(&packBuffer)
        }
    }
}
