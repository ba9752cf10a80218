import SyncProtocol

/// The field frames a captured WebSocket connection carries, as a stream `StreamFrameExtractor` can cut.
///
/// A connection is a WebSocket one when its client's stream begins with an HTTP `GET` and its server's with
/// `HTTP/1.1 101` (RFC 6455 §4): PyMax's `WebClient` (`pymax/transport/websocket.py`), or `syncsim serve`'s
/// WebSocket side; or, captured from its middle, when its bytes are found to be WebSocket frames holding field
/// frames (`starts(of:scanner:maxPayloadBytes:)`). Each direction's HTTP head (or the tail of a frame begun before
/// the capture) is skipped; its frames are read (masked or not), control frames
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
        /// The message's compressed size when it came compressed by permessage-deflate.
        var deflatedByteCount: Int?
    }

    /// The unwrapped stream: one data run per message, touching, from offset 0.
    private(set) var stream = TCPStreamTrace()
    private(set) var spans: [Span] = []
    private(set) var issues: [TraceFrameIssue] = []

    /// Where a direction's WebSocket bytes begin.
    enum Start: Hashable {
        /// With the HTTP head of the upgrade, to be skipped.
        case httpHead
        /// With a WebSocket frame at this stream offset: the capture began after the upgrade, and the bytes before
        /// it are the tail of a frame already under way.
        case frame(at: Int64)
        /// Nowhere found: the whole direction is reported, not decoded.
        case notFound
    }

    /// How a WebSocket connection's two directions begin, and what compression its handshake agreed.
    struct Opening: Hashable {
        var clientToServer: Start
        var serverToClient: Start
        /// permessage-deflate, when the server's `101` answer agreed to it, or when a connection captured from its
        /// middle carries compressed messages (RSV1); nil otherwise.
        var deflate: PerMessageDeflate?
        /// The connection was captured from its middle with compressed messages: the DEFLATE window before the
        /// capture is unknown, so a message that refers to it cannot be read and is skipped (see `init`).
        var deflateContextUnknown = false

        func start(_ direction: TraceDirection) -> Start {
            direction == .clientToServer ? clientToServer : serverToClient
        }
    }

    /// How many leading bytes of a direction are searched for the first frame when the capture began mid-connection.
    static let midStreamSearchBytes = 65_536
    /// How many whole data messages, each holding field frames, make a mid-connection start certain; fewer will do
    /// when the direction holds no more before its first gap or its end.
    static let midStreamConfirmingMessages = 2

    /// How each direction of `connection` begins when it is a WebSocket one, nil when it is not.
    ///
    /// A connection is a WebSocket one when its client's stream begins with an HTTP `GET` and its server's with
    /// `HTTP/1.1 101`. A connection captured from its middle (neither direction's SYN seen) is one when either
    /// direction's first bytes hold, from some offset on, WebSocket frames (the client's masked, the server's not,
    /// as RFC 6455 §5.1 has them) whose messages are field frames: binary messages made exactly of plausible frame
    /// headers and their payloads, or text messages that parse as JSON frames. A field-frame stream's header begins
    /// with version 10, which is no valid first byte of a WebSocket frame (FIN clear on a control opcode), so the
    /// two cannot be taken for each other at a frame boundary.
    static func starts(of connection: TCPConnectionTrace, scanner: FrameHeaderScanner, maxPayloadBytes: Int)
        -> Opening? {
        func starts(_ stream: TCPStreamTrace, with prefix: String) -> Bool {
            // The opening may come in several segments (a small MSS, a client writing its request line in parts):
            // the bytes before the first gap, not the first packet's alone.
            guard let (bytes, offset) = leadingBytes(of: stream, limit: prefix.utf8.count),
                  stream.sawSYN ? offset == 0 : true else { return false }
            return bytes.starts(with: Array(prefix.utf8))
        }
        if starts(connection.clientToServer, with: "GET ") && starts(connection.serverToClient, with: "HTTP/1.1 101") {
            return Opening(clientToServer: .httpHead, serverToClient: .httpHead,
                           deflate: leadingHead(of: connection.serverToClient).flatMap {
                               PerMessageDeflate.agreed(inResponseHead: $0)
                           })
        }
        guard !connection.clientToServer.sawSYN, !connection.serverToClient.sawSYN else { return nil }
        func find(_ stream: TCPStreamTrace, masked: Bool, confirming: Int) -> Int64? {
            firstFrame(in: stream, masked: masked, confirming: confirming, scanner: scanner,
                       maxPayloadBytes: maxPayloadBytes)
        }
        var client = find(connection.clientToServer, masked: true, confirming: midStreamConfirmingMessages)
        var server = find(connection.serverToClient, masked: false, confirming: midStreamConfirmingMessages)
        guard client != nil || server != nil else {
            // Compressed messages (permessage-deflate) hide the field frames: recognised by their framing alone.
            let client = firstCompressedFrame(in: connection.clientToServer, masked: true,
                                              maxPayloadBytes: maxPayloadBytes)
            let server = firstCompressedFrame(in: connection.serverToClient, masked: false,
                                              maxPayloadBytes: maxPayloadBytes)
            guard client != nil || server != nil else { return nil }
            return Opening(clientToServer: client.map { .frame(at: $0) } ?? .notFound,
                           serverToClient: server.map { .frame(at: $0) } ?? .notFound, deflate: PerMessageDeflate(),
                           deflateContextUnknown: true)
        }
        // One direction settled it: the other needs only one message, even one cut by a gap after it.
        if client == nil { client = find(connection.clientToServer, masked: true, confirming: 1) }
        if server == nil { server = find(connection.serverToClient, masked: false, confirming: 1) }
        return Opening(clientToServer: client.map { .frame(at: $0) } ?? .notFound,
                       serverToClient: server.map { .frame(at: $0) } ?? .notFound, deflate: nil)
    }

    /// The HTTP head a direction begins with, nil when the bytes before its first gap hold no whole one.
    private static func leadingHead(of stream: TCPStreamTrace) -> [UInt8]? {
        var bytes: [UInt8] = []
        for piece in stream.pieces {
            guard case .data(let run) = piece, bytes.count < WebSocketFrame.maxHTTPHeadBytes + 4 else { break }
            bytes += run.bytes
            if let length = WebSocketFrame.httpHeadLength(in: bytes) { return Array(bytes[..<length]) }
        }
        return nil
    }

    /// The stream offset of the first WebSocket frame of a direction captured from its middle, nil when none is
    /// found in its first `midStreamSearchBytes` (see `starts(of:scanner:maxPayloadBytes:)`): from it, `confirming`
    /// data messages of field frames, or as many as there are when the frames run exactly to the end of the bytes
    /// before the first gap; with `confirming` 1, a frame cut by that end may follow the one message.
    static func firstFrame(in stream: TCPStreamTrace, masked: Bool, confirming: Int, scanner: FrameHeaderScanner,
                           maxPayloadBytes: Int) -> Int64? {
        guard let (bytes, firstOffset) = leadingBytes(of: stream, limit: midStreamSearchBytes
                + 4 * (maxPayloadBytes + 14)) else { return nil }
        let maxMessageBytes = maxPayloadBytes + FrameHeader.byteCount
        for start in 0..<min(bytes.count, midStreamSearchBytes) {
            let first = bytes[start]
            guard first & 0x70 == 0, [1, 2, 8, 9, 10].contains(first & 0x0F), start + 1 < bytes.count,
                  (bytes[start + 1] & 0x80 != 0) == masked else { continue }
            if confirms(bytes, from: start, masked: masked, confirming: confirming, scanner: scanner,
                        maxMessageBytes: maxMessageBytes) {
                return firstOffset + Int64(start)
            }
        }
        return nil
    }

    /// The contiguous bytes a direction begins with, up to its first gap (a frame cannot be followed across one) and
    /// at most `limit`, with the stream offset of the first; nil for a direction that begins with a gap or holds none.
    static func leadingBytes(of stream: TCPStreamTrace, limit: Int) -> (bytes: [UInt8], offset: Int64)? {
        var bytes: [UInt8] = []
        var firstOffset: Int64?
        for piece in stream.pieces {
            guard case .data(let run) = piece else { break }
            if firstOffset == nil { firstOffset = run.offset }
            bytes += run.bytes.prefix(limit - bytes.count)
            if bytes.count >= limit { break }
        }
        return firstOffset.map { (bytes, $0) }
    }

    /// How many compressed data messages in a row, framed as RFC 6455 and 7692 have them, make a direction captured
    /// from its middle a permessage-deflate WebSocket one; fewer will do when the frames run exactly to the end of
    /// the bytes before the first gap.
    static let midStreamCompressedMessages = 4

    /// The stream offset of the first WebSocket frame of a direction captured from its middle whose data messages
    /// are compressed (RSV1 on each message's first frame, RFC 7692 §6), nil when none is found in its first
    /// `midStreamSearchBytes`: from it, frames follow one another (masked as `masked` says, only data messages
    /// compressed, no RSV2 or RSV3) over `midStreamCompressedMessages` compressed messages, or over at least two
    /// and exactly to the end of the bytes before the first gap. Their contents are not looked at: they may refer to
    /// the DEFLATE window of messages sent before the capture.
    static func firstCompressedFrame(in stream: TCPStreamTrace, masked: Bool, maxPayloadBytes: Int) -> Int64? {
        guard let (bytes, firstOffset) = leadingBytes(of: stream, limit: midStreamSearchBytes
                + midStreamCompressedMessages * (maxPayloadBytes + 14)) else { return nil }
        let maxMessageBytes = maxPayloadBytes + FrameHeader.byteCount
        search: for start in 0..<min(bytes.count, midStreamSearchBytes) {
            let first = bytes[start]
            guard first & 0x40 != 0, first & 0x30 == 0, [1, 2].contains(first & 0x0F), start + 1 < bytes.count,
                  (bytes[start + 1] & 0x80 != 0) == masked else { continue }
            var offset = start
            var compressed = 0
            var inMessage = false
            while compressed < midStreamCompressedMessages {
                let frame: WebSocketFrame
                do {
                    guard let parsed = try WebSocketFrame.parse(bytes, at: offset, maxPayloadBytes: maxMessageBytes,
                                                                allowsCompressed: true) else {
                        if compressed >= 2 && offset == bytes.count && !inMessage { break }
                        continue search
                    }
                    frame = parsed
                } catch {
                    continue search
                }
                guard frame.isMasked == masked else { continue search }
                offset += frame.wireByteCount
                guard !frame.isControl else { continue }
                // Only the first frame of a message may be compressed, and every message here is.
                guard frame.isCompressed == (frame.opcode != 0), inMessage == (frame.opcode == 0) else {
                    continue search
                }
                inMessage = !frame.isFinal
                if frame.isFinal { compressed += 1 }
            }
            return firstOffset + Int64(start)
        }
        return nil
    }

    /// Whether the frames from `start` on are WebSocket frames, masked as `masked` says, whose data messages are
    /// field frames: `confirming` of them, or at least one when the frames end exactly where `bytes` end.
    private static func confirms(_ bytes: [UInt8], from start: Int, masked: Bool, confirming: Int,
                                 scanner: FrameHeaderScanner, maxMessageBytes: Int) -> Bool {
        var assembler = WebSocketMessageAssembler(maxMessageBytes: maxMessageBytes)
        var offset = start
        var confirmed = 0
        while confirmed < confirming {
            let frame: WebSocketFrame
            do {
                guard let parsed = try WebSocketFrame.parse(bytes, at: offset, maxPayloadBytes: maxMessageBytes) else {
                    // The bytes end inside a frame (or exactly at one's start): what came before decides.
                    return confirmed > 0 && offset == bytes.count
                }
                frame = parsed
            } catch {
                return false
            }
            guard frame.isMasked == masked else { return false }
            offset += frame.wireByteCount
            guard !frame.isControl else { continue }
            let message: WebSocketMessageAssembler.Message?
            do { message = try assembler.take(frame) } catch { return false }
            switch message {
            case nil: continue
            case .binary(let frameBytes):
                var position = 0
                while position < frameBytes.count {
                    guard let length = scanner.plausibleFrameLength(in: frameBytes, at: position) else { return false }
                    position += FrameHeader.byteCount + length
                }
                guard position == frameBytes.count, !frameBytes.isEmpty else { return false }
            case .text(let text):
                guard (try? JSONFrame.parse(text)) != nil else { return false }
            }
            confirmed += 1
            if offset == bytes.count { return true }
        }
        return true
    }

    /// Unwraps one direction of a WebSocket connection, whose bytes begin as `start` says; with `deflate`, its
    /// compressed messages are inflated. With `deflateContextUnknown` (captured from its middle), a compressed
    /// message that refers to data the capture does not hold (zlib's "invalid distance too far back": never a guess)
    /// is skipped, consecutive ones as one `WebSocket` issue, and the window starts afresh after it; the messages
    /// that inflate from what was read are decoded.
    init(_ captured: TCPStreamTrace, start: Start = .httpHead, deflate: PerMessageDeflate? = nil,
         deflateContextUnknown: Bool = false, connectionNumber: Int, direction: TraceDirection, maxPayloadBytes: Int) {
        stream.sawSYN = true
        let encoder = FrameEncoder(compressionThresholdBytes: Int.max, maxPayloadBytes: maxPayloadBytes)
        let maxMessageBytes = maxPayloadBytes + FrameHeader.byteCount
        var assembler = WebSocketMessageAssembler(maxMessageBytes: maxMessageBytes)
        let inflater = deflate.map {
            PerMessageInflater(resetsAfterEachMessage: $0.noContextTakeover(direction), maxMessageBytes: maxMessageBytes)
        }
        var inflate: ((_ compressed: [UInt8]) throws(WebSocketFrameError) -> [UInt8])?
        // Mid-connection: a message that refers to the window before the capture (zlib's only complaint about data
        // that is otherwise sound) is noted here and read as empty, so it is skipped; other faults end the direction.
        var unreadable: WebSocketFrameError?
        if let inflater {
            inflate = inflater.inflate
            if deflateContextUnknown {
                inflate = { compressed throws(WebSocketFrameError) in
                    do throws(WebSocketFrameError) {
                        return try inflater.inflate(compressed)
                    } catch {
                        guard error.reason.contains("invalid distance too far back") else { throw error }
                        unreadable = error
                        inflater.reset()
                        return []
                    }
                }
            }
        }
        /// Compressed messages skipped in a row, not yet reported: where they began and ended, the last one's packet.
        var skipped: (from: Int64, to: Int64, count: Int, packet: Int)?
        var buffer: [UInt8] = []
        var bufferOffset: Int64 = 0
        var runs: [(endOffset: Int64, timestamp: CaptureTimestamp, packetNumber: Int)] = []
        var headDone = false
        var skipUntil: Int64?
        var skippedFrom: Int64?
        switch start {
        case .httpHead: break
        case .frame(at: let offset):
            headDone = true
            skipUntil = offset
        case .notFound:
            let first = captured.pieces.first.map { piece -> (Int64, Int) in
                switch piece {
                case .data(let run): (run.offset, run.packetNumber)
                case .gap(let gap): (gap.offset, gap.packetNumber)
                }
            }
            if let first, captured.byteCount > 0 {
                issues.append(TraceFrameIssue(
                    kind: .webSocket, connectionNumber: connectionNumber, direction: direction, offset: first.0,
                    byteCount: captured.byteCount, packetNumber: first.1,
                    detail: "the capture begins mid-connection and no WebSocket frame holding field frames was found "
                        + "in the first \(Self.midStreamSearchBytes) bytes: the direction is not decoded"))
            }
            return
        }
        var messageStart: Int64?
        var messageDeflatedBytes: Int?
        var lastPacket = 0

        func issue(_ kind: TraceFrameIssue.Kind, at offset: Int64, _ byteCount: Int64, packet: Int, _ detail: String) {
            issues.append(TraceFrameIssue(kind: kind, connectionNumber: connectionNumber, direction: direction,
                                          offset: offset, byteCount: byteCount, packetNumber: packet, detail: detail))
        }

        func reportSkipped() {
            guard let run = skipped else { return }
            skipped = nil
            issue(.webSocket, at: run.from, run.to - run.from, packet: run.packet,
                  "\(run.count == 1 ? "a compressed message refers" : "\(run.count) compressed messages refer") to "
                    + "data sent before the capture began (permessage-deflate with context takeover, RFC 7692 §7.2.3): "
                    + "skipped; capture from the connection's start to read every message")
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
            case .data(var run):
                if let skip = skipUntil {
                    // The tail of a frame begun before the capture: skipped up to the first whole frame.
                    skippedFrom = skippedFrom ?? run.offset
                    guard run.endOffset > skip else { continue }
                    if let from = skippedFrom, skip > from {
                        issue(.skippedToResync, at: from, skip - from, packet: run.packetNumber,
                              "the capture begins mid-connection: the bytes before its first WebSocket frame are "
                                + "skipped")
                    }
                    run = ByteRun(offset: skip, bytes: Array(run.bytes.dropFirst(Int(skip - run.offset))),
                                  timestamp: run.timestamp, packetNumber: run.packetNumber)
                    skipUntil = nil
                }
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
                    guard let parsed = try WebSocketFrame.parse(
                        buffer, maxPayloadBytes: maxMessageBytes, allowsCompressed: inflater != nil) else { break }
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
                if messageStart == nil {
                    messageStart = frameStart
                    messageDeflatedBytes = frame.isCompressed ? 0 : nil
                }
                messageDeflatedBytes? += frame.payload.count
                let message: WebSocketMessageAssembler.Message?
                do {
                    message = try assembler.take(frame, inflate: inflate)
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
                if unreadable != nil {
                    unreadable = nil
                    skipped = (skipped?.from ?? start, frameEnd, (skipped?.count ?? 0) + 1, completion.packetNumber)
                    continue
                }
                reportSkipped()
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
                                  captured: start..<frameEnd, jsonMessage: jsonMessage,
                                  deflatedByteCount: messageDeflatedBytes))
            }
        }
        reportSkipped()
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
        captured(offset, inSpanAt: spanIndex(at: offset))
    }

    /// The captured stream's offset for the end of an unwrapped range ending at `end`: where the message holding its
    /// last byte ends, less what of the message comes after `end` (never before that message's first frame starts).
    func capturedEnd(_ end: Int64) -> Int64 {
        captured(end, inSpanAt: end > 0 ? spanIndex(at: end - 1) : spanIndex(at: end))
    }

    /// `offset` placed in the span at `index` so that the span ends where its message ends in the captured stream;
    /// past the last span, the last message's end.
    private func captured(_ offset: Int64, inSpanAt index: Int?) -> Int64 {
        guard let index else { return spans.last?.captured.upperBound ?? offset }
        let span = spans[index]
        return max(span.captured.lowerBound, span.captured.upperBound - (span.unwrapped.upperBound - offset))
    }
}
