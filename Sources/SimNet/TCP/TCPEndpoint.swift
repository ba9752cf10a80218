import SimCore

/// One end of a TCP-like connection: a sans-IO state machine fed segments, application calls and timer expiries.
///
/// Each input is a `mutating func`; what to do comes out in `outbox` (segments to put on the wire), `events`
/// (for the application) and `notes` (for the trace), which the network drains after every call, and in the
/// two deadlines `retransmissionDeadline` and `delayedAckDeadline`, which the network arms as timers.
///
/// The model, per RFC: three-way handshake; segments of at most MSS, no Nagle (a messenger sets TCP_NODELAY);
/// cumulative ACKs, an ACK at the latest every `segmentsPerDelayedAck` segments or after `delayedAckTimeout`,
/// immediately on out-of-order data (RFC 5681 §4.2); slow start from the initial window (RFC 6928), growing by
/// the bytes acknowledged, then congestion avoidance by one MSS per window (RFC 5681 §3.1); fast retransmit on
/// `duplicateAckThreshold` duplicate ACKs with NewReno recovery (RFC 6582); RTO per RFC 6298 with Karn's rule,
/// doubling up to the maximum, go-back-N after a timeout; abort after the retry limit. The receive window is
/// taken as unlimited (the application reads at once), and FIN is a full close: a side that receives FIN
/// closes its own side too, once its data is out.
struct TCPEndpoint {
    enum State: Hashable {
        case synSent, synReceived, established
        /// Both FINs exchanged and acknowledged: retransmitted FINs are ACKed, nothing else happens.
        case closedGracefully
        /// Reset, timed out or refused: the socket is gone; segments get an RST back.
        case closedAbruptly
    }

    let socket: SocketID
    let host: HostID
    let peerHost: HostID
    let configuration: TCPConfiguration
    private(set) var state: State

    // Send side. `sendBuffer[sendBufferHead...]` holds the bytes from `sendBufferStartSequence` on.
    private var sendBuffer: [UInt8] = []
    private var sendBufferHead = 0
    private var sendBufferStartSequence: Int64 = 1
    private var sndUna: Int64 = 0
    private var sndNxt: Int64 = 0
    private var sndMax: Int64 = 0
    private var finSequence: Int64?
    private(set) var isLocallyClosed = false

    // Receive side.
    private var rcvNxt: Int64 = 0
    private var outOfOrder: [(sequence: Int64, payload: [UInt8])] = []
    private var remoteFinSequence: Int64?
    private(set) var hasReceivedFin = false
    private var unacknowledgedSegments = 0
    private var mustAcknowledgeNow = false

    // Congestion control.
    private(set) var congestionWindowBytes: Int
    private var slowStartThresholdBytes = Int.max
    private var bytesAckedInAvoidance = 0
    private var duplicateAcks = 0
    private var isInRecovery = false
    private var recoveryPoint: Int64 = 0

    // Retransmission timer (RFC 6298).
    private var smoothedRTTNanoseconds: Int64?
    private var rttVariationNanoseconds: Int64 = 0
    private(set) var retransmissionTimeout: SimDuration
    private var retries = 0
    private var rttSample: (endSequence: Int64, sentAt: SimInstant)?

    // Per-ACK RTT samples from segments sent once (Karn), for HyStart's delay-increase test.
    private var firstTransmissions: [(endSequence: Int64, sentAt: SimInstant)] = []
    private var firstTransmissionsHead = 0
    private var minimumRTTNanoseconds = Int64.max
    private var hyStartRoundEnd: Int64 = 0
    private var hyStartRoundMinimumRTT = Int64.max
    private var hyStartSamples = 0

    /// When the retransmission timer expires, or nil when it is stopped.
    private(set) var retransmissionDeadline: SimInstant?
    /// When a held-back ACK must go out, or nil.
    private(set) var delayedAckDeadline: SimInstant?
    /// Bookkeeping of the network: when the armed timer events fire (the events may be later than a deadline
    /// that moved; the network re-arms then).
    var retransmissionTimerArmedAt: SimInstant?
    var delayedAckTimerArmedAt: SimInstant?

    // Outputs, drained by the network after each call.
    var outbox: [Segment] = []
    var events: [SocketEvent.Kind] = []
    var notes: [(kind: String, detail: String)] = []

