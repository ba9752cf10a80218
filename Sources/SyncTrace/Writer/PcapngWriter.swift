import Foundation

/// Builds a pcapng capture in memory: one section header, one interface description block per link, then
/// enhanced packet blocks with nanosecond timestamps (`if_tsresol` = 9).
///
/// Block layouts follow the pcapng specification (draft-ietf-opsawg-pcapng, §4.1 SHB, §4.2 IDB, §4.3 EPB);
/// everything is written little-endian, which the byte-order magic 1A2B3C4D announces. Meant for simulated
/// traffic (`syncsim run --pcap FILE`), which `SyntheticTCPConnection` turns into IPv4/TCP packets. Give every
/// interface the same link type when the file must open with libpcap (tcpdump, `TraceReader`): libpcap 1.10
/// reads one link type per file, while Wireshark reads mixed ones.
///
/// ```swift
/// var writer = PcapngWriter(interfaces: [.init(name: "alice-edge")])
/// writer.append(packet, interface: 0, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 1_000))
/// try writer.write(to: "run.pcapng")
/// ```
public struct PcapngWriter: Sendable {
    /// One capture interface (a simulated link).
    public struct Interface: Hashable, Sendable {
        /// Shown by Wireshark as the interface name (`if_name`).
        public var name: String
        /// The link type of its packets; `.raw` (bare IPv4/IPv6) by default.
        public var linkType: LinkType
        /// Bytes kept per packet; packets are never cut when it is 0 (no limit).
        public var snapLength: UInt32

        /// An interface called `name` with `linkType` and `snapLength` (0: no limit).
        public init(name: String, linkType: LinkType = .raw, snapLength: UInt32 = 0) {
            self.name = name
            self.linkType = linkType
            self.snapLength = snapLength
        }
    }

    /// The file so far.
    public private(set) var bytes: [UInt8] = []
    /// The interfaces, in the order their description blocks were written (their ids).
    public let interfaces: [Interface]
    /// Packets appended so far.
    public private(set) var packetCount = 0

    /// Starts a capture with a section header and one interface description block per interface.
    /// - Precondition: at least one interface (a programmer error otherwise).
    public init(interfaces: [Interface]) {
        precondition(!interfaces.isEmpty, "a pcapng capture needs at least one interface")
        self.interfaces = interfaces
        var body: [UInt8] = []
        Self.put32(0x1A2B_3C4D, &body)  // byte-order magic
        Self.put16(1, &body)  // major version
        Self.put16(0, &body)  // minor version
        Self.put64(UInt64.max, &body)  // section length: unknown (-1)
        appendBlock(type: 0x0A0D_0D0A, body: body)
        for interface in interfaces {
            var body: [UInt8] = []
            Self.put16(UInt16(truncatingIfNeeded: interface.linkType.rawValue), &body)
            Self.put16(0, &body)  // reserved
            Self.put32(interface.snapLength, &body)
            Self.putOption(2, Array(interface.name.utf8), &body)  // if_name
            Self.putOption(9, [9], &body)  // if_tsresol: 10^-9 s
            Self.putOption(0, [], &body)  // opt_endofopt
            appendBlock(type: 1, body: body)
        }
    }

    /// Appends one packet as an enhanced packet block.
    /// - Parameters:
    ///   - packet: the packet from its link-layer header on (for `.raw`, the IP header).
    ///   - interface: index into `interfaces`.
    ///   - timestamp: capture time in nanoseconds since the Unix epoch (simulated runs use virtual time from 0).
    ///   - originalLength: the length on the wire when `packet` was cut; `packet.count` by default.
    /// - Precondition: `interface` is a valid index (a programmer error otherwise).
    public mutating func append(
        _ packet: [UInt8], interface: Int = 0, timestamp: CaptureTimestamp, originalLength: Int? = nil
    ) {
        precondition(interfaces.indices.contains(interface), "interface \(interface) was not declared")
        let snap = Int(interfaces[interface].snapLength)
        let kept = snap > 0 && packet.count > snap ? Array(packet.prefix(snap)) : packet
        let units = UInt64(bitPattern: timestamp.nanosecondsSinceEpoch)
        var body: [UInt8] = []
        body.reserveCapacity(20 + kept.count + 3)
        Self.put32(UInt32(interface), &body)
        Self.put32(UInt32(truncatingIfNeeded: units >> 32), &body)
        Self.put32(UInt32(truncatingIfNeeded: units), &body)
        Self.put32(UInt32(kept.count), &body)
        Self.put32(UInt32(originalLength ?? packet.count), &body)
        body += kept
        body += [UInt8](repeating: 0, count: (4 - kept.count % 4) % 4)
        appendBlock(type: 6, body: body)
        packetCount += 1
    }

    /// Writes the capture to `path`, replacing any file there.
    /// - Throws: the file system's error when the file cannot be written.
    public func write(to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    private mutating func appendBlock(type: UInt32, body: [UInt8]) {
        let totalLength = UInt32(12 + body.count)
        Self.put32(type, &bytes)
        Self.put32(totalLength, &bytes)
        bytes += body
        Self.put32(totalLength, &bytes)
    }

    private static func putOption(_ code: UInt16, _ value: [UInt8], _ out: inout [UInt8]) {
        put16(code, &out)
        put16(UInt16(value.count), &out)
        out += value
        out += [UInt8](repeating: 0, count: (4 - value.count % 4) % 4)
    }

    private static func put16(_ value: UInt16, _ out: inout [UInt8]) {
        out += [UInt8(value & 0xff), UInt8(value >> 8)]
    }

    private static func put32(_ value: UInt32, _ out: inout [UInt8]) {
        put16(UInt16(value & 0xffff), &out)
        put16(UInt16(value >> 16), &out)
    }

    private static func put64(_ value: UInt64, _ out: inout [UInt8]) {
        put32(UInt32(value & 0xffff_ffff), &out)
        put32(UInt32(value >> 32), &out)
    }
}
