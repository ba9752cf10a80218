import SimCore
import Foundation
import Testing

@testable import SyncProtocol

/// Test data and helpers shared by the SyncProtocol suites.
enum TestSupport {
    /// The repository's Fixtures folder, found from this file's path.
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func fixture(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(relativePath)))
    }

    /// Hostile MessagePack as (hex bytes, the error kind the detailed parse names): every fast path (the scanner's
    /// quick loop, the one-pass builder) must refuse each one and leave the naming to the detailed parse.
    static let hostileMessagePack: [(String, WireError.Kind)] = [
        ("c1", WireError.Kind.invalidMessagePack),
        ("c0-c0", .trailingBytes),
        ("a5-61-62", .truncatedMessagePack),
        ("d9", .truncatedMessagePack),
        ("dc-ff-ff-00", .countExceedsRemainingBytes),
        ("df-00-00-00-02-c0-c0-c0", .countExceedsRemainingBytes),
        ("dd-ff-ff-ff-ff-c0", .countExceedsRemainingBytes),
        ("92-c0-a3-61", .truncatedMessagePack),
        ("81-a3-61-62", .truncatedMessagePack),
        ("c7-01-ff-00", .invalidMessagePack),
        ("d7-ff-ff-ff-ff-ff-00-00-00-00", .invalidMessagePack),
        ("c7-0c-ff-ff-ff-ff-ff-00-00-00-00-00-00-00-00", .invalidMessagePack),
        ("", .truncatedMessagePack),
    ]

    /// Expects the detailed MessagePack parse to refuse `bytes` with a `WireError` of `kind` (the verdict the
    /// scanner and builder suites hold their fast paths to), reported at the caller's line.
    static func expectRefused(_ bytes: [UInt8], limits: MessagePackLimits = MessagePackLimits(), kind: WireError.Kind,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            _ = try MessagePackValue(messagePack: bytes, limits: limits)
        } throws: { error in
            (error as? WireError)?.kind == kind
        }
    }

    /// Parses `c4-02-00-ff` into bytes.
    static func bytes(hex: String) -> [UInt8] {
        hex.isEmpty ? [] : hex.split(separator: "-").map { UInt8($0, radix: 16)! }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined(separator: "-")
    }

    /// Decodes a whole stream fed in chunks of the given sizes (the last chunk takes the rest), then `finish`.
    static func decodeAll(
        _ stream: [UInt8], chunkSizes: [Int], decoder: FrameDecoder = FrameDecoder()
    ) throws -> [DecodedFrame] {
        var decoder = decoder
        var buffer = ByteReader()
        var frames: [DecodedFrame] = []
        var position = 0
        var sizes = chunkSizes[...]
        while position < stream.count {
            let size = max(1, sizes.popFirst() ?? stream.count)
            let end = min(stream.count, position + size)
            buffer.append(contentsOf: stream[position..<end])
            position = end
            while let frame = try decoder.decodeFrame(&buffer) { frames.append(frame) }
        }
        try decoder.finish(buffer)
        return frames
    }

    /// Random chunk sizes of 1...maxChunk covering `count` bytes.
    static func randomSplits(count: Int, maxChunk: Int, using generator: inout SeededGenerator) -> [Int] {
        var sizes: [Int] = []
        var covered = 0
        while covered < count {
            let size = Int.random(in: 1...maxChunk, using: &generator)
            sizes.append(size)
            covered += size
        }
        return sizes
    }

    /// A random value in canonical form (non-negative integers as `.uint`, finite floats), nested up to `depth`.
    /// `bytes` with one random fault for the parser tests: a byte overwritten (at random or with one of
    /// `interesting`), up to three bytes cut from the end, an interesting byte inserted, with `appends` one appended,
    /// or left as they are. Draws the fault's kind from 0..<5 (0..<6 when `appends`).
    static func mutated(
        _ bytes: [UInt8], interesting: [UInt8], appends: Bool = false, using generator: inout SeededGenerator
    ) -> [UInt8] {
        var bytes = bytes
        switch Int.random(in: 0..<(appends ? 6 : 5), using: &generator) {
        case 0 where !bytes.isEmpty:
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
        case 1 where !bytes.isEmpty:
            bytes[Int.random(in: 0..<bytes.count, using: &generator)] = interesting.randomElement(using: &generator)!
        case 2:
            bytes.removeLast(Int.random(in: 0...min(3, bytes.count), using: &generator))
        case 3:
            bytes.insert(
                interesting.randomElement(using: &generator)!, at: Int.random(in: 0...bytes.count, using: &generator))
        case 4 where appends:
            bytes.append(interesting.randomElement(using: &generator)!)
        default:
            break
        }
        return bytes
    }

    static func randomValue(depth: Int, using generator: inout SeededGenerator) -> MessagePackValue {
        let choice = Int.random(in: 0..<(depth > 0 ? 13 : 10), using: &generator)
        switch choice {
        case 0: return .nil
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            let number =
                Int64.random(in: Int64.min...(-1), using: &generator) >> Int64.random(in: 0...62, using: &generator)
            return .int(number)
        case 3:
            return .uint(
                UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator))
        case 4: return .double(Double.random(in: -1e9...1e9, using: &generator))
        case 5: return .float(Float.random(in: -1000...1000, using: &generator))
        case 6: return .string(randomString(using: &generator))
        case 7:
            return .binary(
                (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                })
        case 8:
            return .timestamp(
                seconds: Int64.random(in: -1 << 40...(1 << 40), using: &generator),
                nanoseconds: UInt32.random(in: 0..<1_000_000_000, using: &generator)
            )
        case 9:
            return .ext(
                type: Int8.random(in: 0...127, using: &generator),
                data: (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            )
        case 10, 11:
            return .map(
                (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                    MessagePackPair(
                        .string(randomString(using: &generator)), randomValue(depth: depth - 1, using: &generator))
                })
        default:
            return .array(
                (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                    randomValue(depth: depth - 1, using: &generator)
                })
        }
    }

    static func randomString(using generator: inout SeededGenerator) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz 0123456789ÄßЖ漢字🚲\"\\\n")
        return String(
            (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// A payload that LZ4 shrinks: a history-like page of `count` similar messages.
    static func compressiblePayload(count: Int, using generator: inout SeededGenerator) -> MessagePackValue {
        .map([
            MessagePackPair(
                .string("messages"),
                .array(
                    (0..<count).map { index in
                        .map([
                            MessagePackPair(.string("id"), .uint(UInt64(70_000 + index))),
                            MessagePackPair(
                                .string("time"),
                                .uint(1_764_000_000_000 + UInt64.random(in: 0...1_000_000, using: &generator))),
                            MessagePackPair(
                                .string("sender"), .uint(UInt64.random(in: 1000...1005, using: &generator))),
                            MessagePackPair(.string("text"), .string("message \(index) with the usual small talk")),
                        ])
                    }))
        ])
    }
}
