import SyncSim
@testable import SyncTrace
import Testing

@testable import SyncSimCLI

/// Captures of WebSocket connections whose handshake agreed to permessage-deflate (RFC 7692):
/// Fixtures/websocket/pymax-webclient-deflate.pcap (PyMax 2.5.0 and 2.1.0 through `deflate_relay.py`), and the
/// inflater on DEFLATE data made with Python's zlib (`compressobj(wbits=-15)`, each message sync-flushed and its
/// `00 00 ff ff` removed).
@Suite struct WebSocketDeflateTests {
    static let capture = TraceDecodeCommandTests.fixture("websocket/pymax-webclient-deflate.pcap")

    @Test("both compressed sessions decode to their ten frames, each showing its message's compressed size")
    func decodes() throws {
        let decoding = try TraceDecoder().decode(path: Self.capture)
        try WebSocketCaptureTests.expectBothSessions(decoding)
        #expect(decoding.connections.allSatisfy { $0.frames.allSatisfy { ($0.deflatedMessageBytes ?? 0) > 0 } })
        // A compressed message takes fewer bytes than its frame: what a replay compares with acknowledgements ends
        // where the message ends, not the frame's size past its start (which ran past the stream's end).
        let sessionInit = try #require(decoding.connections[0].frames.first)
        #expect(sessionInit.decoded.wireByteCount == 301)
        #expect(sessionInit.capturedBytes.count < 301, "\(sessionInit.capturedBytes)")

        let decode = TraceDecodeCommandTests.run(["decode", Self.capture])
        #expect(decode.out.first?.contains(#""transport":"websocket","webSocketExtension":"permessage-deflate","#)
            == true, "\(decode.out.first ?? "")")
        // SESSION_INIT from 2.5.0: a 301-byte field frame in a 253-byte compressed message.
        #expect(decode.out.contains { $0.contains(#""packet":8,"deflatedMessageBytes":253,"frame":1,"#) },
                "\(decode.out)")
    }

    @Test("replayed against the server and to the reference engine, the compressed capture agrees")
    func replays() {
        let server = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "server"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out.last?.contains("10 answers compared, 0 differences") == true, "\(server.out)")
        let client = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "client"])
        #expect(client.code == 0, "\(client.out)")
        #expect(client.out.last?.contains(": 0 violations of") == true, "\(client.out)")
    }

    @Test("the agreement is read from the server's 101 head: names in any case, parameters, other extensions")
    func agreement() {
        func agreed(_ headers: String) -> PerMessageDeflate? {
            PerMessageDeflate.agreed(inResponseHead: Array(("HTTP/1.1 101 Switching Protocols\r\n" + headers
                + "\r\n").utf8))
        }
        #expect(agreed("Upgrade: websocket\r\n") == nil)
        #expect(agreed("Sec-WebSocket-Extensions: x-webkit-deflate-frame\r\n") == nil)
        #expect(agreed("sec-websocket-extensions:permessage-deflate; server_max_window_bits=12\r\n")
            == PerMessageDeflate())
        #expect(agreed("Sec-WebSocket-Extensions: foo, Permessage-Deflate ; client_no_context_takeover ; "
            + "server_no_context_takeover; client_max_window_bits=\"10\"\r\n")
            == PerMessageDeflate(serverNoContextTakeover: true, clientNoContextTakeover: true))
        let serverOnly = PerMessageDeflate(serverNoContextTakeover: true)
        #expect(serverOnly.noContextTakeover(.serverToClient) && !serverOnly.noContextTakeover(.clientToServer))
    }

    static let hello = Array("hello, hello, hello".utf8)
    static let first: [UInt8] = [0xCA, 0x48, 0xCD, 0xC9, 0xC9, 0xD7, 0x51, 0xC8, 0x40, 0xA2, 0x00, 0x00]
    /// The same text again, compressed as a back-reference into the first message's window.
    static let second: [UInt8] = [0xCA, 0xC0, 0x14, 0x02, 0x00]

    @Test("with context takeover a message reads on from the one before; without, each stands alone")
    func contexts() throws {
        let takeover = PerMessageInflater(resetsAfterEachMessage: false, maxMessageBytes: 1_000)
        #expect(try takeover.inflate(Self.first) == Self.hello)
        #expect(try takeover.inflate(Self.second) == Self.hello)

        let alone = PerMessageInflater(resetsAfterEachMessage: true, maxMessageBytes: 1_000)
        #expect(try alone.inflate(Self.first) == Self.hello)
        #expect(try alone.inflate(Self.first) == Self.hello)
        // The back-reference has no window to point into after a reset.
        #expect(throws: WebSocketFrameError.self) { try alone.inflate(Self.second) }
        do {
            _ = try alone.inflate(Self.second)
        } catch {
            #expect(error.closeCode == 1007)
            #expect(error.reason.hasPrefix("compressed message does not inflate (zlib: invalid distance too far back"),
                    "\(error.reason)")
        }
    }

    @Test("a message that inflates past the limit is refused with 1009; an empty one inflates to nothing")
    func limits() throws {
        // 5,000 zero bytes in 22 compressed bytes.
        let zeros: [UInt8] = [0xEC, 0xC1, 0x31, 0x01, 0x00, 0x00, 0x00, 0xC2, 0xA0, 0xF5, 0x4F, 0x6D, 0x0A, 0x3F, 0xA0,
                              0x00, 0x00, 0x00, 0x00, 0x80, 0xB7, 0x01]
        #expect(try PerMessageInflater(resetsAfterEachMessage: false, maxMessageBytes: 5_000).inflate(zeros)
            == [UInt8](repeating: 0, count: 5_000))
        do {
            _ = try PerMessageInflater(resetsAfterEachMessage: false, maxMessageBytes: 4_999).inflate(zeros)
            Issue.record("5,000 bytes passed a 4,999-byte limit")
        } catch {
            #expect(error.closeCode == 1009)
        }
        // An empty compressed message is the empty stored block RFC 7692 §7.2.3.6 allows: [0x00].
        #expect(try PerMessageInflater(resetsAfterEachMessage: false, maxMessageBytes: 10).inflate([0x00]) == [])
    }

    @Test("RSV1 marks only a data message's first frame, and only once the extension is agreed")
    func reservedBit() throws {
        let compressed: [UInt8] = [0xC2, 0x01, 0x00]
        #expect(throws: WebSocketFrameError.self) { try WebSocketFrame.parse(compressed, maxPayloadBytes: 100) }
        let frame = try #require(try WebSocketFrame.parse(compressed, maxPayloadBytes: 100, allowsCompressed: true))
        #expect(frame.isCompressed && frame.opcode == 2 && frame.payload == [0x00])
        for (bytes, kind) in [([UInt8]([0xC9, 0x00]), "control"), ([0xC0, 0x00], "continuation")] {
            do {
                _ = try WebSocketFrame.parse(bytes, maxPayloadBytes: 100, allowsCompressed: true)
                Issue.record("RSV1 on a \(kind) frame passed")
            } catch {
                #expect(error.reason == "RSV1 (compressed) set on a \(kind) frame (RFC 7692 §6.1)")
            }
        }
        // RSV2 stays reserved.
        #expect(throws: WebSocketFrameError.self) {
            try WebSocketFrame.parse([0xA2, 0x00], maxPayloadBytes: 100, allowsCompressed: true)
        }
        var assembler = WebSocketMessageAssembler(maxMessageBytes: 100)
        #expect(throws: WebSocketFrameError.self) { try assembler.take(frame) }
        var inflating = WebSocketMessageAssembler(maxMessageBytes: 100)
        let inflater = PerMessageInflater(resetsAfterEachMessage: false, maxMessageBytes: 100)
        #expect(try inflating.take(frame, inflate: inflater.inflate) == .binary([]))
    }
}

