import Testing
@testable import SyncSim

/// `World.detail`, which builds the frames' trace details without interpolation, must spell them exactly as the
/// interpolation did: the trace digest covers every byte.
@Suite struct WorldTraceDetailTests {
    @Test("detail spells pieces and numbers as interpolation does", arguments: [
        0, 1, 9, 10, 99, 100, 65_535, 1_000_000, -1, -10, Int.max, Int.min,
    ])
    func matchesInterpolation(number: Int) {
        #expect(World.detail("NOTIF_MESSAGE request seq=", "", "", number, " bytes=", 128)
            == "NOTIF_MESSAGE request seq=\(number) bytes=128")
        #expect(World.detail("PING response seq=", "", "", 7, " bytes=", number) == "PING response seq=7 bytes=\(number)")
        #expect(World.detail("conn#12", " ", "MSG_SEND request seq=", number, " bytes=", nil)
            == "conn#12 MSG_SEND request seq=\(number)")
        #expect(World.detail("", "", "", number, "", nil) == "\(number)")
    }

    @Test("detail keeps non-ASCII pieces byte for byte")
    func nonASCII() {
        #expect(World.detail("caf\u{E9} ", "\u{2192}", "\u{1F600}", 42, " \u{E9}=", 3) == "caf\u{E9} \u{2192}\u{1F600}42 \u{E9}=3")
    }

    @Test("a frame record written piece by piece has the digest and tail line of the same record as a string",
          arguments: [Optional(1_234), nil])
    func recordFrameMatchesRecord(last: Int?) throws {
        let joined = try World(scenario: WorldTests.twoOnEdge, seed: 1)
        let pieces = try World(scenario: WorldTests.twoOnEdge, seed: 1)
        for number in [0, 7, 65_535, -3] {
            joined.record("server", "rx", World.detail("conn#3", " ", "PING request seq=", number, " bytes=", last))
            pieces.recordFrame("server", "rx", "conn#3", " ", "PING request seq=", number, " bytes=", last)
        }
        #expect(joined.network.trace.digest == pieces.network.trace.digest)
        #expect(joined.network.trace.recordCount == pieces.network.trace.recordCount)
        #expect(joined.tail(upTo: joined.now) == pieces.tail(upTo: pieces.now))
        #expect(pieces.tail(upTo: pieces.now).last?.hasSuffix("conn#3 PING request seq=-3" + (last.map { " bytes=\($0)" } ?? "")) == true)
    }

    /// Session 45: the trace tail writes its records' pieces into `TraceRing.Bytes` (short pieces byte by byte,
    /// longer ones copied, the storage grown by doubling), where it appended them to an array.
    @Test("the tail ring's bytes read back as written, across growth and reuse")
    func ringBytes() {
        var bytes = TraceRing.Bytes()
        var expected = ""
        let pieces = ["", "a", "0123456789abcdef", "0123456789abcdefg", "caf\u{E9} \u{1F600}", "nul\u{0}inside",
                      String(repeating: "x", count: 700)]
        for round in 0..<3 {
            for (index, piece) in pieces.enumerated() {
                bytes.write(piece)
                bytes.write(literal: " seq=")
                bytes.write(decimal: [0, -1, 9, 10, Int.max, Int.min, 65_535][index] &+ round)
                bytes.write(byte: UInt8(ascii: ";"))
                expected += piece + " seq=" + String([0, -1, 9, 10, Int.max, Int.min, 65_535][index] &+ round) + ";"
            }
            #expect(bytes.string == expected)
            #expect(bytes.count == expected.utf8.count)
            #expect(bytes.string(2..<5) == String(decoding: Array(expected.utf8)[2..<5], as: UTF8.self))
            // Emptied for the next generation: the storage is kept, and what is written next starts at 0.
            bytes.removeAll()
            expected = ""
            #expect(bytes.string == "")
        }
    }
}
