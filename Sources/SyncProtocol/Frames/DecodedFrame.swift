/// A frame as `FrameDecoder` found it in a stream: the frame plus where it was and how it travelled.
public struct DecodedFrame: Hashable, Sendable {
    /// The decoded frame.
    public var frame: Frame
    /// The header exactly as read (version, compression flag, payload length on the wire).
    public var header: FrameHeader
    /// The frame's number in the stream, counting from 1.
    public var number: Int
    /// Stream offset of the header's first byte.
    public var offset: Int
    /// Size of the payload in bytes after decompression (equal to `header.payloadLength` when raw).
    public var payloadByteCount: Int

    /// Records `frame` as found: its `header`, 1-based `number`, stream `offset` and decompressed payload bytes.
    public init(frame: Frame, header: FrameHeader, number: Int, offset: Int, payloadByteCount: Int) {
        self.frame = frame
        self.header = header
        self.number = number
        self.offset = offset
        self.payloadByteCount = payloadByteCount
    }

    /// Bytes the frame took on the wire: the 10-byte header plus the payload as sent.
    public var wireByteCount: Int { FrameHeader.byteCount + header.payloadLength }
}
