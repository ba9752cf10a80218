import CZlib

/// The permessage-deflate extension (RFC 7692) as a WebSocket server agreed to it in its `101` answer's
/// `Sec-WebSocket-Extensions` header (§7.1).
///
/// PyMax's `WebClient` offers it (`permessage-deflate; client_max_window_bits`, the default of the `websockets`
/// library it uses); a server that accepts it sends messages compressed, RSV1 set on their first frame, and the
/// client does too. Captures of such connections are read by inflating each message (`PerMessageInflater`).
public struct PerMessageDeflate: Hashable, Sendable {
    /// `server_no_context_takeover`: the server starts a new compression context for each message (§7.1.1.1).
    public var serverNoContextTakeover = false
    /// `client_no_context_takeover`: the client does (§7.1.1.2).
    public var clientNoContextTakeover = false

    public init(serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
    }

    /// Whether the sender in `direction` compresses each message on its own, so its inflater is reset after each.
    public func noContextTakeover(_ direction: TraceDirection) -> Bool {
        direction == .clientToServer ? clientNoContextTakeover : serverNoContextTakeover
    }

    /// The extension agreed in an HTTP response head (the bytes before and with its blank line), nil when none of
    /// its `Sec-WebSocket-Extensions` headers names `permessage-deflate`. Header names are matched without regard to
    /// case (RFC 9110 §5.1); the window sizes are not needed to inflate.
    public static func agreed(inResponseHead head: [UInt8]) -> PerMessageDeflate? {
        let text = String(decoding: head, as: UTF8.self)
        let values = text.split(separator: "\r\n", omittingEmptySubsequences: true).dropFirst().compactMap { line in
            line.firstIndex(of: ":").flatMap { colon in
                line[..<colon].trimmingSpaces().lowercased() == "sec-websocket-extensions"
                    ? String(line[line.index(after: colon)...]) : nil
            }
        }
        guard let offer = extensions(inHeaderValues: values).first(where: { $0.name == "permessage-deflate" }) else {
            return nil
        }
        var agreed = PerMessageDeflate()
        for parameter in offer.parameters {
            if parameter.name == "server_no_context_takeover" { agreed.serverNoContextTakeover = true }
            if parameter.name == "client_no_context_takeover" { agreed.clientNoContextTakeover = true }
        }
        return agreed
    }

    /// The extensions `Sec-WebSocket-Extensions` header values list, in order (RFC 6455 §9.1): each one's name and
    /// parameters, names lowercased, values unquoted (nil for a parameter with none).
    static func extensions(inHeaderValues values: [String])
        -> [(name: String, parameters: [(name: String, value: String?)])] {
        values.flatMap { $0.split(separator: ",") }.map { item in
            let parts = item.split(separator: ";").map { $0.trimmingSpaces() }
            let parameters = parts.dropFirst().map { parameter -> (name: String, value: String?) in
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let value = pair.count > 1
                    ? String(pair[1].trimmingSpaces().drop { $0 == "\"" }.reversed().drop { $0 == "\"" }.reversed())
                    : nil
                return (pair[0].trimmingSpaces().lowercased(), value)
            }
            return ((parts.first ?? "").lowercased(), parameters)
        }
    }
}

extension PerMessageDeflate {
    /// What a server agrees to of a client's `Sec-WebSocket-Extensions` offers (RFC 7692 §5, §7.1): the first
    /// `permessage-deflate` offer whose parameters are all known, each named once, with valid values, and a
    /// `server_max_window_bits` of 9 or more (zlib's raw DEFLATE has no 8-bit window); nil when none is.
    /// - Parameter offers: the values of the request's `Sec-WebSocket-Extensions` headers, as sent.
    /// - Returns: the agreement and the server's maximum window in bits (15 unless the client asked for less).
    public static func accepted(fromOffers offers: [String]) -> (agreed: PerMessageDeflate, serverWindowBits: Int)? {
        offers: for offer in extensions(inHeaderValues: offers) where offer.name == "permessage-deflate" {
            var agreed = PerMessageDeflate()
            var serverWindowBits = 15
            var seen: Set<String> = []
            for (name, value) in offer.parameters {
                guard seen.insert(name).inserted else { continue offers }
                switch (name, value) {
                case ("server_no_context_takeover", nil): agreed.serverNoContextTakeover = true
                case ("client_no_context_takeover", nil): agreed.clientNoContextTakeover = true
                case ("client_max_window_bits", nil): break
                case ("client_max_window_bits", let bits?) where Int(bits).map({ (8...15).contains($0) }) == true:
                    break  // the client may limit its own window; the inflater reads any (15 bits)
                case ("server_max_window_bits", let bits?) where Int(bits).map({ (9...15).contains($0) }) == true:
                    serverWindowBits = Int(bits)!
                default: continue offers
                }
            }
            return (agreed, serverWindowBits)
        }
        return nil
    }

