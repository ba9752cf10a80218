/// One WebSocket frame (RFC 6455 §5.2), its payload unmasked.
///
/// `WebSocketFrame.parse` reads frames for `syncsim serve` (a client's frames) and for captures (both directions);
/// `WebSocketMessageAssembler` joins data frames into messages (§5.4).
public struct WebSocketFrame: Hashable, Sendable {
    /// FIN: the last frame of its message.
    public var isFinal: Bool
    /// 0 continuation, 1 text, 2 binary, 8 close, 9 ping, 10 pong.
    public var opcode: UInt8
    /// Whether the sender masked the payload (every client frame must be: §5.1).
    public var isMasked: Bool
    /// The payload, unmasked.
    public var payload: [UInt8]
    /// Bytes the frame took on the wire, header included.
    public var wireByteCount: Int
    /// RSV1: the first frame of a message compressed by permessage-deflate (RFC 7692 §6); its payload is still
    /// compressed here (`WebSocketMessageAssembler` inflates whole messages).
    public var isCompressed = false

    /// Whether this is a control frame (close, ping, pong).
    public var isControl: Bool { opcode >= 8 }

    /// The frame starting at `bytes[start]`, or nil while it is incomplete.
    /// - Parameters:
    ///   - maxPayloadBytes: the largest payload taken; a longer one is an error (close code 1009).
    ///   - allowsCompressed: whether permessage-deflate was agreed, so RSV1 may mark a data message's first frame.
    /// - Throws: `WebSocketFrameError` (offset relative to `start`) for reserved bits or opcodes (RSV1 on a control
    ///   or continuation frame, RFC 7692 §6.1), a 64-bit length with its top bit set, a fragmented or long control
    ///   frame, or a payload over `maxPayloadBytes`.
    public static func parse(_ bytes: [UInt8], at start: Int = 0, maxPayloadBytes: Int, allowsCompressed: Bool = false)
        throws(WebSocketFrameError) -> WebSocketFrame? {
        guard bytes.count - start >= 2 else { return nil }
        let first = bytes[start], second = bytes[start + 1]
        let isFinal = first & 0x80 != 0
        let opcode = first & 0x0F
        let isCompressed = allowsCompressed && first & 0x40 != 0
        guard first & (allowsCompressed ? 0x30 : 0x70) == 0 else {
            throw WebSocketFrameError(offset: 0, reason: "reserved bits set (\((first & 0x70) >> 4)) with no extension "
                + "agreed (RFC 6455 §5.2)")
        }
        guard !isCompressed || opcode == 1 || opcode == 2 else {
            throw WebSocketFrameError(offset: 0, reason: "RSV1 (compressed) set on a "
                + (opcode == 0 ? "continuation" : "control") + " frame (RFC 7692 §6.1)")
        }
        guard [0, 1, 2, 8, 9, 10].contains(opcode) else {
            throw WebSocketFrameError(offset: 0, reason: "opcode \(opcode) is reserved (RFC 6455 §5.2)")
        }
        let isMasked = second & 0x80 != 0
        var headerLength = 2
        var length = UInt64(second & 0x7F)
        if length == 126 {
            guard bytes.count - start >= 4 else { return nil }
            length = UInt64(bytes[start + 2]) << 8 | UInt64(bytes[start + 3])
            headerLength = 4
        } else if length == 127 {
            guard bytes.count - start >= 10 else { return nil }
            length = bytes[(start + 2)..<(start + 10)].reduce(0) { $0 << 8 | UInt64($1) }
            headerLength = 10
            guard length >> 63 == 0 else {
                throw WebSocketFrameError(
                    offset: 2, reason: "64-bit payload length has its top bit set (RFC 6455 §5.2)")
            }
        }
        if opcode >= 8 {
            guard isFinal else {
                throw WebSocketFrameError(offset: 0, reason: "control frame \(opcode) is fragmented (RFC 6455 §5.5)")
            }
            guard length <= 125 else {
                throw WebSocketFrameError(
                    offset: 1, reason: "control frame \(opcode) carries \(length) bytes, over 125 (RFC 6455 §5.5)")
            }
        }
        guard length <= UInt64(maxPayloadBytes) else {
            throw WebSocketFrameError(offset: 1, reason: "frame of \(length) bytes is over the \(maxPayloadBytes)-byte "
                + "message limit", closeCode: 1009)
        }
        if isMasked { headerLength += 4 }
        let total = headerLength + Int(length)
        guard bytes.count - start >= total else { return nil }
        var payload = Array(bytes[(start + headerLength)..<(start + total)])
        if isMasked {
            let mask = bytes[(start + headerLength - 4)..<(start + headerLength)].map { $0 }
            for index in payload.indices { payload[index] ^= mask[index & 3] }
        }
        return WebSocketFrame(isFinal: isFinal, opcode: opcode, isMasked: isMasked, payload: payload,
                              wireByteCount: total, isCompressed: isCompressed)
    }

