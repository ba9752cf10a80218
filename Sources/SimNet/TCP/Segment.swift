import SimCore

/// A TCP-like segment on the wire. Sequence numbers are absolute 64-bit byte offsets (no wrap-around): the SYN
/// takes number 0, data starts at 1, the FIN takes the number after the last data byte.
struct Segment {
    struct Flags: OptionSet, Hashable {
        let rawValue: UInt8
        static let syn = Flags(rawValue: 1)
        static let ack = Flags(rawValue: 2)
        static let fin = Flags(rawValue: 4)
        static let rst = Flags(rawValue: 8)
    }

    /// The socket the segment is addressed to.
    var destination: SocketID
    var flags: Flags
    var sequence: Int64
    var acknowledgment: Int64
    var payload: [UInt8]
    /// The timestamps option (RFC 7323 §3): when the sender emitted the segment (TSval) and the peer's time it
    /// echoes (TSecr, TS.Recent), or nil when the option is off or nothing is echoed yet.
    var timestampValue: SimInstant?
    var timestampEcho: SimInstant?
    /// SACK blocks (RFC 2018 §3): received ranges above the cumulative ACK, the most recent first.
    var sackBlocks: [Range<Int64>] = []

    /// Option bytes beyond the fixed header (the timestamps option is counted in `headerBytes`): NOP, NOP and a
    /// SACK option of 2 + 8 bytes per block.
    var sackOptionBytes: Int { sackBlocks.isEmpty ? 0 : 4 + 8 * sackBlocks.count }

    /// The sequence space the segment takes: payload plus one for SYN and for FIN.
    var sequenceLength: Int64 {
        Int64(payload.count) + (flags.contains(.syn) ? 1 : 0) + (flags.contains(.fin) ? 1 : 0)
    }

    /// `SYN,ACK seq=0 ack=1 len=0`.
    var summary: String {
        var names: [String] = []
        if flags.contains(.syn) { names.append("SYN") }
        if flags.contains(.fin) { names.append("FIN") }
        if flags.contains(.rst) { names.append("RST") }
        if flags.contains(.ack) { names.append("ACK") }
        return "\(names.joined(separator: ",")) seq=\(sequence) ack=\(acknowledgment) len=\(payload.count)"
    }
}