    /// The response header's value for this agreement (RFC 7692 §7.1): `permessage-deflate` with the context
    /// parameters agreed and the server's window when below 15 bits.
    public func responseValue(serverWindowBits: Int) -> String {
        var value = "permessage-deflate"
        if serverNoContextTakeover { value += "; server_no_context_takeover" }
        if clientNoContextTakeover { value += "; client_no_context_takeover" }
        if serverWindowBits < 15 { value += "; server_max_window_bits=\(serverWindowBits)" }
        return value
    }
}

extension StringProtocol {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// zlib's `z_stream` and the loop both directions run it with: the one place that points zlib at Swift buffers.
private final class ZlibStream {
    let pointer = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private(set) var isReady: Bool
    private let end: (z_streamp) -> Int32

    /// - Parameters:
    ///   - setUp: zlib's init for the direction (a shim over `inflateInit2` or `deflateInit2`); Z_OK makes it ready.
    ///   - end: `inflateEnd` or `deflateEnd`, called once when it goes or is closed.
    init(setUp: (z_streamp) -> Int32, end: @escaping (z_streamp) -> Int32) {
        pointer.initialize(to: z_stream())
        self.end = end
        isReady = setUp(pointer) == Z_OK
    }

    deinit {
        close()
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    /// Frees zlib's state; the stream is not used again.
    func close() {
        if isReady { _ = end(pointer) }
        isReady = false
    }

    /// Runs `step` (zlib's `inflate` or `deflate`) with `Z_SYNC_FLUSH` over `input` until zlib has taken it all and
    /// flushed (`Z_OK` with output room to spare, or no progress left: both give `Z_OK`), ended its stream
    /// (`Z_STREAM_END`) or failed (its error code), following zlib's manual: a call that fills the output is
    /// repeated.
    /// - Returns: the output and that code, or nil once the output would pass `limit` bytes.
    func run(_ input: [UInt8], limit: Int, step: (z_streamp, Int32) -> Int32) -> (output: [UInt8], code: Int32)? {
        var input = input
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let stream = pointer
        return input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.pointee.next_in = inputBuffer.baseAddress
            stream.pointee.avail_in = UInt32(inputBuffer.count)
            defer {
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            while true {
                let (code, produced) = chunk.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.pointee.next_out = outputBuffer.baseAddress
                    stream.pointee.avail_out = UInt32(outputBuffer.count)
                    let code = step(stream, Z_SYNC_FLUSH)
                    let produced = outputBuffer.count - Int(stream.pointee.avail_out)
                    stream.pointee.next_out = nil
                    stream.pointee.avail_out = 0
                    return (code, produced)
                }
                guard output.count + produced <= limit else { return nil }
                output += chunk[..<produced]
                switch code {
                case Z_OK where stream.pointee.avail_in > 0 || produced == chunk.count: continue
                case Z_OK: return (output, Z_OK)
                case Z_BUF_ERROR where produced == 0: return (output, Z_OK)
                default: return (output, code)
                }
            }
        }
    }
}

/// Inflates the messages one direction of a permessage-deflate connection sent (RFC 7692 §7.2.2), in order: with
/// context takeover, each message's DEFLATE data goes on from the previous one's window.
///
/// A class because it owns zlib's `z_stream`, freed when it goes.
package final class PerMessageInflater {
    private let stream = ZlibStream(setUp: { syncsim_inflate_init_raw($0) }, end: { inflateEnd($0) })
    private let resetsAfterEachMessage: Bool
    /// The largest inflated message taken.
    package let maxMessageBytes: Int

    /// - Parameters:
    ///   - resetsAfterEachMessage: the sender's `*_no_context_takeover` (each message its own DEFLATE context).
    ///   - maxMessageBytes: the largest inflated message; a larger one is an error (close code 1009).
    package init(resetsAfterEachMessage: Bool, maxMessageBytes: Int) {
        self.resetsAfterEachMessage = resetsAfterEachMessage
        self.maxMessageBytes = maxMessageBytes
    }

    /// One message's bytes, inflated: the sender removed the `00 00 FF FF` its sync flush ended with (§7.2.1), so
    /// it is put back before inflating.
    /// - Throws: `WebSocketFrameError` (offset 0) when the bytes are not DEFLATE data going on from the messages
    ///   before (close code 1007), or inflate to over `maxMessageBytes` (1009).
    package func inflate(_ compressed: [UInt8]) throws(WebSocketFrameError) -> [UInt8] {
        guard stream.isReady else {
            throw WebSocketFrameError(offset: 0, reason: "zlib could not set up an inflater", closeCode: 1011)
        }
        guard let (output, code) = stream.run(compressed + [0x00, 0x00, 0xFF, 0xFF], limit: maxMessageBytes,
                                              step: { CZlib.inflate($0, $1) }) else {
            throw WebSocketFrameError(offset: 0, reason: "compressed message inflates to over the "
                + "\(maxMessageBytes)-byte message limit", closeCode: 1009)
        }
        switch code {
        case Z_OK:
            if resetsAfterEachMessage { inflateReset(stream.pointer) }
        case Z_STREAM_END:
            // The sender ended its DEFLATE stream (a final block): the next message starts a new one.
            inflateReset(stream.pointer)
        default:
            let detail = stream.pointer.pointee.msg.map { String(cString: $0) } ?? "error \(code)"
            throw WebSocketFrameError(offset: 0, reason: "compressed message does not inflate "
                + "(zlib: \(detail); RFC 7692 §7.2.2)", closeCode: 1007)
        }
        return output
    }

    /// Forgets the window: the next message is inflated as if it were the first (after a message that did not
    /// inflate, whose failure leaves zlib's state unusable).
    package func reset() {
        if stream.isReady { inflateReset(stream.pointer) }
    }
}

/// Compresses the messages one side of a permessage-deflate connection sends (RFC 7692 §7.2.1), in order: each
/// message is DEFLATE data ended by a sync flush, whose `00 00 FF FF` is removed; with context takeover the window
/// goes on from message to message.
///
/// A class because it owns zlib's `z_stream`, freed when it goes.
package final class PerMessageDeflater {
    private let stream: ZlibStream
    private let resetsAfterEachMessage: Bool

    /// - Parameters:
    ///   - windowBits: the LZ77 window, 9...15 bits (the agreed `server_max_window_bits`, 15 by default).
    ///   - resetsAfterEachMessage: `server_no_context_takeover` was agreed.
    package init(windowBits: Int, resetsAfterEachMessage: Bool) {
        self.resetsAfterEachMessage = resetsAfterEachMessage
        let bits = Int32(min(max(windowBits, 9), 15))
        stream = ZlibStream(setUp: { syncsim_deflate_init_raw($0, bits) }, end: { deflateEnd($0) })
    }

    /// One message compressed, or nil when zlib failed (the message then goes out uncompressed, RSV1 clear, which
    /// RFC 7692 §6 allows; the context is not used again).
    package func deflate(_ message: [UInt8]) -> [UInt8]? {
        guard stream.isReady else { return nil }
        guard let (output, code) = stream.run(message, limit: Int.max, step: { CZlib.deflate($0, $1) }),
              code == Z_OK, output.suffix(4) == [0x00, 0x00, 0xFF, 0xFF] else {
            stream.close()
            return nil
        }
        if resetsAfterEachMessage { deflateReset(stream.pointer) }
        return Array(output.dropLast(4))
    }
}
