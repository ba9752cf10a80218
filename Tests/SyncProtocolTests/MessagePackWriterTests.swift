import SimCore
import Testing

@testable import SyncProtocol

/// `MessagePackWriter` must write exactly the bytes msgpack-c's packer writes: bytes on the wire (and so trace
/// digests) depend on it.
@Suite struct MessagePackWriterTests {
    static func writerBytes(_ value: MessagePackValue) -> [UInt8] { MessagePackSerialization.pack(value) }
    static func msgpackCBytes(_ value: MessagePackValue) -> [UInt8] {
        MessagePackSerialization.packWithMsgpackC(value)
    }

    /// Values at every encoding's edges: integer ranges, string, binary and ext lengths, container counts,
    /// timestamp forms, NaN and infinite floats.
    static let edges: [MessagePackValue] = {
        var values: [MessagePackValue] = [.nil, .bool(true), .bool(false)]
        let signedEdges: [Int64] = [
            0, 1, 31, 32, 127, 128, 255, 256, 65535, 65536, 1 << 32 - 1, 1 << 32, .max, -1, -31, -32, -33, -127,
            -128, -129, -32767, -32768, -32769, -(1 << 31) + 1, -(1 << 31), -(1 << 31) - 1, .min,
        ]
        values += signedEdges.map { .int($0) }
        let unsignedEdges: [UInt64] = [0, 127, 128, 255, 256, 65535, 65536, 1 << 32 - 1, 1 << 32, .max]
        values += unsignedEdges.map { .uint($0) }
        values += [Float.nan, .signalingNaN, .infinity, -0.0, 1.5].map { .float($0) }
        values += [Double.nan, .signalingNaN, -.infinity, -0.0, 1e300].map { .double($0) }
        for length in [0, 1, 15, 31, 32, 255, 256, 65535, 65536] {
            values.append(.string(String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)))
            values.append(.binary([UInt8](repeating: 7, count: length)))
            values.append(.ext(type: 5, data: [UInt8](repeating: 9, count: length)))
            values.append(.ext(type: -7, data: [UInt8](repeating: 1, count: length)))
        }
        for length in [2, 3, 4, 8, 12, 16, 17] { values.append(.ext(type: 1, data: [UInt8](repeating: 2, count: length))) }
        for count in [0, 15, 16, 65535, 65536] {
            values.append(.array([MessagePackValue](repeating: .nil, count: count)))
            values.append(.map([MessagePackPair](repeating: MessagePackPair(.uint(1), .nil), count: count)))
        }
        let seconds: [Int64] = [0, 1, 1 << 32 - 1, 1 << 32, 1 << 34 - 1, 1 << 34, -1, .min, .max]
        for second in seconds {
            for nanoseconds: UInt32 in [0, 1, 999_999_999, .max] {
                values.append(.timestamp(seconds: second, nanoseconds: nanoseconds))
            }
        }
        return values
    }()

    @Test("values at every encoding's edges pack as msgpack-c packs them")
    func edgesMatchMsgpackC() {
        for value in Self.edges {
            #expect(Self.writerBytes(value) == Self.msgpackCBytes(value), "\(String(describing: value).prefix(200))")
        }
    }

    @Test("random values pack as msgpack-c packs them", arguments: [UInt64(41), 42, 43])
    func randomValuesMatchMsgpackC(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        for iteration in 0..<500 {
            let value = TestSupport.randomValue(depth: 4, using: &generator)
            #expect(Self.writerBytes(value) == Self.msgpackCBytes(value), "seed \(seed), iteration \(iteration)")
        }
    }
}
