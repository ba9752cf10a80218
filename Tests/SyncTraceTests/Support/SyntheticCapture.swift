import Foundation

/// A classic pcap file built byte by byte in a test: global header plus records (tcpdump.org pcap-savefile).
struct SyntheticCapture {
    var linkType: UInt32 = 1
    var snapLength: UInt32 = 65535
    var isNanosecond = false
    var isBigEndian = false
    private(set) var records: [[UInt8]] = []

    init(linkType: UInt32 = 1, snapLength: UInt32 = 65535, isNanosecond: Bool = false, isBigEndian: Bool = false) {
        self.linkType = linkType
        self.snapLength = snapLength
        self.isNanosecond = isNanosecond
        self.isBigEndian = isBigEndian
    }

    /// Adds a record at `microseconds` after a fixed epoch second; `keep` cuts the frame as a snap length would.
    mutating func add(_ frame: [UInt8], microseconds: Int = 0, keep: Int? = nil) {
        let kept = keep.map { Array(frame.prefix($0)) } ?? frame
        let seconds = UInt32(1_700_000_000 + microseconds / 1_000_000)
        let fraction = UInt32(microseconds % 1_000_000) * (isNanosecond ? 1000 : 1)
        var record: [UInt8] = []
        record += word(seconds) + word(fraction) + word(UInt32(kept.count)) + word(UInt32(frame.count))
        record += kept
        records.append(record)
    }

    /// Adds raw bytes after the records (a torn record, garbage).
    mutating func addRaw(_ bytes: [UInt8]) { records.append(bytes) }

    var bytes: [UInt8] {
        let magic: UInt32 = isNanosecond ? 0xa1b2_3c4d : 0xa1b2_c3d4
        var out = word(magic) + half(2) + half(4) + word(0) + word(0) + word(snapLength) + word(linkType)
        for record in records { out += record }
        return out
    }

    /// Writes the file into a fresh temporary directory and returns its path.
    func write(name: String = "synthetic.pcap") throws -> String {
        try Self.write(bytes, name: name)
    }

    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("synctrace-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func word(_ value: UInt32) -> [UInt8] {
        let big = [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
        return isBigEndian ? big : big.reversed()
    }

    private func half(_ value: UInt16) -> [UInt8] {
        let big = [UInt8(value >> 8), UInt8(value & 0xff)]
        return isBigEndian ? big : big.reversed()
    }
}

/// Packet headers built by hand, big-endian, checksums left zero (the reader does not check them).
enum PacketBytes {
    static let fin: UInt8 = 0x01
    static let syn: UInt8 = 0x02
    static let rst: UInt8 = 0x04
    static let psh: UInt8 = 0x08
    static let ack: UInt8 = 0x10

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xff)] }
    static func be32(_ value: UInt32) -> [UInt8] { be16(UInt16(value >> 16)) + be16(UInt16(value & 0xffff)) }

    static func tcp(
        sourcePort: UInt16, destinationPort: UInt16, seq: UInt32, ack: UInt32 = 0, flags: UInt8,
        payload: [UInt8] = [], dataOffsetWords: UInt8 = 5
    ) -> [UInt8] {
        var header = be16(sourcePort) + be16(destinationPort) + be32(seq) + be32(ack)
        header += [dataOffsetWords << 4, flags] + be16(65535) + be16(0) + be16(0)
        header += [UInt8](repeating: 1, count: max(0, Int(dataOffsetWords) * 4 - 20))  // NOP options
        return header + payload
    }

    static func ipv4(
        source: UInt32, destination: UInt32, protocolNumber: UInt8 = 6, payload: [UInt8],
        totalLength: UInt16? = nil, fragment: UInt16 = 0x4000, headerWords: UInt8 = 5
    ) -> [UInt8] {
        let length = totalLength ?? UInt16(20 + payload.count)
        var header: [UInt8] = [0x40 | headerWords, 0] + be16(length) + be16(1) + be16(fragment)
        header += [64, protocolNumber] + be16(0) + be32(source) + be32(destination)
        return header + payload
    }

    /// IPv6 with extension headers given as (next header value of the extension, its bytes after the first two).
    static func ipv6(
        source: [UInt8], destination: [UInt8], extensions: [(kind: UInt8, body: [UInt8])] = [],
        upperLayer: UInt8 = 6, payload: [UInt8]
    ) -> [UInt8] {
        var chain: [UInt8] = []
        for (index, ext) in extensions.enumerated() {
            let next = index + 1 < extensions.count ? extensions[index + 1].kind : upperLayer
            let total = 2 + ext.body.count
            precondition(total % 8 == 0, "extension headers are multiples of 8 bytes")
            chain += [next, UInt8(total / 8 - 1)] + ext.body
        }
        let first = extensions.first?.kind ?? upperLayer
        var header: [UInt8] = [0x60, 0, 0, 0] + be16(UInt16(chain.count + payload.count)) + [first, 64]
        header += source + destination
        return header + chain + payload
    }

    static func ethernet(etherType: UInt16, vlanIDs: [UInt16] = [], payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x02, 0, 0, 0, 0, 2, 0x02, 0, 0, 0, 0, 1]
        for id in vlanIDs { frame += be16(0x8100) + be16(id) }
        return frame + be16(etherType) + payload
    }

    static func linuxCookedV2(protocolType: UInt16, payload: [UInt8]) -> [UInt8] {
        be16(protocolType) + [0, 0] + be32(2) + be16(1) + [0, 6] + [2, 0, 0, 0, 0, 1, 0, 0] + payload
    }

    static func linuxCooked(protocolType: UInt16, payload: [UInt8]) -> [UInt8] {
        [0, 0] + be16(1) + be16(6) + [2, 0, 0, 0, 0, 1, 0, 0] + be16(protocolType) + payload
    }

    static func null(family: UInt32, littleEndian: Bool, payload: [UInt8]) -> [UInt8] {
        let bytes = be32(family)
        return (littleEndian ? bytes.reversed() : bytes) + payload
    }
}

