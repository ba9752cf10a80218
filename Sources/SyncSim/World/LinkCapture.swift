import SyncTrace

/// A packet capture of a run: the segments that crossed each client's access link, as pcapng.
///
/// One interface per client (its access link), all of link type IPv4 (LINKTYPE_IPV4, 228): libpcap 1.10 reads a
/// pcapng only when every interface has the same type, and with more than one LINKTYPE_RAW (101) interface it
/// refuses the file because it compares the second one's link type against the first one's mapped DLT value.
/// Hosts get addresses from 198.18.0.0/15 by host index (`SyntheticTCPConnection.syntheticAddress`): the
/// server 198.18.0.1, the CDN 198.18.0.2, clients from 198.18.0.3 in topology order. The connecting end of a
/// connection uses port 32768 + its connection number (wrapping below 61000), the server and CDN port 5443.
/// Sequence numbers start at a per-connection initial sequence number; timestamps are virtual time from the
/// capture epoch. Segments leaving a client are captured when handed to its uplink (retransmissions and segments
/// lost later included), segments for it when its downlink delivers them, as tcpdump on the phone would see them.
public struct LinkCapture: Sendable {
    /// Virtual time zero in the capture: 2023-11-14T22:13:20Z (Unix time 1 700 000 000 s), the server's epoch.
    public static let epochNanoseconds: Int64 = 1_700_000_000 * 1_000_000_000
    /// The port of the accepting end (server, CDN).
    public static let serverPort: UInt16 = 5_443

    private var writer: PcapngWriter
    private let interfaceByHost: [Int: Int]
    private var identification: UInt16 = 0

    /// A capture with one interface per client host.
    /// - Parameter clients: (client name, host, link profile name) in topology order.
    init(clients: [(name: String, host: HostID, profile: String)]) {
        precondition(!clients.isEmpty, "a capture needs at least one client")
        writer = PcapngWriter(interfaces: clients.map { .init(name: "\($0.name)-\($0.profile)", linkType: .ipv4) })
        var table: [Int: Int] = [:]
        for (index, client) in clients.enumerated() { table[client.host.rawValue] = index }
        interfaceByHost = table
    }

    /// The capture so far, as a pcapng file's bytes.
    public var bytes: [UInt8] { writer.bytes }
    /// Packets captured so far.
    public var packetCount: Int { writer.packetCount }

    /// Adds a segment the network's tap saw, when it crossed a client's link (others are ignored).
    mutating func add(_ record: LinkTapRecord) {
        guard let interface = interfaceByHost[record.host.rawValue] else { return }
        let sender = record.sender
        let receiver = sender.peer
        let source = Self.endpoint(host: record.sourceHost, socket: sender)
        let destination = Self.endpoint(host: record.destinationHost, socket: receiver)
        var flags: TCPSegment.Flags = []
        if record.isSYN { flags.insert(.syn) }
        if record.isACK { flags.insert(.ack) }
        if record.isFIN { flags.insert(.fin) }
        if record.isRST { flags.insert(.rst) }
        if !record.payload.isEmpty { flags.insert(.psh) }
        identification &+= 1
        let packet = SyntheticTCPConnection.ipv4TCP(
            source: source, destination: destination,
            seq: Self.initialSequence(sender) &+ UInt32(truncatingIfNeeded: record.sequence),
            ack: Self.initialSequence(receiver) &+ UInt32(truncatingIfNeeded: record.acknowledgment),
            flags: flags, payload: record.payload, identification: identification)
        let time = CaptureTimestamp(nanosecondsSinceEpoch: Self.epochNanoseconds + record.time.nanosecondsSinceStart)
        writer.append(packet, interface: interface, timestamp: time)
    }

    static func endpoint(host: HostID, socket: SocketID) -> SyncTrace.TCPEndpoint {
        let port = socket.isInitiator ? UInt16(32_768 + socket.connection % 28_232) : serverPort
        return SyncTrace.TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: host.rawValue), port: port)
    }

    /// A fixed, well-spread initial sequence number per socket, so captures are reproducible.
    static func initialSequence(_ socket: SocketID) -> UInt32 {
        UInt32(truncatingIfNeeded: ((UInt64(socket.rawValue) &+ 1) &* 0x9E37_79B9_7F4A_7C15) >> 32)
    }
}
