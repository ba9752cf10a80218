import SyncProtocol

/// Cuts one reassembled direction into frames with `FrameDecoder`, resynchronising after gaps and bad headers.
///
/// Bytes are buffered with the runs they came from, so each frame gets the timestamp of the run holding its last
/// byte. After a gap, or where a header is not a frame header, the extractor skips to the next offset that
/// `FrameHeaderScanner` finds plausible instead of giving up on the stream.
struct StreamFrameExtractor {
    let connectionNumber: Int
    let direction: TraceDirection
    let scanner: FrameHeaderScanner
    private var decoder: FrameDecoder
    private var buffer: [UInt8] = []
    /// Stream offset of `buffer[0]`.
    private var bufferOffset: Int64 = 0
    /// End offsets of the buffered runs with their completing packets, in stream order.
    private var completions: [(endOffset: Int64, timestamp: CaptureTimestamp, packetNumber: Int)] = []
    private var needsResync: Bool
    /// Whether the frame at the buffer's start was found by scanning and is not yet confirmed.
    private var isTentative = false
    private var lastPacketNumber = 0
    private(set) var frames: [TraceFrame] = []
    private(set) var issues: [TraceFrameIssue] = []

    init(
        connectionNumber: Int, direction: TraceDirection, decoder: FrameDecoder, startsMidStream: Bool
    ) {
        self.connectionNumber = connectionNumber
        self.direction = direction
        self.decoder = decoder
        var scanner = FrameHeaderScanner(layout: decoder.layout, maxPayloadBytes: decoder.maxPayloadBytes)
        scanner.version = decoder.version
        self.scanner = scanner
        self.needsResync = startsMidStream
    }

    mutating func extract(_ stream: TCPStreamTrace) {
        for piece in stream.pieces {
            switch piece {
            case .gap(let gap):
                // No byte will follow the buffer contiguously: settle a tentative frame and decode what fits.
                if !buffer.isEmpty { decodeBuffered(atEnd: true) }
                issue(
                    .gap, offset: gap.offset, byteCount: gap.length, packetNumber: gap.packetNumber,
                    detail: gap.cause.rawValue)
                if !buffer.isEmpty {
                    issue(
                        .frameCutByGap, offset: bufferOffset, byteCount: Int64(buffer.count),
                        packetNumber: gap.packetNumber)
                }
                buffer.removeAll()
                completions.removeAll()
                isTentative = false
                bufferOffset = gap.endOffset
                needsResync = true
            case .data(let run):
                if buffer.isEmpty { bufferOffset = run.offset }
                buffer.append(contentsOf: run.bytes)
                completions.append((run.endOffset, run.timestamp, run.packetNumber))
                lastPacketNumber = run.packetNumber
                decodeBuffered()
            }
        }
        decodeBuffered(atEnd: true)
        if !buffer.isEmpty {
            issue(
                .streamEndsInsideFrame, offset: bufferOffset, byteCount: Int64(buffer.count),
                packetNumber: lastPacketNumber)
        }
    }

