import SimCore
import Testing
@testable import SimNet

/// Loss recovery details found by comparing per-segment traces with ns-3 on the 4G cells (issue 15, docs/fidelity.md).
@Suite struct LossRecoveryTests {
    static let mss = TCPConfiguration.ns3Reference.mssBytes

    /// A sender with the handshake done and `segments` full segments in flight (sequence 1...), at t = 0.15 s (the
    /// handshake's RTT sample: 150 ms).
    static func sender(segments: Int, configuration: TCPConfiguration = .ns3Reference) -> TCPEndpoint {
        let socket = SocketID(rawValue: 0)
        let start = SimInstant.start
        var endpoint = TCPEndpoint(initiator: socket, host: HostID(rawValue: 0), peerHost: HostID(rawValue: 1),
                                   configuration: SharedTCPConfiguration(configuration), now: start)
        var synAck = Segment(destination: socket, flags: [.syn, .ack], sequence: 0, acknowledgment: 1, payload: [])
        synAck.timestampValue = start
        synAck.timestampEcho = start
        let established = start + .milliseconds(150)
        endpoint.handle(synAck, now: established)
        _ = endpoint.send([UInt8](repeating: 1, count: segments * mss), now: established)
        endpoint.outbox.removeAll()
        endpoint.notes.removeAll()
        return endpoint
    }

    /// A pure ACK from the receiver: cumulative `ack`, SACK blocks in segment numbers (0 = sequence 1).
    static func ack(_ ack: Int64, sacked: [Range<Int>] = [], at time: SimInstant) -> Segment {
        var segment = Segment(destination: SocketID(rawValue: 0), flags: .ack, sequence: 1, acknowledgment: ack,
                              payload: [])
        segment.timestampValue = time
        segment.timestampEcho = SimInstant.start + .milliseconds(150)
        segment.sackBlocks = sacked.map { Int64(1 + $0.lowerBound * mss)..<Int64(1 + $0.upperBound * mss) }
        return segment
    }

    @Test("a resent SYN-ACK echoes the first SYN's timestamp in the ns-3 reference, the resent SYN's in Linux's model")
    func resentSynAckTimestampEcho() {
        func echo(_ configuration: TCPConfiguration) -> SimInstant? {
            let first = SimInstant.start
            let again = first + .milliseconds(1_000)
            var syn = Segment(destination: SocketID(rawValue: 1), flags: .syn, sequence: 0, acknowledgment: 0,
                              payload: [])
            syn.timestampValue = first
            var endpoint = TCPEndpoint(acceptor: SocketID(rawValue: 1), host: HostID(rawValue: 1),
                                       peerHost: HostID(rawValue: 0),
                                       configuration: SharedTCPConfiguration(configuration), syn: syn,
                                       now: first + .milliseconds(1))
            endpoint.outbox.removeAll()  // the first SYN-ACK is lost
            syn.timestampValue = again
            endpoint.handle(syn, now: again + .milliseconds(1))
            return endpoint.outbox.last { $0.flags.contains([.syn, .ack]) }?.timestampEcho
        }
        // ns-3 3.37 takes TS.Recent only from the segment at RCV.NXT, so the initiator's first RTT sample spans the
        // SYN timeout (about 1 s) and its RTO starts near 3 s; RFC 7323 §4.3 and Linux echo the resent SYN.
        #expect(echo(.ns3Reference) == SimInstant.start)
        #expect(echo(.linux) == SimInstant.start + .milliseconds(1_000))
    }

    @Test("with SACK, ACKs that SACK nothing new (a resent segment the receiver holds) are not duplicate ACKs")
    func duplicateAckNeedsNewSack() {
        var endpoint = Self.sender(segments: 10)
        var now = SimInstant.start + .milliseconds(300)
        // Segment 0 is lost; segment 1 arrives and is SACKed once; then five ACKs repeat that same block.
        endpoint.handle(Self.ack(1, sacked: [1..<2], at: now), now: now)
        for _ in 0..<5 {
            now += .milliseconds(5)
            endpoint.handle(Self.ack(1, sacked: [1..<2], at: now), now: now)
        }
        #expect(endpoint.statistics.fastRetransmits == 0, "only one of six ACKs SACKed new data")
        // Two more ACKs that SACK segments 2 and 3 make three duplicate ACKs: fast retransmit of segment 0.
        for upper in 3...4 {
            now += .milliseconds(5)
            endpoint.handle(Self.ack(1, sacked: [1..<upper], at: now), now: now)
        }
        #expect(endpoint.statistics.fastRetransmits == 1)
        #expect(endpoint.outbox.contains { $0.sequence == 1 && !$0.payload.isEmpty }, "segment 0 resent")
    }

