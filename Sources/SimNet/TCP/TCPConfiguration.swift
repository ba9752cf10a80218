import SimCore

/// The knobs of the TCP-like connection model. Defaults follow Linux and the ns-3 reference setup.
public struct TCPConfiguration: Hashable, Sendable {
    /// Maximum segment size in payload bytes. Default 1,448 (1,500-byte MTU minus IPv4, TCP and timestamp
    /// option headers; the ns-3 reference setup).
    public var mssBytes: Int
    /// IP and TCP header bytes on every segment. Default 52: IPv4 20 + TCP 20 + timestamps option 12.
    public var headerBytes: Int
    /// Initial congestion window in segments. Default 10 (RFC 6928).
    public var initialWindowSegments: Int
    /// How long a receiver may hold back an ACK. Default 40 ms (Linux's minimum delayed-ACK timeout, and the
    /// ns-3 reference setup). RFC 5681 §4.2 allows up to 500 ms.
    public var delayedAckTimeout: SimDuration
    /// A receiver ACKs at the latest every this many full-sized segments. Default 2 (RFC 5681 §4.2).
    public var segmentsPerDelayedAck: Int
    /// The RTO before any RTT sample, also the SYN timeout. Default 1 s (RFC 6298 §2.1).
    public var initialRTO: SimDuration
    /// The lower bound on the RTO. Default 200 ms (Linux TCP_RTO_MIN); RFC 6298 §2.4 says 1 s.
    public var minimumRTO: SimDuration
    /// The upper bound on the RTO, also on its doubling. Default 120 s (Linux TCP_RTO_MAX; RFC 6298 §2.5
    /// allows a maximum of at least 60 s).
    public var maximumRTO: SimDuration
    /// Clock granularity G in the RTO formula. Default 1 ms (RFC 6298 §2.3; ns-3's default).
    public var clockGranularity: SimDuration
    /// Retransmissions of a data or FIN segment before the connection is aborted. Default 15
    /// (Linux `net.ipv4.tcp_retries2`).
    public var retryLimit: Int
    /// Retransmissions of a SYN or SYN-ACK before giving up. Default 6 (Linux `net.ipv4.tcp_syn_retries`).
    public var synRetryLimit: Int
    /// Duplicate ACKs that trigger fast retransmit. Default 3 (RFC 5681 §3.2).
    public var duplicateAckThreshold: Int
    /// Leave slow start early when the RTT of a round rises by clamp(min RTT / 8, 4 ms, 16 ms) over the
    /// minimum RTT (HyStart's delay-increase test, on by default in Linux CUBIC and ns-3's TcpCubic; checked
    /// on the first 8 ACKs of each round once cwnd is at least 16 segments). Default true. Without it, slow
    /// start overfills deep 2G buffers and the model loses whole windows where Linux and ns-3 do not.
    public var usesHyStart: Bool
    /// Take an RTT sample from every ACK of new data, as the TCP timestamps option allows (RFC 7323 §4; on by default
    /// in Linux and in the ns-3 reference setup); otherwise one sample per round trip from a segment sent once
    /// (Karn's rule, RFC 6298 §3). Default true. With one sample per round trip the RTO lags behind a queue that
    /// fills in slow start, and a 20 kbit/s link times out again and again where ns-3 does not.
    public var usesTimestamps: Bool
    /// Selective acknowledgments (RFC 2018) with scoreboard-based loss recovery (RFC 6675) and Proportional Rate
    /// Reduction (RFC 6937), as Linux and the ns-3 reference setup; otherwise NewReno (RFC 6582), which repairs one
    /// hole per round trip. Default true.
    public var usesSACK: Bool
    /// Window growth and decrease. Default `.cubic` (Linux's and ns-3's default).
    public var congestionControl: CongestionControl
    /// HyStart's delay threshold is clamp(min RTT / this, 4 ms, `hyStartMaximumDelayThreshold`). Default 8 (Linux
    /// `tcp_cubic.c`); ns-3 3.37's `TcpCubic` uses 1 (the minimum RTT itself).
    public var hyStartDelayThresholdDivisor: Int
    /// The upper clamp of HyStart's delay threshold. Default 16 ms (Linux `HYSTART_DELAY_MAX`); ns-3 3.37's
    /// `HyStartDelayMax` is 1 s.
    public var hyStartMaximumDelayThreshold: SimDuration
    /// Which arriving segment's timestamp the receiver echoes next (TS.Recent). false: any segment with SEG.SEQ ≤
    /// Last.ACK.sent, so also a retransmitted SYN or a duplicate (RFC 7323 §4.3, Linux). true: only the segment at
    /// RCV.NXT, as ns-3 3.37's `TcpSocketBase::ProcessOptionTimestamp`: after a lost SYN-ACK the resent SYN-ACK echoes
    /// the first SYN's time, so the connecting side's first RTT sample spans the SYN timeout (about 1 s), its RTO
    /// starts near 3 s and decays over dozens of ACKs. Default false. Not quite ns-3's rule: ns-3 takes the segment at
    /// RCV.NXT only when also SEG.SEQ ≤ Last.ACK.sent (`seq <= m_highTxAck`), so a delayed ACK of two segments echoes
    /// the first one's time; here it echoes the second's (docs/fidelity.md, "Other cells", has what the exact rule
    /// does to the grid).
    public var echoesInOrderTimestampsOnly: Bool
    /// How much the ACK that ends the recovery from a retransmission timeout (the first ACK at or above the highest
    /// sequence sent before the timeout) grows cwnd. false: every byte it acknowledges, as any other ACK (Linux, whose
    /// slow start after a timeout is capped at ssthresh anyway). true: only the whole segments it acknowledges above
    /// that point, as ns-3 3.37's `TcpSocketBase::ProcessAck` leaving CA_LOSS (`(ackNumber - m_recover) /
    /// segmentSize`), usually none: that ACK often covers a whole SACKed window. Default false; true in
    /// `.ns3Reference` (since branch fid10, together with `keepsCubicAcknowledgmentCountAtTimeout`, without which it
    /// moved the grid's 4G 3 MB 3% cell out of tolerance; docs/fidelity.md).
    public var growsOnlyAboveRecoveryPointOnLossExit: Bool
    /// Which ACKs are RTT samples. false: every ACK of new data, from its timestamp echo (RFC 7323 §4, Linux). true:
    /// only an ACK that covers the oldest segment still recorded as sent, when that segment was sent once, as ns-3
    /// 3.37's `TcpSocketBase::EstimateRtt` (its RTT history, timestamps or not); the record is emptied at a
    /// retransmission timeout and resent data is not recorded, so after a timeout the next sample is the ACK of the
    /// first new segment sent after it. The sample's value is still the timestamp echo. Needs `usesTimestamps`.
    /// Default false, also in `.ns3Reference` (measured in docs/fidelity.md, "Other cells": no cell closer).
    public var samplesRTTFromOnceSentHistoryOnly: Bool
    /// Whether every retransmission timeout sets ssthresh from the current cwnd. false: a timeout in a row of
    /// timeouts (no ACK of new data between them) keeps the ssthresh of the first, as Linux's `tcp_enter_loss`.
    /// true: every one does, as ns-3 3.37's `TcpSocketBase::ReTxTimeout` (its test of a retransmitted head comes after
    /// `TcpTxBuffer::SetSentListLost` has cleared every retransmitted flag), so a second timeout in a row, at a cwnd of
    /// one segment, leaves ssthresh at two segments. Default false, also in `.ns3Reference` (it moves one grid cell by
    /// under 1%, docs/fidelity.md).
    public var recomputesThresholdOnEveryTimeout: Bool
    /// Whether resent data that the peer SACKs afterwards still counts as in flight (pipe, RFC 6675 §4) until the
    /// cumulative ACK passes it or a retransmission timeout. false: SACKed data is never in flight (RFC 6675, Linux).
    /// true: as ns-3 3.37's `TcpTxBuffer::BytesInFlight` (sent − SACKed − lost + retransmitted, where the
    /// retransmitted count keeps a segment that is SACKed later). In a fast recovery that waits for the timeout
    /// because a resent segment was lost again, every further hole repaired in the meantime then stays in pipe, PRR
    /// stays in its proportional mode and the sender slows to one segment per ACK. Default false; true in
    /// `.ns3Reference` (docs/fidelity.md, "Cells outside the grid (branch fid10)").
    public var countsSackedRetransmissionsInFlight: Bool
    /// How PRR-SSRB (RFC 6937 §3.1) bounds the sending once pipe is below ssthresh. false: by max(prr_delivered −
    /// prr_out, DeliveredData) + MSS on every ACK (RFC 6937, Linux). true: the + MSS only on a partial ACK that
    /// covers resent data not SACKed before, otherwise by DeliveredData alone (packet conservation), as ns-3 3.37's
    /// `TcpPrrRecovery::DoRecovery` with `m_isRetransDataAcked`. Default false, also in `.ns3Reference`: with the
    /// other fid10 changes it moves the grid's lossless 4G 3 MB cell to −5.3% (docs/fidelity.md).
    public var growsInRecoveryOnlyOnResentDataAcked: Bool
    /// Whether CUBIC's count of segments ACKed since its last one-segment increase survives a retransmission
    /// timeout. false: the timeout clears it (Linux's `tcp_enter_loss` clears `snd_cwnd_cnt`). true: it is kept, as
    /// ns-3 3.37's `TcpCubic::m_cWndCnt`, which nothing but an increase ever lowers: a congestion-avoidance epoch
    /// whose target stayed at or below cwnd (100 · cwnd ACKs per increase) piles up every segment ACKed, and after the
    /// timeout, where the count per increase is at most 20 (`CntClamp`, Wmax forgotten), the pile grows cwnd by one
    /// segment on each ACK until it is spent. Default false; true in `.ns3Reference`.
    public var keepsCubicAcknowledgmentCountAtTimeout: Bool

