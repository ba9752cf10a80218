import SyncProtocol
import Testing

@testable import SyncTrace

@Suite struct PcapngWriterTests {
    static let client = TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 0), port: 50_001)
    static let server = TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 1000), port: 443)

    /// A login exchange plus a large history page (several MSS-sized packets), written at nanosecond times.
    static func capture(connection: inout SyntheticTCPConnection) throws -> (PcapngWriter, [TraceFrame.ID]) {
        var writer = PcapngWriter(interfaces: [.init(name: "alice-edge")])
        var time: Int64 = 1_000_000_007
        func add(_ packets: [[UInt8]]) {
            for packet in packets {
                writer.append(packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: time))
                time += 123_456_789
            }
        }
        let encoder = FrameEncoder(compressionThresholdBytes: .max)
        let login = try encoder.encode(Frame(cmd: .request, seq: 1, opcode: .login, payload: .map([])))
        let page = try encoder.encode(
            Frame(
                cmd: .response, seq: 1, opcode: .login,
                payload: .map([MessagePackPair(.string("blob"), .binary([UInt8](repeating: 7, count: 4000)))])))
        add(connection.open())
        add(connection.send(login, .clientToServer))
        add(connection.send(page, .serverToClient))
        add([connection.close(.clientToServer), connection.close(.serverToClient)])
        return (writer, [.init(seq: 1, cmd: .request), .init(seq: 1, cmd: .response)])
    }

    @Test("a written capture reads back: packets, reassembled bytes, nanosecond timestamps, frames")
    func roundTrip() throws {
        var connection = SyntheticTCPConnection(
            client: Self.client, server: Self.server, clientISN: 4_294_967_000,
            serverISN: 77, mss: 1000)
        let (writer, expected) = try Self.capture(connection: &connection)
        let path = try SyntheticCapture.write(writer.bytes, name: "run.pcapng")
        let decoding = try TraceDecoder().decode(path: path)
        let trace = decoding.trace
        #expect(trace.format == .pcapng)
        #expect(trace.linkType == .raw)
        #expect(trace.packetCount == writer.packetCount)
        #expect(trace.packetCount == 3 + 1 + 5 + 2)
        let tcp = try #require(trace.connections.first)
        #expect(trace.connections.count == 1)
        #expect(tcp.client == Self.client && tcp.server == Self.server)
        #expect(tcp.client.description == "198.18.0.1:50001")
        #expect(tcp.server.description == "198.18.3.233:443")
        #expect(tcp.firstTimestamp.nanosecondsSinceEpoch == 1_000_000_007)
        #expect(tcp.clientToServer.gaps.isEmpty && tcp.serverToClient.gaps.isEmpty)
        #expect(tcp.clientToServer.anomalies.isEmpty && tcp.serverToClient.anomalies.isEmpty)
        #expect(tcp.clientToServer.sawFIN && tcp.serverToClient.sawFIN)
        let frames = try #require(decoding.connections.first).frames
        #expect(frames.map { TraceFrame.ID(seq: $0.seq, cmd: $0.cmd) } == expected)
        // The response completes with its fifth packet: packet 9, sent 8 steps of 123456789 ns after the first.
        #expect(frames.last?.packetNumber == 9)
        let expectedTime: Int64 = 1_000_000_007 + 8 * 123_456_789
        #expect(frames.last?.timestamp == CaptureTimestamp(nanosecondsSinceEpoch: expectedTime))
    }

    @Test("IPv4 and TCP checksums verify", arguments: [0, 1, 2, 999, 1000])
    func checksums(payloadLength: Int) {
        let packet = SyntheticTCPConnection.ipv4TCP(
            source: Self.client, destination: Self.server, seq: 1, ack: 2, flags: [.ack, .psh],
            payload: (0..<payloadLength).map { UInt8(truncatingIfNeeded: $0 * 31) }, identification: 9)
        // A header with its checksum in place sums to 0xffff, so the checksum over it is 0 (RFC 1071 §1).
        #expect(SyntheticTCPConnection.internetChecksum(Array(packet[0..<20])) == 0)
        let tcp = Array(packet[20...])
        let pseudo: [UInt8] = Array(packet[12..<20]) + [0, 6, UInt8(tcp.count >> 8), UInt8(tcp.count & 0xff)]
        #expect(SyntheticTCPConnection.internetChecksum(pseudo + tcp) == 0)
    }

    @Test("blocks are 32-bit aligned and the interface asks for nanosecond resolution")
    func layout() {
        var writer = PcapngWriter(interfaces: [.init(name: "a"), .init(name: "bb")])
        writer.append([1, 2, 3], interface: 1, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 5))
        #expect(writer.bytes.count % 4 == 0)
        #expect(Array(writer.bytes.prefix(4)) == [0x0a, 0x0d, 0x0d, 0x0a])
        #expect(CaptureFormat(magic: writer.bytes) == .pcapng)
        // if_tsresol option: code 9, length 1, value 9.
        let option: [UInt8] = [9, 0, 1, 0, 9]
        #expect(writer.bytes.indices.contains { Array(writer.bytes[$0..<min($0 + 5, writer.bytes.count)]) == option })
    }

    @Test("synthetic addresses stay inside 198.18.0.0/15", arguments: [0, 1, 131_069, 131_070, 1_000_000])
    func syntheticAddresses(host: Int) throws {
        guard case .v4(let value) = SyntheticTCPConnection.syntheticAddress(host: host) else {
            Issue.record("not IPv4")
            return
        }
        #expect(value & 0xfffe_0000 == 0xc612_0000)
        #expect(value != 0xc612_0000 && value != 0xc613_ffff)
    }
}

extension TraceFrame {
    /// What identifies a frame in these tests.
    struct ID: Hashable {
        var seq: UInt16
        var cmd: Command
    }
}
