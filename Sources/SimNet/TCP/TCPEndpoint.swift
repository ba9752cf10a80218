import SimCore

/// One end of a TCP-like connection: a sans-IO state machine fed segments, application calls and timer expiries.
///
/// Each input is a `mutating func`; what to do comes out in `outbox` (segments to put on the wire), `events`
/// (for the application) and `notes` (for the trace), which the network drains after every call, and in the
/// two deadlines `retransmissionDeadline` and `delayedAckDeadline`, which the network arms as timers.
///
/// The model, per RFC: three-way handshake; segments of at most MSS, no Nagle (a messenger sets TCP_NODELAY);
/// cumulative ACKs, an ACK at the latest every `segmentsPerDelayedAck` segments or after `delayedAckTimeout`,
/// immediately on out-of-order data (RFC 5681 §4.2), with SACK blocks then (RFC 2018); timestamps, so every ACK of
/// new data is an RTT sample (RFC 7323 §4); slow start from the initial window (RFC 6928) with HyStart's delay exit,
/// then CUBIC (RFC 9438) or Reno (RFC 5681 §3.1); loss recovery from a SACK scoreboard (RFC 6675) paced by PRR
/// (RFC 6937), or NewReno (RFC 6582) without SACK; with SACK only an ACK that SACKs new data is a duplicate
/// (RFC 6675 §2); in fast recovery only the first partial ACK restarts the timer (RFC 6582 §4.1 "Impatient", as
/// ns-3); RTO per RFC 6298 with Karn's rule, doubling up to the maximum,
/// go-back-N after a timeout (skipping SACKed data); abort after the retry limit. The receive window is taken as
/// unlimited (the application reads at once), and FIN is a full close: a side that receives FIN closes its own side
/// too, once its data is out.
struct TCPEndpoint {
    enum State: Hashable {
        case synSent, synReceived, established
        /// Both FINs exchanged and acknowledged: retransmitted FINs are ACKed, nothing else happens.
        case closedGracefully
        /// Reset, timed out or refused: the socket is gone; segments get an RST back.
        case closedAbruptly
    }

    // What every input and the network's flush after it read comes first (state, outputs, deadlines): at thousands
    // of endpoints each is out of cache at its next segment, and these sat at the far end of the struct.
    private(set) var state: State
    private(set) var isLocallyClosed = false
    private(set) var hasReceivedFin = false

    // Outputs, drained by the network after each call.
    var outbox: [Segment] = []
    var events: [SocketEvent.Kind] = []
    var notes: [(kind: String, detail: String)] = []

    /// Whether an output waits to be drained.
    var hasOutputs: Bool { !outbox.isEmpty || !events.isEmpty || !notes.isEmpty }

    /// When the retransmission timer expires, or nil when it is stopped.
    private(set) var retransmissionDeadline: SimInstant?
    /// When a held-back ACK must go out, or nil.
    private(set) var delayedAckDeadline: SimInstant?

    let socket: SocketID
    let host: HostID
    let peerHost: HostID
    /// The configuration, in one object shared by every endpoint of a network: held inline it was 128 of the
    /// endpoint's bytes, two cache lines read on most segments at thousands of endpoints.
    private let sharedConfiguration: SharedTCPConfiguration
    var configuration: TCPConfiguration { sharedConfiguration.value }

    // Send side. `sendBuffer[sendBufferHead...]` holds the bytes from `sendBufferStartSequence` on.
    private var sendBuffer: [UInt8] = []
    private var sendBufferHead = 0
    private var sendBufferStartSequence: Int64 = 1
    private var sndUna: Int64 = 0
    private var sndNxt: Int64 = 0
    private var sndMax: Int64 = 0
    private var finSequence: Int64?

    // Receive side.
    private var rcvNxt: Int64 = 0
    private var outOfOrder: [(sequence: Int64, payload: [UInt8])] = []
    private var remoteFinSequence: Int64?
    private var unacknowledgedSegments = 0
    private var mustAcknowledgeNow = false

    // Congestion control.
    private(set) var congestionWindowBytes: Int
    private(set) var slowStartThresholdBytes = Int.max
    private var bytesAckedInAvoidance = 0
    private var cubic = CubicWindow()
    private var duplicateAcks = 0
    private var isInRecovery = false
    private var recoveryPoint: Int64 = 0
    /// Whether a partial ACK in the current fast recovery has restarted the retransmission timer yet.
    private var hasRestartedTimerInRecovery = false
    /// Between a retransmission timeout and the first ACK at or above `recoveryPoint` (ns-3's CA_LOSS).
    private var isRecoveringFromTimeout = false

    // SACK scoreboard (RFC 6675): SACKed ranges above `sndUna`, sorted and disjoint; during recovery, the
    // retransmission pointer (HighRxt + 1) and the PRR counters (RFC 6937 §3).
    private var sackedRanges: [Range<Int64>] = []
    private var sackedBytes = 0
    private var retransmitNext: Int64 = 0
    private var prrDelivered = 0
    private var prrOut = 0
    private var recoverFlightSize = 0

    // Timestamps (RFC 7323 §4): the time of the current input, TS.Recent and Last.ACK.sent.
    private var clock: SimInstant
    private var timestampRecent: SimInstant?
    private var lastAcknowledgmentSent: Int64 = 0
    /// Where the latest out-of-order segment started, so its SACK block goes first (RFC 2018 §4).
    private var latestOutOfOrderSequence: Int64 = 0

    // Retransmission timer (RFC 6298).
    private var smoothedRTTNanoseconds: Int64?
    private var rttVariationNanoseconds: Int64 = 0
    private(set) var retransmissionTimeout: SimDuration
    private var retries = 0
    private var rttSample: (endSequence: Int64, sentAt: SimInstant)?
    /// ns-3's RTT history (`samplesRTTFromOnceSentHistoryOnly`): one record per new segment sent, oldest first from
    /// `sendRecordsHead`, marked when the segment is resent; emptied at a timeout.
    private var sendRecords: [(start: Int64, end: Int64, isResent: Bool)] = []
    private var sendRecordsHead = 0
    /// With `countsSackedRetransmissionsInFlight` or `growsInRecoveryOnlyOnResentDataAcked` (`tracksResentRanges`):
    /// the data above `sndUna` resent since the last timeout, sorted and disjoint (ns-3's per-segment retransmitted
    /// flag); empty otherwise.
    private var resentRanges: [Range<Int64>] = []