    // Statistics.
    private(set) var retransmittedSegments = 0
    private(set) var retransmissionTimeouts = 0
    private(set) var fastRetransmits = 0
    private(set) var bytesQueuedByApplication = 0
    private(set) var bytesDelivered = 0

    /// The initiator's end: sends the SYN at once.
    init(initiator socket: SocketID, host: HostID, peerHost: HostID, configuration: TCPConfiguration, now: SimInstant) {
        self.socket = socket
        self.host = host
        self.peerHost = peerHost
        self.configuration = configuration
        self.state = .synSent
        self.congestionWindowBytes = configuration.initialWindowSegments * configuration.mssBytes
        self.retransmissionTimeout = configuration.initialRTO
        emit(flags: .syn, sequence: 0, payload: [])
        sndNxt = 1
        sndMax = 1
        rttSample = (1, now)
        retransmissionDeadline = now + retransmissionTimeout
    }

    /// The acceptor's end, created by an arriving SYN: answers SYN-ACK.
    init(acceptor socket: SocketID, host: HostID, peerHost: HostID, configuration: TCPConfiguration,
         syn: Segment, now: SimInstant) {
        self.socket = socket
        self.host = host
        self.peerHost = peerHost
        self.configuration = configuration
        self.state = .synReceived
        self.congestionWindowBytes = configuration.initialWindowSegments * configuration.mssBytes
        self.retransmissionTimeout = configuration.initialRTO
        rcvNxt = syn.sequence + 1
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
        sendBuffer.append(contentsOf: bytes)
        bytesQueuedByApplication += bytes.count
        transmit(now: now)
        return true
    }

    /// Closes the sending side after the queued bytes (FIN).
    mutating func close(now: SimInstant) {
        guard !isClosed, !isLocallyClosed else { return }
        isLocallyClosed = true
        finSequence = dataEndSequence
        transmit(now: now)
    }

