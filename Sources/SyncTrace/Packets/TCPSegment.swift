/// A TCP segment taken out of one captured packet, before reassembly.
public struct TCPSegment: Hashable, Sendable {
    /// TCP header flags (RFC 9293 §3.1).
    public struct Flags: OptionSet, Hashable, Sendable {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let fin = Flags(rawValue: 0x01)
        public static let syn = Flags(rawValue: 0x02)
        public static let rst = Flags(rawValue: 0x04)
        public static let psh = Flags(rawValue: 0x08)
        public static let ack = Flags(rawValue: 0x10)
    }

    public var source: TCPEndpoint
    public var destination: TCPEndpoint
    /// Sequence number of the first byte (of the SYN when `flags` holds `.syn`).
    public var seq: UInt32
    /// Acknowledgement number; meaningful only when `flags` holds `.ack`.
    public var ack: UInt32
    public var flags: Flags
    /// The payload bytes present in the capture.
    public var payload: [UInt8]
    /// The payload length the IP header announces, in bytes; above `payload.count` when the snap length cut it.
    public var payloadLengthOnWire: Int
    /// Number of the packet that carried this segment.
    public var packetNumber: Int
    public var timestamp: CaptureTimestamp

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
