import Foundation
import Testing

@testable import SyncTrace

@Suite struct TraceReaderTests {
    /// What each capture in Fixtures/pcap yields (figures checked against tshark -T fields -e tcp.len).
    struct FixtureExpectation: Sendable, CustomStringConvertible {
        var file: String
        var format: CaptureFormat
        var linkType: LinkType
        var packets: Int
        var tcpPackets: Int
        var skips: [SkipReason: Int] = [:]
        /// Per connection: (client -> server bytes, server -> client bytes, gaps in both directions).
        var connections: [(clientBytes: Int64, serverBytes: Int64, gaps: Int)]
        var description: String { file }
    }

    static let fixtures: [FixtureExpectation] = [
        .init(
            file: "bigtcp-ipv6.pcap", format: .pcapMicroseconds, linkType: .ethernet, packets: 1, tcpPackets: 1,
            connections: [(79_968, 0, 0)]),
        .init(
            file: "dns_tcp.pcap", format: .pcapMicroseconds, linkType: .ethernet, packets: 11, tcpPackets: 11,
            connections: [(58, 226, 0)]),
        .init(
            file: "empty.pcapng", format: .pcapng, linkType: .ethernet, packets: 0, tcpPackets: 0,
            connections: []),
        .init(
            file: "ipv4_tcp_http_xml.pcap", format: .pcapMicroseconds, linkType: .ethernet, packets: 1,
            tcpPackets: 1, connections: [(0, 605, 0)]),
        .init(
            file: "ipv4_tcp_http_xml_tso.pcap", format: .pcapMicroseconds, linkType: .ethernet, packets: 1,
            tcpPackets: 1, connections: [(1976, 0, 0)]),
        .init(
            file: "mptcp-v1.pcap", format: .pcapMicroseconds, linkType: .linuxCooked, packets: 20,
            tcpPackets: 20, connections: [(10_268, 10_268, 0)]),
        .init(
            file: "tcp-auth-heapoverflow.pcap", format: .pcapMicroseconds, linkType: .ethernet, packets: 1,
            tcpPackets: 0, skips: [.truncatedTCPHeader: 1], connections: []),
        .init(
            file: "tcp-handshake-nano.pcap", format: .pcapNanoseconds, linkType: .linuxCooked, packets: 3,
            tcpPackets: 3, connections: [(0, 0, 0)]),
        .init(
            file: "tcp_header_heapoverflow.pcap", format: .pcapMicroseconds, linkType: .ethernet, packets: 1,
            tcpPackets: 0, skips: [.truncatedTCPHeader: 1], connections: []),
        .init(
            file: "tcp_rst_data-trunc.pcap", format: .pcapMicroseconds, linkType: .ethernet, packets: 1,
            tcpPackets: 1, connections: [(0, 57, 1)]),
    ]

    @Test(
        "every fixture capture reads without error and yields the expected packets, skips and bytes",
        arguments: fixtures)
    func fixture(_ expected: FixtureExpectation) throws {
        let trace = try TraceReader.read(path: FixturePath.pcap(expected.file))
        #expect(trace.format == expected.format)
        #expect(trace.linkType == expected.linkType)
        #expect(trace.packetCount == expected.packets)
        #expect(trace.tcpPacketCount == expected.tcpPackets)
        #expect(trace.skipCounts == expected.skips)
        #expect(trace.connections.count == expected.connections.count)
        for (connection, counts) in zip(trace.connections, expected.connections) {
            #expect(connection.clientToServer.byteCount == counts.clientBytes)
            #expect(connection.serverToClient.byteCount == counts.serverBytes)
            #expect(connection.clientToServer.gaps.count + connection.serverToClient.gaps.count == counts.gaps)
        }
    }

    @Test("a DNS-over-TCP capture has its handshake, both FINs and the DNS length prefix in order")
    func dnsOverTCP() throws {
        let trace = try TraceReader.read(path: FixturePath.pcap("dns_tcp.pcap"))
        let connection = try #require(trace.connections.first)
        #expect(connection.server.port == 53)
        #expect(connection.clientToServer.sawSYN && connection.clientToServer.sawFIN)
        #expect(connection.serverToClient.sawSYN && connection.serverToClient.sawFIN)
        let query = connection.clientToServer.bytesIgnoringGaps
        // DNS over TCP prefixes each message with its 2-byte length (RFC 1035 §4.2.2).
        #expect(Int(query[0]) << 8 | Int(query[1]) == query.count - 2)
    }

