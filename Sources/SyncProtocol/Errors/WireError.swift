/// A malformed frame, LZ4 block or MessagePack value, naming where it was found and what was expected.
///
/// `description` reads like `frame 17 at offset 4096: payload length 20971520 exceeds the 8 MiB limit`.
/// Compare `kind` and `offset` in code; the text is for people.
public struct WireError: Error, Hashable, CustomStringConvertible {
    /// What went wrong, as a comparable value (`error.kind == .unknownCommand`). The set may grow.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case unsupportedVersion = "unsupported version"
            case unknownCommand = "unknown cmd"
            case payloadTooLarge = "payload too large"
            case truncatedHeader = "truncated header"
            case truncatedPayload = "truncated payload"
            case corruptCompression = "corrupt LZ4 block"
            case decompressedTooLarge = "LZ4 block expands past the limit"
            case invalidMessagePack = "invalid MessagePack"
            case truncatedMessagePack = "truncated MessagePack"
            case nestedTooDeeply = "MessagePack nested too deeply"
            case countExceedsRemainingBytes = "MessagePack count exceeds the remaining bytes"
            case trailingBytes = "trailing bytes after the MessagePack value"
            case unencodable = "frame cannot be encoded"
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// Byte 0 is not the supported protocol version (10).
        public static let unsupportedVersion = Kind(.unsupportedVersion)
        /// The `cmd` field is not 0 request, 1 response, 2 push or 3 error.
        public static let unknownCommand = Kind(.unknownCommand)
        /// The payload length on the wire exceeds `maxPayloadBytes`.
        public static let payloadTooLarge = Kind(.payloadTooLarge)
        /// The stream ended inside a 10-byte header.
        public static let truncatedHeader = Kind(.truncatedHeader)
        /// The stream ended inside a payload.
        public static let truncatedPayload = Kind(.truncatedPayload)
        /// A compressed payload is not a valid LZ4 block.
        public static let corruptCompression = Kind(.corruptCompression)
        /// A compressed payload would decompress to more than `maxPayloadBytes`.
        public static let decompressedTooLarge = Kind(.decompressedTooLarge)
        /// A byte that starts no MessagePack value (0xc1), invalid UTF-8 in a string, or a malformed timestamp.
        public static let invalidMessagePack = Kind(.invalidMessagePack)
        /// The payload ends inside a MessagePack value.
        public static let truncatedMessagePack = Kind(.truncatedMessagePack)
        /// Containers nest deeper than `MessagePackLimits.maxDepth`.
        public static let nestedTooDeeply = Kind(.nestedTooDeeply)
        /// An array or map claims more elements than bytes remain (each element takes at least one byte).
        public static let countExceedsRemainingBytes = Kind(.countExceedsRemainingBytes)
        /// Bytes follow the payload's single MessagePack value.
        public static let trailingBytes = Kind(.trailingBytes)
        /// An encoder was asked for a frame the wire cannot carry (a payload over the limit, a seq that does not fit).
        public static let unencodable = Kind(.unencodable)

        public var description: String { code.rawValue }
    }

    /// What went wrong.
    public let kind: Kind
    /// Byte offset of the fault: in the stream for frame decoding (counting from the stream's first byte), in the
    /// buffer for a standalone MessagePack value. For a fault inside a compressed payload's decompressed bytes,
    /// the offset of that payload's first byte on the wire (see `payloadOffset`).
    public let offset: Int
    /// The frame's number in the stream, counting from 1, when decoding a stream.
    public let frameNumber: Int?
    /// Stream offset of the frame's first header byte, when decoding a stream.
    public let frameOffset: Int?
    /// For MessagePack faults, the offset inside the (decompressed) payload.
    public let payloadOffset: Int?
    /// What was found and what was expected, e.g. `payload length 20971520 exceeds the 8 MiB limit`.
    public let detail: String

    init(_ kind: Kind, offset: Int, detail: String, payloadOffset: Int? = nil) {
        self.kind = kind
        self.offset = offset
        self.frameNumber = nil
        self.frameOffset = nil
        self.payloadOffset = payloadOffset
        self.detail = detail
    }

    private init(
        kind: Kind, offset: Int, frameNumber: Int?, frameOffset: Int?, payloadOffset: Int?, detail: String
    ) {
        self.kind = kind
        self.offset = offset
        self.frameNumber = frameNumber
        self.frameOffset = frameOffset
        self.payloadOffset = payloadOffset
        self.detail = detail
    }

    /// An error about frame `number` starting at stream offset `frameOffset`.
    static func inFrame(
        _ kind: Kind, number: Int, frameOffset: Int, offset: Int, detail: String
    ) -> WireError {
        WireError(
            kind: kind, offset: offset, frameNumber: number, frameOffset: frameOffset, payloadOffset: nil,
            detail: detail
        )
    }

    /// Re-anchors an error found in a payload (offsets relative to the payload) in frame `number` of a stream.
    ///
    /// A raw payload's bytes are on the wire, so the stream offset is exact; a compressed payload's decompressed
    /// bytes are not, so the offset is the payload's first wire byte and `payloadOffset` says where inside.
    func anchored(
        number: Int, frameOffset: Int, payloadStart: Int, isCompressed: Bool
    ) -> WireError {
        let inner = payloadOffset ?? offset
        let location = isCompressed ? "decompressed payload byte \(inner)" : "payload byte \(inner)"
        let hasPayloadOffset = payloadOffset != nil
        return WireError(
            kind: kind,
            offset: isCompressed && hasPayloadOffset ? payloadStart : payloadStart + offset,
            frameNumber: number,
            frameOffset: frameOffset,
            payloadOffset: hasPayloadOffset ? inner : nil,
            detail: hasPayloadOffset ? "\(location): \(detail)" : detail
        )
    }

    public var description: String {
        if let frameNumber, let frameOffset {
            return "frame \(frameNumber) at offset \(frameOffset): \(detail)"
        }
        return "offset \(offset): \(detail)"
    }
}

/// Formats a byte count as the limits are usually stated: `8 MiB`, `64 KiB`, or plain bytes.
func describeByteLimit(_ bytes: Int) -> String {
    if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
}

/// `1 byte`, `2 bytes`: a count of bytes for error messages.
func byteCountText(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }
