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
    /// case (RFC 9110 §5.1); parameters may be quoted (RFC 6455 §9.1); the window sizes are not needed to inflate.
    public static func agreed(inResponseHead head: [UInt8]) -> PerMessageDeflate? {
        let text = String(decoding: head, as: UTF8.self)
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true).dropFirst() {
            guard let colon = line.firstIndex(of: ":"),
                  line[..<colon].trimmingSpaces().lowercased() == "sec-websocket-extensions" else { continue }
            for offer in line[line.index(after: colon)...].split(separator: ",") {
                let parts = offer.split(separator: ";").map { $0.trimmingSpaces().lowercased() }
                guard parts.first == "permessage-deflate" else { continue }
                var agreed = PerMessageDeflate()
                for parameter in parts.dropFirst() {
                    let name = parameter.split(separator: "=", maxSplits: 1).first.map { $0.trimmingSpaces() } ?? ""
                    if name == "server_no_context_takeover" { agreed.serverNoContextTakeover = true }
                    if name == "client_no_context_takeover" { agreed.clientNoContextTakeover = true }
                }
                return agreed
            }
        }
        return nil
    }
}

extension StringProtocol {
    fileprivate func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// Inflates the messages one direction of a permessage-deflate connection sent (RFC 7692 §7.2.2), in order: with
/// context takeover, each message's DEFLATE data goes on from the previous one's window.
///
/// A class because it owns zlib's `z_stream`, freed when it goes.
final class PerMessageInflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let resetsAfterEachMessage: Bool
    /// The largest inflated message taken.
    let maxMessageBytes: Int
    private var isReady = false

    /// - Parameters:
    ///   - resetsAfterEachMessage: the sender's `*_no_context_takeover` (each message its own DEFLATE context).
    ///   - maxMessageBytes: the largest inflated message; a larger one is an error (close code 1009).
    init(resetsAfterEachMessage: Bool, maxMessageBytes: Int) {
        self.resetsAfterEachMessage = resetsAfterEachMessage
        self.maxMessageBytes = maxMessageBytes
        stream.initialize(to: z_stream())
        isReady = syncsim_inflate_init_raw(stream) == Z_OK
    }

    deinit {
        if isReady { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// One message's bytes, inflated: the sender removed the `00 00 FF FF` its sync flush ended with (§7.2.1), so
    /// it is put back before inflating.
    /// - Throws: `WebSocketFrameError` (offset 0) when the bytes are not DEFLATE data going on from the messages
    ///   before (close code 1007), or inflate to over `maxMessageBytes` (1009).
    func inflate(_ compressed: [UInt8]) throws(WebSocketFrameError) -> [UInt8] {
        guard isReady else {
            throw WebSocketFrameError(offset: 0, reason: "zlib could not set up an inflater", closeCode: 1011)
        }
        var input = compressed + [0x00, 0x00, 0xFF, 0xFF]
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var failure: WebSocketFrameError?
        input.withUnsafeMutableBufferPointer { inputBuffer in
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
                    let code = CZlib.inflate(stream, Z_SYNC_FLUSH)
                    let produced = outputBuffer.count - Int(stream.pointee.avail_out)
                    stream.pointee.next_out = nil
                    stream.pointee.avail_out = 0
                    return (code, produced)
                }
                guard output.count + produced <= maxMessageBytes else {
                    failure = WebSocketFrameError(offset: 0, reason: "compressed message inflates to over the "
                        + "\(maxMessageBytes)-byte message limit", closeCode: 1009)
                    return
                }
                output += chunk[..<produced]
                switch code {
                case Z_OK where stream.pointee.avail_in == 0 && produced < chunk.count, Z_BUF_ERROR where produced == 0:
                    return
                case Z_OK:
                    continue
                case Z_STREAM_END:
                    // The sender ended its DEFLATE stream (a final block): the next message starts a new one.
                    inflateReset(stream)
                    return
                default:
                    let detail = stream.pointee.msg.map { String(cString: $0) } ?? "error \(code)"
                    failure = WebSocketFrameError(offset: 0, reason: "compressed message does not inflate "
                        + "(zlib: \(detail); RFC 7692 §7.2.2)", closeCode: 1007)
                    return
                }
            }
        }
        if let failure { throw failure }
        if resetsAfterEachMessage { inflateReset(stream) }
        return output
    }
}
