import SyncTrace

/// A client broke the WebSocket protocol: where, why, and what to write before closing the connection.
struct WebSocketError: Error, Equatable, CustomStringConvertible {
    /// Byte offset in the connection's stream where the fault lies (0: the first byte the client sent), or nil for
    /// the request head as a whole.
    var offset: Int?
    var reason: String
    /// What the server writes before it closes: an HTTP error answer during the handshake, a close frame after it.
    var answer: [UInt8]

    var description: String {
        (offset.map { "WebSocket byte \($0): " } ?? "WebSocket handshake: ") + reason
    }

    /// A refused opening handshake, answered with HTTP `status`.
    static func handshake(_ reason: String, status: Int = 400, extraHeader: String? = nil) -> WebSocketError {
        WebSocketError(offset: nil, reason: reason,
                       answer: WebSocketHandshake.errorAnswer(status: status, reason: reason, extraHeader: extraHeader))
    }

    /// A frame that breaks RFC 6455, answered with a close frame of `code` (1002 protocol error, 1007 invalid
    /// data, 1009 message too big; RFC 6455 §7.4.1).
    static func frame(at offset: Int, _ reason: String, code: UInt16 = 1002) -> WebSocketError {
        WebSocketError(offset: offset, reason: reason,
                       answer: WebSocketSession.closeFrame(code: code, reason: reason))
    }
}

/// The server side of one WebSocket connection (RFC 6455), sans-IO: bytes read from the socket go in, what they
/// carry comes out (bytes to write back, whole messages, the client's close).
///
/// It takes the opening handshake (`WebSocketHandshake`), then frames: client frames must be masked (§5.1), the
/// reserved bits clear unless permessage-deflate was agreed (then RSV1 marks a compressed message, RFC 7692 §6),
/// control frames short and unfragmented (§5.5); fragmented messages are joined (§5.4) and compressed ones inflated;
/// a ping is answered with a pong of its payload (§5.5.2); a close is echoed (§5.5.1). A message may hold up to
/// `maxMessageBytes`, inflated. Anything else is a `WebSocketError` naming the byte offset, and the session takes no
/// more bytes. Messages to the client are framed by `messageBytes(opcode:payload:)`, compressed when agreed.
struct WebSocketSession {
    /// A whole message from the client.
    typealias Message = WebSocketMessageAssembler.Message

    /// What received bytes carried, in order.
    enum Output: Equatable {
        /// Bytes to write to the client: the handshake's answer, a pong, the echo of a close.
        case write([UInt8])
        case message(Message)
        /// The client closed with this status code (nil when its close frame had none); its echo was written
        /// before. The connection is over.
        case closed(code: UInt16?)
    }

    /// The largest message taken: a field frame's 10-byte header and its 24-bit payload length's largest payload
    /// (docs/protocol.md), with room to spare; PyMax's `WebClient` itself takes up to 10 MB
    /// (`pymax/transport/websocket.py`, `max_size`).
    static let maxMessageBytes = 16 * 1024 * 1024 + 1024

    /// Whether the opening handshake is done.
    private(set) var isOpen = false
    /// The handshake's request target, once open.
    private(set) var path: String?
    /// Whether the client closed (or broke the protocol): no more bytes are taken.
    private(set) var isClosed = false
    private var buffer: [UInt8] = []
    /// Stream offset of `buffer[0]`.
    private var bufferOffset = 0
    /// Joins the fragments of a message.
    private var assembler = WebSocketMessageAssembler(maxMessageBytes: maxMessageBytes)
    /// Whether a client's permessage-deflate offer is agreed to (`syncsim serve --websocket-deflate`).
    let acceptsDeflate: Bool
    /// The `Sec-WebSocket-Extensions` value the handshake's answer agreed to, once open; nil for none.
    private(set) var agreedExtension: String?
    /// Inflates the client's compressed messages once permessage-deflate is agreed.
    private var inflater: PerMessageInflater?
    /// Compresses the server's messages once permessage-deflate is agreed.
    private var deflater: PerMessageDeflater?

    /// - Parameter acceptsDeflate: agree to a client's permessage-deflate offer (RFC 7692) when it makes one.
    init(acceptsDeflate: Bool = false) {
        self.acceptsDeflate = acceptsDeflate
    }

