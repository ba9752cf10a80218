/// A TCP segment taken out of one captured packet, before reassembly.
public struct TCPSegment: Hashable, Sendable {
    /// TCP header flags (RFC 9293 §3.1).
    public struct Flags: OptionSet, Hashable, Sendable {
        /// The flag bits as in header byte 13 (FIN 0x01 ... CWR 0x80).
        public var rawValue: UInt8
        /// Flags from the header's flag bits (byte 13).
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// No more data from the sender.
        public static let fin = Flags(rawValue: 0x01)
        /// Synchronise sequence numbers (opens a direction).
        public static let syn = Flags(rawValue: 0x02)
        /// Reset the connection.
        public static let rst = Flags(rawValue: 0x04)
        /// Push buffered data to the application.
        public static let psh = Flags(rawValue: 0x08)
        /// The acknowledgement number is significant.
        public static let ack = Flags(rawValue: 0x10)
    }

    /// The sender.
    public var source: TCPEndpoint
    /// The receiver.
    public var destination: TCPEndpoint
    /// Sequence number of the first byte (of the SYN when `flags` holds `.syn`).
    public var seq: UInt32
    /// Acknowledgement number; meaningful only when `flags` holds `.ack`.
    public var ack: UInt32
    /// SYN, FIN, RST, PSH and ACK as set in the header.
    public var flags: Flags
    /// The payload bytes present in the capture.
    public var payload: [UInt8]
    /// The payload length the IP header announces, in bytes; above `payload.count` when the snap length cut it.
    public var payloadLengthOnWire: Int
    /// Number of the packet that carried this segment.
    public var packetNumber: Int
    /// Capture time of that packet.
    public var timestamp: CaptureTimestamp

    /// A segment from its fields.
    public init(
        source: TCPEndpoint, destination: TCPEndpoint, seq: UInt32, ack: UInt32, flags: Flags, payload: [UInt8],
        payloadLengthOnWire: Int, packetNumber: Int, timestamp: CaptureTimestamp
    ) {
        self.source = source
        self.destination = destination
        self.seq = seq
        self.ack = ack
        self.flags = flags
        self.payload = payload
        self.payloadLengthOnWire = payloadLengthOnWire
        self.packetNumber = packetNumber
        self.timestamp = timestamp
    }
}
