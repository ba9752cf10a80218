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
}