/// One IPv4 TCP connection between 10.0.0.1:40000 (client) and 10.0.0.2:443 over Ethernet, with handy ISNs.
struct SyntheticFlow {
    var clientISN: UInt32 = 1000
    var serverISN: UInt32 = 5000
    var clientPort: UInt16 = 40000
    var serverPort: UInt16 = 443
    static let client: UInt32 = 0x0a00_0001
    static let server: UInt32 = 0x0a00_0002

    /// A client segment carrying `payload` at stream offset `offset` (0 = first byte after the SYN).
    func client(
        _ offset: Int, _ payload: [UInt8], flags: UInt8 = PacketBytes.ack | PacketBytes.psh, ack: Int = 0
    )
        -> [UInt8]
    {
        let tcp = PacketBytes.tcp(
            sourcePort: clientPort, destinationPort: serverPort, seq: clientISN &+ 1 &+ UInt32(truncatingIfNeeded: offset),
            ack: serverISN &+ 1 &+ UInt32(truncatingIfNeeded: ack), flags: flags, payload: payload)
        return PacketBytes.ethernet(
            etherType: 0x0800, payload: PacketBytes.ipv4(source: Self.client, destination: Self.server, payload: tcp))
    }

    /// A server segment carrying `payload` at stream offset `offset`, acknowledging client offset `ack`.
    func server(
        _ offset: Int, _ payload: [UInt8], flags: UInt8 = PacketBytes.ack | PacketBytes.psh, ack: Int = 0
    )
        -> [UInt8]
    {
        let tcp = PacketBytes.tcp(
            sourcePort: serverPort, destinationPort: clientPort, seq: serverISN &+ 1 &+ UInt32(truncatingIfNeeded: offset),
            ack: clientISN &+ 1 &+ UInt32(truncatingIfNeeded: ack), flags: flags, payload: payload)
        return PacketBytes.ethernet(
            etherType: 0x0800, payload: PacketBytes.ipv4(source: Self.server, destination: Self.client, payload: tcp))
    }

    /// The three-way handshake as three frames.
    func handshake() -> [[UInt8]] {
        let syn = PacketBytes.tcp(sourcePort: 40000, destinationPort: 443, seq: clientISN, flags: PacketBytes.syn)
        let synAck = PacketBytes.tcp(
            sourcePort: 443, destinationPort: 40000, seq: serverISN, ack: clientISN &+ 1,
            flags: PacketBytes.syn | PacketBytes.ack)
        return [
            PacketBytes.ethernet(
                etherType: 0x0800,
                payload: PacketBytes.ipv4(source: Self.client, destination: Self.server, payload: syn)),
            PacketBytes.ethernet(
                etherType: 0x0800,
                payload: PacketBytes.ipv4(source: Self.server, destination: Self.client, payload: synAck)),
            client(0, [], flags: PacketBytes.ack),
        ]
    }
}

/// The repository's Fixtures/ folder, found from this file's path.
enum FixturePath {
    static func pcap(_ name: String, filePath: String = #filePath) -> String {
        var url = URL(fileURLWithPath: filePath)
        while url.lastPathComponent != "Tests" { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("Fixtures/pcap/\(name)").path
    }
}
