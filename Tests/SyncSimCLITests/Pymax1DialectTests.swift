import Foundation
import SyncSim
@testable import SyncTrace
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

/// Captures of PyMax 1.x's TCP dialect (the plain leg behind a TLS terminator, as `serve` answers it): a connection
/// whose client opens with version 11 is read with that version and the `cmd16-seq8` layout.
@Suite struct Pymax1CaptureTests {
    @Test("decode reads a version-11 connection in 1.x's layout, frame by frame, and says so in every frame's ver")
    func decodes() throws {
        var encoder = FrameEncoder(layout: .cmd16Seq8)
        encoder.version = FrameHeader.pymax1Version
        let ping = MessagePackValue.map([MessagePackPair(.string("interactive"), .bool(true))])
        var requests: [UInt8] = [], answers: [UInt8] = []
        for seq in UInt16(1)...3 {
            requests += try encoder.encode(Frame(cmd: .request, seq: seq, opcode: .ping, payload: ping))
            answers += try encoder.encode(Frame(cmd: .response, seq: seq, opcode: .ping, payload: .map([])))
        }
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 3), port: 40_000),
            server: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 1), port: 7000), mss: 7)
        var writer = PcapngWriter(interfaces: [.init(name: "lo")])
        var time: Int64 = 1_700_000_000_000_000_000
        for packet in connection.open() + connection.send(requests, .clientToServer)
            + connection.send(answers, .serverToClient) {
            writer.append(packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: time))
            time += 1_000_000
        }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncsim-pymax1-\(UUID().uuidString).pcapng").path
        try writer.write(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let decoding = try TraceDecoder().decode(path: path)
        let frames = try #require(decoding.connections.first).frames
        #expect(decoding.connections.first?.issues == [])
        #expect(frames.map(\.decoded.header.version) == Array(repeating: 11, count: 6))
        #expect(frames.filter { $0.direction == .clientToServer }.map(\.decoded.frame.seq) == [1, 2, 3])
        #expect(frames.filter { $0.direction == .serverToClient }.map(\.cmd) == [.response, .response, .response])
        let decode = TraceDecodeCommandTests.run(["decode", path])
        #expect(decode.code == 0)
        #expect(decode.out.contains { $0.contains(#""ver":11,"cmd":1,"cmdName":"response","seq":2,"opcode":1,"#) },
                "\(decode.out)")
    }
}
