/// The 5-byte header every TLS record starts with (RFC 8446 §5.1, RFC 5246 §6.2.1): content type, legacy
/// protocol version, length. SyncSim reads it only to tell an encrypted connection from a plain one; decryption is
/// Wireshark's (`TLSDecryption`).
public struct TLSRecordHeader: Hashable, Sendable {
    /// Content type: 20 change_cipher_spec, 21 alert, 22 handshake, 23 application_data (RFC 8446 §5.1).
    public var contentType: UInt8
    /// Legacy record version: major 3, minor 1 (TLS 1.0) to 4; TLS 1.3 records say 3.3 (RFC 8446 §5.1).
    public var versionMinor: UInt8
    /// Bytes of the record's fragment; at most 2^14 + 2048 for protected records (RFC 5246 §6.2.3).
    public var length: Int

    /// The record header at the start of `bytes`, or nil when they do not start like a TLS record (content type
    /// 20...23, version 3.1...3.4, length at most 2^14 + 2048). The messenger protocol's first byte is its
    /// version 10, so its frames never pass.
    public init?(_ bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(5))
        guard head.count == 5, (20...23).contains(head[0]), head[1] == 3, (1...4).contains(head[2]) else { return nil }
        let length = Int(head[3]) << 8 | Int(head[4])
        guard length > 0, length <= (1 << 14) + 2048 else { return nil }
        contentType = head[0]
        versionMinor = head[2]
        self.length = length
    }

    /// The content type's name (`handshake`, `application data`, ...).
    public var contentTypeName: String {
        switch contentType {
        case 20: "change cipher spec"
        case 21: "alert"
        case 22: "handshake"
        default: "application data"
        }
    }
}

extension TCPConnectionTrace {
    /// The TLS record header a direction's stream starts with, client first: a connection that carries TLS. Nil
    /// for a connection whose bytes do not start like a TLS record (a plain one, or one without bytes).
    public var tlsRecordHeader: (direction: TraceDirection, header: TLSRecordHeader)? {
        for direction in TraceDirection.allCases {
            // The header's 5 bytes may come in more than one segment (a ClientHello written or cut in pieces): the
            // runs from the first one on, up to a gap. Before, the first run alone was looked at, and a connection
            // whose first segment held fewer than 5 bytes was no TLS one (its records read as bad frame headers).
            var head: [UInt8] = []
            for piece in stream(direction).pieces.drop(while: { if case .gap = $0 { true } else { false } }) {
                guard case .data(let run) = piece, head.count < 5 else { break }
                head += run.bytes.prefix(5 - head.count)
            }
            if let header = TLSRecordHeader(head) { return (direction, header) }
        }
        return nil
    }
}
