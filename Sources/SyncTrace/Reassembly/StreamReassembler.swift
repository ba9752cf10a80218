/// Reassembles one direction of a TCP connection from segments in capture order.
///
/// Sequence numbers are unwrapped into 64-bit stream offsets relative to the byte after the SYN (or, without a
/// SYN, to the first segment seen), comparing each against the next expected byte modulo 2^32 (RFC 9293 §3.4),
/// so streams cross the 2^32 wrap. Out-of-order bytes wait until the hole before them fills. Bytes received
/// twice keep the first copy; a second copy that differs is reported as an anomaly. A hole becomes a gap when
/// the peer acknowledges past it (the receiver got bytes the capture missed), when the snap length cut the
/// bytes off, or at the end of the capture when later bytes are waiting.
struct StreamReassembler {
    private(set) var trace = TCPStreamTrace()
    /// Sequence number of stream offset 0.
    private(set) var baseSeq: UInt32?
    /// Next stream offset expected in order: everything below is delivered or declared a gap.
    private var nextOffset: Int64 = 0
    /// Out-of-order bytes waiting for the hole before them, sorted by offset and disjoint.
    private var pending: [Pending] = []
    /// Ranges a packet announced but the snap length cut off, sorted by offset.
    private var snapCuts: [Range<Int64>] = []
    private(set) var finOffset: Int64?
    private(set) var isReset = false
    /// The stream offset just past the first RST's segment: nothing after it is the stream's.
    private var resetOffset: Int64?
    private var lastPacketNumber = 0
    private var lastTimestamp = CaptureTimestamp(nanosecondsSinceEpoch: 0)

    /// Offsets further than this from the next expected byte are treated as bogus rather than as a huge gap.
    private static let maximumDistance: Int64 = 1 << 30

    private struct Pending {
        var offset: Int64
        var bytes: [UInt8]
        var packetNumber: Int
        var timestamp: CaptureTimestamp
        var endOffset: Int64 { offset + Int64(bytes.count) }
    }

    /// The stream offset of sequence number `seq`, unwrapped around the next expected byte.
    private func offset(of seq: UInt32, base: UInt32) -> Int64 {
        let expected = base &+ UInt32(truncatingIfNeeded: nextOffset)
        return nextOffset + Int64(Int32(bitPattern: seq &- expected))
    }