    /// The largest HTTP head read before a WebSocket's frames (the opening handshake, RFC 6455 §4): a longer one is
    /// refused by `syncsim serve` and ends a capture's direction.
    public static let maxHTTPHeadBytes = 16_384

    /// The length of the HTTP head at the start of `bytes`, its blank line (`\r\n\r\n`) included, or nil until the
    /// blank line came; only the first `maxHTTPHeadBytes` and the blank line are searched.
    public static func httpHeadLength(in bytes: [UInt8]) -> Int? {
        let limit = min(bytes.count, maxHTTPHeadBytes + 4)
        guard limit >= 4 else { return nil }
        for index in 0...(limit - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    /// A frame's bytes as a server sends them: unmasked, final, the shortest length form; RSV1 set when `compressed`
    /// (a message compressed by permessage-deflate, RFC 7692 §6).
    public static func serverBytes(opcode: UInt8, payload: [UInt8], compressed: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | (compressed ? 0x40 : 0) | opcode]
        bytes.reserveCapacity(payload.count + 10)
        switch payload.count {
        case ..<126:
            bytes.append(UInt8(payload.count))
        case ..<65_536:
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(UInt64(payload.count) >> UInt64(shift) & 0xFF))
            }
        }
        return bytes + payload
    }
}

/// A WebSocket frame or message that breaks RFC 6455.
public struct WebSocketFrameError: Error, Hashable, Sendable {
    /// Byte offset of the fault from the frame's first byte.
    public var offset: Int
    public var reason: String
    /// The close code a peer answers it with (RFC 6455 §7.4.1): 1002 protocol error, 1007 invalid data, 1009 too big.
    public var closeCode: UInt16

    public init(offset: Int, reason: String, closeCode: UInt16 = 1002) {
        self.offset = offset
        self.reason = reason
        self.closeCode = closeCode
    }
}

/// Joins data frames into messages (RFC 6455 §5.4); control frames may come between the fragments of one.
public struct WebSocketMessageAssembler: Hashable, Sendable {
    /// A whole message.
    public enum Message: Hashable, Sendable {
        case binary([UInt8])
        /// Checked to be UTF-8, as bytes.
        case text([UInt8])
    }

    /// The largest message taken, all fragments together (compressed, as on the wire).
    public let maxMessageBytes: Int
    private var opcode: UInt8?
    private var isCompressed = false
    private var bytes: [UInt8] = []

    public init(maxMessageBytes: Int) { self.maxMessageBytes = maxMessageBytes }

    /// Takes a data frame (opcode 0, 1 or 2).
    /// - Parameter inflate: what turns a compressed message's payload (its first frame had RSV1) into the message;
    ///   nil when no extension was agreed. Its errors are passed on.
    /// - Returns: the message it ended, or nil while fragments are still to come.
    /// - Throws: `WebSocketFrameError` (offset 0) for a continuation with no message begun, a message begun inside
    ///   another, a compressed message with nothing to inflate it, a message over `maxMessageBytes` (1009) or text
    ///   that is not UTF-8 (1007).
    public mutating func take(
        _ frame: WebSocketFrame, inflate: ((_ compressed: [UInt8]) throws(WebSocketFrameError) -> [UInt8])? = nil
    ) throws(WebSocketFrameError) -> Message? {
        if frame.opcode == 0 {
            guard opcode != nil else {
                throw WebSocketFrameError(offset: 0, reason: "continuation frame with no fragmented message begun "
                    + "(RFC 6455 §5.4)")
            }
        } else {
            guard opcode == nil else {
                throw WebSocketFrameError(offset: 0, reason: "a new message began before the fragmented one ended "
                    + "(RFC 6455 §5.4)")
            }
            opcode = frame.opcode
            isCompressed = frame.isCompressed
            guard !isCompressed || inflate != nil else {
                throw WebSocketFrameError(offset: 0, reason: "compressed message with no extension agreed "
                    + "(RFC 6455 §5.2)")
            }
        }
        guard bytes.count + frame.payload.count <= maxMessageBytes else {
            throw WebSocketFrameError(offset: 1, reason: "message of \(bytes.count + frame.payload.count) bytes or "
                + "more is over the \(maxMessageBytes)-byte limit", closeCode: 1009)
        }
        bytes += frame.payload
        guard frame.isFinal, let messageOpcode = opcode else { return nil }
        var message = bytes
        bytes = []
        opcode = nil
        if isCompressed, let inflate { message = try inflate(message) }
        guard messageOpcode == 1 else { return .binary(message) }
        guard String(validating: message, as: UTF8.self) != nil else {
            throw WebSocketFrameError(offset: 0, reason: "text message is not UTF-8 (RFC 6455 §8.1)", closeCode: 1007)
        }
        return .text(message)
    }
}