    /// Takes bytes read from the socket.
    /// - Returns: what they carried, in order; empty while a handshake or frame is incomplete.
    /// - Throws: `WebSocketError` when the client broke the protocol; write its `answer` and close.
    mutating func receive(_ bytes: [UInt8]) throws(WebSocketError) -> [Output] {
        guard !isClosed else { return [] }
        buffer += bytes
        var outputs: [Output] = []
        do {
            if !isOpen {
                guard let head = try takeRequestHead() else { return [] }
                let handshake = try WebSocketHandshake(requestHead: head)
                isOpen = true
                path = handshake.path
                if acceptsDeflate, let (agreed, windowBits) = PerMessageDeflate.accepted(
                    fromOffers: handshake.extensionOffers) {
                    agreedExtension = agreed.responseValue(serverWindowBits: windowBits)
                    inflater = PerMessageInflater(resetsAfterEachMessage: agreed.clientNoContextTakeover,
                                                  maxMessageBytes: Self.maxMessageBytes)
                    deflater = PerMessageDeflater(windowBits: windowBits,
                                                  resetsAfterEachMessage: agreed.serverNoContextTakeover)
                }
                outputs.append(.write(handshake.answer(extensions: agreedExtension)))
            }
            while !isClosed, let output = try takeFrame() {
                outputs.append(contentsOf: output)
            }
        } catch {
            isClosed = true
            throw error
        }
        return outputs
    }

    /// The request head without its blank line, consumed from the buffer, or nil until the blank line came.
    private mutating func takeRequestHead() throws(WebSocketError) -> [UInt8]? {
        guard let length = WebSocketFrame.httpHeadLength(in: buffer) else {
            if buffer.count >= WebSocketFrame.maxHTTPHeadBytes + 4 {
                throw .handshake("no blank line ends the request head in its first "
                    + "\(WebSocketFrame.maxHTTPHeadBytes) bytes", status: 431)
            }
            return nil
        }
        let head = Array(buffer[..<(length - 4)])
        consume(length)
        return head
    }

    private mutating func consume(_ count: Int) {
        buffer.removeFirst(count)
        bufferOffset += count
    }

    /// One whole frame taken from the buffer and what it carried, or nil until the frame is complete.
    private mutating func takeFrame() throws(WebSocketError) -> [Output]? {
        let frameOffset = bufferOffset
        let parsed: WebSocketFrame?
        do {
            parsed = try WebSocketFrame.parse(buffer, maxPayloadBytes: Self.maxMessageBytes,
                                              allowsCompressed: inflater != nil)
        } catch {
            throw .frame(at: frameOffset + error.offset, error.reason, code: error.closeCode)
        }
        guard let frame = parsed else { return nil }
        guard frame.isMasked else {
            throw .frame(at: frameOffset + 1, "a client frame is not masked (RFC 6455 §5.1)")
        }
        consume(frame.wireByteCount)
        switch frame.opcode {
        case 8:
            guard frame.payload.count != 1 else {
                throw .frame(at: frameOffset, "close frame with a 1-byte body (RFC 6455 §5.5.1)")
            }
            let code = frame.payload.count >= 2 ? UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1]) : nil
            isClosed = true
            return [.write(Self.closeFrame(code: code ?? 1000)), .closed(code: code)]
        case 9:
            return [.write(WebSocketFrame.serverBytes(opcode: 10, payload: frame.payload))]
        case 10:
            return []  // an unsolicited pong (RFC 6455 §5.5.3)
        default:
            do {
                return try assembler.take(frame, inflate: inflater?.inflate).map { [.message($0)] } ?? []
            } catch {
                throw .frame(at: frameOffset + error.offset, error.reason, code: error.closeCode)
            }
        }
    }

    /// A data message to the client as one frame (opcode 1 text, 2 binary), its payload compressed when
    /// permessage-deflate was agreed (RSV1 set; uncompressed if zlib failed, which RFC 7692 §6 allows).
    func messageBytes(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        if let compressed = deflater?.deflate(payload) {
            return WebSocketFrame.serverBytes(opcode: opcode, payload: compressed, compressed: true)
        }
        return WebSocketFrame.serverBytes(opcode: opcode, payload: payload)
    }

    /// A close frame with a status code and a reason cut to the 123 bytes a control frame leaves it, at a character
    /// boundary so that it stays UTF-8 (RFC 6455 §5.5, §5.5.1).
    static func closeFrame(code: UInt16, reason: String = "") -> [UInt8] {
        var text = Substring(reason)
        while text.utf8.count > 123 { text = text.dropLast() }
        return WebSocketFrame.serverBytes(opcode: 8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(text.utf8))
    }
}
