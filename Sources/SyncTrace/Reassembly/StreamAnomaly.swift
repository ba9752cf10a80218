/// Something odd the reassembler saw in one direction of a connection, with the packet that showed it.
public struct StreamAnomaly: Hashable, Sendable, CustomStringConvertible {
    /// What was odd.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A segment overlapped bytes already received and its copy differs; the first copy was kept.
        case overlapConflict = "overlapping copies disagree"
        /// The direction's first segment was not a SYN: the capture started mid-connection.
        case startedWithoutSYN = "started without SYN"
        /// A segment carried bytes before the stream's first known byte; they were dropped.
        case dataBeforeStreamStart = "data before stream start"
        /// A segment carried bytes past the FIN.
        case dataAfterFIN = "data after FIN"
        /// A segment arrived after a RST; it was ignored.
        case segmentAfterReset = "segment after RST"
        /// A SYN with a different initial sequence number on a connection still open.
        case unexpectedSYN = "unexpected SYN"
        /// A segment's sequence number lies more than 2^30 bytes from the next expected byte; it was ignored.
        case outOfWindow = "segment far outside the stream"
        /// Bytes arrived for a range already reported as a gap (after the ACK past them); the gap was narrowed.
        case gapFilledLate = "bytes arrived after their gap was reported"
    }

    /// What was odd.
    public var kind: Kind
    /// The packet that showed it.
    public var packetNumber: Int
    /// Stream offset concerned, when the anomaly is about bytes.
    public var offset: Int64?
    /// Number of bytes concerned, when the anomaly is about bytes.
    public var length: Int64?

    /// An anomaly from its fields.
    public init(kind: Kind, packetNumber: Int, offset: Int64? = nil, length: Int64? = nil) {
        self.kind = kind
        self.packetNumber = packetNumber
        self.offset = offset
        self.length = length
    }

    public var description: String {
        var text = "\(kind.rawValue), packet \(packetNumber)"
        if let offset, let length { text += ", \(counted(length, "byte")) at offset \(offset)" }
        return text
    }
}