/// `syncsim serve --websocket-deflate`: the server agrees to a client's permessage-deflate offer (RFC 7692),
/// inflates what the client compressed and compresses what it sends.
@Suite struct ServeWebSocketDeflateTests {
    @Test("offers: the first acceptable permessage-deflate offer is agreed, with its context and window parameters")
    func negotiation() {
        func accepted(_ offers: String...) -> String? {
            PerMessageDeflate.accepted(fromOffers: offers).map { $0.agreed.responseValue(serverWindowBits: $0.1) }
        }
        // PyMax's WebClient (the websockets library's default offer).
        #expect(accepted("permessage-deflate; client_max_window_bits") == "permessage-deflate")
        #expect(accepted("x-webkit-deflate-frame", "Permessage-Deflate; server_max_window_bits=10; "
            + "server_no_context_takeover") == "permessage-deflate; server_no_context_takeover; server_max_window_bits=10")
        #expect(accepted("permessage-deflate; client_no_context_takeover; client_max_window_bits=\"12\"")
            == "permessage-deflate; client_no_context_takeover")
        // zlib's raw DEFLATE has no 8-bit window: that offer is declined and the next one taken.
        #expect(accepted("permessage-deflate; server_max_window_bits=8, permessage-deflate")
            == "permessage-deflate")
        #expect(accepted("permessage-deflate; server_max_window_bits=8") == nil)
        #expect(accepted("permessage-deflate; mystery_parameter") == nil)
        #expect(accepted("permessage-deflate; server_no_context_takeover; server_no_context_takeover") == nil)
        #expect(accepted("permessage-deflate; server_max_window_bits") == nil)
        #expect(accepted("permessage-deflate; client_max_window_bits=16") == nil)
        #expect(accepted() == nil)
        // Malformed offers are declined, never a trap.
        for offer in ["permessage-deflate; ; server_no_context_takeover", "permessage-deflate;=", "permessage-deflate; =15",
                      "permessage-deflate; server_max_window_bits=", "permessage-deflate; server_max_window_bits=\"\"",
                      ";;,,", "permessage-deflate; server_max_window_bits=99999999999999999999"] {
            #expect(accepted(offer) == nil, "\(offer)")
        }
    }

    @Test("what the deflater writes, the inflater reads: with and without context takeover, small windows, big messages",
          arguments: [(15, false), (15, true), (9, false), (12, true)])
    func roundTrip(windowBits: Int, resets: Bool) throws {
        let deflater = PerMessageDeflater(windowBits: windowBits, resetsAfterEachMessage: resets)
        let inflater = PerMessageInflater(resetsAfterEachMessage: resets, maxMessageBytes: 1 << 20)
        var generator = SeededGenerator(seed: UInt64(windowBits))
        var messages: [[UInt8]] = [[], Array("hello, hello, hello".utf8), Array("hello, hello, hello".utf8)]
        // Incompressible bytes longer than zlib's output chunk, and a long repetitive run.
        messages.append((0..<70_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        messages.append(Array(String(repeating: "history message of chat 1, seeded; ", count: 3_000).utf8))
        for message in messages {
            let compressed = try #require(deflater.deflate(message))
            #expect(compressed.suffix(4) != [0x00, 0x00, 0xFF, 0xFF])
            #expect(try inflater.inflate(compressed) == message)
        }
        // With context takeover a message repeating the one before is a back-reference into it.
        _ = try inflater.inflate(try #require(deflater.deflate(messages[1])))
        let repeated = try #require(deflater.deflate(messages[1]))
        #expect(resets ? repeated.count > 8 : repeated.count < 8, "\(repeated)")
        #expect(try inflater.inflate(repeated) == messages[1])
    }

    /// A session that agreed to permessage-deflate on PyMax's offer.
    static func openSession() throws -> (WebSocketSession, answer: String) {
        var session = WebSocketSession(acceptsDeflate: true)
        let outputs = try session.receive(WebSocketTests.request())
        guard case .write(let answer)? = outputs.first else {
            Issue.record("\(outputs)")
            return (session, "")
        }
        return (session, String(decoding: answer, as: UTF8.self))
    }

    @Test("the 101 names the agreement; compressed client messages are inflated, server messages go compressed")
    func session() throws {
        var (session, answer) = try Self.openSession()
        #expect(answer.contains("\r\nSec-WebSocket-Extensions: permessage-deflate\r\n"), "\(answer)")
        #expect(session.agreedExtension == "permessage-deflate")

        // The client compresses two messages with one context (its default), the second split in two fragments.
        let clientDeflater = PerMessageDeflater(windowBits: 15, resetsAfterEachMessage: false)
        let ping = try FrameEncoder().encode(Frame(cmd: .request, seq: 1, opcode: .ping, payload: .map([])))
        let first = try #require(clientDeflater.deflate(ping))
        let second = try #require(clientDeflater.deflate(ping))
        var bytes = WebSocketTests.clientFrame(opcode: 2, first)
        bytes[0] |= 0x40
        var fragment = WebSocketTests.clientFrame(opcode: 2, Array(second.prefix(2)), final: false)
        fragment[0] |= 0x40
        bytes += fragment + WebSocketTests.clientFrame(opcode: 0, Array(second.dropFirst(2)))
        #expect(try session.receive(bytes) == [.message(.binary(ping)), .message(.binary(ping))])

        // The server's messages: RSV1 set, and they inflate with one context on the client's side.
        let clientInflater = PerMessageInflater(resetsAfterEachMessage: false, maxMessageBytes: 1 << 20)
        for _ in 0..<3 {
            let wire = session.messageBytes(opcode: 2, payload: ping)
            let frame = try #require(try WebSocketFrame.parse(wire, maxPayloadBytes: 1 << 20, allowsCompressed: true))
            #expect(frame.isCompressed && !frame.isMasked && frame.isFinal)
            #expect(try clientInflater.inflate(frame.payload) == ping)
        }
        // Control frames never are compressed.
        #expect(WebSocketSession.closeFrame(code: 1000)[0] == 0x88)
    }

    @Test("a message that does not inflate closes with 1007; without the option no extension is agreed and RSV1 is 1002")
    func refusals() throws {
        var (session, _) = try Self.openSession()
        var broken = WebSocketTests.clientFrame(opcode: 2, [0xFF, 0xFF, 0xFF])
        broken[0] |= 0x40
        do {
            _ = try session.receive(broken)
            Issue.record("a message that does not inflate was taken")
        } catch {
            #expect(error.reason.hasPrefix("compressed message does not inflate"), "\(error.reason)")
            #expect(error.answer.prefix(4) == [0x88, UInt8(error.answer.count - 2), 0x03, 0xEF], "close 1007")
        }

        var plain = WebSocketSession()
        guard case .write(let answer)? = try plain.receive(WebSocketTests.request()).first else {
            Issue.record("no answer")
            return
        }
        #expect(!String(decoding: answer, as: UTF8.self).contains("Extensions"))
        #expect(plain.agreedExtension == nil)
        var compressed = WebSocketTests.clientFrame(opcode: 2, [0x00])
        compressed[0] |= 0x40
        #expect(throws: WebSocketError.self) { try plain.receive(compressed) }
        #expect(plain.messageBytes(opcode: 2, payload: [1, 2, 3]) == [0x82, 3, 1, 2, 3])
    }
}

/// Compressed WebSocket connections captured from their middle (no handshake seen): recognised by their framing;
/// what inflates from the bytes captured is decoded, what refers to messages before the capture is skipped.
@Suite struct WebSocketDeflateMidStreamTests {
    static let capture = TraceDecodeCommandTests.fixture("websocket/pymax-webclient-deflate-midstream.pcap")

    @Test("PyMax's sessions from after their handshakes: WebSocket, and every message skipped with the reason")
    func pymaxContextTakeover() throws {
        let decoding = try TraceDecoder().decode(path: Self.capture)
        #expect(decoding.connections.count == 2)
        for connection in decoding.connections {
            #expect(connection.isWebSocket && connection.webSocketDeflate == PerMessageDeflate())
            #expect(connection.frames.isEmpty)
            #expect(connection.issues.map(\.kind) == [.webSocket, .webSocket], "\(connection.issues)")
            #expect(connection.issues.allSatisfy {
                $0.detail.hasPrefix("4 compressed messages refer to data sent before the capture began")
            }, "\(connection.issues.map(\.detail))")
        }
        // replay has nothing to compare and says why.
        let replay = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "server"])
        #expect(replay.code == 2)
        #expect(replay.err.contains("compressed messages refer to data sent before the capture began"), "\(replay.err)")
    }

    /// One direction of a connection captured from its middle: `frames` as WebSocket frames, the first `cut` bytes
    /// missing (the tail of a frame before them).
    static func stream(_ frames: [[UInt8]], cut: Int) -> TCPStreamTrace {
        var stream = TCPStreamTrace()
        let bytes = Array(frames.joined().dropFirst(cut))
        let time = CaptureTimestamp(nanosecondsSinceEpoch: 1_000)
        stream.pieces = [.data(ByteRun(offset: 1_000, bytes: bytes, timestamp: time, packetNumber: 1))]
        return stream
    }

    static func frameBytes(_ opcode: Opcode, seq: UInt16, cmd: Command) throws -> [UInt8] {
        try FrameEncoder().encode(Frame(cmd: cmd, seq: seq, opcode: opcode,
                                        payload: .map([MessagePackPair(.string("chatId"), .int(7))])))
    }

    @Test("without context takeover every message inflates alone: all decoded, the tail before the first frame skipped")
    func noContextTakeover() throws {
        let clientDeflater = PerMessageDeflater(windowBits: 15, resetsAfterEachMessage: true)
        let serverDeflater = PerMessageDeflater(windowBits: 15, resetsAfterEachMessage: true)
        var clientFrames: [[UInt8]] = [], serverFrames: [[UInt8]] = []
        for seq in UInt16(1)...6 {
            var request = WebSocketTests.clientFrame(
                opcode: 2, try #require(clientDeflater.deflate(try Self.frameBytes(.chatHistory, seq: seq, cmd: .request))))
            request[0] |= 0x40
            clientFrames.append(request)
            serverFrames.append(WebSocketFrame.serverBytes(
                opcode: 2, payload: try #require(serverDeflater.deflate(
                    try Self.frameBytes(.chatHistory, seq: seq, cmd: .response))), compressed: true))
        }
        let endpoint = TCPEndpoint(address: .v4(0x7F00_0001), port: 7000)
        let time = CaptureTimestamp(nanosecondsSinceEpoch: 1_000)
        let connection = TCPConnectionTrace(
            number: 1, client: endpoint, server: endpoint, firstPacketNumber: 1, firstTimestamp: time,
            lastTimestamp: time, packetCount: 2, clientToServer: Self.stream(clientFrames, cut: 3),
            serverToClient: Self.stream(serverFrames, cut: 0))
        let decoded = TraceDecoder().decode(connection)
        #expect(decoded.isWebSocket)
        // The client's first frame was cut: its five others; the server's six.
        #expect(decoded.frames.filter { $0.direction == .clientToServer }.map(\.decoded.frame.seq) == [2, 3, 4, 5, 6])
        #expect(decoded.frames.filter { $0.direction == .serverToClient }.map(\.decoded.frame.seq) == [1, 2, 3, 4, 5, 6])
        #expect(decoded.issues.map(\.kind) == [.skippedToResync], "\(decoded.issues)")
    }

    @Test("a compressed message that is no DEFLATE data at all is a fault that ends the direction, not a skip")
    func corruptMessage() throws {
        let deflater = PerMessageDeflater(windowBits: 15, resetsAfterEachMessage: true)
        var frames: [[UInt8]] = []
        for seq in UInt16(1)...4 {
            let payload = seq == 3 ? [0xFF, 0xFF, 0xFF]
                : try #require(deflater.deflate(try Self.frameBytes(.chatHistory, seq: seq, cmd: .response)))
            frames.append(WebSocketFrame.serverBytes(opcode: 2, payload: payload, compressed: true))
        }
        let endpoint = TCPEndpoint(address: .v4(0x7F00_0001), port: 7000)
        let time = CaptureTimestamp(nanosecondsSinceEpoch: 1_000)
        let connection = TCPConnectionTrace(
            number: 1, client: endpoint, server: endpoint, firstPacketNumber: 1, firstTimestamp: time,
            lastTimestamp: time, packetCount: 1, clientToServer: TCPStreamTrace(),
            serverToClient: Self.stream(frames, cut: 0))
        let decoded = TraceDecoder().decode(connection)
        #expect(decoded.frames.map(\.decoded.frame.seq) == [1, 2])
        #expect(decoded.issues.map(\.kind) == [.webSocket])
        #expect(decoded.issues.first?.detail.hasPrefix("compressed message does not inflate") == true,
                "\(decoded.issues)")
    }

    @Test("bytes that are no compressed WebSocket frames are not taken for them")
    func notWebSocket() throws {
        // Field frames straight on TCP, captured from their middle, and random bytes.
        var tcp: [UInt8] = []
        for seq in UInt16(1)...6 { tcp += try Self.frameBytes(.ping, seq: seq, cmd: .request) }
        var generator = SeededGenerator(seed: 7)
        let random = (0..<4_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for bytes in [tcp, random] {
            let stream = Self.stream([bytes], cut: 5)
            #expect(WebSocketStream.firstCompressedFrame(in: stream, masked: true, maxPayloadBytes: 1 << 20) == nil)
            #expect(WebSocketStream.firstCompressedFrame(in: stream, masked: false, maxPayloadBytes: 1 << 20) == nil)
        }
    }
}