    /// Aborts: sends RST, forgets everything.
    mutating func reset(now: SimInstant) {
        guard !isClosed else { return }
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
            if let sample = rttSample { updateRTT(sample: now - sample.sentAt) }
            rttSample = nil
            retries = 0
            retransmissionTimeout = computedRTO()
            retransmissionDeadline = nil
            state = .established
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
            if let sample = rttSample { updateRTT(sample: now - sample.sentAt) }
            rttSample = nil
            retries = 0
            retransmissionTimeout = computedRTO()
            retransmissionDeadline = nil
            state = .established
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
                if sendBufferHead > 65_536 && sendBufferHead * 2 > sendBuffer.count {
                    sendBuffer.removeFirst(sendBufferHead)
                    sendBufferHead = 0
                }
            }
            if sndNxt < sndUna { sndNxt = sndUna }
            if let sample = rttSample, ack >= sample.endSequence {
                updateRTT(sample: now - sample.sentAt)
                rttSample = nil
            }
            takeAckSample(acknowledging: ack, now: now)
            retries = 0
            retransmissionTimeout = computedRTO()
            if isInRecovery {
                if ack >= recoveryPoint {
                    congestionWindowBytes = slowStartThresholdBytes
                    isInRecovery = false
                } else {
                    // NewReno partial ACK (RFC 6582 §3.2 step 5): retransmit the next hole, deflate.
                    retransmit(sequence: sndUna, now: now)
                    congestionWindowBytes = max(congestionWindowBytes - acked + mss, mss)
                }
            } else if congestionWindowBytes < slowStartThresholdBytes {
                congestionWindowBytes += acked
            } else {
                bytesAckedInAvoidance += acked
                if bytesAckedInAvoidance >= congestionWindowBytes {
                    bytesAckedInAvoidance -= congestionWindowBytes
                    congestionWindowBytes += mss
                }
            }
            duplicateAcks = 0
            retransmissionDeadline = sndUna < sndMax ? now + retransmissionTimeout : nil
        } else if ack == sndUna, segment.payload.isEmpty, !segment.flags.contains(.fin), sndMax > sndUna {
            duplicateAcks += 1
            let isNewLossEpisode = ack > recoveryPoint || recoveryPoint == 0
            if duplicateAcks == configuration.duplicateAckThreshold, !isInRecovery, isNewLossEpisode {
                let flight = Int(sndMax - sndUna)
                slowStartThresholdBytes = max(flight / 2, 2 * mss)
                recoveryPoint = sndMax
                isInRecovery = true
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
        switch state {
        case .synSent:
            retransmittedSegments += 1
            emit(flags: .syn, sequence: 0, payload: [])
        case .synReceived:
            retransmittedSegments += 1
            emit(flags: [.syn, .ack], sequence: 0, payload: [])
        case .established:
            let mss = configuration.mssBytes
            slowStartThresholdBytes = max(Int(sndMax - sndUna) / 2, 2 * mss)
            congestionWindowBytes = mss
            bytesAckedInAvoidance = 0
            isInRecovery = false
            duplicateAcks = 0
            recoveryPoint = sndMax
            sndNxt = sndUna
            forgetFirstTransmissions()
            transmit(now: now)
        case .closedGracefully, .closedAbruptly:
            return
        }
        retransmissionDeadline = now + retransmissionTimeout
    }

    mutating func delayedAckTimerExpired(now: SimInstant) {
        guard let deadline = delayedAckDeadline, deadline <= now, !isClosed else { return }
        mustAcknowledgeNow = true
        flushAcknowledgement()
    }

    // MARK: - Sending

    /// Sends what the congestion window allows: new or (after a timeout) resent data, then the FIN.
    private mutating func transmit(now: SimInstant) {
        guard state == .established else { return }
        let mss = Int64(configuration.mssBytes)
        while true {
            let flight = sndNxt - sndUna
            let dataEnd = dataEndSequence
            if sndNxt < dataEnd {
                let length = min(mss, dataEnd - sndNxt)
                guard flight == 0 || flight + length <= Int64(congestionWindowBytes) else { break }
                let start = sendBufferHead + Int(sndNxt - sendBufferStartSequence)
                let isRetransmission = sndNxt < sndMax
                emit(flags: .ack, sequence: sndNxt, payload: Array(sendBuffer[start..<(start + Int(length))]))
                if isRetransmission {
                    retransmittedSegments += 1
                } else {
                    if rttSample == nil { rttSample = (sndNxt + length, now) }
                    if configuration.usesHyStart { firstTransmissions.append((sndNxt + length, now)) }
                }
                sndNxt += length
            } else if let fin = finSequence, sndNxt == fin {
                if sndNxt < sndMax { retransmittedSegments += 1 }
                emit(flags: [.fin, .ack], sequence: fin, payload: [])
                sndNxt = fin + 1
            } else {
                break
            }
            sndMax = max(sndMax, sndNxt)
            if retransmissionDeadline == nil { retransmissionDeadline = now + retransmissionTimeout }
        }
    }

    private mutating func retransmit(sequence: Int64, now: SimInstant) {
        rttSample = nil
        forgetFirstTransmissions()
        retransmittedSegments += 1
        if let fin = finSequence, sequence == fin {
            emit(flags: [.fin, .ack], sequence: fin, payload: [])
            return
        }
        let length = min(Int64(configuration.mssBytes), dataEndSequence - sequence)
        guard length > 0 else { return }
        let start = sendBufferHead + Int(sequence - sendBufferStartSequence)
        emit(flags: .ack, sequence: sequence, payload: Array(sendBuffer[start..<(start + Int(length))]))
    }

    private mutating func flushAcknowledgement() {
        if mustAcknowledgeNow { emit(flags: .ack, sequence: sndNxt, payload: []) }
    }

    private mutating func emit(flags: Segment.Flags, sequence: Int64, payload: [UInt8]) {
        outbox.append(Segment(
            destination: socket.peer, flags: flags, sequence: sequence,
            acknowledgment: flags.contains(.ack) ? rcvNxt : 0, payload: payload
        ))
        if flags.contains(.ack) {
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

    // MARK: - HyStart delay increase

    private mutating func forgetFirstTransmissions() {
        firstTransmissions.removeAll(keepingCapacity: true)
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
        let threshold = min(max(minimumRTTNanoseconds / 8, 4_000_000), 16_000_000)
        if hyStartRoundMinimumRTT > minimumRTTNanoseconds + threshold {
            slowStartThresholdBytes = congestionWindowBytes
            notes.append(("hystart-exit", "cwnd=\(congestionWindowBytes)"))
        }
    }

    // MARK: - RTO estimation (RFC 6298 §2)

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