    @Test("in fast recovery only the first partial ACK restarts the retransmission timer (RFC 6582 Impatient)")
    func impatientTimer() throws {
        var endpoint = Self.sender(segments: 10)
        var now = SimInstant.start + .milliseconds(300)
        // Segments 0, 2 and 4 are lost; 1, 3 and 5...8 are SACKed: recovery starts, all three holes are resent.
        for upper in 6...9 {
            endpoint.handle(Self.ack(1, sacked: [5..<upper, 3..<4, 1..<2], at: now), now: now)
            now += .milliseconds(5)
        }
        #expect(endpoint.statistics.fastRetransmits == 1)
        // First partial ACK (segment 0 repaired): the timer restarts from now.
        endpoint.handle(Self.ack(Int64(1 + 2 * Self.mss), sacked: [5..<9, 3..<4], at: now), now: now)
        let first = try #require(endpoint.retransmissionDeadline)
        #expect(first == now + endpoint.retransmissionTimeout)
        // Second partial ACK (segment 2 repaired) 40 ms later: the deadline stays.
        now += .milliseconds(40)
        endpoint.handle(Self.ack(Int64(1 + 4 * Self.mss), sacked: [5..<9], at: now), now: now)
        #expect(endpoint.retransmissionDeadline == first)
        // The ACK that ends recovery (all 10 segments of the initial window) restarts it, if anything is in flight.
        now += .milliseconds(40)
        endpoint.handle(Self.ack(Int64(1 + 10 * Self.mss), at: now), now: now)
        let expected = endpoint.statistics.bytesInFlight > 0 ? now + endpoint.retransmissionTimeout : nil
        #expect(endpoint.retransmissionDeadline == expected)
    }

    @Test("CUBIC's target is whole segments: 9 segments below Wmax 14 need 9 ACKed segments per increase, not 14")
    func cubicTargetInWholeSegments() {
        var cubic = CubicWindow()
        #expect(cubic.lossWindow(windowSegments: 14) == 9)
        // K = cbrt((14 - 9) / 0.4) = 2.32 s; at t = min RTT = 0.1 s, 0.4 × 2.22³ = 4.38 → 4 segments below Wmax:
        // target 10, so cwnd 9 grows after 9 / (10 - 9) = 9 ACKed segments (an exact cubic, 9.62, would need 14).
        let now = SimInstant.start + .milliseconds(10_000)
        let afterEight = cubic.acknowledge(segmentsAcked: 8, windowSegments: 9, now: now, minimumRTT: .milliseconds(100))
        let afterNine = cubic.acknowledge(segmentsAcked: 1, windowSegments: 9, now: now, minimumRTT: .milliseconds(100))
        #expect(!afterEight && afterNine)
    }

    /// The reference with one of the ns-3 3.37 behaviours that are knobs turned on (or off) (docs/fidelity.md).
    static func variant(_ knob: WritableKeyPath<TCPConfiguration, Bool>, _ isOn: Bool = true) -> TCPConfiguration {
        var configuration = TCPConfiguration.ns3Reference
        configuration[keyPath: knob] = isOn
        return configuration
    }