    // Per-ACK RTT samples from segments sent once (Karn), for HyStart's delay-increase test.
    private var firstTransmissions: [(endSequence: Int64, sentAt: SimInstant)] = []
    private var firstTransmissionsHead = 0
    private var minimumRTTNanoseconds = Int64.max
    private var hyStartRoundEnd: Int64 = 0
    private var hyStartRoundMinimumRTT = Int64.max
    private var hyStartSamples = 0

    // Statistics.
    private(set) var retransmittedSegments = 0
    private(set) var retransmissionTimeouts = 0
    private(set) var fastRetransmits = 0
    private(set) var bytesQueuedByApplication = 0
    private(set) var bytesDelivered = 0

    /// The initiator's end, over the configuration its network shares: sends the SYN at once.
    init(initiator socket: SocketID, host: HostID, peerHost: HostID, configuration shared: SharedTCPConfiguration,
         now: SimInstant) {
        let configuration = shared.value
        self.socket = socket
        self.host = host
        self.peerHost = peerHost
        self.sharedConfiguration = shared
        self.state = .synSent
        self.congestionWindowBytes = configuration.initialWindowSegments * configuration.mssBytes
        self.retransmissionTimeout = configuration.initialRTO
        self.clock = now
        emit(flags: .syn, sequence: 0, payload: [])
        sndNxt = 1
        sndMax = 1
        rttSample = (1, now)
        retransmissionDeadline = now + retransmissionTimeout
    }

    /// The acceptor's end, over the configuration its network shares, created by an arriving SYN: answers SYN-ACK.
    init(acceptor socket: SocketID, host: HostID, peerHost: HostID, configuration shared: SharedTCPConfiguration,
         syn: Segment, now: SimInstant) {
        let configuration = shared.value
        self.socket = socket
        self.host = host
        self.peerHost = peerHost
        self.sharedConfiguration = shared
        self.state = .synReceived
        self.congestionWindowBytes = configuration.initialWindowSegments * configuration.mssBytes
        self.retransmissionTimeout = configuration.initialRTO
        self.clock = now
        rcvNxt = syn.sequence + 1
        timestampRecent = syn.timestampValue
        emit(flags: [.syn, .ack], sequence: 0, payload: [])
        sndNxt = 1
        sndMax = 1
        rttSample = (1, now)
        retransmissionDeadline = now + retransmissionTimeout
    }

    var isClosed: Bool { state == .closedGracefully || state == .closedAbruptly }

    /// The state as the application sees it.
    var publicState: SocketState {
        switch state {
        case .synSent, .synReceived: return .connecting
        case .established: return isLocallyClosed || hasReceivedFin ? .closing : .open
        case .closedGracefully, .closedAbruptly: return .closed
        }
    }

    var statistics: ConnectionStatistics {
        ConnectionStatistics(
            retransmittedSegments: retransmittedSegments,
            retransmissionTimeouts: retransmissionTimeouts,
            fastRetransmits: fastRetransmits,
            congestionWindowBytes: congestionWindowBytes,
            smoothedRTT: smoothedRTTNanoseconds.map { SimDuration(nanoseconds: $0) },
            retransmissionTimeout: retransmissionTimeout,
            bytesQueuedByApplication: bytesQueuedByApplication,
            bytesDelivered: bytesDelivered,
            bytesInFlight: Int(sndMax - sndUna)
        )
    }

    private var dataEndSequence: Int64 { sendBufferStartSequence + Int64(sendBuffer.count - sendBufferHead) }

    // MARK: - Application calls

    /// Queues bytes for sending. - Returns: false when the socket is closing or closed (nothing queued).
    mutating func send(_ bytes: [UInt8], now: SimInstant) -> Bool {
        guard !isClosed, !isLocallyClosed else { return false }
        clock = now
        sendBuffer.append(contentsOf: bytes)
        bytesQueuedByApplication += bytes.count
        transmit(now: now)
        return true
    }

    /// Closes the sending side after the queued bytes (FIN).
    mutating func close(now: SimInstant) {
        guard !isClosed, !isLocallyClosed else { return }
        clock = now
        isLocallyClosed = true
        finSequence = dataEndSequence
        transmit(now: now)
    }

    /// Aborts: sends RST, forgets everything.
    mutating func reset(now: SimInstant) {
        guard !isClosed else { return }
        clock = now
        emit(flags: [.rst, .ack], sequence: sndNxt, payload: [])
        closeAbruptly()
    }

    /// The peer's side of the connection was reset by the network (a fault): report it, send nothing.
    mutating func resetByNetwork() {
        guard !isClosed else { return }
        events.append(.reset)
        closeAbruptly()
    }

    // MARK: - Segments

