/// Turns frames into bytes: a 10-byte header and the MessagePack payload, LZ4-compressed when that pays.
///
/// A payload of at least `compressionThresholdBytes` is compressed, and sent compressed only when the block is
/// smaller than the raw bytes (DESIGN.md §3). The compression flag written is 1 for an LZ4 block and 0xFF for a zstd
/// frame (`codec`), the two values field clients read (PyMax `pymax/protocol/tcp/payload.py`).
public struct FrameEncoder: Sendable {
    /// The default compression threshold: 1 KiB, so pushes (100-300 bytes) go raw and history pages compress.
    public static let defaultCompressionThresholdBytes = 1024

    /// How bytes 1-3 of each header split between cmd and seq.
    public var layout: HeaderLayout
    /// The version byte written: 10 by default, 11 for PyMax 1.x's TCP dialect (`FrameHeader.pymax1Version`).
    public var version: UInt8 = FrameHeader.supportedVersion
    /// Payloads of at least this many bytes are compressed when that saves bytes; `Int.max` never compresses.
    public var compressionThresholdBytes: Int
    /// The largest payload the encoder writes, in bytes before compression (default 5 MiB, as the decoder).
    public var maxPayloadBytes: Int
    /// The compression used for payloads at or above the threshold (default LZ4).
    public var codec: CompressionCodec = .lz4

    /// Creates an encoder; `maxPayloadBytes` is clamped to the 24-bit length field (16 MiB - 1).
    public init(
        layout: HeaderLayout = .standard,
        compressionThresholdBytes: Int = FrameEncoder.defaultCompressionThresholdBytes,
        maxPayloadBytes: Int = FrameDecoder.defaultMaxPayloadBytes
    ) {
        self.layout = layout
        self.compressionThresholdBytes = compressionThresholdBytes
        self.maxPayloadBytes = min(maxPayloadBytes, FrameHeader.maxPayloadLengthField)
    }

    /// Encodes one frame.
    /// - Returns: header and payload bytes.
    /// - Throws: `WireError` `.unencodable` when the payload exceeds `maxPayloadBytes` or seq/cmd do not fit
    ///   `layout`.
    public func encode(_ frame: Frame) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(frame, into: &bytes)
        return bytes
    }

    /// Appends one encoded frame to `bytes`; on error `bytes` is unchanged.
    /// - Throws: `WireError` `.unencodable`, as `encode(_:)`.
    public func encode(_ frame: Frame, into bytes: inout [UInt8]) throws {
        // The payload is packed once (into a stack buffer) and appended or compressed straight into `bytes`.
        try MessagePackSerialization.withPacked(frame.payload) { payload in
            guard payload.count <= maxPayloadBytes else {
                throw WireError(
                    .unencodable, offset: 0,
                    detail: "payload of \(payload.count) bytes exceeds the \(describeByteLimit(maxPayloadBytes)) limit"
                )
            }
            if payload.count < compressionThresholdBytes {
                // Sent raw: the header is known before anything is appended, so `bytes` grows once, to its size.
                let header = FrameHeader(
                    version: version, cmd: frame.cmd, seq: frame.seq, opcode: frame.opcode, compressionFlag: 0,
                    payloadLength: payload.count
                )
                try header.withBytes(layout: layout) { headerBytes in
                    bytes.reserveCapacity(bytes.count + headerBytes.count + payload.count)
                    bytes.append(contentsOf: headerBytes)
                }
                bytes.append(contentsOf: payload)
                return
            }
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: FrameHeader.byteCount))
            let payloadStart = bytes.count
            var flag: UInt8 = 0
            let compressedCount: Int?
            switch codec {
            case .lz4:
                compressedCount = LZ4Block.compress(payload, appendingTo: &bytes)
            case .zstd:
                compressedCount = ZstdFrame.compress(payload).map { block in
                    bytes.append(contentsOf: block)
                    return block.count
                }
            }
            if let compressedCount, compressedCount < payload.count {
                flag = codec == .lz4 ? 1 : FrameHeader.zstdFlag
            } else {
                bytes.removeSubrange(payloadStart...)
                bytes.append(contentsOf: payload)
            }
            let header = FrameHeader(
                version: version, cmd: frame.cmd, seq: frame.seq, opcode: frame.opcode, compressionFlag: flag,
                payloadLength: bytes.count - payloadStart
            )
            do {
                try header.withBytes(layout: layout) { headerBytes in
                    for index in 0..<FrameHeader.byteCount { bytes[start + index] = headerBytes[index] }
                }
            } catch {
                bytes.removeSubrange(start...)
                throw error
            }
        }
    }

    /// Encodes a typed packet (`Frame(packet:)`, then `encode(_:)`).
    /// - Throws: `WireError` `.unencodable`, as `encode(_:)`.
    public func encode(_ packet: Packet) throws -> [UInt8] { try encode(Frame(packet: packet)) }
}

/// How a compressed payload is packed, chosen by its header's flag byte.
public enum CompressionCodec: String, Hashable, Sendable, CaseIterable {
    /// A raw LZ4 block with no stored size; flag 1 (any non-zero flag but 0xFF reads as LZ4).
    case lz4
    /// One zstd frame (RFC 8878); flag 0xFF.
    case zstd
}