    @Test("the nanosecond capture keeps nanosecond timestamps")
    func nanosecondTimestamps() throws {
        let trace = try TraceReader.read(path: FixturePath.pcap("tcp-handshake-nano.pcap"))
        let connection = try #require(trace.connections.first)
        #expect(connection.lastTimestamp.nanoseconds(since: connection.firstTimestamp) == 127_609_669)
    }

    @Test("a RST with data cut by the snap length reports the cut bytes as a gap")
    func resetWithCutData() throws {
        let trace = try TraceReader.read(path: FixturePath.pcap("tcp_rst_data-trunc.pcap"))
        let stream = try #require(trace.connections.first).serverToClient
        #expect(stream.sawRST)
        #expect(stream.gaps.map(\.cause) == [.cutBySnapLength])
    }

    // MARK: - Bad input

    @Test("a missing file is a cannot-open error naming it")
    func missingFile() {
        let error = #expect(throws: TraceError.self) {
            try TraceReader.read(path: "/nonexistent/capture.pcap")
        }
        #expect(error?.kind == .cannotOpen)
        #expect(error?.description.contains("/nonexistent/capture.pcap") == true)
    }

    @Test(
        "garbage, an empty file and a short file are not captures",
        arguments: [
            Array("GET / HTTP/1.1\r\nHost: example\r\n\r\n".utf8), [], [0xd4, 0xc3],
        ])
    func garbage(_ bytes: [UInt8]) throws {
        let path = try SyntheticCapture.write(bytes, name: "garbage.pcap")
        let error = #expect(throws: TraceError.self) { try TraceReader.read(path: path) }
        #expect(error?.kind == .notACaptureFile)
        #expect(error?.file == path)
    }

    @Test("a file cut inside its global header is a truncated file")
    func truncatedGlobalHeader() throws {
        let bytes = SyntheticCapture().bytes.prefix(14)
        let path = try SyntheticCapture.write(Array(bytes), name: "header.pcap")
        let error = #expect(throws: TraceError.self) { try TraceReader.read(path: path) }
        #expect(error?.kind == .truncatedFile)
        #expect(error?.packetNumber == nil)
    }

    @Test("a file cut inside a record names the packet, or keeps what was read when asked to")
    func truncatedRecord() throws {
        let flow = SyntheticFlow()
        var capture = SyntheticCapture()
        for frame in flow.handshake() { capture.add(frame) }
        capture.add(flow.client(0, Array("hello".utf8)))
        let full = capture.bytes
        let path = try SyntheticCapture.write(Array(full.dropLast(3)), name: "torn.pcap")
        let error = #expect(throws: TraceError.self) { try TraceReader.read(path: path) }
        #expect(error?.kind == .truncatedFile)
        #expect(error?.packetNumber == 4)
        #expect(error?.description.hasPrefix("\(path): packet 4: truncated file") == true)

        let trace = try TraceReader.read(path: path, options: .init(keepsTruncatedTail: true))
        #expect(trace.packetCount == 3)
        #expect(trace.truncation?.packetNumber == 4)
        #expect(trace.connections.count == 1)
    }

    @Test("a record with an absurd captured length is a malformed-record error, not a crash")
    func absurdRecordLength() throws {
        var capture = SyntheticCapture()
        capture.addRaw([0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f])
        let path = try capture.write()
        let error = #expect(throws: TraceError.self) { try TraceReader.read(path: path) }
        #expect(error?.packetNumber == 1)
        #expect(error?.kind == .malformedRecord || error?.kind == .truncatedFile)
    }

    @Test("a record whose timestamp fraction is a second or more is a malformed record naming the packet")
    func timestampFractionOutOfRange() throws {
        let flow = SyntheticFlow()
        for isNanosecond in [false, true] {
            var capture = SyntheticCapture(isNanosecond: isNanosecond)
            for (index, frame) in flow.handshake().enumerated() { capture.add(frame, microseconds: index * 1000) }
            // The second record's fraction: 2,000,000 µs (or 2,000,000,000 ns), little-endian at bytes 4-7.
            let fraction = isNanosecond ? UInt32(2_000_000_000) : UInt32(2_000_000)
            var second = capture.records[1]
            second.replaceSubrange(4..<8, with: withUnsafeBytes(of: fraction.littleEndian, Array.init))
            var corrupt = SyntheticCapture(isNanosecond: isNanosecond)
            corrupt.addRaw(capture.records[0])
            corrupt.addRaw(second)
            corrupt.addRaw(capture.records[2])
            let path = try corrupt.write()
            // Before: read 2 s late, and every later packet at that time ("time went back"), exit 0.
            let error = #expect(throws: TraceError.self) { try TraceReader.read(path: path) }
            #expect(error?.kind == .malformedRecord)
            #expect(error?.packetNumber == 2)
            #expect(error?.description.contains(
                isNanosecond ? "timestamp fraction is 2000000000 ns" : "timestamp fraction is 2000000 µs") == true,
                "\(String(describing: error))")
        }
    }

    @Test("an unsupported link type is an error naming it")
    func unsupportedLinkType() throws {
        let path = try SyntheticCapture(linkType: 147).write()  // LINKTYPE_USER0
        let error = #expect(throws: TraceError.self) { try TraceReader.read(path: path) }
        #expect(error?.kind == .unsupportedLinkType)
        #expect(error?.description.contains("147") == true)
    }

    // MARK: - Link types and network layers

    static let payload = Array("link layers".utf8)

    static func tcpOverIPv4(_ payload: [UInt8] = payload) -> [UInt8] {
        PacketBytes.ipv4(
            source: 0x0a00_0001, destination: 0x0a00_0002,
            payload: PacketBytes.tcp(
                sourcePort: 40000, destinationPort: 443, seq: 7, flags: PacketBytes.ack,
                payload: payload))
    }

    static func tcpOverIPv6(extensions: [(kind: UInt8, body: [UInt8])] = []) -> [UInt8] {
        let source = [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]
        let destination = [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [2]
        return PacketBytes.ipv6(
            source: source, destination: destination, extensions: extensions,
            payload: PacketBytes.tcp(
                sourcePort: 40000, destinationPort: 443, seq: 7, flags: PacketBytes.ack,
                payload: payload))
    }

    struct LinkCase: Sendable, CustomStringConvertible {
        var description: String
        var linkType: UInt32
        var frame: [UInt8]
    }

    static let linkCases: [LinkCase] = [
        .init(
            description: "Ethernet", linkType: 1, frame: PacketBytes.ethernet(etherType: 0x0800, payload: tcpOverIPv4())
        ),
        .init(
            description: "Ethernet with two VLAN tags", linkType: 1,
            frame: PacketBytes.ethernet(etherType: 0x0800, vlanIDs: [10, 20], payload: tcpOverIPv4())),
        .init(
            description: "Linux cooked v1", linkType: 113,
            frame: PacketBytes.linuxCooked(protocolType: 0x0800, payload: tcpOverIPv4())),
        .init(
            description: "Linux cooked v2 with IPv6", linkType: 276,
            frame: PacketBytes.linuxCookedV2(protocolType: 0x86dd, payload: tcpOverIPv6())),
        .init(description: "raw IP", linkType: 101, frame: tcpOverIPv4()),
        .init(
            description: "raw IPv6 with hop-by-hop and destination options", linkType: 101,
            frame: tcpOverIPv6(extensions: [
                (0, [1, 4, 0, 0, 0, 0]), (60, [1, 12] + [UInt8](repeating: 0, count: 12)),
            ])),
        .init(
            description: "IPv6 with an atomic fragment header", linkType: 229,
            frame: tcpOverIPv6(extensions: [(44, [0, 0, 0, 0, 0, 1])])),
        .init(
            description: "BSD null, little-endian AF_INET", linkType: 0,
            frame: PacketBytes.null(family: 2, littleEndian: true, payload: tcpOverIPv4())),
        .init(
            description: "BSD null, big-endian AF_INET6 (macOS 30)", linkType: 0,
            frame: PacketBytes.null(family: 30, littleEndian: false, payload: tcpOverIPv6())),
        .init(
            description: "OpenBSD loop, AF_INET", linkType: 108,
            frame: PacketBytes.null(family: 2, littleEndian: false, payload: tcpOverIPv4())),
        .init(description: "raw IPv4 link type", linkType: 228, frame: tcpOverIPv4()),
    ]

    @Test("each supported link type yields the TCP payload", arguments: linkCases)
    func linkType(_ link: LinkCase) throws {
        var capture = SyntheticCapture(linkType: link.linkType)
        capture.add(link.frame)
        let trace = try TraceReader.read(path: capture.write())
        #expect(trace.skipCounts == [:])
        let connection = try #require(trace.connections.first)
        #expect(connection.server.port == 443)
        #expect(connection.clientToServer.bytesIgnoringGaps == Self.payload)
    }

    @Test("the IPv6 addresses print in RFC 5952 form")
    func ipv6Endpoints() throws {
        var capture = SyntheticCapture(linkType: 229)
        capture.add(Self.tcpOverIPv6())
        let connection = try #require(try TraceReader.read(path: capture.write()).connections.first)
        #expect(connection.client.description == "[2001:db8::1]:40000")
        #expect(connection.server.description == "[2001:db8::2]:443")
    }

    @Test("a big-endian pcap file reads the same as a little-endian one")
    func bigEndianFile() throws {
        var capture = SyntheticCapture(isBigEndian: true)
        capture.add(PacketBytes.ethernet(etherType: 0x0800, payload: Self.tcpOverIPv4()), microseconds: 250)
        let trace = try TraceReader.read(path: capture.write())
        #expect(trace.connections.first?.clientToServer.bytesIgnoringGaps == Self.payload)
        #expect(trace.connections.first?.firstTimestamp.description == "1700000000.000250000")
    }

    @Test("non-TCP and malformed packets are counted by reason and skipped")
    func skipsByReason() throws {
        var capture = SyntheticCapture()
        let udp = PacketBytes.ipv4(source: 1, destination: 2, protocolNumber: 17, payload: [0, 53, 0, 53, 0, 8, 0, 0])
        capture.add(PacketBytes.ethernet(etherType: 0x0800, payload: udp))
        capture.add(PacketBytes.ethernet(etherType: 0x0806, payload: [UInt8](repeating: 0, count: 28)))  // ARP
        capture.add(PacketBytes.ethernet(etherType: 0x0800, payload: Self.tcpOverIPv4()), keep: 20)
        capture.add(PacketBytes.ethernet(etherType: 0x0800, payload: Self.tcpOverIPv4()), keep: 40)
        let fragment = PacketBytes.ipv4(
            source: 1, destination: 2, payload: [UInt8](repeating: 0, count: 24),
            fragment: 0x2000)
        capture.add(PacketBytes.ethernet(etherType: 0x0800, payload: fragment))
        let badHeader = PacketBytes.ipv4(
            source: 1, destination: 2, payload: [UInt8](repeating: 0, count: 24),
            headerWords: 3)
        capture.add(PacketBytes.ethernet(etherType: 0x0800, payload: badHeader))
        let badTCP = PacketBytes.ipv4(
            source: 1, destination: 2,
            payload: PacketBytes.tcp(sourcePort: 1, destinationPort: 2, seq: 0, flags: 0, dataOffsetWords: 2))
        capture.add(PacketBytes.ethernet(etherType: 0x0800, payload: badTCP))
        capture.add([1, 2, 3])
        let esp = PacketBytes.ipv6(
            source: [UInt8](repeating: 0, count: 16), destination: [UInt8](repeating: 0, count: 16),
            upperLayer: 50, payload: [0, 0, 0, 1, 0, 0, 0, 1])
        capture.add(PacketBytes.ethernet(etherType: 0x86dd, payload: esp))
        let trace = try TraceReader.read(path: capture.write())
        #expect(trace.packetCount == 9)
        #expect(trace.tcpPacketCount == 0)
        #expect(
            trace.skipCounts == [
                .notTCP: 1, .notIP: 1, .truncatedIPHeader: 1, .truncatedTCPHeader: 1, .ipFragment: 1,
                .malformedIPHeader: 1, .malformedTCPHeader: 1, .truncatedLinkHeader: 1, .encrypted: 1,
            ])
    }

    @Test("a port filter keeps only matching connections and counts the rest")
    func portFilter() throws {
        var capture = SyntheticCapture()
        capture.add(PacketBytes.ethernet(etherType: 0x0800, payload: Self.tcpOverIPv4()))
        let other = PacketBytes.ipv4(
            source: 3, destination: 4,
            payload: PacketBytes.tcp(
                sourcePort: 50000, destinationPort: 80, seq: 1, flags: PacketBytes.ack,
                payload: [1, 2, 3]))
        capture.add(PacketBytes.ethernet(etherType: 0x0800, payload: other))
        let trace = try TraceReader.read(path: capture.write(), options: .init(ports: [443]))
        #expect(trace.tcpPacketCount == 2)
        #expect(trace.filteredOutPacketCount == 1)
        #expect(trace.connections.map(\.server.port) == [443])
    }
}

/// pcapng inputs built with `PcapngWriter`: link types per interface.
@Suite struct TraceReaderPcapngTests {
    static let packet = SyntheticTCPConnection.ipv4TCP(
        source: TCPEndpoint(address: .v4(0xc612_0001), port: 50_000),
        destination: TCPEndpoint(address: .v4(0xc612_0002), port: 443),
        seq: 1, ack: 1, flags: [.ack, .psh], payload: Array("pcapng".utf8))

    @Test("a pcapng file with an unsupported link type is an error naming it")
    func unsupportedLinkType() throws {
        var writer = PcapngWriter(interfaces: [.init(name: "user", linkType: LinkType(rawValue: 147))])
        writer.append([1, 2, 3], timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 1))
        let path = try SyntheticCapture.write(writer.bytes, name: "user.pcapng")
        let error = #expect(throws: TraceError.self) { try TraceReader.read(path: path) }
        #expect(error?.kind == .unsupportedLinkType)
    }

    @Test("interfaces with different link types are refused, naming libpcap's limit and what to capture instead")
    func mixedLinkTypes() throws {
        var writer = PcapngWriter(interfaces: [.init(name: "raw"), .init(name: "eth", linkType: .ethernet)])
        writer.append(Self.packet, interface: 0, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 1))
        writer.append(
            PacketBytes.ethernet(etherType: 0x0800, payload: Self.packet), interface: 1,
            timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 2))
        let path = try SyntheticCapture.write(writer.bytes, name: "mixed.pcapng")
        // libpcap 1.10 reads one link type per file and stops at the second interface's block.
        let error = #expect(throws: TraceError.self) { try TraceReader.read(path: path) }
        #expect(error?.kind == .unsupportedLinkType)
        #expect(error?.description.hasPrefix("\(path): packet 1: unsupported link type: the capture's interfaces "
            + "have different link types") == true)
        #expect(error?.description.contains("dumpcap -i any") == true)
    }

    @Test("a pcapng file cut inside a block names the packet")
    func truncatedBlock() throws {
        var writer = PcapngWriter(interfaces: [.init(name: "raw")])
        writer.append(Self.packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 1))
        writer.append(Self.packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 2))
        let path = try SyntheticCapture.write(Array(writer.bytes.dropLast(10)), name: "cut.pcapng")
        let error = #expect(throws: TraceError.self) { try TraceReader.read(path: path) }
        #expect(error?.packetNumber == 2)
        let kept = try TraceReader.read(path: path, options: .init(keepsTruncatedTail: true))
        #expect(kept.connections.first?.clientToServer.bytesIgnoringGaps == Array("pcapng".utf8))
    }

    @Test("a snap length on the interface cuts packets and the cut bytes become a gap")
    func snapLength() throws {
        var writer = PcapngWriter(interfaces: [.init(name: "raw", snapLength: 44)])
        writer.append(Self.packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 1))
        let path = try SyntheticCapture.write(writer.bytes, name: "snap.pcapng")
        let stream = try #require(try TraceReader.read(path: path).connections.first).clientToServer
        #expect(stream.bytesIgnoringGaps == Array("pcap".utf8))
        #expect(stream.gaps.map(\.cause) == [.cutBySnapLength])
    }
}
