/// Contiguous stream bytes that became available at one moment of the capture.
///
/// A run's timestamp is that of the packet that completed it: the packet carrying its bytes when they arrived in
/// order, or the later packet that filled the hole before them. A frame decoded from the stream takes the
/// timestamp of the run holding its last byte.
public struct ByteRun: Hashable, Sendable {
    /// Stream offset of `bytes[0]`: bytes since the start of the direction's stream (0 is the byte after the SYN).
    public var offset: Int64
    /// The bytes, in stream order.
    public var bytes: [UInt8]
    /// Capture time of the completing packet.
    public var timestamp: CaptureTimestamp
    /// Number of the completing packet.
    public var packetNumber: Int

    /// A run from its fields.
    public init(offset: Int64, bytes: [UInt8], timestamp: CaptureTimestamp, packetNumber: Int) {
        self.offset = offset
        self.bytes = bytes
        self.timestamp = timestamp
        self.packetNumber = packetNumber
    }

    /// The stream offset one past the last byte.
    public var endOffset: Int64 { offset + Int64(bytes.count) }
}
