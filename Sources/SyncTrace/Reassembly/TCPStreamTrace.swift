/// One direction of a TCP connection after reassembly: the bytes in stream order, the gaps, and what was odd.
public struct TCPStreamTrace: Hashable, Sendable {
    /// Data runs and gaps in stream order; adjacent pieces touch (a piece starts where the previous one ends).
    public var pieces: [StreamPiece] = []
    /// Odd segments, in capture order.
    public var anomalies: [StreamAnomaly] = []
    /// Segments (packets) sent in this direction, with or without payload.
    public var segmentCount = 0
    /// Segments that repeated bytes already received (in whole or in part).
    public var retransmittedSegmentCount = 0
    /// Bytes received again with the same content.
    public var retransmittedByteCount: Int64 = 0
    /// Every segment of the direction (with or without payload), in capture order: a replay tells a silence where
    /// nothing came through (an outage) from one where some segments did (a loss burst), and reads the bottleneck
    /// rate from the spacing of segments that arrived back to back.
    public var segmentTimes: [SegmentTime] = []

    /// When a segment was captured, the payload bytes it carried on the wire, and whether it repeated bytes already
    /// received (counted in `retransmittedSegmentCount`): the flags in capture order show whether retransmissions
    /// come one at a time or in runs (a radio fade).
    public struct SegmentTime: Hashable, Sendable {
        public var timestamp: CaptureTimestamp
        public var payloadLength: Int
        public var isRetransmission = false
    }
    /// Each time the peer's acknowledgement moved forward: when, and the stream offset it acknowledged up to
    /// (bytes below it reached the peer), in capture order.
    public var acknowledgements: [Acknowledgement] = []

    /// The peer acknowledged the direction's bytes up to `offset`.
    public struct Acknowledgement: Hashable, Sendable {
        public var timestamp: CaptureTimestamp
        public var offset: Int64
    }

    /// The retransmitted segments themselves, in capture order: when each was captured and the stream bytes it
    /// carried, so a replay can time loss (a burst, a silence) and tell which request went unacknowledged.
    public var retransmissions: [Retransmission] = []

    /// One segment that repeated bytes already received.
    public struct Retransmission: Hashable, Sendable {
        /// Capture time of the segment.
        public var timestamp: CaptureTimestamp
        /// Stream offset (bytes since the direction's first byte) of its first byte.
        public var offset: Int64
        /// Bytes it carried on the wire.
        public var length: Int64
    }
    /// Keep-alive probes: one byte repeating the last delivered byte, ignored as data.
    public var keepAliveCount = 0
    /// Whether the direction's SYN was captured.
    public var sawSYN = false
    /// Whether the direction's FIN was captured.
    public var sawFIN = false
    /// When the direction's first FIN was captured (nil without one).
    public var firstFINTimestamp: CaptureTimestamp?
    /// Whether the direction sent a RST.
    public var sawRST = false
    /// When the direction sent its first RST (nil without one): a replay tells a server restart's RSTs, sent to
    /// every client at once, from a connection's later packets.
    public var firstRSTTimestamp: CaptureTimestamp?

    /// An empty stream.
    public init() {}

    /// The data runs, in stream order.
    public var runs: [ByteRun] {
        pieces.compactMap { if case .data(let run) = $0 { run } else { nil } }
    }

    /// The gaps, in stream order.
    public var gaps: [StreamGap] {
        pieces.compactMap { if case .gap(let gap) = $0 { gap } else { nil } }
    }

    /// Bytes reassembled (gaps excluded).
    public var byteCount: Int64 { runs.reduce(0) { $0 + Int64($1.bytes.count) } }

    /// Bytes missing (the sum of the gaps).
    public var missingByteCount: Int64 { gaps.reduce(0) { $0 + $1.length } }

    /// Every reassembled byte, gaps left out (so bytes on both sides of a gap are joined).
    public var bytesIgnoringGaps: [UInt8] { runs.flatMap(\.bytes) }

    /// Checks the pieces' invariants: each non-empty, the first at offset 0 or later, each starting where the
    /// previous one ends. Tests and debug tooling call it; a failure is a bug in the reassembler, not bad input.
    /// - Returns: a description of the first violation, or nil when the stream is consistent.
    func invariantViolation() -> String? {
        var expected: Int64? = nil
        for (index, piece) in pieces.enumerated() {
            if piece.endOffset <= piece.offset { return "piece \(index) at offset \(piece.offset) is empty" }
            if let expected, piece.offset != expected {
                return "piece \(index) starts at \(piece.offset), expected \(expected)"
            }
            if piece.offset < 0 { return "piece \(index) starts before the stream, at \(piece.offset)" }
            expected = piece.endOffset
        }
        return nil
    }
}
