/// A TCP connection made up for a capture of simulated traffic: turns byte sends into IPv4/TCP packets with
/// consistent sequence and acknowledgement numbers and correct checksums.
///
/// Addresses come from 198.18.0.0/15, the block reserved for benchmarking (RFC 2544 §C.2.2, RFC 6890), so a
/// synthetic capture never names a real host. Each data packet acknowledges everything the other side sent so
/// far; the simulator's own ACK timing is not reproduced.
public struct SyntheticTCPConnection: Hashable, Sendable {
    /// The connecting side.
    public let client: TCPEndpoint
    /// The listening side.
    public let server: TCPEndpoint
    /// Largest payload per packet in bytes (default 1460, Ethernet MTU 1500 minus 40 header bytes).
    public var mss: Int
    private var nextSeq: [TraceDirection: UInt32]
    private var ipIdentification: UInt16 = 0

    /// The address of simulated host `index` (0-based): 198.18.0.1, 198.18.0.2, ..., wrapping inside 198.18.0.0/15.
    public static func syntheticAddress(host index: Int) -> IPAddress {
        let offset = UInt32(truncatingIfNeeded: index) % 0x1_fffe
        return .v4(0xC612_0000 + 1 + offset)
    }

    /// - Parameters:
    ///   - client: the connecting side; `server`: the listening side. IPv4 endpoints only.
    ///   - clientISN, serverISN: initial sequence numbers (a seeded choice keeps captures reproducible).
    ///   - mss: largest payload per packet in bytes.
    /// - Precondition: both endpoints have IPv4 addresses and `mss` > 0 (programmer errors otherwise).
    public init(client: TCPEndpoint, server: TCPEndpoint, clientISN: UInt32 = 0, serverISN: UInt32 = 0, mss: Int = 1460)
    {
        guard case .v4 = client.address, case .v4 = server.address else {
            preconditionFailure("SyntheticTCPConnection writes IPv4 only")
        }
        precondition(mss > 0, "mss must be positive")
        self.client = client
        self.server = server
        self.mss = mss
        self.nextSeq = [.clientToServer: clientISN, .serverToClient: serverISN]
    }

    /// The three-way handshake: SYN, SYN-ACK, ACK.
    public mutating func open() -> [[UInt8]] {
        let syn = packet(.clientToServer, flags: .syn, payload: [], consumes: 1, acknowledges: false)
        let synAck = packet(.serverToClient, flags: [.syn, .ack], payload: [], consumes: 1)
        let ack = packet(.clientToServer, flags: .ack, payload: [], consumes: 0)
        return [syn, synAck, ack]
    }

    /// `bytes` sent one way, cut into packets of at most `mss` payload bytes (PSH on the last).
    public mutating func send(_ bytes: [UInt8], _ direction: TraceDirection) -> [[UInt8]] {
        guard !bytes.isEmpty else { return [] }
        return stride(from: 0, to: bytes.count, by: mss).map { start in
            let end = min(start + mss, bytes.count)
            let flags: TCPSegment.Flags = end == bytes.count ? [.ack, .psh] : .ack
            return packet(direction, flags: flags, payload: Array(bytes[start..<end]), consumes: end - start)
        }
    }

    /// A FIN from `direction`'s sender.
    public mutating func close(_ direction: TraceDirection) -> [UInt8] {
        packet(direction, flags: [.fin, .ack], payload: [], consumes: 1)
    }

    /// A RST from `direction`'s sender.
    public mutating func reset(_ direction: TraceDirection) -> [UInt8] {
        packet(direction, flags: [.rst, .ack], payload: [], consumes: 0)
    }

    private mutating func packet(
        _ direction: TraceDirection, flags: TCPSegment.Flags, payload: [UInt8], consumes: Int, acknowledges: Bool = true
    ) -> [UInt8] {
        let (source, destination) = direction == .clientToServer ? (client, server) : (server, client)
        let other: TraceDirection = direction == .clientToServer ? .serverToClient : .clientToServer
        let seq = nextSeq[direction]!
        nextSeq[direction] = seq &+ UInt32(consumes)
        ipIdentification &+= 1
        return Self.ipv4TCP(
            source: source, destination: destination, seq: seq, ack: acknowledges ? nextSeq[other]! : 0,
            flags: flags, payload: payload, identification: ipIdentification
        )
    }

    /// One IPv4 packet carrying a TCP segment with a 20-byte header, window 65535, both checksums filled in.
    /// - Precondition: IPv4 endpoints and a payload that fits an IPv4 packet (programmer errors otherwise).
    public static func ipv4TCP(
        source: TCPEndpoint, destination: TCPEndpoint, seq: UInt32, ack: UInt32, flags: TCPSegment.Flags,
        payload: [UInt8], identification: UInt16 = 0
    ) -> [UInt8] {
        guard case .v4(let sourceAddress) = source.address, case .v4(let destinationAddress) = destination.address
        else {
            preconditionFailure("ipv4TCP needs IPv4 endpoints")
        }
        precondition(payload.count <= 65_535 - 40, "payload too large for one IPv4 packet")
        var tcp: [UInt8] = []
        tcp.reserveCapacity(20 + payload.count)
        put16(source.port, &tcp)
        put16(destination.port, &tcp)
        put32(seq, &tcp)
        put32(flags.contains(.ack) ? ack : 0, &tcp)
        tcp += [5 << 4, flags.rawValue]
        put16(65_535, &tcp)  // window
        put16(0, &tcp)  // checksum, filled below
        put16(0, &tcp)  // urgent pointer
        tcp += payload
        // RFC 9293 §3.1: the checksum covers a pseudo-header of addresses, protocol and TCP length.
        var pseudo: [UInt8] = []
        put32(sourceAddress, &pseudo)
        put32(destinationAddress, &pseudo)
        pseudo += [0, 6]
        put16(UInt16(tcp.count), &pseudo)
        let tcpChecksum = internetChecksum(pseudo + tcp)
        tcp[16] = UInt8(tcpChecksum >> 8)
        tcp[17] = UInt8(tcpChecksum & 0xff)

        var ip: [UInt8] = [0x45, 0]
        put16(UInt16(20 + tcp.count), &ip)
        put16(identification, &ip)
        put16(0x4000, &ip)  // don't fragment
        ip += [64, 6]  // TTL, protocol TCP
        put16(0, &ip)
        put32(sourceAddress, &ip)
        put32(destinationAddress, &ip)
        let ipChecksum = internetChecksum(ip)
        ip[10] = UInt8(ipChecksum >> 8)
        ip[11] = UInt8(ipChecksum & 0xff)
        return ip + tcp
    }

    /// The Internet checksum: ones' complement of the ones' complement sum of 16-bit words (RFC 1071).
    public static func internetChecksum(_ bytes: [UInt8]) -> UInt16 {
        var sum: UInt32 = 0
        var index = 0
        while index + 1 < bytes.count {
            sum += UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
            index += 2
        }
        if index < bytes.count { sum += UInt32(bytes[index]) << 8 }
        while sum > 0xffff { sum = (sum & 0xffff) + (sum >> 16) }
        return ~UInt16(sum)
    }

    private static func put16(_ value: UInt16, _ out: inout [UInt8]) {
        out += [UInt8(value >> 8), UInt8(value & 0xff)]
    }

    private static func put32(_ value: UInt32, _ out: inout [UInt8]) {
        put16(UInt16(value >> 16), &out)
        put16(UInt16(value & 0xffff), &out)
    }
}