    mutating func handle(_ segment: Segment, now: SimInstant) {
        clock = now
        let echoesThisSegment = configuration.echoesInOrderTimestampsOnly
            ? segment.sequence == rcvNxt : segment.sequence <= lastAcknowledgmentSent
        if let value = segment.timestampValue, echoesThisSegment, value >= timestampRecent ?? .start {
            timestampRecent = value
        }
        switch state {
        case .closedAbruptly:
            return
        case .closedGracefully:
            if segment.flags.contains(.fin) && !segment.flags.contains(.rst) {
                emit(flags: .ack, sequence: sndNxt, payload: [])
            }
            return
        default:
            break
        }
        if segment.flags.contains(.rst) {
            events.append(.reset)
            notes.append(("rst-received", ""))
            closeAbruptly()
            return
        }
        switch state {
        case .synSent:
            guard segment.flags.contains([.syn, .ack]), segment.acknowledgment == 1 else { return }
            rcvNxt = segment.sequence + 1
            sndUna = 1
            timestampRecent = segment.timestampValue
            establish(acknowledging: segment, now: now)
            events.append(.connected)
            mustAcknowledgeNow = true
            transmit(now: now)
            flushAcknowledgement()
            return
        case .synReceived:
            if segment.flags.contains(.syn) && !segment.flags.contains(.ack) {
                emit(flags: [.syn, .ack], sequence: 0, payload: [])
                return
            }
            guard segment.flags.contains(.ack), segment.acknowledgment >= 1 else { return }
            sndUna = 1
            establish(acknowledging: segment, now: now)
            events.append(.accepted(peer: peerHost))
        case .established:
            if segment.flags.contains(.syn) {
                // Our ACK of the SYN-ACK was lost and the peer retransmitted it.
                mustAcknowledgeNow = true
                flushAcknowledgement()
                return
            }
        case .closedGracefully, .closedAbruptly:
            return
        }
        processAcknowledgment(segment, now: now)
        processData(segment, now: now)
        guard !isClosed else { return }
        transmit(now: now)
        flushAcknowledgement()
        if hasReceivedFin, let fin = finSequence, sndUna > fin {
            state = .closedGracefully
            retransmissionDeadline = nil
            delayedAckDeadline = nil
        }
    }

    private mutating func processAcknowledgment(_ segment: Segment, now: SimInstant) {
        guard segment.flags.contains(.ack) else { return }
        let ack = segment.acknowledgment
        guard ack <= sndMax else { return }
        let mss = configuration.mssBytes
        if ack > sndUna {
            let acked = Int(ack - sndUna)
            sndUna = ack
            let dataAcked = min(ack, dataEndSequence) - sendBufferStartSequence
            if dataAcked > 0 {
                sendBufferHead += Int(dataAcked)
                sendBufferStartSequence += dataAcked
                if sendBufferHead == sendBuffer.count {
                    // Everything sent was acknowledged: drop the bytes now rather than at 64 KiB, which a
                    // connection carrying small pushes reached only after an hour, holding them all until then (a
                    // world's memory per client grew with the run). A large buffer's storage goes too.
                    if sendBuffer.capacity <= 4_096 {
                        sendBuffer.removeAll(keepingCapacity: true)
                    } else {
                        sendBuffer = []
                    }
                    sendBufferHead = 0
                } else if sendBufferHead > 65_536 && sendBufferHead * 2 > sendBuffer.count {
                    sendBuffer.removeFirst(sendBufferHead)
                    sendBufferHead = 0
                }
            }
            if sndNxt < sndUna { sndNxt = sndUna }
            let mayTakeSample = configuration.samplesRTTFromOnceSentHistoryOnly
                ? takeSendRecords(acknowledging: ack) : true
            if configuration.usesTimestamps, let echo = segment.timestampEcho {
                if mayTakeSample { updateRTT(sample: now - echo) }
                rttSample = nil
            } else if let sample = rttSample, ack >= sample.endSequence {
                updateRTT(sample: now - sample.sentAt)
                rttSample = nil
            }
            takeAckSample(acknowledging: ack, now: now)
            retries = 0
            retransmissionTimeout = computedRTO()
            // A partial ACK in fast recovery restarts the timer only the first time ("Impatient", RFC 6582 §4.1,
            // as ns-3 3.37): a recovery that drags on falls back to the timeout.
            let isPartial = isInRecovery && ack < recoveryPoint
            if !isPartial || !hasRestartedTimerInRecovery {
                retransmissionDeadline = sndUna < sndMax ? now + retransmissionTimeout : nil
            }
            if isPartial { hasRestartedTimerInRecovery = true }
            if configuration.usesSACK {
                sackRecovery(segment, advancedBy: acked, now: now)
                return
            }
            if isInRecovery {
                if ack >= recoveryPoint {
                    congestionWindowBytes = slowStartThresholdBytes
                    isInRecovery = false
                    growCongestionWindow(acked: acked, now: now)
                } else {
                    // NewReno partial ACK (RFC 6582 §3.2 step 5): retransmit the next hole, deflate.
                    retransmit(sequence: sndUna, now: now)
                    congestionWindowBytes = max(congestionWindowBytes - acked + mss, mss)
                }
            } else {
                growCongestionWindow(acked: bytesCountingTowardsGrowth(acked), now: now)
            }
            duplicateAcks = 0
        } else if configuration.usesSACK {
            sackRecovery(segment, advancedBy: 0, now: now)
        } else if ack == sndUna, segment.payload.isEmpty, !segment.flags.contains(.fin), sndMax > sndUna {
            duplicateAcks += 1
            let isNewLossEpisode = ack > recoveryPoint || recoveryPoint == 0
            if duplicateAcks == configuration.duplicateAckThreshold, !isInRecovery, isNewLossEpisode {
                slowStartThresholdBytes = lossThreshold()
                recoveryPoint = sndMax
                isInRecovery = true
                hasRestartedTimerInRecovery = false
                fastRetransmits += 1
                notes.append(("fast-retransmit", "seq=\(sndUna) ssthresh=\(slowStartThresholdBytes)"))
                retransmit(sequence: sndUna, now: now)
                congestionWindowBytes = slowStartThresholdBytes + configuration.duplicateAckThreshold * mss
            } else if isInRecovery, duplicateAcks > configuration.duplicateAckThreshold {
                congestionWindowBytes += mss
            }
        }
    }

