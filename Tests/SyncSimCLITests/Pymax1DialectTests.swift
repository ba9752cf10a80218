import SyncSim
import Testing

@testable import SyncSimCLI

/// PyMax 1.x's TCP dialect (1.2.5 `pymax/mixins/socket.py`): version 11 and `cmd` u16 + `seq` u8 in the header. `serve`
/// tells it by a connection's first byte and answers in it.
@Suite struct Pymax1DialectTests {
    static let ping = Frame(cmd: .request, seq: 7, opcode: .ping, payload: .map([]))

    @Test("a version-11 encoder and decoder speak 1.x's header; the standard decoder refuses it, naming the version")
    func codec() throws {
        var encoder = FrameEncoder(layout: .cmd16Seq8)
        encoder.version = FrameHeader.pymax1Version
        let bytes = try encoder.encode(Self.ping)
        // ver 11, cmd u16 0, seq u8 7, opcode 1, raw, 1 byte: what 1.2.5's `_pack_packet` writes for a PING.
        #expect(Array(bytes.prefix(10)) == [11, 0, 0, 7, 0, 1, 0, 0, 0, 1])
        var decoder = FrameDecoder(layout: .cmd16Seq8)
        decoder.version = FrameHeader.pymax1Version
        var buffer = ByteReader()
        buffer.append(contentsOf: bytes)
        #expect(try decoder.decode(&buffer) == Self.ping)

        var standard = FrameDecoder()
        var again = ByteReader()
        again.append(contentsOf: bytes)
        do {
            _ = try standard.decode(&again)
            Issue.record("a version-11 frame passed the standard decoder")
        } catch let error as WireError {
            #expect(error.kind == .unsupportedVersion)
            #expect("\(error)".contains("unsupported version 11 at offset 0 (expected 10)"), "\(error)")
        }
        // A cache made for one version never answers a decoder of the other: the standard decoder still refuses.
        var cache = RepeatedFrameCache(matching: decoder, opcodes: [.ping])
        var third = ByteReader()
        third.append(contentsOf: bytes)
        #expect(throws: WireError.self) { try standard.decodePacket(&third, cache: &cache) }
        var fourth = ByteReader()
        fourth.append(contentsOf: bytes)
        #expect(try decoder.decodePacket(&fourth, cache: &cache)?.opcode == .ping)
    }

    @Test("serve: a first byte of 11 is 1.x's dialect, 10 the field's, G a WebSocket; each sets its codec")
    func transport() throws {
        let encoder = FrameEncoder()
        var legacy = ConnectionTransport.undecided
        _ = try legacy.unwrap([11, 0, 0, 1], encoder: encoder)
        #expect(legacy.logName == "tcp-v11")
        var decoder = FrameDecoder()
        var connectionEncoder = FrameEncoder()
        legacy.configure(&decoder, &connectionEncoder)
        #expect(decoder.version == 11 && decoder.layout == .cmd16Seq8)
        #expect(connectionEncoder.version == 11 && connectionEncoder.layout == .cmd16Seq8)
        let answer = try connectionEncoder.encode(Frame(cmd: .response, seq: 7, opcode: .ping, payload: .map([])))
        #expect(Array(answer.prefix(4)) == [11, 0, 1, 7])

        var field = ConnectionTransport.undecided
        _ = try field.unwrap([10, 0, 0, 1], encoder: encoder)
        #expect(field.logName == nil)
        field.configure(&decoder, &connectionEncoder)
        #expect(decoder.version == 10 && decoder.layout == .standard && connectionEncoder.version == 10)
    }
}
