import Foundation

/// The container format of a capture file, told by its first four bytes.
public enum CaptureFormat: String, Hashable, Sendable, CustomStringConvertible {
    /// Classic pcap with microsecond timestamps (magic a1b2c3d4, either byte order).
    case pcapMicroseconds = "pcap"
    /// Classic pcap with nanosecond timestamps (magic a1b23c4d, either byte order).
    case pcapNanoseconds = "pcap (nanosecond)"
    /// pcapng (section header block type 0a0d0d0a).
    case pcapng

    /// The format whose magic number starts `bytes`, or nil when the bytes are not a capture's first bytes.
    ///
    /// Magic numbers: pcap a1b2c3d4 / d4c3b2a1, nanosecond pcap a1b23c4d / 4d3cb2a1, pcapng 0a0d0d0a
    /// (tcpdump.org "pcap-savefile" and the pcapng draft, draft-ietf-opsawg-pcapng).
    public init?(magic bytes: some Collection<UInt8>) {
        guard bytes.count >= 4 else { return nil }
        let word = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        switch word {
        case 0xa1b2_c3d4, 0xd4c3_b2a1: self = .pcapMicroseconds
        case 0xa1b2_3c4d, 0x4d3c_b2a1: self = .pcapNanoseconds
        case 0x0a0d_0d0a: self = .pcapng
        default: return nil
        }
    }

    /// Reads the first four bytes of the file at `path`; nil when it is not a capture (or shorter than 4 bytes).
    /// - Throws: `TraceError` of kind `.cannotOpen` when the file cannot be read.
    public static func sniff(path: String) throws -> CaptureFormat? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TraceError(.cannotOpen, file: path, detail: "no such file or not readable")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4)) ?? Data()
        return CaptureFormat(magic: [UInt8](head))
    }

    /// The bytes before the first packet record: a pcap file header is 24 bytes; a pcapng section header block at
    /// least 28 (tcpdump.org "pcap-savefile"; draft-ietf-opsawg-pcapng §4.1).
    public var fileHeaderBytes: Int { self == .pcapng ? 28 : 24 }

    public var description: String { rawValue }
}
