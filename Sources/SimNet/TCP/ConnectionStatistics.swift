import SimCore

/// Counters and congestion state of one socket, for tests and reports.
public struct ConnectionStatistics: Hashable, Sendable {
    /// Segments sent again (after a timeout, fast retransmit or partial ACK), SYNs included.
    public var retransmittedSegments: Int
    /// Retransmission timer expiries that led to a retransmission.
    public var retransmissionTimeouts: Int
    /// Fast retransmits (RFC 5681 §3.2).
    public var fastRetransmits: Int
    /// The congestion window (cwnd) in bytes.
    public var congestionWindowBytes: Int
    /// SRTT per RFC 6298, or nil before the first sample.
    public var smoothedRTT: SimDuration?
    /// The current RTO (backed off while retransmitting).
    public var retransmissionTimeout: SimDuration
    /// Bytes the application handed to `send`.
    public var bytesQueuedByApplication: Int
    /// Bytes delivered in order to this socket's application.
    public var bytesDelivered: Int
    /// Sequence space sent and not yet acknowledged.
    public var bytesInFlight: Int
}