    private mutating func processData(_ segment: Segment, now: SimInstant) {
        let hasFin = segment.flags.contains(.fin)
        guard !segment.payload.isEmpty || hasFin else { return }
        if hasReceivedFin {
            mustAcknowledgeNow = true
            return
        }
        let sequence = segment.sequence
        let end = sequence + Int64(segment.payload.count)
        if hasFin { remoteFinSequence = end }
        if !segment.payload.isEmpty {
            if end <= rcvNxt {
                mustAcknowledgeNow = true
            } else if sequence <= rcvNxt {
                deliver(segment.payload[Int(rcvNxt - sequence)...])
                rcvNxt = end
                let hadHoles = !outOfOrder.isEmpty
                drainOutOfOrder()
                unacknowledgedSegments += 1
                if hadHoles || unacknowledgedSegments >= configuration.segmentsPerDelayedAck {
                    mustAcknowledgeNow = true
                } else if delayedAckDeadline == nil {
                    delayedAckDeadline = now + configuration.delayedAckTimeout
                }
            } else {
                let index = outOfOrder.firstIndex { $0.sequence >= sequence } ?? outOfOrder.endIndex
                if index == outOfOrder.endIndex || outOfOrder[index].sequence != sequence {
                    outOfOrder.insert((sequence, segment.payload), at: index)
                }
                latestOutOfOrderSequence = sequence
                mustAcknowledgeNow = true
            }
        }
        if let fin = remoteFinSequence, rcvNxt == fin {
            rcvNxt += 1
            hasReceivedFin = true
            mustAcknowledgeNow = true
            events.append(.closed)
            if !isLocallyClosed {
                isLocallyClosed = true
                finSequence = dataEndSequence
            }
        } else if hasFin {
            mustAcknowledgeNow = true
        }
    }

    private mutating func drainOutOfOrder() {
        while let first = outOfOrder.first, first.sequence <= rcvNxt {
            outOfOrder.removeFirst()
            let end = first.sequence + Int64(first.payload.count)
            if end > rcvNxt {
                deliver(first.payload[Int(rcvNxt - first.sequence)...])
                rcvNxt = end
            }
        }
    }

    private mutating func deliver(_ bytes: ArraySlice<UInt8>) {
        bytesDelivered += bytes.count
        events.append(.received(Array(bytes)))
    }

    // MARK: - Timers

    mutating func retransmissionTimerExpired(now: SimInstant) {
        retransmissionDeadline = nil
        guard !isClosed, sndUna < sndMax else { return }
        let limit = state == .established ? configuration.retryLimit : configuration.synRetryLimit
        if retries >= limit {
            notes.append(("abort", "retries=\(retries)"))
            events.append(.timedOut)
            closeAbruptly()
            return
        }
        retries += 1
        retransmissionTimeouts += 1
        retransmissionTimeout = min(retransmissionTimeout * 2, configuration.maximumRTO)
        notes.append(("rto", "retry=\(retries) seq=\(sndUna) next-rto=\(retransmissionTimeout)"))
        rttSample = nil
        clock = now
        switch state {
        case .synSent:
            retransmittedSegments += 1
            emit(flags: .syn, sequence: 0, payload: [])
        case .synReceived:
            retransmittedSegments += 1
            emit(flags: [.syn, .ack], sequence: 0, payload: [])
        case .established:
            let mss = configuration.mssBytes
            // A timeout in a row of timeouts keeps the ssthresh of the first (Linux's tcp_enter_loss), unless
            // `recomputesThresholdOnEveryTimeout` (ns-3 3.37 sets it at every one).
            if retries == 1 || configuration.congestionControl == .reno
                || configuration.recomputesThresholdOnEveryTimeout {
                slowStartThresholdBytes = lossThreshold()
            }
            cubic.reset(keepingAcknowledgedCount: configuration.keepsCubicAcknowledgmentCountAtTimeout)
            congestionWindowBytes = mss
            bytesAckedInAvoidance = 0
            isInRecovery = false
            duplicateAcks = 0
            recoveryPoint = sndMax
            isRecoveringFromTimeout = true
            resentRanges.removeAllKeepingCapacity()
            retransmitNext = sndUna
            sndNxt = sndUna
            forgetFirstTransmissions()
            sendRecords.removeAllKeepingCapacity()
            sendRecordsHead = 0
            transmit(now: now)
        case .closedGracefully, .closedAbruptly:
            return
        }
        retransmissionDeadline = now + retransmissionTimeout
    }

    mutating func delayedAckTimerExpired(now: SimInstant) {
        guard let deadline = delayedAckDeadline, deadline <= now, !isClosed else { return }
        clock = now
        mustAcknowledgeNow = true
        flushAcknowledgement()
    }

    // MARK: - Sending

    /// Sends what the congestion window allows: new or (after a timeout) resent data, then the FIN. With SACK, data
    /// the peer holds is skipped, SACKed bytes do not count as in flight, and during recovery PRR sends instead.
    private mutating func transmit(now: SimInstant) {
        guard state == .established else { return }
        let usesSACK = configuration.usesSACK
        if usesSACK && isInRecovery { return }
        while true {
            var limit = Int64.max
            if usesSACK && !sackedRanges.isEmpty {
                for range in sackedRanges where range.upperBound > sndNxt {
                    if range.lowerBound <= sndNxt {
                        sndNxt = range.upperBound
                    } else {
                        limit = range.lowerBound - sndNxt
                        break
                    }
                }
            }
            let length = segmentLength(at: sndNxt, limit: limit)
            guard length > 0 else { break }
            if sndNxt < dataEndSequence {
                var flight = sndNxt - sndUna
                if usesSACK { flight -= Int64(sackedBytes(from: sndUna, to: sndNxt) - sackedResentBytes()) }
                guard flight <= 0 || flight + length <= Int64(congestionWindowBytes) else { break }
            }
            sndNxt += emitSegment(at: sndNxt, length: length, now: now)
        }
    }

    /// The sequence space of the segment that would start at `sequence`: up to an MSS of data (and at most
    /// `limit`), 1 for the FIN, 0 when there is nothing to send there.
    private func segmentLength(at sequence: Int64, limit: Int64) -> Int64 {
        let dataEnd = dataEndSequence
        if sequence < dataEnd { return min(Int64(configuration.mssBytes), dataEnd - sequence, limit) }
        if let fin = finSequence, sequence == fin { return 1 }
        return 0
    }

