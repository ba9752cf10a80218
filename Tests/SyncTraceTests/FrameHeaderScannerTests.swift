import SyncProtocol
import Testing

@testable import SyncTrace

@Suite struct FrameHeaderScannerTests {
    static func frame(
        cmd: Command = .request, seq: UInt16, opcode: Opcode = .ping, text: String = "x"
    ) throws
        -> [UInt8]
    {
        try FrameEncoder().encode(
            Frame(
                cmd: cmd, seq: seq, opcode: opcode, payload: .map([MessagePackPair(.string("text"), .string(text))])))
    }

    @Test("a stream that starts with a frame header is plausible at offset 0")
    func atStart() throws {
        let bytes = try Self.frame(seq: 1) + Self.frame(seq: 2)
        #expect(FrameHeaderScanner().plausibleHeaderOffset(in: bytes) == 0)
    }

    @Test("garbage before a frame is skipped to the frame's header")
    func afterGarbage() throws {
        let garbage: [UInt8] = [0xff, 10, 9, 0, 0, 0, 1, 0, 0, 0, 10, 0x42, 7]
        let bytes = try garbage + Self.frame(seq: 1) + Self.frame(seq: 2)
        #expect(FrameHeaderScanner().plausibleHeaderOffset(in: bytes) == garbage.count)
    }

    @Test("a false header whose successor is implausible is passed over by the chained check")
    func chainedCheck() throws {
        // ver 10, cmd 1, a length of 2: looks like a header, but the 10 bytes after its payload are not one.
        let decoy: [UInt8] = [10, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0xaa, 0xbb] + [UInt8](repeating: 0xee, count: 10)
        let bytes = try decoy + Self.frame(seq: 3) + Self.frame(seq: 4)
        #expect(FrameHeaderScanner().plausibleHeaderOffset(in: bytes) == decoy.count)
    }

    @Test(
        "ver, cmd and length bounds decide plausibility",
        arguments: [
            ([10, 3, 0, 1, 0, 1, 0, 0, 0, 0] as [UInt8], true),
            ([11, 0, 0, 1, 0, 1, 0, 0, 0, 0], false),
            ([10, 4, 0, 1, 0, 1, 0, 0, 0, 0], false),
            ([10, 0, 0, 1, 0, 1, 1, 0x50, 0, 1], false),  // 5 MiB + 1
            ([10, 0, 0, 1, 0, 1, 0xFF, 0x50, 0, 0], true),  // exactly 5 MiB, zstd flag set
        ])
    func bounds(header: [UInt8], isPlausible: Bool) {
        #expect((FrameHeaderScanner().plausiblePayloadLength(in: header, at: 0) != nil) == isPlausible)
    }

    @Test("the cmd16-seq8 layout reads cmd from bytes 1-2")
    func otherLayout() {
        let header: [UInt8] = [10, 0, 2, 9, 0, 1, 0, 0, 0, 0]
        #expect(FrameHeaderScanner(layout: .cmd16Seq8).plausiblePayloadLength(in: header, at: 0) == 0)
        #expect(FrameHeaderScanner(layout: .cmd8Seq16).plausiblePayloadLength(in: header, at: 0) == 0)
        let wide: [UInt8] = [10, 2, 0, 9, 0, 1, 0, 0, 0, 0]
        #expect(FrameHeaderScanner(layout: .cmd16Seq8).plausiblePayloadLength(in: wide, at: 0) == nil)
    }

    @Test("a raw payload must start like a MessagePack map; a compressed one is not looked into")
    func payloadStart() {
        let scanner = FrameHeaderScanner()
        #expect(scanner.plausibleFrameLength(in: [10, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0x80], at: 0) == 1)
        #expect(scanner.plausibleFrameLength(in: [10, 0, 0, 1, 0, 1, 0, 0, 0, 3, 0xde], at: 0) == 3)
        #expect(scanner.plausibleFrameLength(in: [10, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0x05], at: 0) == nil)
        #expect(scanner.plausibleFrameLength(in: [10, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0x05], at: 0) == 1)
        #expect(scanner.plausibleFrameLength(in: [10, 0, 0, 1, 0, 1, 0, 0, 0, 0], at: 0) == 0)
    }

    @Test("fewer than 10 bytes never hold a header, and no bytes never crash")
    func shortInput() {
        #expect(FrameHeaderScanner().plausibleHeaderOffset(in: []) == nil)
        #expect(FrameHeaderScanner().plausibleHeaderOffset(in: [10, 0, 0, 1, 0, 1, 0, 0, 0]) == nil)
        #expect(FrameHeaderScanner().plausiblePayloadLength(in: [10], at: -3) == nil)
    }

    @Test("when no more bytes come, a candidate whose payload runs past the end is refused")
    func wholeFrameAtEnd() {
        let bytes: [UInt8] = [10, 0, 0, 1, 0, 1, 0, 0, 0, 200, 0x81, 2, 3]
        #expect(FrameHeaderScanner().plausibleHeaderOffset(in: bytes) == 0)
        #expect(FrameHeaderScanner().plausibleHeaderOffset(in: bytes, requiresWholeFrame: true) == nil)
    }
}
