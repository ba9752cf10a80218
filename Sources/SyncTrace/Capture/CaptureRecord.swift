/// One packet record of a capture file: its number, capture time, lengths and the captured bytes.
public struct CaptureRecord: Hashable, Sendable {
    /// 1-based position in the file, as tcpdump and Wireshark number packets.
    public var number: Int
    /// When the packet was captured.
    public var timestamp: CaptureTimestamp
    /// The packet's length on the wire in bytes; larger than `bytes.count` when the snap length cut it.
    public var originalLength: Int
    /// The captured bytes, starting with the link-layer header.
    public var bytes: [UInt8]

    /// A record from its fields.
    public init(number: Int, timestamp: CaptureTimestamp, originalLength: Int, bytes: [UInt8]) {
        self.number = number
        self.timestamp = timestamp
        self.originalLength = originalLength
        self.bytes = bytes
    }
}