    /// Emits the data segment or FIN at `sequence` (`length` from `segmentLength`), with its bookkeeping.
    /// - Returns: `length`.
    @discardableResult
    private mutating func emitSegment(at sequence: Int64, length: Int64, now: SimInstant) -> Int64 {
        let isRetransmission = sequence < sndMax
        if let fin = finSequence, sequence == fin {
            emit(flags: [.fin, .ack], sequence: fin, payload: [])
        } else {
            let start = sendBufferHead + Int(sequence - sendBufferStartSequence)
            emit(flags: .ack, sequence: sequence, payload: Array(sendBuffer[start..<(start + Int(length))]))
        }
        if isRetransmission {
            retransmittedSegments += 1
            rttSample = nil
            forgetFirstTransmissions()
            if configuration.samplesRTTFromOnceSentHistoryOnly { markResent(sequence) }
            if tracksResentRanges { recordResent(sequence..<(sequence + length)) }
        } else if length > 0 {
            if configuration.samplesRTTFromOnceSentHistoryOnly {
                sendRecords.append((sequence, sequence + length, false))
            }
            if finSequence != sequence {
                if rttSample == nil { rttSample = (sequence + length, now) }
                if configuration.usesHyStart { firstTransmissions.append((sequence + length, now)) }
            }
        }
        sndMax = max(sndMax, sequence + length)
        if retransmissionDeadline == nil { retransmissionDeadline = now + retransmissionTimeout }
        return length
    }

    private mutating func retransmit(sequence: Int64, now: SimInstant) {
        let length = segmentLength(at: sequence, limit: .max)
        guard length > 0 else { return }
        emitSegment(at: sequence, length: length, now: now)
    }

    private mutating func flushAcknowledgement() {
        if mustAcknowledgeNow { emit(flags: .ack, sequence: sndNxt, payload: []) }
    }

    private mutating func emit(flags: Segment.Flags, sequence: Int64, payload: [UInt8]) {
        // Built in the append: a segment built in a variable first was copied into the outbox (its payload and SACK
        // blocks retained, then released with the variable).
        let usesTimestamps = configuration.usesTimestamps
        outbox.append(Segment(
            destination: socket.peer, flags: flags, sequence: sequence,
            acknowledgment: flags.contains(.ack) ? rcvNxt : 0, payload: payload,
            timestampValue: usesTimestamps ? clock : nil,
            timestampEcho: usesTimestamps && flags.contains(.ack) ? timestampRecent : nil,
            sackBlocks: configuration.usesSACK && flags.contains(.ack) && !outOfOrder.isEmpty ? receivedBlocks() : []
        ))
        if flags.contains(.ack) {
            lastAcknowledgmentSent = rcvNxt
            mustAcknowledgeNow = false
            unacknowledgedSegments = 0
            delayedAckDeadline = nil
        }
    }

    private mutating func closeAbruptly() {
        state = .closedAbruptly
        retransmissionDeadline = nil
        delayedAckDeadline = nil
        sendBuffer = []
        sendBufferHead = 0
        outOfOrder = []
    }

    // MARK: - SACK loss recovery (RFC 6675 scoreboard, RFC 6937 PRR)

    /// Handles an ACK with SACK on: updates the scoreboard, enters, runs or leaves loss recovery, grows the window.
    /// - Parameters:
    ///   - segment: the ACK.
    ///   - acked: bytes the cumulative ACK moved (0 for a duplicate).
    private mutating func sackRecovery(_ segment: Segment, advancedBy acked: Int, now: SimInstant) {
        var delivered = acked
        // ns-3 3.37 (`ReceivedAck`, `m_isRetransDataAcked`): a partial ACK in recovery that covers resent data not
        // SACKed before lets PRR-SSRB grow by a segment; with `growsInRecoveryOnlyOnResentDataAcked` no other ACK does.
        let acksResentData = configuration.growsInRecoveryOnlyOnResentDataAcked && acked > 0 && isInRecovery
            && sndUna < recoveryPoint && unsackedResentBytes(from: sndUna - Int64(acked), to: sndUna) > 0
        if acked > 0 { delivered -= pruneSackedRanges() }
        pruneResentRanges()
        let newlySacked = mergeSackBlocks(segment.sackBlocks)
        delivered += newlySacked
        // RFC 6675 §2: with SACK, a duplicate ACK is one that SACKs octets not SACKed before. An ACK without new
        // SACK information, e.g. for a segment the receiver already holds after a go-back-N resend, is not one.
        if acked > 0 {
            duplicateAcks = 0
        } else if newlySacked > 0, sndMax > sndUna, segment.payload.isEmpty, !segment.flags.contains(.fin) {
            duplicateAcks += 1
        }
        if isInRecovery {
            if sndUna >= recoveryPoint {
                isInRecovery = false
                congestionWindowBytes = slowStartThresholdBytes
                retransmitNext = sndUna
                notes.append(("recovery-exit", "cwnd=\(congestionWindowBytes)"))
                // The ACK that ends recovery counts towards growth from the new window (Linux `tcp_cong_control`
                // after `tcp_end_cwnd_reduction`; ns-3 3.37 `ProcessAck` calls IncreaseWindow on it).
                growCongestionWindow(acked: acked, now: now)
                return
            }
            prrDelivered += delivered
            reduceProportionally(delivered: delivered, acksResentData: acksResentData)
            sendInRecovery(now: now)
            return
        }
        // The boundary from the fields it reads: calling the method from here copied the whole endpoint first (a
        // copy of 688 bytes on every ACK that was not a third duplicate).
        let isLossDetected = duplicateAcks >= configuration.duplicateAckThreshold
            || Self.lossBoundary(sackedRanges, duplicateAckThreshold: configuration.duplicateAckThreshold,
                                 mssBytes: configuration.mssBytes, sndUna: sndUna) > sndUna
        if isLossDetected, sndMax > sndUna, sndNxt == sndMax, sndUna >= recoveryPoint {
            let flight = Int(sndMax - sndUna)
            slowStartThresholdBytes = lossThreshold()
            recoveryPoint = sndMax
            isInRecovery = true
            hasRestartedTimerInRecovery = false
            isRecoveringFromTimeout = false
            fastRetransmits += 1
            prrDelivered = delivered
            prrOut = 0
            recoverFlightSize = flight
            retransmitNext = sndUna
            notes.append(("fast-retransmit", "seq=\(sndUna) ssthresh=\(slowStartThresholdBytes) sack"))
            // RFC 6675 §5 (4.3): the first segment goes out whatever the window says.
            let length = segmentLength(at: sndUna, limit: holeEnd(from: sndUna) - sndUna)
            if length > 0 {
                emitSegment(at: sndUna, length: length, now: now)
                retransmitNext = sndUna + length
                prrOut += Int(length)
            }
            reduceProportionally(delivered: delivered)
            sendInRecovery(now: now)
            return
        }
        if acked > 0 { growCongestionWindow(acked: bytesCountingTowardsGrowth(acked), now: now) }
    }