    /// Decodes every whole frame in the buffer. After a resync the candidate frame is tentative: it is dropped
    /// (and the scan goes on one byte later) when the header after it is not plausible or its payload does not
    /// decode, or, at the end of the stream, when its payload never arrived.
    private mutating func decodeBuffered(atEnd: Bool = false) {
        var start = 0
        defer { drop(start) }
        while true {
            if needsResync {
                guard let found = scanner.plausibleHeaderOffset(in: buffer, from: start, requiresWholeFrame: atEnd)
                else {
                    let keep = atEnd ? 0 : min(FrameHeaderScanner.carriedBytes, buffer.count - start)
                    let skipped = buffer.count - start - keep
                    if skipped > 0 {
                        issue(
                            .skippedToResync, offset: bufferOffset + Int64(start), byteCount: Int64(skipped),
                            packetNumber: lastPacketNumber)
                    }
                    start += skipped
                    return
                }
                if found > start {
                    issue(
                        .skippedToResync, offset: bufferOffset + Int64(start), byteCount: Int64(found - start),
                        packetNumber: lastPacketNumber)
                }
                start = found
                needsResync = false
                isTentative = true
            }
            guard buffer.count - start >= FrameHeader.byteCount else { return }
            guard let payloadLength = scanner.plausiblePayloadLength(in: buffer, at: start) else {
                issue(
                    .badHeader, offset: bufferOffset + Int64(start), byteCount: Int64(FrameHeader.byteCount),
                    packetNumber: lastPacketNumber, detail: headerDetail(at: start))
                needsResync = true
                continue
            }
            let frameEnd = start + FrameHeader.byteCount + payloadLength
            if isTentative {
                let nextHeaderArrived = frameEnd + FrameHeader.byteCount <= buffer.count
                let isFalseStart =
                    (nextHeaderArrived && scanner.plausibleFrameLength(in: buffer, at: frameEnd) == nil)
                    || (atEnd && frameEnd > buffer.count)
                if isFalseStart {
                    resyncAfterFalseStart(&start)
                    continue
                }
                // Wait for the next header, unless the stream ends with this frame.
                guard nextHeaderArrived || (atEnd && frameEnd <= buffer.count) else { return }
            }
            guard frameEnd <= buffer.count else { return }
            let frameOffset = bufferOffset + Int64(start)
            let completion = completion(from: frameOffset, to: bufferOffset + Int64(frameEnd))
            var reader = ByteReader(streamOffset: Int(frameOffset))
            reader.append(contentsOf: buffer[start..<frameEnd])
            do {
                if let decoded = try decoder.decodeFrame(&reader) {
                    frames.append(
                        TraceFrame(
                            connectionNumber: connectionNumber, direction: direction, timestamp: completion.timestamp,
                            packetNumber: completion.packetNumber, decoded: decoded
                        ))
                }
            } catch {
                if isTentative {
                    resyncAfterFalseStart(&start)
                    continue
                }
                issue(
                    .undecodablePayload, offset: frameOffset, byteCount: Int64(frameEnd - start),
                    packetNumber: completion.packetNumber, detail: "\(error)")
                decoder.countSkippedFrame()
            }
            isTentative = false
            start = frameEnd
        }
    }

    /// The latest-completing run among those holding bytes of `from..<to`: when its last byte arrived in order,
    /// that is the run holding it; when a gap was filled late, the late run.
    private func completion(
        from: Int64, to: Int64
    ) -> (endOffset: Int64, timestamp: CaptureTimestamp, packetNumber: Int) {
        var latest: (endOffset: Int64, timestamp: CaptureTimestamp, packetNumber: Int)?
        for entry in completions where entry.endOffset > from {
            if latest == nil || entry.timestamp > latest!.timestamp { latest = entry }
            if entry.endOffset >= to { break }
        }
        return latest ?? completions.last!
    }

    /// The candidate at `start` was not a frame after all: skip its first byte and scan again.
    private mutating func resyncAfterFalseStart(_ start: inout Int) {
        issue(.skippedToResync, offset: bufferOffset + Int64(start), byteCount: 1, packetNumber: lastPacketNumber)
        start += 1
        needsResync = true
    }

    private func headerDetail(at start: Int) -> String {
        let bytes = buffer[start..<(start + FrameHeader.byteCount)]
        return "expected ver 10, cmd 0...3 and a length up to \(scanner.maxPayloadBytes) bytes; found "
            + bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined(separator: " ")
    }

    private mutating func drop(_ count: Int) {
        guard count > 0 else { return }
        buffer.removeFirst(count)
        bufferOffset += Int64(count)
        completions.removeAll { $0.endOffset <= bufferOffset }
        if buffer.isEmpty { completions.removeAll() }
    }

    private mutating func issue(
        _ kind: TraceFrameIssue.Kind, offset: Int64, byteCount: Int64, packetNumber: Int, detail: String = ""
    ) {
        if kind == .skippedToResync, let last = issues.last, last.kind == .skippedToResync,
            last.offset + last.byteCount == offset
        {
            issues[issues.count - 1].byteCount += byteCount
            return
        }
        issues.append(
            TraceFrameIssue(
                kind: kind, connectionNumber: connectionNumber, direction: direction, offset: offset,
                byteCount: byteCount, packetNumber: packetNumber, detail: detail
            ))
    }
}
