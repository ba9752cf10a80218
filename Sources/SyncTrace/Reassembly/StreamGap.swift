/// Stream bytes the sender sent but the capture does not hold.
public struct StreamGap: Hashable, Sendable, CustomStringConvertible {
    /// Why the bytes are missing.
    public enum Cause: String, Hashable, Sendable {
        /// No captured packet carried them, yet later data or the peer's ACK shows they were sent.
        case notCaptured = "not captured"
        /// A captured packet carried them but the snap length cut them off.
        case cutBySnapLength = "cut by snap length"
    }

    /// Stream offset of the first missing byte.
    public var offset: Int64
    /// Number of missing bytes.
    public var length: Int64
    /// Why the bytes are missing.
    public var cause: Cause
    /// The packet at which the reader gave up waiting for the bytes (the ACK past them, the data after them).
    public var packetNumber: Int
    /// Capture time of `packetNumber`.
    public var timestamp: CaptureTimestamp

    /// A gap from its fields.
    public init(offset: Int64, length: Int64, cause: Cause, packetNumber: Int, timestamp: CaptureTimestamp) {
        self.offset = offset
        self.length = length
        self.cause = cause
        self.packetNumber = packetNumber
        self.timestamp = timestamp
    }

    /// The stream offset one past the last missing byte.
    public var endOffset: Int64 { offset + length }

    /// `gap of 1448 bytes at offset 2896 (not captured), packet 12`.
    public var description: String {
        "gap of \(counted(length, "byte")) at offset \(offset) (\(cause.rawValue)), packet \(packetNumber)"
    }
}