    /// The bytes of an ACK outside fast recovery that count towards cwnd growth: all `acked`, except, with
    /// `growsOnlyAboveRecoveryPointOnLossExit`, on the ACK that ends the recovery from a timeout, which counts only
    /// the whole segments above `recoveryPoint` (ns-3 3.37 `ProcessAck` leaving CA_LOSS).
    private mutating func bytesCountingTowardsGrowth(_ acked: Int) -> Int {
        guard isRecoveringFromTimeout, sndUna >= recoveryPoint else { return acked }
        isRecoveringFromTimeout = false
        guard configuration.growsOnlyAboveRecoveryPointOnLossExit else { return acked }
        let mss = configuration.mssBytes
        return Int(sndUna - recoveryPoint) / mss * mss
    }

    /// Slow start (RFC 5681 §3.1), then congestion avoidance by Reno or CUBIC, for `acked` newly acknowledged bytes.
    private mutating func growCongestionWindow(acked: Int, now: SimInstant) {
        let mss = configuration.mssBytes
        if congestionWindowBytes < slowStartThresholdBytes {
            congestionWindowBytes += acked
            return
        }
        bytesAckedInAvoidance += acked
        switch configuration.congestionControl {
        case .reno:
            if bytesAckedInAvoidance >= congestionWindowBytes {
                bytesAckedInAvoidance -= congestionWindowBytes
                congestionWindowBytes += mss
            }
        case .cubic:
            let segments = bytesAckedInAvoidance / mss
            guard segments > 0 else { return }
            bytesAckedInAvoidance -= segments * mss
            let minimumRTT = SimDuration(nanoseconds: minimumRTTNanoseconds == .max ? 0 : minimumRTTNanoseconds)
            if cubic.acknowledge(segmentsAcked: segments, windowSegments: congestionWindowBytes / mss, now: now,
                                 minimumRTT: minimumRTT) {
                congestionWindowBytes += mss
            }
        }
    }

    /// ssthresh after a loss: half the flight (Reno, RFC 5681 §3.2) or β × cwnd (CUBIC, RFC 9438 §4.6), at least
    /// two segments.
    private mutating func lossThreshold() -> Int {
        let mss = configuration.mssBytes
        switch configuration.congestionControl {
        case .reno:
            return max(Int(sndMax - sndUna) / 2, 2 * mss)
        case .cubic:
            return cubic.lossWindow(windowSegments: congestionWindowBytes / mss) * mss
        }
    }

    /// PRR (RFC 6937 §3): sets cwnd so that over the recovery the sender sends ssthresh/RecoverFS of what was
    /// delivered, and, once pipe is below ssthresh, grows back to it no faster than slow start (PRR-SSRB).
    private mutating func reduceProportionally(delivered: Int, acksResentData: Bool = false) {
        let mss = configuration.mssBytes
        let pipe = computePipe()
        let ssthresh = slowStartThresholdBytes
        var sendCount: Int
        if pipe > ssthresh {
            let flightSize = max(recoverFlightSize, 1)
            sendCount = (prrDelivered * ssthresh + flightSize - 1) / flightSize - prrOut
        } else {
            let bound = configuration.growsInRecoveryOnlyOnResentDataAcked && !acksResentData
                ? delivered : max(prrDelivered - prrOut, delivered) + mss
            sendCount = min(ssthresh - pipe, bound)
        }
        congestionWindowBytes = pipe + max(sendCount, 0)
    }

    /// Sends while cwnd - pipe allows a full segment: lost holes first (NextSeg rule 1), then new data (rule 2).
    private mutating func sendInRecovery(now: SimInstant) {
        let mss = configuration.mssBytes
        while congestionWindowBytes - computePipe() >= mss {
            if let hole = nextLostHole() {
                let length = segmentLength(at: hole.lowerBound, limit: Int64(hole.count))
                guard length > 0 else { break }
                emitSegment(at: hole.lowerBound, length: length, now: now)
                retransmitNext = hole.lowerBound + length
                prrOut += Int(length)
            } else if sndNxt == sndMax {
                let length = segmentLength(at: sndNxt, limit: .max)
                guard length > 0 else { break }
                sndNxt += emitSegment(at: sndNxt, length: length, now: now)
                prrOut += Int(length)
            } else {
                break
            }
        }
    }

    /// Bytes in flight (RFC 6675 §4 SetPipe): outstanding, minus SACKed, minus lost, plus lost ones resent since.
    private func computePipe() -> Int {
        let boundary = lossBoundary()
        let lost = Int(boundary - sndUna) - sackedBytes(from: sndUna, to: boundary)
        var pipe = Int(sndMax - sndUna) - sackedBytes - max(lost, 0) + sackedResentBytes()
        if isInRecovery {
            let resentEnd = min(retransmitNext, boundary)
            if resentEnd > sndUna { pipe += Int(resentEnd - sndUna) - sackedBytes(from: sndUna, to: resentEnd) }
        }
        return max(pipe, 0)
    }

