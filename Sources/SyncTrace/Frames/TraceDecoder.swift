import SyncProtocol

/// Turns the TCP connections of a capture into protocol frames, per connection in time order.
///
/// ```swift
/// let decoding = try TraceDecoder().decode(path: "field.pcapng", readOptions: .init(ports: [443]))
/// for connection in decoding.connections { for frame in connection.frames { print(frame.opcode) } }
/// ```
public struct TraceDecoder: Sendable {
    /// Header layout and payload limits, as for a raw stream.
    public var frameDecoder: FrameDecoder

    /// A decoder cutting streams with `frameDecoder` (its layout and limits).
    public init(frameDecoder: FrameDecoder = FrameDecoder()) { self.frameDecoder = frameDecoder }

    /// The frames of one connection, both directions merged.
    public struct ConnectionFrames: Hashable, Sendable {
        /// The connection as reassembled.
        public var connection: TCPConnectionTrace
        /// Frames ordered by completion time, then packet number, then direction, then stream offset.
        public var frames: [TraceFrame]
        /// Gaps, resyncs and undecodable frames, client-to-server issues first, each direction in stream order.
        public var issues: [TraceFrameIssue]
        /// Whether the connection was a WebSocket one, its frames read from its messages (`WebSocketStream`).
        public var isWebSocket = false
        /// The permessage-deflate agreement read from the server's `101` answer (RFC 7692), nil for none.
        public var webSocketDeflate: PerMessageDeflate?
        /// The request line (`POST /upload?photoIds=1 HTTP/1.1`) of a plain HTTP connection, one whose client opened
        /// with an HTTP request that is no WebSocket upgrade: a photo's upload to a CDN, or to `syncsim serve`'s
        /// port. Its bytes are not the protocol, so it has no frames and no issues; nil for every other connection.
        public var httpRequestLine: String?
    }

    /// A capture decoded: the reader's view (`trace`) and the frames per connection.
    public struct Decoding: Hashable, Sendable {
        /// What the reader found: counts, skips, connections.
        public var trace: Trace
        /// The frames of each connection, in `trace.connections` order.
        public var connections: [ConnectionFrames]

        /// Every frame of every connection, ordered by completion time (then connection, packet, direction).
        public var allFrames: [TraceFrame] {
            connections.flatMap(\.frames).sorted(by: TraceDecoder.precedes)
        }
    }

    /// The decoder for a TCP connection's frames: `frameDecoder`, or, when it has the field's standard header and the
    /// client's stream (seen from its SYN) begins with version 11, PyMax 1.x's dialect (version 11 and `cmd16Seq8`,
    /// what its `SocketMaxClient` writes; `FrameHeader.pymax1Version`), which `syncsim serve` answers in.
    func dialectDecoder(for connection: TCPConnectionTrace) -> FrameDecoder {
        guard frameDecoder.version == FrameHeader.supportedVersion, frameDecoder.layout == .standard,
              connection.clientToServer.sawSYN, case .data(let run)? = connection.clientToServer.pieces.first,
              run.offset == 0, run.bytes.first == FrameHeader.pymax1Version else { return frameDecoder }
        var decoder = frameDecoder
        decoder.version = FrameHeader.pymax1Version
        decoder.layout = FrameHeader.pymax1Layout
        return decoder
    }

    /// Reads the capture at `path` and decodes its connections.
    /// - Throws: `TraceError` as `TraceReader.read(path:options:)`; frame faults are issues, never errors.
    public func decode(path: String, readOptions: TraceReader.Options = .init()) throws -> Decoding {
        var trace = try TraceReader.read(path: path, options: readOptions)
        let connections = trace.connections.map(decode)
        // A connection captured without its handshake may have had its roles corrected by its frames.
        trace.connections = connections.map(\.connection)
        return Decoding(trace: trace, connections: connections)
    }

    /// Decodes both directions of `connection`. A WebSocket connection (its client's stream opens with an HTTP
    /// `GET`, its server's with `101`; or, captured from its middle, its bytes are WebSocket frames holding field
    /// frames: `WebSocketStream.starts(of:scanner:maxPayloadBytes:)`) is unwrapped first (`WebSocketStream`): its frames are the messages' frames,
    /// at the offsets where those messages end in the captured stream.
    ///
    /// A connection captured without its handshake had its roles guessed from its ports (`TCPConnectionTrace`);
    /// when its frames say otherwise (answers and errors travel only from the server, and the guessed client sent
    /// some while the guessed server sent none), the roles are swapped and it is decoded again. Before, a capture
    /// started mid-connection against a server port above the client's read every answer as a request, and replay
    /// compared nothing and passed.
    public func decode(_ connection: TCPConnectionTrace) -> ConnectionFrames {
        let decoded = decodeAsCaptured(connection)
        guard !connection.clientToServer.sawSYN, !connection.serverToClient.sawSYN,
              Self.rolesAreReversed(decoded.frames) else { return decoded }
        return decodeAsCaptured(connection.withRolesSwapped)
    }

