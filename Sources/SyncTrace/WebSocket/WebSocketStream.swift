import SyncProtocol

/// The field frames a captured WebSocket connection carries, as a stream `StreamFrameExtractor` can cut.
///
/// A connection is a WebSocket one when its client's stream begins with an HTTP `GET` and its server's with
/// `HTTP/1.1 101` (RFC 6455 §4): PyMax's `WebClient` (`pymax/transport/websocket.py`), or `syncsim serve`'s
/// WebSocket side. Each direction's HTTP head is skipped; its frames are read (masked or not), control frames
/// dropped, fragments joined, and each message becomes field-frame bytes: a binary message as it is (PyMax 2.5.0:
/// `TcpProtocol` bytes), a text message as its JSON frame (`JSONFrame`) encoded uncompressed. Each message's bytes
/// take the timestamp and packet of the run holding its last byte.
///
/// A WebSocket frame has no marker to find again after missing bytes, so a gap, or a frame that breaks RFC 6455,
/// ends the direction's decoding, with an issue saying where. Frame offsets are mapped back to the capture's
/// stream: a frame ends where its message's last WebSocket frame ends, so the offsets a replay compares with
/// acknowledgements stay those of the wire.
struct WebSocketStream {
    /// One message's bytes in the unwrapped stream and where its WebSocket frames lay in the captured one.
    struct Span {
        var unwrapped: Range<Int64>
        var captured: Range<Int64>
        /// What the message was when it was a JSON text message.
        var jsonMessage: TraceFrame.JSONMessage?
    }

    /// The unwrapped stream: one data run per message, touching, from offset 0.
    private(set) var stream = TCPStreamTrace()
    private(set) var spans: [Span] = []
    private(set) var issues: [TraceFrameIssue] = []

    /// Whether `connection` opened a WebSocket: the client's first bytes are a `GET`, the server's `HTTP/1.1 101`.
    static func isWebSocket(_ connection: TCPConnectionTrace) -> Bool {
        func starts(_ stream: TCPStreamTrace, with prefix: String) -> Bool {
            guard stream.sawSYN, case .data(let run)? = stream.pieces.first, run.offset == 0 else { return false }
            return run.bytes.starts(with: Array(prefix.utf8))
        }
        return starts(connection.clientToServer, with: "GET ")
            && starts(connection.serverToClient, with: "HTTP/1.1 101")
    }

