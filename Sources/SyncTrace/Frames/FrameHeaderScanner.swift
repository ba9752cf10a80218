import SyncProtocol

/// Finds where the next frame plausibly starts in bytes that follow a gap, so decoding resumes instead of stopping.
///
/// A candidate offset must hold a header with `ver` 10 (or the scanner's `version`), a `cmd` of 0...3 in the chosen
/// layout, and a payload length within `maxPayloadBytes` (DESIGN.md §3), not zero; a raw payload must start like a
/// MessagePack map. When the whole candidate frame and the next header are in the bytes, the next frame must be
/// plausible too; this chained check rejects most false starts inside payloads.
public struct FrameHeaderScanner: Hashable, Sendable {
    /// How bytes 1-3 of a header split between cmd and seq.
    public var layout: HeaderLayout
    /// Largest payload length a plausible header may announce, in bytes (default 5 MiB, as `FrameDecoder`).
    public var maxPayloadBytes: Int
    /// The version byte a plausible header carries: 10, or 11 for PyMax 1.x's TCP dialect (`FrameDecoder.version`).
    public var version: UInt8 = FrameHeader.supportedVersion

    /// A scanner for `layout` accepting payload lengths up to `maxPayloadBytes` bytes.
    public init(layout: HeaderLayout = .standard, maxPayloadBytes: Int = FrameDecoder.defaultMaxPayloadBytes) {
        self.layout = layout
        self.maxPayloadBytes = maxPayloadBytes
    }

    /// The first offset at or after `start` where a plausible frame header begins, or nil when there is none.
    ///
    /// An offset whose header runs past the end of `bytes` is never returned: the caller waits for more bytes
    /// (at most the last 9 bytes can still begin a header).
    /// - Parameters:
    ///   - bytes: stream bytes, typically those after a gap.
    ///   - start: the first offset to try.
    ///   - requiresWholeFrame: when true (no more bytes will come), the candidate's payload must fit in `bytes`.
    /// - Complexity: O(n) in the bytes scanned.
    public func plausibleHeaderOffset(
        in bytes: [UInt8], from start: Int = 0, requiresWholeFrame: Bool = false
    )
        -> Int?
    {
        var offset = max(0, start)
        while offset + FrameHeader.byteCount <= bytes.count {
            // A header announcing an empty payload (which reads as `{}`) is no place to resume: ten bytes with a
            // zero length turn up inside payloads too often to anchor on, and the frames after a real one are found.
            if let length = plausibleFrameLength(in: bytes, at: offset), length > 0 {
                let next = offset + FrameHeader.byteCount + length
                if next == bytes.count || plausibleFrameLength(in: bytes, at: next) != nil
                    || (next + FrameHeader.byteCount > bytes.count && (!requiresWholeFrame || next <= bytes.count))
                {
                    return offset
                }
            }
            offset += 1
        }
        return nil
    }

    /// The payload length of the header at `offset` when the header is plausible, else nil.
    public func plausiblePayloadLength(in bytes: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, offset + FrameHeader.byteCount <= bytes.count else { return nil }
        guard bytes[offset] == version else { return nil }
        let cmd: UInt16 =
            switch layout {
            case .cmd8Seq16: UInt16(bytes[offset + 1])
            case .cmd16Seq8: UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset + 2])
            }
        guard cmd <= 3 else { return nil }
        let length = Int(bytes[offset + 7]) << 16 | Int(bytes[offset + 8]) << 8 | Int(bytes[offset + 9])
        guard length <= maxPayloadBytes else { return nil }
        return length
    }

    /// The payload length of the frame at `offset` when its header is plausible and, for a raw payload whose first
    /// byte is in `bytes`, that byte starts a MessagePack map (fixmap 0x80-0x8f, map16 0xde, map32 0xdf), as every
    /// payload is a map (DESIGN.md §3); else nil. Compressed payloads are not looked into.
    public func plausibleFrameLength(in bytes: [UInt8], at offset: Int) -> Int? {
        guard let length = plausiblePayloadLength(in: bytes, at: offset) else { return nil }
        let payloadStart = offset + FrameHeader.byteCount
        if length > 0, bytes[offset + 6] == 0, payloadStart < bytes.count {
            let first = bytes[payloadStart]
            guard (0x80...0x8f).contains(first) || first == 0xde || first == 0xdf else { return nil }
        }
        return length
    }

    /// Number of bytes at the end of `bytes` that could still begin a header once more bytes arrive.
    static let carriedBytes = FrameHeader.byteCount - 1
}