    /// A configuration; every default is the Linux-like value documented on its property.
    public init(
        mssBytes: Int = 1_448,
        headerBytes: Int = 52,
        initialWindowSegments: Int = 10,
        delayedAckTimeout: SimDuration = .milliseconds(40),
        segmentsPerDelayedAck: Int = 2,
        initialRTO: SimDuration = .milliseconds(1_000),
        minimumRTO: SimDuration = .milliseconds(200),
        maximumRTO: SimDuration = .milliseconds(120_000),
        clockGranularity: SimDuration = .milliseconds(1),
        retryLimit: Int = 15,
        synRetryLimit: Int = 6,
        duplicateAckThreshold: Int = 3,
        usesHyStart: Bool = true,
        usesTimestamps: Bool = true,
        usesSACK: Bool = true,
        congestionControl: CongestionControl = .cubic,
        hyStartDelayThresholdDivisor: Int = 8,
        hyStartMaximumDelayThreshold: SimDuration = .milliseconds(16),
        echoesInOrderTimestampsOnly: Bool = false,
        growsOnlyAboveRecoveryPointOnLossExit: Bool = false,
        samplesRTTFromOnceSentHistoryOnly: Bool = false,
        recomputesThresholdOnEveryTimeout: Bool = false,
        countsSackedRetransmissionsInFlight: Bool = false,
        growsInRecoveryOnlyOnResentDataAcked: Bool = false,
        keepsCubicAcknowledgmentCountAtTimeout: Bool = false
    ) {
        precondition(hyStartDelayThresholdDivisor > 0)
        precondition(mssBytes > 0 && initialWindowSegments > 0 && segmentsPerDelayedAck > 0)
        self.mssBytes = mssBytes
        self.headerBytes = headerBytes
        self.initialWindowSegments = initialWindowSegments
        self.delayedAckTimeout = delayedAckTimeout
        self.segmentsPerDelayedAck = segmentsPerDelayedAck
        self.initialRTO = initialRTO
        self.minimumRTO = minimumRTO
        self.maximumRTO = maximumRTO
        self.clockGranularity = clockGranularity
        self.retryLimit = retryLimit
        self.synRetryLimit = synRetryLimit
        self.duplicateAckThreshold = duplicateAckThreshold
        self.usesHyStart = usesHyStart
        self.usesTimestamps = usesTimestamps
        self.usesSACK = usesSACK
        self.congestionControl = congestionControl
        self.hyStartDelayThresholdDivisor = hyStartDelayThresholdDivisor
        self.hyStartMaximumDelayThreshold = hyStartMaximumDelayThreshold
        self.echoesInOrderTimestampsOnly = echoesInOrderTimestampsOnly
        self.growsOnlyAboveRecoveryPointOnLossExit = growsOnlyAboveRecoveryPointOnLossExit
        self.samplesRTTFromOnceSentHistoryOnly = samplesRTTFromOnceSentHistoryOnly
        self.recomputesThresholdOnEveryTimeout = recomputesThresholdOnEveryTimeout
        self.countsSackedRetransmissionsInFlight = countsSackedRetransmissionsInFlight
        self.growsInRecoveryOnlyOnResentDataAcked = growsInRecoveryOnlyOnResentDataAcked
        self.keepsCubicAcknowledgmentCountAtTimeout = keepsCubicAcknowledgmentCountAtTimeout
    }

