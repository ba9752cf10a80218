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
}
