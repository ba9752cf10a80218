import SimCore
import Testing

@testable import SyncTrace

@Suite struct PacketParserTests {
    static func record(_ bytes: [UInt8], originalLength: Int? = nil) -> CaptureRecord {
        CaptureRecord(
            number: 1, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 0),
            originalLength: originalLength ?? bytes.count, bytes: bytes)
    }

    static let tcp = PacketBytes.tcp(
        sourcePort: 1234, destinationPort: 443, seq: 9, ack: 0, flags: PacketBytes.ack,
        payload: Array("payload".utf8), dataOffsetWords: 8)

    @Test("TCP options are skipped and Ethernet padding is not payload")
    func optionsAndPadding() throws {
        let frame =
            PacketBytes.ethernet(
                etherType: 0x0800, payload: PacketBytes.ipv4(source: 1, destination: 2, payload: Self.tcp))
            + [0, 0, 0, 0]
        guard case .tcp(let segment) = PacketParser.parse(Self.record(frame), linkType: .ethernet) else {
            Issue.record("expected a TCP segment")
            return
        }
        #expect(segment.payload == Array("payload".utf8))
        #expect(segment.payloadLengthOnWire == 7)
        #expect(segment.source.port == 1234)
    }

    @Test("an IPv4 total length of 0 (segmentation offload) takes the frame's length")
    func offloadedLength() throws {
        let frame = PacketBytes.ethernet(
            etherType: 0x0800, payload: PacketBytes.ipv4(source: 1, destination: 2, payload: Self.tcp, totalLength: 0))
        guard case .tcp(let segment) = PacketParser.parse(Self.record(frame), linkType: .ethernet) else {
            Issue.record("expected a TCP segment")
            return
        }
        #expect(segment.payload == Array("payload".utf8))
    }

    @Test("an IP length past the frame's end on the wire ends the packet with the frame; a snap length cut does not")
    func lengthPastFrame() throws {
        let tcpHeaderAndPayload = Self.tcp.count
        let frame = PacketBytes.ethernet(
            etherType: 0x0800,
            payload: PacketBytes.ipv4(
                source: 1, destination: 2, payload: Self.tcp, totalLength: UInt16(20 + tcpHeaderAndPayload + 500)))
        guard case .tcp(let segment) = PacketParser.parse(Self.record(frame), linkType: .ethernet) else {
            Issue.record("expected a TCP segment")
            return
        }
        #expect(segment.payload == Array("payload".utf8))
        #expect(segment.payloadLengthOnWire == 7, "no 500 bytes on the wire to call cut by the snap length")
        // The same frame cut by a snap length: the wire had the bytes, so they are announced (and become a gap).
        let whole = PacketBytes.ethernet(
            etherType: 0x0800, payload: PacketBytes.ipv4(source: 1, destination: 2, payload: Self.tcp))
        let cut = Array(whole.dropLast(3))
        guard case .tcp(let cutSegment) = PacketParser.parse(Self.record(cut, originalLength: whole.count),
                                                             linkType: .ethernet) else {
            Issue.record("expected a TCP segment")
            return
        }
        #expect(cutSegment.payload == Array("payl".utf8))
        #expect(cutSegment.payloadLengthOnWire == 7)
    }

    @Test("an IPv6 routing header and an authentication header are skipped")
    func ipv6Extensions() throws {
        let zero16 = [UInt8](repeating: 0, count: 16)
        let packet = PacketBytes.ipv6(
            source: zero16, destination: zero16,
            extensions: [(43, [0, 0, 0, 0, 0, 0]), (51, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])],
            payload: Self.tcp)
        // AH counts its length in 4-byte words minus 2: 16 bytes -> 2; the builder wrote (16 / 8 - 1) = 1.
        var fixed = packet
        fixed[40 + 8 + 1] = 2
        guard case .tcp(let segment) = PacketParser.parse(Self.record(fixed), linkType: .ipv6) else {
            Issue.record("expected a TCP segment")
            return
        }
        #expect(segment.payload == Array("payload".utf8))
    }

    @Test("an IPv6 fragment that is not atomic is skipped as a fragment")
    func ipv6Fragment() {
        let zero16 = [UInt8](repeating: 0, count: 16)
        let packet = PacketBytes.ipv6(
            source: zero16, destination: zero16, extensions: [(44, [0, 1, 0, 0, 0, 1])],
            payload: Self.tcp)
        #expect(PacketParser.parse(Self.record(packet), linkType: .ipv6) == .skipped(.ipFragment))
    }

    @Test("a raw-IP packet with a version other than 4 or 6 is not IP")
    func rawVersion() {
        #expect(
            PacketParser.parse(Self.record([0x50] + [UInt8](repeating: 0, count: 40)), linkType: .raw)
                == .skipped(.notIP))
        #expect(
            PacketParser.parse(Self.record([0x60] + [UInt8](repeating: 0, count: 10)), linkType: .ipv4)
                == .skipped(.malformedIPHeader))
    }

    @Test(
        "randomly damaged packets of every link type are parsed or skipped, never crash",
        arguments: [1, 2, 3] as [UInt64])
    func damagedPackets(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let ipv4 = PacketBytes.ipv4(source: 1, destination: 2, payload: Self.tcp)
        let zero16 = [UInt8](repeating: 0, count: 16)
        let ipv6 = PacketBytes.ipv6(
            source: zero16, destination: zero16, extensions: [(0, [6, 0, 0, 0, 0, 0])],
            payload: Self.tcp)
        let samples: [(LinkType, [UInt8])] = [
            (.ethernet, PacketBytes.ethernet(etherType: 0x0800, vlanIDs: [5], payload: ipv4)),
            (.ethernet, PacketBytes.ethernet(etherType: 0x86dd, payload: ipv6)),
            (.linuxCooked, PacketBytes.linuxCooked(protocolType: 0x0800, payload: ipv4)),
            (.linuxCookedV2, PacketBytes.linuxCookedV2(protocolType: 0x86dd, payload: ipv6)),
            (.raw, ipv4), (.ipv6, ipv6),
            (.null, PacketBytes.null(family: 2, littleEndian: true, payload: ipv4)),
            (.loop, PacketBytes.null(family: 24, littleEndian: false, payload: ipv6)),
        ]
        var outcomes = 0
        for _ in 0..<2000 {
            let (linkType, original) = samples[Int.random(in: 0..<samples.count, using: &random)]
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) {
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            }
            let claimed = bytes.count + Int.random(in: 0...100, using: &random)
            _ = PacketParser.parse(Self.record(bytes, originalLength: claimed), linkType: linkType)
            outcomes += 1
        }
        #expect(outcomes == 2000, "seed \(seed)")
    }
}