    /// With `countsSackedRetransmissionsInFlight`, the resent bytes SACKed since (ns-3 3.37 counts them in flight
    /// until the cumulative ACK passes them or a timeout); 0 otherwise.
    private func sackedResentBytes() -> Int {
        guard configuration.countsSackedRetransmissionsInFlight else { return 0 }
        var total = 0
        for range in resentRanges { total += sackedBytes(from: range.lowerBound, to: range.upperBound) }
        return total
    }

    /// Whether `resentRanges` is kept: both ns-3 knobs that read it need it, each without the other.
    private var tracksResentRanges: Bool {
        configuration.countsSackedRetransmissionsInFlight || configuration.growsInRecoveryOnlyOnResentDataAcked
    }

    /// Resent bytes within `start..<end` that are not SACKed.
    private func unsackedResentBytes(from start: Int64, to end: Int64) -> Int {
        var total = 0
        for range in resentRanges where range.upperBound > start && range.lowerBound < end {
            let lower = max(range.lowerBound, start)
            let upper = min(range.upperBound, end)
            total += Int(upper - lower) - sackedBytes(from: lower, to: upper)
        }
        return total
    }

    /// Adds `range` to `resentRanges`, merging.
    private mutating func recordResent(_ range: Range<Int64>) {
        guard !range.isEmpty else { return }
        resentRanges = Self.merging(range, into: resentRanges)
    }

    /// `ranges` (ascending, disjoint, not touching) with `range` added: the ranges it overlaps or touches become one.
    private static func merging(_ range: Range<Int64>, into ranges: [Range<Int64>]) -> [Range<Int64>] {
        var merged = range
        var result: [Range<Int64>] = []
        result.reserveCapacity(ranges.count + 1)
        var isInserted = false
        for existing in ranges {
            if existing.upperBound < merged.lowerBound {
                result.append(existing)
            } else if existing.lowerBound > merged.upperBound {
                if !isInserted {
                    result.append(merged)
                    isInserted = true
                }
                result.append(existing)
            } else {
                merged = min(existing.lowerBound, merged.lowerBound)..<max(existing.upperBound, merged.upperBound)
            }
        }
        if !isInserted { result.append(merged) }
        return result
    }

    /// Drops the resent ranges below the cumulative ACK.
    private mutating func pruneResentRanges() {
        while let first = resentRanges.first, first.lowerBound < sndUna {
            if first.upperBound <= sndUna {
                resentRanges.removeFirst()
            } else {
                resentRanges[0] = sndUna..<first.upperBound
                break
            }
        }
    }

    /// Unacknowledged bytes below this sequence are lost: more than (DupThresh - 1) × MSS bytes above them are
    /// SACKed (RFC 6675 §4 IsLost). `sndUna` when nothing is.
    private func lossBoundary() -> Int64 {
        Self.lossBoundary(sackedRanges, duplicateAckThreshold: configuration.duplicateAckThreshold,
                          mssBytes: configuration.mssBytes, sndUna: sndUna)
    }

    /// `lossBoundary()` over SACKed ranges `sackedRanges`, for DupThresh `duplicateAckThreshold` and MSS `mssBytes`.
    private static func lossBoundary(
        _ sackedRanges: [Range<Int64>], duplicateAckThreshold: Int, mssBytes: Int, sndUna: Int64
    ) -> Int64 {
        let threshold = (duplicateAckThreshold - 1) * mssBytes + 1
        var accumulated = 0
        for range in sackedRanges.reversed() {
            let count = Int(range.upperBound - range.lowerBound)
            if accumulated + count >= threshold { return range.upperBound - Int64(threshold - accumulated) }
            accumulated += count
        }
        return sndUna
    }

    /// The next lost, not yet resent hole at or above the retransmission pointer, at most an MSS long.
    private func nextLostHole() -> Range<Int64>? {
        var position = max(retransmitNext, sndUna)
        for range in sackedRanges where range.upperBound > position {
            guard range.lowerBound <= position else { break }
            position = range.upperBound
        }
        guard position < lossBoundary() else { return nil }
        return position..<min(holeEnd(from: position), position + Int64(configuration.mssBytes))
    }

    /// Where the unSACKed stretch starting at `position` ends: the next SACKed range, or `sndMax`.
    private func holeEnd(from position: Int64) -> Int64 {
        sackedRanges.first { $0.lowerBound > position }?.lowerBound ?? max(sndMax, position + 1)
    }

    /// SACKed bytes within `start..<end`.
    private func sackedBytes(from start: Int64, to end: Int64) -> Int {
        guard end > start else { return 0 }
        var total: Int64 = 0
        for range in sackedRanges {
            if range.lowerBound >= end { break }
            let overlap = min(range.upperBound, end) - max(range.lowerBound, start)
            if overlap > 0 { total += overlap }
        }
        return Int(total)
    }

    /// Drops the scoreboard below the cumulative ACK. - Returns: the SACKed bytes it covered.
    private mutating func pruneSackedRanges() -> Int {
        var removed: Int64 = 0
        while let first = sackedRanges.first, first.lowerBound < sndUna {
            if first.upperBound <= sndUna {
                removed += first.upperBound - first.lowerBound
                sackedRanges.removeFirst()
            } else {
                removed += sndUna - first.lowerBound
                sackedRanges[0] = sndUna..<first.upperBound
                break
            }
        }
        sackedBytes -= Int(removed)
        return Int(removed)
    }