    /// Whether the frames' commands put the server on the guessed client's side: answers (`response`, `error`)
    /// only from it, and none from the guessed server.
    static func rolesAreReversed(_ frames: [TraceFrame]) -> Bool {
        var answersFromClient = 0
        var answersFromServer = 0
        for frame in frames where frame.cmd == .response || frame.cmd == .error {
            if frame.direction == .clientToServer { answersFromClient += 1 } else { answersFromServer += 1 }
        }
        return answersFromClient > 0 && answersFromServer == 0
    }

    private func decodeAsCaptured(_ connection: TCPConnectionTrace) -> ConnectionFrames {
        var frames: [TraceFrame] = []
        var issues: [TraceFrameIssue] = []
        let webSocketStarts = WebSocketStream.starts(
            of: connection,
            scanner: FrameHeaderScanner(layout: frameDecoder.layout, maxPayloadBytes: frameDecoder.maxPayloadBytes),
            maxPayloadBytes: frameDecoder.maxPayloadBytes)
        let isWebSocket = webSocketStarts != nil
        if !isWebSocket, let requestLine = Self.httpRequestLine(of: connection) {
            var result = ConnectionFrames(connection: connection, frames: [], issues: [])
            result.httpRequestLine = requestLine
            return result
        }
        let frameDecoder = isWebSocket ? self.frameDecoder : dialectDecoder(for: connection)
        for direction in TraceDirection.allCases {
            var stream = connection.stream(direction)
            var unwrapped: WebSocketStream?
            if let webSocketStarts {
                unwrapped = WebSocketStream(stream, start: webSocketStarts.start(direction),
                                            deflate: webSocketStarts.deflate,
                                            deflateContextUnknown: webSocketStarts.deflateContextUnknown,
                                            connectionNumber: connection.number,
                                            direction: direction, maxPayloadBytes: frameDecoder.maxPayloadBytes)
                stream = unwrapped!.stream
            }
            var extractor = StreamFrameExtractor(
                connectionNumber: connection.number, direction: direction, decoder: frameDecoder,
                startsMidStream: !stream.sawSYN
            )
            extractor.extract(stream)
            guard let unwrapped else {
                frames += extractor.frames
                issues += extractor.issues
                continue
            }
            frames += extractor.frames.map { frame in
                var frame = frame
                let offset = Int64(frame.decoded.offset)
                let span = unwrapped.span(at: offset)
                frame.jsonMessage = span?.jsonMessage
                frame.deflatedMessageBytes = span?.deflatedByteCount
                frame.capturedEnd = unwrapped.capturedEnd(offset + Int64(frame.decoded.wireByteCount))
                frame.decoded.offset = Int(unwrapped.capturedOffset(offset))
                return frame
            }
            issues += unwrapped.issues + extractor.issues.map { issue in
                var issue = issue
                issue.offset = unwrapped.capturedOffset(issue.offset)
                return issue
            }
        }
        frames.sort(by: Self.precedes)
        var result = ConnectionFrames(connection: connection, frames: frames, issues: issues)
        result.isWebSocket = isWebSocket
        result.webSocketDeflate = webSocketStarts?.deflate
        return result
    }

    /// The methods of RFC 9110 §9 a client's stream may open with.
    private static let httpMethods = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"]

    /// The request line a connection's client stream opens with (seen from its SYN), when it is one of HTTP/1.x
    /// (`METHOD SP target SP HTTP/1.x CRLF`, RFC 9112 §3, within its first 8 KiB); nil otherwise. A protocol frame
    /// never looks like one: its first byte is the version (10 or 11), never an ASCII capital.
    static func httpRequestLine(of connection: TCPConnectionTrace) -> String? {
        // The bytes before the first gap, however many segments carried them: a request line split over packets
        // (a small MSS, a client writing it in parts) is one too.
        guard connection.clientToServer.sawSYN,
              let (bytes, offset) = WebSocketStream.leadingBytes(of: connection.clientToServer, limit: 8192),
              offset == 0 else { return nil }
        let head = bytes[...]
        guard let end = head.firstIndex(of: UInt8(ascii: "\r")), end + 1 < head.endIndex,
              head[end + 1] == UInt8(ascii: "\n"),
              head[head.startIndex..<end].allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else { return nil }
        let line = String(decoding: head[head.startIndex..<end], as: UTF8.self)
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, httpMethods.contains(String(parts[0])), !parts[1].isEmpty,
              parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else { return nil }
        return line
    }

    static func precedes(_ lhs: TraceFrame, _ rhs: TraceFrame) -> Bool {
        func key(_ frame: TraceFrame) -> (Int64, Int, Int, Int, Int) {
            (
                frame.timestamp.nanosecondsSinceEpoch, frame.connectionNumber, frame.packetNumber,
                frame.direction == .clientToServer ? 0 : 1, frame.decoded.offset
            )
        }
        return key(lhs) < key(rhs)
    }
}
