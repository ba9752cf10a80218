import Testing

@testable import SyncProtocol

@Suite struct FrameHeaderTests {
    @Test("the default layout is ver, cmd u8, seq u16, opcode u16, flag u8, length u24, big-endian")
    func defaultLayoutBytes() throws {
        let header = FrameHeader(
            cmd: .response, seq: 0x1234, opcode: .login, compressionFlag: 1, payloadLength: 0x0A0B0C)
        #expect(try header.bytes() == [10, 1, 0x12, 0x34, 0, 19, 1, 0x0A, 0x0B, 0x0C])
    }

    @Test("the cmd16-seq8 layout is ver, cmd u16, seq u8, then the same") func cmd16LayoutBytes() throws {
        let header = FrameHeader(cmd: .push, seq: 0xAB, opcode: .notifMessage, payloadLength: 5)
        #expect(try header.bytes(layout: .cmd16Seq8) == [10, 0, 2, 0xAB, 0, 128, 0, 0, 0, 5])
    }

    @Test("headers read back what was written, in both layouts", arguments: HeaderLayout.allCases)
    func roundTrip(layout: HeaderLayout) throws {
        let header = FrameHeader(
            cmd: .error, seq: 77, opcode: Opcode(rawValue: 999), compressionFlag: 0x80,
            payloadLength: FrameHeader.maxPayloadLengthField)
        let bytes = try header.bytes(layout: layout)
        let parsed = try bytes.withUnsafeBytes { try FrameHeader(parsing: $0, layout: layout) }
        #expect(parsed == header)
        #expect(parsed.isCompressed)
    }
}