    /// Unwraps one direction of a WebSocket connection.
    init(_ captured: TCPStreamTrace, connectionNumber: Int, direction: TraceDirection, maxPayloadBytes: Int) {
        stream.sawSYN = true
        let encoder = FrameEncoder(compressionThresholdBytes: Int.max, maxPayloadBytes: maxPayloadBytes)
        let maxMessageBytes = maxPayloadBytes + FrameHeader.byteCount
        var assembler = WebSocketMessageAssembler(maxMessageBytes: maxMessageBytes)
        var buffer: [UInt8] = []
        var bufferOffset: Int64 = 0
        var runs: [(endOffset: Int64, timestamp: CaptureTimestamp, packetNumber: Int)] = []
        var headDone = false
        var messageStart: Int64?
        var lastPacket = 0

        func issue(_ kind: TraceFrameIssue.Kind, at offset: Int64, _ byteCount: Int64, packet: Int, _ detail: String) {
            issues.append(TraceFrameIssue(kind: kind, connectionNumber: connectionNumber, direction: direction,
                                          offset: offset, byteCount: byteCount, packetNumber: packet, detail: detail))
        }

        pieces: for piece in captured.pieces {
            switch piece {
            case .gap(let gap):
                issue(.gap, at: gap.offset, gap.length, packet: gap.packetNumber, gap.cause.rawValue)
                issue(.webSocket, at: bufferOffset, Int64(buffer.count) + gap.length, packet: gap.packetNumber,
                      "a gap cuts the WebSocket stream, which has no marker to resync on: the rest of the direction "
                        + "is not decoded")
                buffer = []
                break pieces
            case .data(let run):
                if buffer.isEmpty { bufferOffset = run.offset }
                buffer += run.bytes
                runs.append((run.endOffset, run.timestamp, run.packetNumber))
                lastPacket = run.packetNumber
            }
            if !headDone {
                guard let end = WebSocketFrame.httpHeadLength(in: buffer) else {
                    if buffer.count >= WebSocketFrame.maxHTTPHeadBytes + 4 {
                        issue(.webSocket, at: bufferOffset, Int64(buffer.count), packet: lastPacket,
                              "no blank line ends the HTTP head in its first \(WebSocketFrame.maxHTTPHeadBytes) bytes")
                        buffer = []
                        break pieces
                    }
                    continue
                }
                buffer.removeFirst(end)
                bufferOffset += Int64(end)
                headDone = true
            }
            while true {
                let frame: WebSocketFrame
                do {
                    guard let parsed = try WebSocketFrame.parse(buffer, maxPayloadBytes: maxMessageBytes) else { break }
                    frame = parsed
                } catch {
                    issue(.webSocket, at: bufferOffset + Int64(error.offset), Int64(buffer.count) - Int64(error.offset),
                          packet: lastPacket, error.reason + "; the rest of the direction is not decoded")
                    buffer = []
                    break pieces
                }
                let frameStart = bufferOffset
                let frameEnd = frameStart + Int64(frame.wireByteCount)
                buffer.removeFirst(frame.wireByteCount)
                bufferOffset = frameEnd
                let completion = runs.first { $0.endOffset >= frameEnd } ?? runs[runs.count - 1]
                runs.removeAll { $0.endOffset <= frameEnd }
                guard !frame.isControl else { continue }
                if messageStart == nil { messageStart = frameStart }
                let message: WebSocketMessageAssembler.Message?
                do {
                    message = try assembler.take(frame)
                } catch {
                    issue(.webSocket, at: frameStart + Int64(error.offset),
                          Int64(frame.wireByteCount) - Int64(error.offset),
                          packet: completion.packetNumber, error.reason + "; the rest of the direction is not decoded")
                    buffer = []
                    break pieces
                }
                guard let message else { continue }
                let start = messageStart ?? frameStart
                messageStart = nil
                var bytes: [UInt8]
                var jsonMessage: TraceFrame.JSONMessage?
                switch message {
                case .binary(let frameBytes):
                    bytes = frameBytes
                case .text(let text):
                    do {
                        let parsed = try JSONFrame.parse(text)
                        bytes = try encoder.encode(parsed.frame)
                        jsonMessage = TraceFrame.JSONMessage(version: parsed.version, textByteCount: text.count)
                    } catch {
                        issue(.undecodablePayload, at: start, frameEnd - start, packet: completion.packetNumber,
                              "\(error)")
                        continue
                    }
                }
                guard !bytes.isEmpty else { continue }
                let unwrappedStart = stream.pieces.last?.endOffset ?? 0
                stream.pieces.append(.data(ByteRun(offset: unwrappedStart, bytes: bytes,
                                                   timestamp: completion.timestamp,
                                                   packetNumber: completion.packetNumber)))
                spans.append(Span(unwrapped: unwrappedStart..<(unwrappedStart + Int64(bytes.count)),
                                  captured: start..<frameEnd, jsonMessage: jsonMessage))
            }
        }
        if !buffer.isEmpty {
            issue(.webSocket, at: bufferOffset, Int64(buffer.count), packet: lastPacket,
                  headDone ? "the stream ends inside a WebSocket frame" : "the stream ends inside the HTTP head")
        }
    }

    /// The span holding the unwrapped stream's `offset`, nil past the last.
    func span(at offset: Int64) -> Span? {
        spanIndex(at: offset).map { spans[$0] }
    }

    /// The index of the first span ending after `offset` (spans touch and ascend), by binary search.
    private func spanIndex(at offset: Int64) -> Int? {
        var low = 0
        var high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].unwrapped.upperBound > offset { high = middle } else { low = middle + 1 }
        }
        return low < spans.count ? low : nil
    }

    /// The captured stream's offset for an offset of the unwrapped one: bytes of a message are placed so that the
    /// message ends where its last WebSocket frame ends (never before its first frame starts).
    func capturedOffset(_ offset: Int64) -> Int64 {
        guard let index = spanIndex(at: offset) else {
            return spans.last?.captured.upperBound ?? offset
        }
        let span = spans[index]
        return max(span.captured.lowerBound, span.captured.upperBound - (span.unwrapped.upperBound - offset))
    }
}