    @Test("the ACK that ends the recovery from a timeout grows cwnd by every byte, or (ns-3's CA_LOSS exit) by none")
    func lossExitGrowth() throws {
        func windowAfterExit(_ configuration: TCPConfiguration) throws -> Int {
            var endpoint = Self.sender(segments: 10, configuration: configuration)
            let timeout = try #require(endpoint.retransmissionDeadline)
            endpoint.retransmissionTimerExpired(now: timeout)
            #expect(endpoint.congestionWindowBytes == Self.mss)
            // The original segments all arrive after all: one ACK covers the 10 (the recovery point, nothing above).
            let now = timeout + .milliseconds(20)
            endpoint.handle(Self.ack(Int64(1 + 10 * Self.mss), at: now), now: now)
            return endpoint.congestionWindowBytes
        }
        // Slow start below ssthresh (7 segments) counts all 10 segments; ns-3 counts (ackNumber - m_recover) / MSS = 0
        // (in `.ns3Reference` since branch fid10).
        #expect(try windowAfterExit(Self.variant(\.growsOnlyAboveRecoveryPointOnLossExit, false)) == 11 * Self.mss)
        #expect(try windowAfterExit(.linux) == 11 * Self.mss)
        #expect(try windowAfterExit(.ns3Reference) == Self.mss)
    }

    @Test("an ACK of data resent after a timeout is an RTT sample, or (ns-3's RTT history) not")
    func rttHistoryAfterTimeout() throws {
        func smoothedRTT(_ configuration: TCPConfiguration) throws -> SimDuration? {
            var endpoint = Self.sender(segments: 10, configuration: configuration)
            let timeout = try #require(endpoint.retransmissionDeadline)
            endpoint.retransmissionTimerExpired(now: timeout)
            // The ACK of the resent first segment, echoing its time, 30 ms later.
            let now = timeout + .milliseconds(30)
            var ack = Self.ack(Int64(1 + Self.mss), at: now)
            ack.timestampEcho = timeout
            endpoint.handle(ack, now: now)
            return endpoint.statistics.smoothedRTT
        }
        // The handshake's 150 ms sample, then 30 ms: (7 × 150 + 30) / 8 = 135 ms; ns-3 emptied its history at the RTO.
        #expect(try smoothedRTT(.ns3Reference) == .milliseconds(135))
        #expect(try smoothedRTT(Self.variant(\.samplesRTTFromOnceSentHistoryOnly)) == .milliseconds(150))
    }

    @Test("an ACK of a once-sent segment is an RTT sample in ns-3's RTT history; of a resent one it is not")
    func rttHistoryKarn() {
        var endpoint = Self.sender(segments: 10, configuration: Self.variant(\.samplesRTTFromOnceSentHistoryOnly))
        var now = SimInstant.start + .milliseconds(300)
        // Segment 0 lost, 1...3 SACKed: fast retransmit of segment 0. No sample (nothing new is acknowledged).
        for upper in 2...4 {
            endpoint.handle(Self.ack(1, sacked: [1..<upper], at: now), now: now)
            now += .milliseconds(5)
        }
        #expect(endpoint.statistics.fastRetransmits == 1)
        // The ACK of the resent segment 0 (and 1...3): its oldest record was resent, so no sample.
        var ack = Self.ack(Int64(1 + 4 * Self.mss), at: now)
        ack.timestampEcho = now - .milliseconds(40)
        endpoint.handle(ack, now: now)
        #expect(endpoint.statistics.smoothedRTT == .milliseconds(150))
        // The ACK of segment 4, sent once: a sample (40 ms), (7 × 150 + 40) / 8 = 136.25 ms.
        now += .milliseconds(5)
        ack = Self.ack(Int64(1 + 5 * Self.mss), at: now)
        ack.timestampEcho = now - .milliseconds(40)
        endpoint.handle(ack, now: now)
        #expect(endpoint.statistics.smoothedRTT == .microseconds(136_250))
    }

