/// A capture that cannot be read: names the file, the packet number when one applies, and what went wrong.
///
/// Per-packet problems that do not stop reading (a non-TCP packet, a malformed TCP header) are counted skips
/// (`SkipReason`), not errors. This error stops reading: the file is missing, is not a capture, uses a link type
/// the reader does not know, or breaks off in the middle of a record.
public struct TraceError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What kind of failure this is; compare with the static members (`error.kind == .truncatedFile`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let code: UInt8
        private init(_ code: UInt8) { self.code = code }

        /// The file could not be opened (missing, unreadable, a directory).
        public static let cannotOpen = Kind(1)
        /// The file does not start with a pcap or pcapng magic number.
        public static let notACaptureFile = Kind(2)
        /// The capture's link-layer type is not one the reader decodes.
        public static let unsupportedLinkType = Kind(3)
        /// The file ends in the middle of a header or a packet record.
        public static let truncatedFile = Kind(4)
        /// libpcap rejected a record (an absurd captured length, a corrupt block).
        public static let malformedRecord = Kind(5)
        /// A connection carries TLS and no key log was given: its frames are encrypted.
        public static let encryptedTLS = Kind(6)
        /// The TLS key log cannot be used: unreadable, not in NSS key log format, or holding no keys for a TLS
        /// connection of the capture.
        public static let tlsKeyLog = Kind(7)
        /// tshark, which decrypts TLS for `--tls-keylog`, is not installed or failed.
        public static let tshark = Kind(8)

        public var description: String {
            switch code {
            case 1: "cannot open"
            case 2: "not a capture file"
            case 3: "unsupported link type"
            case 4: "truncated file"
            case 6: "encrypted TLS"
            case 7: "TLS key log"
            case 8: "tshark"
            default: "malformed record"
            }
        }
    }

    /// The kind of failure.
    public let kind: Kind
    /// The path of the capture file as given.
    public let file: String
    /// The 1-based number of the packet record being read, or nil when the failure is in the file header.
    public let packetNumber: Int?
    /// What was found and what was expected.
    public let detail: String

    package init(_ kind: Kind, file: String, packetNumber: Int? = nil, detail: String) {
        self.kind = kind
        self.file = file
        self.packetNumber = packetNumber
        self.detail = detail
    }

    /// `FILE: packet N: kind: detail`; a file that cannot be opened reads `cannot read FILE: detail`, the wording
    /// the CLI uses for every unreadable input.
    public var description: String {
        if kind == .cannotOpen { return "cannot read \(file): \(detail)" }
        if let packetNumber {
            return "\(file): packet \(packetNumber): \(kind): \(detail)"
        }
        return "\(file): \(kind): \(detail)"
    }
}
