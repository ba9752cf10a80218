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
        var text = TraceText()
        writeSummary(to: &text)
        return text.string
    }

    /// Writes `summary` piece by piece (a trace record's detail, hashed without building the string).
    func writeSummary(to text: inout TraceText) {
        var isFirstFlag = true
        func name(_ flag: Flags, _ name: StaticString) {
            guard flags.contains(flag) else { return }
            if !isFirstFlag { text.write(literal: ",") }
            text.write(literal: name)
            isFirstFlag = false
        }
        name(.syn, "SYN")
        name(.fin, "FIN")
        name(.rst, "RST")
        name(.ack, "ACK")
        text.write(literal: " seq=")
        text.write(sequence)
        text.write(literal: " ack=")
        text.write(acknowledgment)
        text.write(literal: " len=")
        text.write(payload.count)
    }
}
