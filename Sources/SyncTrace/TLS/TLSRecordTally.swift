/// What one direction of a TLS connection shows without its keys: its records, by content type, walked from the
/// first byte along the TLS record headers (RFC 8446 §5.1, RFC 5246 §6.2.1), and the version a plaintext ServerHello
/// selected. `trace-summary` prints it for a TLS connection it was given no key log for.
///
/// The walk needs every byte: it stops at the first gap (a record's length cannot be trusted across bytes the
/// capture lacks), at bytes that are no TLS record header, or at a record the capture ends inside; `end` says
/// which and where.
public struct TLSRecordTally: Hashable, Sendable {
    /// Records of content type 22, plaintext handshake messages (ClientHello, ServerHello; in TLS 1.2 the rest
    /// of the handshake too).
    public var handshakeRecords = 0
    /// Records of content type 20 (in TLS 1.3 only for middlebox compatibility, RFC 8446 §D.4).
    public var changeCipherSpecRecords = 0
    /// Records of content type 21.
    public var alertRecords = 0
    /// Records of content type 23: encrypted data (in TLS 1.3 also the handshake after the ServerHello, and alerts).
    public var applicationDataRecords = 0
    /// Fragment bytes of the application data records (ciphertext with each record's tag, headers left out).
    public var applicationDataBytes: Int64 = 0
    /// Where the walk stopped before the direction's last byte; nil when it read every byte as whole records.
    public var end: End?
    /// `TLS 1.3`, `TLS 1.2`, ...: the version a ServerHello among the direction's handshake records selected
    /// (its `supported_versions` extension, else its `legacy_version`); nil without one.
    public var selectedVersion: String?

    /// Why the walk stopped early.
    public enum End: Hashable, Sendable, CustomStringConvertible {
        /// The capture lacks bytes from `offset` on (a gap).
        case gap(offset: Int64)
        /// The bytes at `offset` do not start a TLS record.
        case notARecord(offset: Int64)
        /// The record at `offset` claims more bytes than the capture holds after it.
        case cutShort(offset: Int64)

        public var description: String {
            switch self {
            case .gap(let offset): "stopped at the gap at offset \(offset)"
            case .notARecord(let offset): "stopped at offset \(offset): no TLS record header there"
            case .cutShort(let offset): "the record at offset \(offset) is cut off by the end of the capture"
            }
        }
    }

    /// Every record.
    public var recordCount: Int {
        handshakeRecords + changeCipherSpecRecords + alertRecords + applicationDataRecords
    }

    /// Walks `stream`'s records from its first byte.
    public init(_ stream: TCPStreamTrace) {
        // The bytes before the first gap: records are read only where no byte is missing.
        var bytes: [UInt8] = []
        var start: Int64?
        for piece in stream.pieces {
            switch piece {
            case .data(let run):
                if start == nil { start = run.offset }
                bytes += run.bytes
            case .gap(let gap):
                end = .gap(offset: gap.offset)
            }
            if end != nil { break }
        }
        let base = start ?? 0
        var handshake: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let header = TLSRecordHeader(bytes[index...]) else {
                // A header cut by the end of the bytes, or cut by a gap, is a cut record, not foreign bytes.
                if bytes.count - index < 5 {
                    if end == nil { end = .cutShort(offset: base + Int64(index)) }
                } else {
                    end = .notARecord(offset: base + Int64(index))
                }
                break
            }
            let fragment = index + 5
            guard fragment + header.length <= bytes.count else {
                if end == nil { end = .cutShort(offset: base + Int64(index)) }
                break
            }
            switch header.contentType {
            case 20: changeCipherSpecRecords += 1
            case 21: alertRecords += 1
            case 22:
                handshakeRecords += 1
                // A ServerHello can span records; 64 KiB is far more than any hello.
                if handshake.count < 1 << 16 { handshake += bytes[fragment..<fragment + header.length] }
            default:
                applicationDataRecords += 1
                applicationDataBytes += Int64(header.length)
            }
            index = fragment + header.length
        }
        selectedVersion = Self.serverHelloVersion(handshake)
    }

    /// The version the first handshake message selects when it is a whole ServerHello (RFC 8446 §4.1.3: type 2,
    /// legacy_version, random, legacy_session_id, cipher_suite, legacy_compression_method, extensions, of which
    /// `supported_versions` (43) holds the selected version); nil for any other message or a cut one.
    static func serverHelloVersion(_ messages: [UInt8]) -> String? {
        guard messages.count >= 4, messages[0] == 2 else { return nil }
        let length = Int(messages[1]) << 16 | Int(messages[2]) << 8 | Int(messages[3])
        guard messages.count >= 4 + length else { return nil }
        let body = Array(messages[4..<4 + length])
        func u16(_ at: Int) -> Int? { at + 2 <= body.count ? Int(body[at]) << 8 | Int(body[at + 1]) : nil }
        guard let legacyVersion = u16(0) else { return nil }
        var cursor = 2 + 32
        guard cursor < body.count else { return nil }
        cursor += 1 + Int(body[cursor])  // legacy_session_id
        cursor += 2 + 1  // cipher_suite, legacy_compression_method
        var selected = legacyVersion
        if let extensionsLength = u16(cursor) {
            cursor += 2
            let extensionsEnd = min(body.count, cursor + extensionsLength)
            while cursor + 4 <= extensionsEnd, let type = u16(cursor), let size = u16(cursor + 2) {
                if type == 43, size == 2, let version = u16(cursor + 4) { selected = version }
                cursor += 4 + size
            }
        } else if cursor > body.count {
            return nil
        }
        return switch selected {
        case 0x0304: "TLS 1.3"
        case 0x0303: "TLS 1.2"
        case 0x0302: "TLS 1.1"
        case 0x0301: "TLS 1.0"
        default: nil
        }
    }
}