    mutating func receive(_ segment: TCPSegment) {
        trace.segmentCount += 1
        trace.segmentTimes.append(.init(timestamp: segment.timestamp, payloadLength: segment.payloadLengthOnWire))
        lastPacketNumber = segment.packetNumber
        lastTimestamp = segment.timestamp
        guard !isReset else {
            record(.segmentAfterReset, segment)
            return
        }
        var dataSeq = segment.seq
        if segment.flags.contains(.syn) {
            trace.sawSYN = true
            dataSeq = segment.seq &+ 1
            if let baseSeq, baseSeq != dataSeq {
                record(.unexpectedSYN, segment)
            }
        }
        if baseSeq == nil {
            baseSeq = dataSeq
            if !segment.flags.contains(.syn) { record(.startedWithoutSYN, segment) }
        }
        guard let base = baseSeq else { return }
        var start = offset(of: dataSeq, base: base)
        guard abs(start - nextOffset) <= Self.maximumDistance else {
            record(.outOfWindow, segment, offset: start, length: Int64(segment.payloadLengthOnWire))
            return
        }
        var captured = segment.payload[...]
        var wireLength = Int64(segment.payloadLengthOnWire)
        if wireLength == 1 && start == nextOffset - 1 && nextOffset > 0 && !segment.flags.contains(.syn),
           case .data(_)? = trace.pieces.last {
            // A keep-alive probe repeats the last acknowledged byte, often as garbage (RFC 9293 §3.8.4); not data.
            // Only a byte already delivered is repeated: one that ends a range reported as a gap (the capture put
            // the ACK before the data) is the missing byte itself, and fills the gap late.
            trace.keepAliveCount += 1
            wireLength = 0
            captured = []
        }
        if start < 0 && wireLength > 0 {
            let dropped = min(-start, wireLength)
            record(.dataBeforeStreamStart, segment, offset: start, length: dropped)
            captured = captured.dropFirst(Int(min(dropped, Int64(captured.count))))
            wireLength -= dropped
            start += dropped
        }
        if let finOffset, wireLength > 0, start + wireLength > finOffset {
            record(
                .dataAfterFIN, segment, offset: max(start, finOffset),
                length: start + wireLength - max(start, finOffset))
            // A receiver ignores text past the FIN (RFC 9293 §3.10.7.4, CLOSE-WAIT): reported, not delivered, and
            // the FIN's own sequence number is no missing byte.
            let kept = max(0, finOffset - start)
            captured = captured.prefix(Int(min(kept, Int64(captured.count))))
            wireLength = kept
        }
        if wireLength > 0 {
            insert(Array(captured), at: start, wireLength: wireLength, segment: segment)
        }
        if segment.flags.contains(.fin) {
            trace.sawFIN = true
            if trace.firstFINTimestamp == nil { trace.firstFINTimestamp = segment.timestamp }
            if finOffset == nil { finOffset = start + wireLength }
        }
        drain(packetNumber: segment.packetNumber, timestamp: segment.timestamp)
        if segment.flags.contains(.rst) {
            resetOffset = resetOffset ?? start + wireLength
            trace.sawRST = true
            if trace.firstRSTTimestamp == nil { trace.firstRSTTimestamp = segment.timestamp }
            isReset = true
        }
    }

    /// The peer acknowledged everything before `ack`: holes below it are bytes the capture missed.
    mutating func acknowledge(_ ack: UInt32, packetNumber: Int, timestamp: CaptureTimestamp) {
        guard let base = baseSeq else { return }
        var ackOffset = offset(of: ack, base: base)
        if let finOffset { ackOffset = min(ackOffset, finOffset) }
        // Bytes sent after a RST are never delivered (they are reported as segments after it), so an ACK past
        // them shows no bytes the capture missed.
        if let resetOffset { ackOffset = min(ackOffset, resetOffset) }
        if ackOffset > (trace.acknowledgements.last?.offset ?? 0), ackOffset - nextOffset <= Self.maximumDistance {
            trace.acknowledgements.append(.init(timestamp: timestamp, offset: ackOffset))
        }
        guard ackOffset > nextOffset, ackOffset - nextOffset <= Self.maximumDistance else { return }
        declareGaps(upTo: ackOffset, packetNumber: packetNumber, timestamp: timestamp)
    }

    /// Ends the capture: waiting bytes are delivered with gaps before them; bytes missing before a FIN become a gap.
    mutating func finish() {
        while let first = pending.first {
            declareGaps(upTo: first.offset, packetNumber: first.packetNumber, timestamp: first.timestamp)
            drain(packetNumber: first.packetNumber, timestamp: first.timestamp)
        }
        if let last = snapCuts.last {
            declareGaps(upTo: last.upperBound, packetNumber: lastPacketNumber, timestamp: lastTimestamp)
        }
        if let finOffset {
            declareGaps(upTo: finOffset, packetNumber: lastPacketNumber, timestamp: lastTimestamp)
        }
    }

    // MARK: - Bytes

