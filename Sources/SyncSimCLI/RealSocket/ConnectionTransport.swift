import SyncSim
import SyncTrace

/// How one accepted connection of `syncsim serve` carries the field's frames, told by the first byte the client
/// sends: `G` (an HTTP `GET`) opens a WebSocket (RFC 6455), or, when its target is `/file/<id>`, `/video/<id>` or
/// `/photo/<id>`, is a download from the CDN end (`HTTPDownload`), `P` (an HTTP `POST`) is an upload to the CDN end
/// (`HTTPUpload`), 11 is PyMax 1.x's binary frames on TCP (version 11,
/// `cmd` u16 and `seq` u8: 1.2.5 `pymax/mixins/socket.py`, `_pack_packet`, with the version of
/// `pymax/interfaces.py`, `_make_message`), anything else the field's binary frames straight on TCP (a frame begins
/// with its version byte, 10 for PyMax 2.x's TCP transport: `pymax/protocol/tcp/protocol.py`).
///
/// Over WebSocket each message is one frame: binary messages hold the TCP transport's frame bytes (PyMax 2.5.0's
/// `WebClient`: `pymax/client_web.py` builds its connection with `TcpProtocol`), text messages a JSON frame
/// (`JSONFrame`; PyMax 2.1.0–2.4's `WebClient` with `WsProtocol`). The server answers in the kind of the client's
/// first message: a client speaks one of them.
enum ConnectionTransport {
    case undecided
    case tcp
    /// PyMax 1.x's TCP dialect: frames read and written with version 11 and `HeaderLayout.cmd16Seq8`.
    case tcpPymax1
    /// `answersInJSON` is nil until the first message came. `wideSeqs`: for a JSON request whose `seq` is over 16 bits,
    /// its `seq` by the 16 bits the frame carried to the server, so that its answer echoes the client's whole `seq`
    /// (`JSONFrame.parseWideSeq`: PyMax 1.2.5's `MaxClient` counts past 65535).
    case webSocket(WebSocketSession, answersInJSON: Bool?, wideSeqs: [UInt16: UInt64] = [:])
    /// An upload's HTTP request, being read.
    case httpUpload(HTTPUpload)
    /// A GET whose request head is being read: it becomes a WebSocket or a download once the head is complete.
    case httpGet([UInt8])

    /// What bytes read from the socket carried.
    struct Unwrapped {
        /// The field's binary frame bytes, for the connection's `FrameDecoder`.
        var frameBytes: [UInt8] = []
        /// Bytes to write back at once (the WebSocket handshake's answer, pongs, a close's echo).
        var writes: [[UInt8]] = []
        /// The client closed the WebSocket; the connection is over once `writes` are written.
        var closedByClient = false
        /// The request target of a WebSocket handshake these bytes completed.
        var upgradedPath: String?
        /// The extension that handshake agreed to (a `Sec-WebSocket-Extensions` value), if any.
        var agreedExtension: String?
        /// An upload these bytes completed: the server answers it and closes the connection.
        var upload: HTTPUpload.Received?
        /// A download these bytes asked for: the server answers it and closes the connection.
        var download: HTTPDownload?
    }

