import Foundation
import SyncSim
import Testing
import SyncTrace
@testable import SyncSimCLI

/// `syncsim serve`'s WebSocket transport (RFC 6455): the handshake, the framing, JSON frames, and a live server.
@Suite struct WebSocketTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    static func request(key: String = key, version: String = "13", upgrade: String = "websocket",
                        method: String = "GET") -> [UInt8] {
        Array(requestText(key: key, version: version, upgrade: upgrade, method: method).utf8)
    }

    static func requestText(key: String = key, version: String = "13", upgrade: String = "websocket",
                            method: String = "GET") -> String {
        ("\(method) /websocket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: \(upgrade)\r\nConnection: keep-alive, Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: \(version)\r\n"
            + "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\nOrigin: https://web.max.ru\r\n\r\n")
    }

    /// A client frame: masked with `mask`, final unless `final` is false.
    static func clientFrame(opcode: UInt8, _ payload: [UInt8], final: Bool = true,
                            mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]) -> [UInt8] {
        var bytes: [UInt8] = [(final ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126: bytes.append(0x80 | UInt8(payload.count))
        case ..<65_536: bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(payload.count >> shift & 0xFF)) }
        }
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index & 3]) }
        return bytes
    }

    static func openSession() throws -> WebSocketSession {
        var session = WebSocketSession()
        let outputs = try session.receive(request())
        #expect(outputs.count == 1)
        return session
    }

    @Test("the accept key is RFC 6455's example (§1.3)")
    func acceptKey() {
        #expect(WebSocketHandshake.accept(forKey: Self.key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("a handshake split over reads is answered 101 with the accept key and no extension")
    func handshake() throws {
        var session = WebSocketSession()
        let request = Self.request()
        #expect(try session.receive(Array(request.prefix(30))) == [])
        let outputs = try session.receive(Array(request.dropFirst(30)))
        guard case .write(let answer) = try #require(outputs.first) else { Issue.record("\(outputs)"); return }
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(text.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        #expect(!text.contains("Extensions"))
        #expect(session.isOpen && session.path == "/websocket")
    }

    @Test("a bad handshake is an HTTP error naming the header", arguments: [
        (requestText(version: "8"), "426 Upgrade Required", "Sec-WebSocket-Version is '8', not 13"),
        (requestText(key: "short"), "400 Bad Request", "Sec-WebSocket-Key 'short' is not the base64 of 16 bytes"),
        (requestText(upgrade: "h2c"), "426 Upgrade Required", "Upgrade does not name websocket"),
        (requestText(method: "POST"), "405 Method Not Allowed", "method 'POST' is not GET"),
        ("GET /\r\n\r\n", "400 Bad Request", "request line 'GET /' is not 'GET PATH HTTP/1.1'"),
        ("GET / HTTP/1.1\r\nUpgrade websocket\r\n\r\n", "400 Bad Request",
         "header line 'Upgrade websocket' has no ':'"),
    ])
    func badHandshake(request: String, status: String, reason: String) {
        Self.expectRefused(Array(request.utf8), status: status, reason: reason)
    }

    @Test("a request head with no blank line in its first 16 KB is refused 431")
    func endlessHandshake() {
        Self.expectRefused(Array(repeating: UInt8(ascii: "G"), count: 20_000), status: "431",
                           reason: "no blank line ends the request head")
    }

    static func expectRefused(_ request: [UInt8], status: String, reason: String) {
        var session = WebSocketSession()
        #expect {
            _ = try session.receive(request)
        } throws: { error in
            guard let error = error as? WebSocketError else { return false }
            let answer = String(decoding: error.answer, as: UTF8.self)
            return error.description.contains(reason) && answer.hasPrefix("HTTP/1.1 \(status)")
                && answer.contains(reason)
        }
        #expect(session.isClosed)
    }

    @Test("RFC 6455's masked 'Hello' (§5.7), fragments joined, ping answered, close echoed")
    func frames() throws {
        var session = try Self.openSession()
        let hello: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try session.receive(hello) == [.message(.text(Array("Hello".utf8)))])
        let big = (0..<70_000).map { UInt8($0 % 251) }
        let fragmented = Self.clientFrame(opcode: 2, Array(big.prefix(200)), final: false)
            + Self.clientFrame(opcode: 9, [1, 2, 3])
            + Self.clientFrame(opcode: 0, Array(big.dropFirst(200)))
        var outputs: [WebSocketSession.Output] = []
        for start in stride(from: 0, to: fragmented.count, by: 999) {
            outputs += try session.receive(Array(fragmented[start..<min(start + 999, fragmented.count)]))
        }
        #expect(outputs == [.write([0x8A, 3, 1, 2, 3]), .message(.binary(big))])
        let close = try session.receive(Self.clientFrame(opcode: 8, [0x03, 0xE8]))
        #expect(close == [.write([0x88, 2, 0x03, 0xE8]), .closed(code: 1000)])
        #expect(session.isClosed)
        #expect(try session.receive(Self.clientFrame(opcode: 2, [1])) == [])
    }

    @Test("a frame that breaks RFC 6455 is an error at its byte offset with a close frame of its code", arguments: [
        ([0x82, 0x01, 0x00], 129, "a client frame is not masked", 1002),
        (clientFrame(opcode: 3, []), 128, "opcode 3 is reserved", 1002),
        ([0xC2] + clientFrame(opcode: 2, []).dropFirst(), 128, "reserved bits set (4)", 1002),
        (clientFrame(opcode: 9, [], final: false), 128, "control frame 9 is fragmented", 1002),
        (clientFrame(opcode: 0, [1]), 128, "continuation frame with no fragmented message begun", 1002),
        (clientFrame(opcode: 1, [0xFF, 0xFE]), 128, "text message is not UTF-8", 1007),
        (clientFrame(opcode: 8, [3]), 128, "close frame with a 1-byte body", 1002),
        ([0x82, 0xFF, 0, 0, 0, 0, 2, 0, 0, 0, 1, 2, 3, 4], 129, "frame of 33554432 bytes is over the 16778240-byte message limit",
         1009),
    ] as [([UInt8], Int, String, UInt16)])
    func badFrames(bytes: [UInt8], offset: Int, reason: String, code: UInt16) throws {
        var session = try Self.openSession()
        let handshakeLength = Self.request().count
        // A good frame first, so the offset counts from the stream's start.
        #expect(try session.receive(Self.clientFrame(opcode: 2, Array(repeating: 7, count: 122))).count == 1)
        #expect {
            _ = try session.receive(bytes)
        } throws: { error in
            guard let error = error as? WebSocketError else { return false }
            return error.offset == handshakeLength + offset && error.reason.contains(reason)
                && Array(error.answer.prefix(4)).dropFirst(2) == [UInt8(code >> 8), UInt8(code & 0xFF)]
        }
        #expect(session.isClosed)
    }

    @Test("a close frame's reason is cut to 123 bytes at a character boundary, so it stays UTF-8")
    func closeReason() {
        let frame = WebSocketSession.closeFrame(code: 1002, reason: String(repeating: "§", count: 100))
        #expect(frame[1] == 2 + 122)
        #expect(String(validating: frame.dropFirst(4), as: UTF8.self) == String(repeating: "§", count: 61))
    }

    @Test("server frames use the shortest length form", arguments: [0, 125, 126, 65_535, 65_536])
    func serverFrames(length: Int) {
        let frame = WebSocketFrame.serverBytes(opcode: 2, payload: Array(repeating: 1, count: length))
        let header = length < 126 ? 2 : length < 65_536 ? 4 : 10
        #expect(frame.count == header + length)
        #expect(frame[0] == 0x82)
        #expect(frame[1] == (length < 126 ? UInt8(length) : length < 65_536 ? 126 : 127))
    }

    @Test("a JSON frame becomes the field frame PyMax's msgpack would pack, and back")
    func jsonFrames() throws {
        let text = #"{"ver":11,"cmd":0,"seq":3,"opcode":19,"payload":{"token":"token-alice","chatsCount":40,"#
            + #""interactive":true,"chatsSync":-1,"ratio":0.5,"ids":[1,2],"draft":null}}"#
        let frame = try JSONFrame.frame(fromText: Array(text.utf8))
        #expect(frame.cmd == .request && frame.seq == 3 && frame.opcode == .login)
        #expect(frame.payload == .map([
            MessagePackPair(.string("chatsCount"), .uint(40)), MessagePackPair(.string("chatsSync"), .int(-1)),
            MessagePackPair(.string("draft"), .nil), MessagePackPair(.string("ids"), .array([.uint(1), .uint(2)])),
            MessagePackPair(.string("interactive"), .bool(true)), MessagePackPair(.string("ratio"), .double(0.5)),
            MessagePackPair(.string("token"), .string("token-alice")),
        ]))
        let answer = Frame(cmd: .response, seq: 3, opcode: .login, payload: .map([MessagePackPair(.string("a"), .uint(1))]))
        #expect(String(decoding: JSONFrame.text(for: answer), as: UTF8.self)
            == #"{"ver":11,"cmd":1,"seq":3,"opcode":19,"payload":{"a":1}}"#)
    }

    @Test("a JSON text that is no frame is an error naming the field", arguments: [
        (#"{"seq":1}"#, "field 'opcode' is missing"),
        (#"{"seq":70000,"opcode":1}"#, "field 'seq' is 70000, not an integer in 0...65535"),
        (#"{"seq":1,"opcode":"PING"}"#, #"field 'opcode' is "PING", not an integer"#),
        (#"{"seq":1,"opcode":1,"cmd":7}"#, "field 'cmd' is 7, not an integer in 0...3"),
        (#"{"seq":1,"opcode":1,"payload":[1]}"#, "field 'payload' is an array, not an object or null"),
        (#"[1,2]"#, "text message is not a JSON object"),
        (#"{"seq":1,"#, "text message is not JSON"),
    ])
    func badJSONFrames(text: String, reason: String) {
        #expect(throws: JSONFrameError.self) { try JSONFrame.frame(fromText: Array(text.utf8)) }
        do {
            _ = try JSONFrame.frame(fromText: Array(text.utf8))
        } catch {
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test("the first byte tells the transport; WebSocket answers in the kind of the first message")
    func transport() throws {
        let encoder = FrameEncoder()
        let ping = try encoder.encode(Frame(cmd: .request, seq: 1, opcode: .ping, payload: .map([])))
        var tcp = ConnectionTransport.undecided
        #expect(try tcp.unwrap(ping, encoder: encoder).frameBytes == ping)
        #expect(!tcp.isWebSocket && tcp.closing.isEmpty)

        var webSocket = ConnectionTransport.undecided
        let opened = try webSocket.unwrap(Self.request() + Self.clientFrame(opcode: 2, ping), encoder: encoder)
        #expect(opened.frameBytes == ping && opened.upgradedPath == "/websocket" && opened.writes.count == 1)
        let answer = Frame(cmd: .response, seq: 1, opcode: .ping, payload: .map([]))
        let answerBytes = try encoder.encode(answer)
        #expect(webSocket.wrap(answerBytes, frame: answer) == [0x82, UInt8(answerBytes.count)] + answerBytes)
        let jsonPing = Self.clientFrame(opcode: 1, Array(#"{"seq":1,"opcode":1,"payload":{}}"#.utf8))
        #expect(try webSocket.unwrap(jsonPing, encoder: encoder).frameBytes == ping)
        #expect(webSocket.logName == "websocket", "the first message was binary")

        var json = ConnectionTransport.undecided
        #expect(try json.unwrap(Self.request() + jsonPing, encoder: encoder).frameBytes == ping)
        #expect(json.logName == "websocket-json")
        #expect(json.wrap(answerBytes, frame: answer)
            == WebSocketFrame.serverBytes(opcode: 1, payload: Array(#"{"ver":11,"cmd":1,"seq":1,"opcode":1,"payload":{}}"#.utf8)))
        #expect {
            _ = try webSocket.unwrap(Self.clientFrame(opcode: 1, Array("{}".utf8)), encoder: encoder)
        } throws: { error in
            (error as? ConnectionTransport.Failure)?.description == "JSON frame: field 'seq' is missing"
        }
    }

    @Test("serve over WebSocket: binary and JSON frames answered in kind, a broken frame closes with 1002",
          .timeLimit(.minutes(1)))
    func liveServe() throws {
        let (serve, port) = try RealSocketTests.startServe(maxConnections: 3)
        defer {
            if serve.isRunning { kill(serve.processIdentifier, SIGTERM) }
            RealSocketTests.wait(for: serve, seconds: 5)
        }
        let encoder = FrameEncoder()
        let ping = try encoder.encode(Frame(cmd: .request, seq: 1, opcode: .ping, payload: .map([])))
        let pong = try encoder.encode(Frame(cmd: .response, seq: 1, opcode: .ping, payload: .map([])))
        let upgraded = Array("HTTP/1.1 101 Switching Protocols\r\n".utf8)

        let binary = try Self.exchange(port: port, Self.request() + Self.clientFrame(opcode: 2, ping),
                                       until: { $0.suffix(pong.count) == pong[...] })
        #expect(binary.starts(with: upgraded), "\(String(decoding: binary, as: UTF8.self))")
        #expect(binary.suffix(pong.count + 2) == ([0x82, UInt8(pong.count)] + pong)[...], "\(binary)")

        let jsonPong = Array(#"{"ver":11,"cmd":1,"seq":2,"opcode":1,"payload":{}}"#.utf8)
        let json = try Self.exchange(
            port: port,
            Self.request() + Self.clientFrame(opcode: 1, Array(#"{"ver":11,"cmd":0,"seq":2,"opcode":1,"payload":{}}"#.utf8)),
            until: { $0.suffix(jsonPong.count) == jsonPong[...] })
        #expect(json.starts(with: upgraded))
        #expect(json.suffix(jsonPong.count + 2) == ([0x81, UInt8(jsonPong.count)] + jsonPong)[...],
                "\(String(decoding: json, as: UTF8.self))")

        let broken = try Self.exchange(port: port, Self.request() + [0x82, 0x01, 0x00], until: { _ in false })
        let close = try #require(broken.lastIndex(of: 0x88), "\(broken)")
        #expect(Array(broken[(close + 2)..<(close + 4)]) == [0x03, 0xEA], "\(broken)")
    }

    /// Connects to `port`, writes `bytes`, and reads until `until` holds for what came or the server closes.
    static func exchange(port: Int, _ bytes: [UInt8], until done: ([UInt8]) -> Bool) throws -> [UInt8] {
        let fd = try PosixSocket.connect(port: UInt16(port))
        defer { PosixSocket.close(fd) }
        try PosixSocket.writeAll(fd, bytes)
        var received: [UInt8] = []
        reading: for _ in 0..<100 where !done(received) {
            _ = PosixSocket.poll([fd], timeoutMilliseconds: 100)
            switch PosixSocket.read(fd) {
            case .bytes(let bytes): received += bytes
            case .closed: break reading
            case .wouldBlock: continue
            }
        }
        return received
    }
}