    private mutating func insert(_ bytes: [UInt8], at start: Int64, wireLength: Int64, segment: TCPSegment) {
        let capturedEnd = start + Int64(bytes.count)
        if capturedEnd < start + wireLength {
            snapCuts.append(capturedEnd..<(start + wireLength))
            snapCuts.sort { $0.lowerBound < $1.lowerBound }
        }
        var repeatedBytes: Int64 = 0
        var conflicts: [Range<Int64>] = []

        // Below the next expected byte: delivered already (compare), or declared a gap (fill it late).
        if start < nextOffset {
            let oldEnd = min(capturedEnd, nextOffset)
            var index = trace.pieces.count - 1
            while index >= 0 && trace.pieces[index].endOffset > start {
                let piece = trace.pieces[index]
                let low = max(start, piece.offset)
                let high = min(oldEnd, piece.endOffset)
                if low < high {
                    switch piece {
                    case .data(let run):
                        compare(
                            bytes, start, run.bytes, run.offset, low..<high, repeated: &repeatedBytes,
                            conflicts: &conflicts)
                    case .gap(let gap):
                        fillLate(gap, at: index, with: bytes, start, low..<high, segment)
                    }
                }
                index -= 1
            }
        }

        // At or above it: compare with waiting bytes, keep only what is new.
        var cursor = max(start, nextOffset)
        var fresh: [Pending] = []
        for piece in pending where piece.endOffset > cursor && piece.offset < capturedEnd {
            if piece.offset > cursor {
                fresh.append(slice(bytes, start, cursor..<min(piece.offset, capturedEnd), segment))
            }
            let low = max(cursor, piece.offset)
            let high = min(capturedEnd, piece.endOffset)
            compare(
                bytes, start, piece.bytes, piece.offset, low..<high, repeated: &repeatedBytes, conflicts: &conflicts)
            cursor = high
        }
        if cursor < capturedEnd {
            fresh.append(slice(bytes, start, cursor..<capturedEnd, segment))
        }
        if !fresh.isEmpty {
            pending.append(contentsOf: fresh)
            pending.sort { $0.offset < $1.offset }
        }
        if repeatedBytes > 0 || !conflicts.isEmpty {
            trace.retransmittedSegmentCount += 1
            trace.retransmittedByteCount += repeatedBytes
            // `receive` appended this segment's entry before inserting its bytes.
            if !trace.segmentTimes.isEmpty { trace.segmentTimes[trace.segmentTimes.count - 1].isRetransmission = true }
            trace.retransmissions.append(.init(timestamp: segment.timestamp, offset: start, length: wireLength))
        }
        for conflict in conflicts {
            record(.overlapConflict, segment, offset: conflict.lowerBound, length: Int64(conflict.count))
        }
    }

    /// Bytes arrived for part of a range already reported as a gap (the capture reordered them behind the ACK
    /// that declared the gap): the gap piece at `index` splits around a new data run.
    private mutating func fillLate(
        _ gap: StreamGap, at index: Int, with bytes: [UInt8], _ start: Int64, _ range: Range<Int64>,
        _ segment: TCPSegment
    ) {
        var replacement: [StreamPiece] = []
        if range.lowerBound > gap.offset {
            var before = gap
            before.length = range.lowerBound - gap.offset
            replacement.append(.gap(before))
        }
        let run = ByteRun(
            offset: range.lowerBound,
            bytes: Array(bytes[Int(range.lowerBound - start)..<Int(range.upperBound - start)]),
            timestamp: segment.timestamp, packetNumber: segment.packetNumber)
        replacement.append(.data(run))
        if range.upperBound < gap.endOffset {
            var after = gap
            after.offset = range.upperBound
            after.length = gap.endOffset - range.upperBound
            replacement.append(.gap(after))
        }
        trace.pieces.replaceSubrange(index...index, with: replacement)
        record(.gapFilledLate, segment, offset: range.lowerBound, length: Int64(range.count))
    }

    private func slice(_ bytes: [UInt8], _ start: Int64, _ range: Range<Int64>, _ segment: TCPSegment) -> Pending {
        Pending(
            offset: range.lowerBound,
            bytes: Array(bytes[Int(range.lowerBound - start)..<Int(range.upperBound - start)]),
            packetNumber: segment.packetNumber,
            timestamp: segment.timestamp
        )
    }