    @Test("a second timeout in a row keeps the first one's ssthresh, or (ns-3) sets it from cwnd 1: two segments")
    func ssthreshAtSecondTimeout() throws {
        func threshold(_ configuration: TCPConfiguration) throws -> Int {
            var endpoint = Self.sender(segments: 10, configuration: configuration)
            for _ in 0..<2 {
                endpoint.retransmissionTimerExpired(now: try #require(endpoint.retransmissionDeadline))
            }
            return endpoint.slowStartThresholdBytes
        }
        #expect(try threshold(.ns3Reference) == 7 * Self.mss)
        #expect(try threshold(Self.variant(\.recomputesThresholdOnEveryTimeout)) == 2 * Self.mss)
    }

    @Test("CUBIC's count of ACKed segments survives a timeout in ns-3 3.37 and grows cwnd on each ACK after it")
    func cubicCountAcrossTimeout() {
        func increases(keepingCount: Bool) -> Int {
            var cubic = CubicWindow()
            let threshold = cubic.lossWindow(windowSegments: 10)
            #expect(threshold == 7)
            // At Wmax (10 segments) the target stays at cwnd for K... here K = 0 and 0.4 × 0.1³ rounds to 0: 100 × 10
            // ACKed segments per increase, so 300 ACKed segments pile up without one.
            let now = SimInstant.start + .milliseconds(10_000)
            let grew = cubic.acknowledge(segmentsAcked: 300, windowSegments: 10, now: now, minimumRTT: .milliseconds(100))
            #expect(!grew)
            cubic.reset(keepingAcknowledgedCount: keepingCount)
            // After the timeout Wmax is forgotten: at most 20 ACKed segments per increase (ns-3's CntClamp).
            var count = 0
            for step in 1...5 where cubic.acknowledge(segmentsAcked: 1, windowSegments: 2 + count,
                                                      now: now + .milliseconds(Int64(100 * step)),
                                                      minimumRTT: .milliseconds(100)) {
                count += 1
            }
            return count
        }
        #expect(increases(keepingCount: false) == 0)
        #expect(increases(keepingCount: true) == 5)
    }

    @Test("resent data SACKed later stays in flight in ns-3 3.37, so a recovery stuck on a lost resend sends less")
    func sackedResendStaysInFlight() {
        func segmentsSent(_ configuration: TCPConfiguration) -> Int {
            var endpoint = Self.sender(segments: 40, configuration: configuration)
            var now = SimInstant.start + .milliseconds(300)
            var sent = 0
            // Segments 0 and 2 of the first 10 are lost; 1 and 3...9 arrive, one ACK each: recovery, then segment 2
            // is resent once three segments above it are SACKed.
            var blocks: [Range<Int>] = []
            for segment in [1, 3, 4, 5, 6, 7, 8, 9] {
                blocks = segment == 1 ? [1..<2] : [3..<(segment + 1), 1..<2]
                endpoint.handle(Self.ack(1, sacked: blocks, at: now), now: now)
                now += .milliseconds(5)
            }
            endpoint.outbox.removeAll()
            // The resend of segment 0 is lost; that of segment 2 arrives and is SACKed (ACK still at segment 0).
            endpoint.handle(Self.ack(1, sacked: [1..<10], at: now), now: now)
            sent += endpoint.outbox.filter { !$0.payload.isEmpty }.count
            return sent
        }
        let rfc = segmentsSent(Self.variant(\.countsSackedRetransmissionsInFlight, false))
        let ns3 = segmentsSent(.ns3Reference)
        #expect(ns3 < rfc, "the SACKed resend of segment 2 still counts as in flight")
    }

    @Test("PRR-SSRB adds a segment on every ACK (RFC 6937), or (ns-3's m_isRetransDataAcked) only on ACKs of resent data")
    func slowStartReductionBound() {
        func segmentsSentAtEntry(_ configuration: TCPConfiguration) -> Int {
            var endpoint = Self.sender(segments: 40, configuration: configuration)
            var now = SimInstant.start + .milliseconds(300)
            // Segments 0...4 are lost; 5, 6 and 7 arrive. The first two ACKs let segments 10 and 11 out; the third
            // starts recovery: ssthresh 7 segments, pipe 5 (12 out, 3 SACKed, 5 lost, segment 0 resent), below it.
            for upper in 6...8 {
                endpoint.outbox.removeAll()
                endpoint.handle(Self.ack(1, sacked: [5..<upper], at: now), now: now)
                now += .milliseconds(5)
            }
            return endpoint.outbox.filter { !$0.payload.isEmpty }.count
        }
        // RFC 6937: min(ssthresh - pipe, max(prr_delivered - prr_out, DeliveredData) + MSS) = 2 after segment 0;
        // ns-3 3.37: min(ssthresh - pipe, DeliveredData) = 1.
        #expect(segmentsSentAtEntry(.ns3Reference) == 3)
        #expect(segmentsSentAtEntry(Self.variant(\.growsInRecoveryOnlyOnResentDataAcked)) == 2)
    }
}
