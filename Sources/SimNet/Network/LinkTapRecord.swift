import SimCore

/// One segment seen on a host's access link by `Network.linkTap`, as a packet capture on that host would show it.
///
/// A segment is seen twice: leaving its source host (`.uplink`, when the sender hands it to its uplink, before any
/// queueing or loss, so retransmissions and later-lost segments are included) and reaching its destination host
/// (`.downlink`, after the destination's downlink delivered it). Sequence numbers are SimNet's absolute byte
/// offsets: the SYN takes 0, data starts at 1.
public struct LinkTapRecord: Hashable, Sendable {
    /// Virtual time the segment left (uplink) or arrived (downlink).
    public var time: SimInstant
    /// The host whose access link the segment crossed.
    public var host: HostID
    /// `.uplink` for a segment leaving `host`, `.downlink` for one arriving at it.
    public var direction: LinkDirection
    /// The sending socket (the receiver is `sender.peer`).
    public var sender: SocketID
    /// The host that sent the segment.
    public var sourceHost: HostID
    /// The host the segment is addressed to.
    public var destinationHost: HostID
    /// TCP flags as booleans.
    public var isSYN: Bool
    /// Whether the ACK flag is set.
    public var isACK: Bool
    /// Whether the FIN flag is set.
    public var isFIN: Bool
    /// Whether the RST flag is set.
    public var isRST: Bool
    /// Absolute sequence number of the first byte (SYN 0, data from 1).
    public var sequence: Int64
    /// Absolute cumulative acknowledgment (meaningful when `isACK`).
    public var acknowledgment: Int64
    /// The segment's payload bytes.
    public var payload: [UInt8]
}

extension LinkTapRecord {
    init(time: SimInstant, host: HostID, direction: LinkDirection, packet: Packet) {
        let segment = packet.segment
        self.init(
            time: time, host: host, direction: direction, sender: segment.destination.peer,
            sourceHost: packet.source, destinationHost: packet.destination,
            isSYN: segment.flags.contains(.syn), isACK: segment.flags.contains(.ack),
            isFIN: segment.flags.contains(.fin), isRST: segment.flags.contains(.rst),
            sequence: segment.sequence, acknowledgment: segment.acknowledgment, payload: segment.payload)
    }
}