    /// Compares the new copy with the old one over `range`; counts equal bytes, collects the differing span.
    private func compare(
        _ new: [UInt8], _ newStart: Int64, _ old: [UInt8], _ oldStart: Int64, _ range: Range<Int64>,
        repeated: inout Int64, conflicts: inout [Range<Int64>]
    ) {
        var firstDifference: Int64?
        var lastDifference: Int64 = 0
        for position in range {
            if new[Int(position - newStart)] != old[Int(position - oldStart)] {
                if firstDifference == nil { firstDifference = position }
                lastDifference = position
            }
        }
        if let firstDifference {
            conflicts.append(firstDifference..<(lastDifference + 1))
        } else {
            repeated += Int64(range.count)
        }
    }

    /// Delivers waiting bytes that now follow in order, and the snap-length gaps they reach.
    private mutating func drain(packetNumber: Int, timestamp: CaptureTimestamp) {
        while true {
            if let first = pending.first, first.offset == nextOffset {
                pending.removeFirst()
                appendData(first.bytes, packetNumber: packetNumber, timestamp: timestamp)
                continue
            }
            if let cut = snapCuts.first(where: { $0.contains(nextOffset) }) {
                let end = min(cut.upperBound, pending.first?.offset ?? cut.upperBound)
                appendGap(upTo: end, cause: .cutBySnapLength, packetNumber: packetNumber, timestamp: timestamp)
                continue
            }
            break
        }
        snapCuts.removeAll { $0.upperBound <= nextOffset }
    }

    private mutating func declareGaps(upTo limit: Int64, packetNumber: Int, timestamp: CaptureTimestamp) {
        while nextOffset < limit {
            if let first = pending.first, first.offset <= nextOffset {
                pending.removeFirst()
                appendData(first.bytes, packetNumber: packetNumber, timestamp: timestamp)
                continue
            }
            let end = min(limit, pending.first?.offset ?? limit)
            let isCut = snapCuts.contains { $0.contains(nextOffset) }
            let holeEnd = isCut ? min(end, snapCuts.first { $0.contains(nextOffset) }!.upperBound) : end
            appendGap(
                upTo: holeEnd, cause: isCut ? .cutBySnapLength : .notCaptured,
                packetNumber: packetNumber, timestamp: timestamp)
        }
        drain(packetNumber: packetNumber, timestamp: timestamp)
    }

    private mutating func appendData(_ bytes: [UInt8], packetNumber: Int, timestamp: CaptureTimestamp) {
        if case .data(var run) = trace.pieces.last, run.packetNumber == packetNumber, run.endOffset == nextOffset {
            run.bytes.append(contentsOf: bytes)
            trace.pieces[trace.pieces.count - 1] = .data(run)
        } else {
            trace.pieces.append(
                .data(ByteRun(offset: nextOffset, bytes: bytes, timestamp: timestamp, packetNumber: packetNumber)))
        }
        nextOffset += Int64(bytes.count)
    }

    private mutating func appendGap(
        upTo end: Int64, cause: StreamGap.Cause, packetNumber: Int, timestamp: CaptureTimestamp
    ) {
        guard end > nextOffset else { return }
        if case .gap(var gap) = trace.pieces.last, gap.cause == cause, gap.endOffset == nextOffset {
            gap.length += end - nextOffset
            trace.pieces[trace.pieces.count - 1] = .gap(gap)
        } else {
            trace.pieces.append(
                .gap(
                    StreamGap(
                        offset: nextOffset, length: end - nextOffset, cause: cause, packetNumber: packetNumber,
                        timestamp: timestamp
                    )))
        }
        nextOffset = end
    }

    private mutating func record(
        _ kind: StreamAnomaly.Kind, _ segment: TCPSegment, offset: Int64? = nil, length: Int64? = nil
    ) {
        trace.anomalies.append(
            StreamAnomaly(kind: kind, packetNumber: segment.packetNumber, offset: offset, length: length))
    }
}