    /// Linux-like defaults (the ns-3 reference setup): minimum RTO 200 ms.
    public static let linux = TCPConfiguration()

    /// The TCP of the ns-3 reference setup (ns-3 3.37 defaults plus `transfer.cc`'s settings): Linux-like, but with
    /// ns-3's HyStart delay threshold, clamp(min RTT, 4 ms, 1 s), which leaves slow start much later on long RTTs,
    /// ns-3's timestamp echo (`echoesInOrderTimestampsOnly`), and after a timeout and in recovery three ns-3 3.37
    /// behaviours: no growth on the ACK that ends the recovery from a timeout beyond the whole segments above the
    /// recovery point (`growsOnlyAboveRecoveryPointOnLossExit`), CUBIC's ACK count kept across the timeout
    /// (`keepsCubicAcknowledgmentCountAtTimeout`), and resent data that is SACKed later still counted in flight
    /// (`countsSackedRetransmissionsInFlight`).
    public static let ns3Reference = TCPConfiguration(
        hyStartDelayThresholdDivisor: 1, hyStartMaximumDelayThreshold: .milliseconds(1_000),
        echoesInOrderTimestampsOnly: true, growsOnlyAboveRecoveryPointOnLossExit: true,
        countsSackedRetransmissionsInFlight: true, keepsCubicAcknowledgmentCountAtTimeout: true)

    /// RFC 6298 as written: minimum RTO 1 s.
    public static let rfc6298 = TCPConfiguration(minimumRTO: .milliseconds(1_000))
}

/// A `TCPConfiguration` in an object, so that every endpoint of a network holds one reference to the same value
/// instead of a copy of it.
final class SharedTCPConfiguration: Sendable {
    let value: TCPConfiguration

    init(_ value: TCPConfiguration) { self.value = value }
}