    /// A client that broke its transport's protocol: why, and what to write before closing.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var answer: [UInt8]
    }

    /// Whether this is a WebSocket connection (decided and upgraded or upgrading).
    var isWebSocket: Bool {
        if case .webSocket = self { true } else { false }
    }

    /// Whether the server's frames go out as JSON text (the client's first message was text).
    var answersInJSON: Bool {
        if case .webSocket(_, true, _) = self { true } else { false }
    }

    /// The frame log's name for the transport, or nil for TCP: `websocket` (binary messages), `websocket-json` or
    /// `tcp-v11` (PyMax 1.x's dialect).
    var logName: String? {
        if case .tcpPymax1 = self { return "tcp-v11" }
        return isWebSocket ? (answersInJSON ? "websocket-json" : "websocket") : nil
    }

    /// Sets `decoder` and `encoder` to the transport's header dialect: version 11 and `cmd16Seq8` for
    /// `tcpPymax1`, the field's standard otherwise.
    func configure(_ decoder: inout FrameDecoder, _ encoder: inout FrameEncoder) {
        let legacy = if case .tcpPymax1 = self { true } else { false }
        decoder.version = legacy ? FrameHeader.pymax1Version : FrameHeader.supportedVersion
        decoder.layout = legacy ? FrameHeader.pymax1Layout : .standard
        encoder.version = decoder.version
        encoder.layout = decoder.layout
    }

    /// Takes bytes read from the socket.
    /// - Parameter webSocketDeflate: a WebSocket connection agrees to its client's permessage-deflate offer.
    /// - Throws: `Failure` for a broken handshake, a broken WebSocket frame or a text message that is no JSON frame.
    mutating func unwrap(_ bytes: [UInt8], encoder: FrameEncoder, webSocketDeflate: Bool = false) throws(Failure)
        -> Unwrapped {
        var bytes = bytes
        if case .undecided = self, let first = bytes.first {
            switch first {
            case UInt8(ascii: "P"): self = .httpUpload(HTTPUpload())
            // GET, and any other HTTP method (a frame's first byte is its version, 10 or 11, never a letter): HEAD of a
            // download's address is answered, other requests go to the WebSocket handshake, which refuses any method
            // but GET with 405 naming it (before session 39 they were read as frames and closed without a word).
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): self = .httpGet([])
            case FrameHeader.pymax1Version: self = .tcpPymax1
            default: self = .tcp
            }
        }
        if case .httpUpload(var upload) = self {
            defer { self = .httpUpload(upload) }
            return Unwrapped(upload: try upload.receive(bytes))
        }
        if case .httpGet(let head) = self {
            let buffered = head + bytes
            // Until the head is complete (or too long to be one: the handshake then refuses it).
            guard let bounds = HTTPUpload.headBounds(in: buffered) else {
                if buffered.count <= HTTPUpload.maxHeadBytes {
                    self = .httpGet(buffered)
                    return Unwrapped()
                }
                self = .webSocket(WebSocketSession(acceptsDeflate: webSocketDeflate), answersInJSON: nil)
                return try unwrap(buffered, encoder: encoder, webSocketDeflate: webSocketDeflate)
            }
            if let download = HTTPDownload(requestHead: Array(buffered[..<bounds.end])) {
                self = .httpGet(buffered)
                return Unwrapped(download: download)
            }
            if let (method, _) = HTTPDownload.request(inHead: Array(buffered[..<bounds.end])), method != "GET" {
                let reason = "method '\(method.prefix(20))' is served only for downloads (HEAD /file/<id>, /video/<id>, "
                    + "/photo/<id>); this port takes GET (WebSocket, downloads) and POST (uploads)"
                var answer = WebSocketHandshake.errorAnswer(status: 405, reason: reason, extraHeader: "Allow: GET, POST")
                if method == "HEAD", let end = HTTPUpload.headBounds(in: answer) {
                    answer = Array(answer[..<end.bodyStart])  // a HEAD's answer carries no body (RFC 9110 §9.3.2)
                }
                self = .httpGet(buffered)
                throw Failure(description: "HTTP request: " + reason, answer: answer)
            }
            if bounds.bareLF {
                // A download takes LF-only line ends (RFC 9112 §2.2 lets a server); the WebSocket handshake does not.
                let reason = "the request head's lines end in a bare LF; serve takes that for downloads and uploads, "
                    + "but a WebSocket handshake needs CRLF line ends (RFC 9112 §2.2)"
                self = .httpGet(buffered)
                throw Failure(description: "HTTP request: " + reason,
                              answer: WebSocketHandshake.errorAnswer(status: 400, reason: reason, extraHeader: nil))
            }
            self = .webSocket(WebSocketSession(acceptsDeflate: webSocketDeflate), answersInJSON: nil)
            bytes = buffered
        }
        guard case .webSocket(var session, var answersInJSON, var wideSeqs) = self else {
            return Unwrapped(frameBytes: bytes)
        }
        defer { self = .webSocket(session, answersInJSON: answersInJSON, wideSeqs: wideSeqs) }
        let outputs: [WebSocketSession.Output]
        let wasOpen = session.isOpen
        do {
            outputs = try session.receive(bytes)
        } catch {
            throw Failure(description: error.description, answer: error.answer)
        }
        var unwrapped = Unwrapped()
        if !wasOpen && session.isOpen {
            unwrapped.upgradedPath = session.path
            unwrapped.agreedExtension = session.agreedExtension
        }
        for output in outputs {
            switch output {
            case .write(let answer):
                unwrapped.writes.append(answer)
            case .message(.binary(let frameBytes)):
                if answersInJSON == nil { answersInJSON = false }
                unwrapped.frameBytes += frameBytes
            case .message(.text(let text)):
                if answersInJSON == nil { answersInJSON = true }
                do {
                    let (frame, _, seq) = try JSONFrame.parseWideSeq(text)
                    if frame.cmd == .request {
                        wideSeqs[frame.seq] = seq > UInt64(UInt16.max) ? seq : nil
                    }
                    unwrapped.frameBytes += try encoder.encode(frame)
                } catch let error as JSONFrameError {
                    throw Failure(description: error.description,
                                  answer: WebSocketSession.closeFrame(code: 1007, reason: error.reason))
                } catch {
                    throw Failure(description: "JSON frame: \(error)",
                                  answer: WebSocketSession.closeFrame(code: 1007, reason: "payload cannot be encoded"))
                }
            case .closed:
                unwrapped.closedByClient = true
            }
        }
        return unwrapped
    }

    /// The bytes to write for an encoded frame (`frameBytes`, the TCP transport's bytes of `frame`).
    func wrap(_ frameBytes: [UInt8], frame: Frame) -> [UInt8] {
        switch self {
        case .undecided, .tcp, .tcpPymax1, .httpUpload, .httpGet: frameBytes
        case .webSocket(let session, _, let wideSeqs):
            answersInJSON
                ? session.messageBytes(opcode: 1, payload: JSONFrame.text(
                    for: frame, seq: frame.cmd == .response || frame.cmd == .error ? wideSeqs[frame.seq] : nil))
                : session.messageBytes(opcode: 2, payload: frameBytes)
        }
    }

    /// What to write before closing a connection whose messages held no frames: a WebSocket close frame (1007,
    /// invalid data, with `reason`); nothing on TCP.
    func refusal(reason: String) -> [UInt8] {
        isWebSocket ? WebSocketSession.closeFrame(code: 1007, reason: reason) : []
    }

    /// What to write before the server closes the connection: a WebSocket close frame (1000, normal closure).
    var closing: [UInt8] {
        isWebSocket ? WebSocketSession.closeFrame(code: 1000) : []
    }
}