    /// Adds the peer's SACK blocks to the scoreboard. - Returns: the bytes newly SACKed.
    private mutating func mergeSackBlocks(_ blocks: [Range<Int64>]) -> Int {
        let before = sackedBytes
        for block in blocks {
            let lower = max(block.lowerBound, sndUna)
            let upper = min(block.upperBound, sndMax)
            guard lower < upper else { continue }
            sackedRanges = Self.merging(lower..<upper, into: sackedRanges)
        }
        sackedBytes = sackedRanges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) }
        return sackedBytes - before
    }

    /// The SACK blocks this receiver reports (RFC 2018 §4): the block holding the latest out-of-order arrival first,
    /// then the others from the highest down; three with the timestamps option, four without.
    private func receivedBlocks() -> [Range<Int64>] {
        var blocks: [Range<Int64>] = []
        for entry in outOfOrder {
            let end = entry.sequence + Int64(entry.payload.count)
            if let last = blocks.last, entry.sequence <= last.upperBound {
                blocks[blocks.count - 1] = last.lowerBound..<max(last.upperBound, end)
            } else {
                blocks.append(entry.sequence..<end)
            }
        }
        let latest = blocks.firstIndex { $0.contains(latestOutOfOrderSequence) }
        var ordered: [Range<Int64>] = latest.map { [blocks[$0]] } ?? []
        for (index, block) in blocks.enumerated().reversed() where index != latest {
            ordered.append(block)
        }
        return Array(ordered.prefix(configuration.usesTimestamps ? 3 : 4))
    }

    // MARK: - HyStart delay increase

    private mutating func forgetFirstTransmissions() {
        firstTransmissions.removeAllKeepingCapacity()
        firstTransmissionsHead = 0
    }

    /// Takes the RTT of the newest once-sent segment this ACK covers, and runs HyStart's test in slow start.
    private mutating func takeAckSample(acknowledging ack: Int64, now: SimInstant) {
        guard configuration.usesHyStart else { return }
        var sample: Int64?
        while firstTransmissionsHead < firstTransmissions.count,
              firstTransmissions[firstTransmissionsHead].endSequence <= ack {
            sample = (now - firstTransmissions[firstTransmissionsHead].sentAt).nanoseconds
            firstTransmissionsHead += 1
        }
        if firstTransmissionsHead == firstTransmissions.count {
            forgetFirstTransmissions()
        } else if firstTransmissionsHead > 256 {
            firstTransmissions.removeFirst(firstTransmissionsHead)
            firstTransmissionsHead = 0
        }
        guard let sample else { return }
        minimumRTTNanoseconds = min(minimumRTTNanoseconds, sample)
        guard congestionWindowBytes < slowStartThresholdBytes, !isInRecovery else { return }
        if ack > hyStartRoundEnd {
            hyStartRoundEnd = sndMax
            hyStartRoundMinimumRTT = .max
            hyStartSamples = 0
        }
        guard congestionWindowBytes >= 16 * configuration.mssBytes, hyStartSamples < 8 else { return }
        hyStartRoundMinimumRTT = min(hyStartRoundMinimumRTT, sample)
        hyStartSamples += 1
        guard hyStartSamples == 8 else { return }
        let threshold = min(max(minimumRTTNanoseconds / Int64(configuration.hyStartDelayThresholdDivisor), 4_000_000),
                            configuration.hyStartMaximumDelayThreshold.nanoseconds)
        if hyStartRoundMinimumRTT > minimumRTTNanoseconds + threshold {
            slowStartThresholdBytes = congestionWindowBytes
            notes.append(("hystart-exit", "cwnd=\(congestionWindowBytes)"))
        }
    }

    // MARK: - ns-3's RTT history

    /// Drops the send records this ACK covers. - Returns: whether the ACK is an RTT sample in ns-3 3.37's
    /// `EstimateRtt`: it covers the oldest record, and that segment was sent once.
    private mutating func takeSendRecords(acknowledging ack: Int64) -> Bool {
        guard sendRecordsHead < sendRecords.count else { return false }
        let oldest = sendRecords[sendRecordsHead]
        let isSample = !oldest.isResent && ack >= oldest.end
        while sendRecordsHead < sendRecords.count, sendRecords[sendRecordsHead].end <= ack {
            sendRecordsHead += 1
        }
        if sendRecordsHead == sendRecords.count {
            sendRecords.removeAllKeepingCapacity()
            sendRecordsHead = 0
        } else if sendRecordsHead > 256 {
            sendRecords.removeFirst(sendRecordsHead)
            sendRecordsHead = 0
        }
        return isSample
    }

    /// Marks the send record holding `sequence` as resent (none after a timeout emptied the records).
    private mutating func markResent(_ sequence: Int64) {
        let index = sendRecords[sendRecordsHead...].partitionPoint { $0.end <= sequence }
        if index < sendRecords.count, sendRecords[index].start <= sequence { sendRecords[index].isResent = true }
    }

    // MARK: - RTO estimation (RFC 6298 §2)

    /// Ends the handshake on the segment that acknowledges our SYN: its RTT sample (the timestamp echo, else the
    /// timed SYN), a fresh RTO with no retries or deadline pending, and the established state.
    private mutating func establish(acknowledging segment: Segment, now: SimInstant) {
        if configuration.usesTimestamps, let echo = segment.timestampEcho {
            updateRTT(sample: now - echo)
        } else if let sample = rttSample {
            updateRTT(sample: now - sample.sentAt)
        }
        rttSample = nil
        retries = 0
        retransmissionTimeout = computedRTO()
        retransmissionDeadline = nil
        state = .established
    }

    private mutating func updateRTT(sample: SimDuration) {
        let measured = max(sample.nanoseconds, 0)
        if let smoothed = smoothedRTTNanoseconds {
            rttVariationNanoseconds = (3 * rttVariationNanoseconds + abs(smoothed - measured)) / 4
            smoothedRTTNanoseconds = (7 * smoothed + measured) / 8
        } else {
            smoothedRTTNanoseconds = measured
            rttVariationNanoseconds = measured / 2
        }
    }

    private func computedRTO() -> SimDuration {
        guard let smoothed = smoothedRTTNanoseconds else { return configuration.initialRTO }
        let raw = smoothed + max(configuration.clockGranularity.nanoseconds, 4 * rttVariationNanoseconds)
        return SimDuration(nanoseconds: min(max(raw, configuration.minimumRTO.nanoseconds),
                                            configuration.maximumRTO.nanoseconds))
    }
}
