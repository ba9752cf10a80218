import Foundation
import SyncSim
import SyncTrace
import Testing
@testable import SyncSimCLI

/// Session 39's robustness gaps of `syncsim serve`, found by trials with real clients: each test failed before its fix.
@Suite struct ServeRobustnessTests {
    /// A server core with alice and bob sharing chat 100, behind a `RealSocketServer` on a thread of its own.
    static func startServer(maxConnections: Int = 1, seconds: Int64 = 30, lines: LockedLines) throws
        -> (ServerThread, UInt16) {
        var core = SyncServer(knobs: ServerKnobs(), generator: SeededGenerator(seed: 1))
        core.addUser(id: 1, name: "alice", token: "token-alice")
        core.addUser(id: 2, name: "bob", token: "token-bob")
        core.addChat(id: 100, members: [1, 2], now: .start)
        let server = try RealSocketServer(server: core, port: 0, duration: .seconds(seconds),
                                          maxConnections: maxConnections, log: { lines.append($0) })
        let port = server.port
        let running = ServerThread(server)
        running.start()
        return (running, port)
    }

    /// A request frame's bytes with a raw payload, whatever it holds.
    static func rawRequest(seq: UInt16, opcode: Opcode, payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [10, 0, UInt8(seq >> 8), UInt8(seq & 0xFF), UInt8(opcode.rawValue >> 8), UInt8(opcode.rawValue & 0xFF),
                0, UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + payload
    }

    @Test("invalid UTF-8 in a request's string is answered proto.payload and the connection is kept",
          .timeLimit(.minutes(1)))
    func invalidUTF8() throws {
        let lines = LockedLines()
        let (running, port) = try Self.startServer(lines: lines)
        defer { running.waitUntilDone(seconds: 35) }
        let alice = try FrameClient(port: Int(port))
        defer { alice.close() }
        _ = try alice.login("alice")
        // {"text": <0xFF 0xFE>}: a sound frame whose one string is not UTF-8.
        let payload: [UInt8] = [0x81, 0xA4] + Array("text".utf8) + [0xA2, 0xFF, 0xFE]
        try PosixSocket.writeAll(alice.fd, Self.rawRequest(seq: 77, opcode: .msgSend, payload: payload))
        try alice.send(.ping, .ping(PingRequest(interactive: true)))
        let frames = try alice.read(seconds: 10) { $0.contains { $0.opcode == .ping } }
        let refusal = try #require(frames.first { $0.seq == 77 }, "\(frames) \(lines.all)")
        guard refusal.cmd == .error, refusal.opcode == .msgSend,
              case .error(let error) = try Packet(frame: refusal).body else {
            Issue.record("expected an error answer, got \(refusal)")
            return
        }
        #expect(error.error == "proto.payload")
        #expect(error.message.contains("MSG_SEND payload cannot be read") && error.message.contains("UTF-8"),
                "\(error.message)")
        #expect(frames.contains { $0.opcode == .ping && $0.cmd == .response }, "the connection was kept: \(frames)")
        #expect(!lines.contains("not frames"), "\(lines.all)")
        #expect(lines.contains("answered proto.payload"), "\(lines.all)")
    }

    @Test("a frame whose header is broken still closes the connection")
    func brokenHeaderCloses() throws {
        let lines = LockedLines()
        let (running, port) = try Self.startServer(lines: lines)
        defer { running.waitUntilDone(seconds: 35) }
        let client = try FrameClient(port: Int(port))
        defer { client.close() }
        try PosixSocket.writeAll(client.fd, [10, 9, 0, 1, 0, 1, 0, 0, 0, 0])
        let frames = try client.read(seconds: 5) { _ in false }
        #expect(frames.isEmpty)
        for _ in 0..<50 where !lines.contains("not frames") { usleep(100_000) }
        #expect(lines.contains("sent bytes that are not frames"), "\(lines.all)")
    }

    /// Connects, writes `bytes`, reads until the server closes (or 5 s pass).
    static func exchange(port: UInt16, _ bytes: [UInt8]) throws -> [UInt8] {
        try WebSocketTests.exchange(port: Int(port), bytes, until: { _ in false })
    }

    /// PyMax 1.2.5's `MaxClient` (JSON frames over WebSocket) counts its `seq` past 65535 (`pymax/interfaces.py`,
    /// `_make_message`) and matches an answer by that exact `seq`; before session 39 serve closed such a frame with 1007.
    @Test("a JSON frame's seq over 16 bits is answered with that seq; a negative one still closes with 1007",
          .timeLimit(.minutes(1)))
    func wideJSONSeq() throws {
        let lines = LockedLines()
        let (running, port) = try Self.startServer(maxConnections: 2, lines: lines)
        defer { running.waitUntilDone(seconds: 35) }
        let request = #"{"ver":11,"cmd":0,"seq":70000,"opcode":1,"payload":{"interactive":true}}"#
        let answer = Array(#"{"ver":11,"cmd":1,"seq":70000,"opcode":1,"payload":{}}"#.utf8)
        let got = try WebSocketTests.exchange(
            port: Int(port), WebSocketTests.request() + WebSocketTests.clientFrame(opcode: 1, Array(request.utf8)),
            until: { $0.suffix(answer.count).elementsEqual(answer) })
        #expect(got.suffix(answer.count).elementsEqual(answer), "\(String(decoding: got, as: UTF8.self)) \(lines.all)")
        let negative = #"{"ver":11,"cmd":0,"seq":-1,"opcode":1,"payload":{}}"#
        let refused = try Self.exchange(port: port, WebSocketTests.request()
            + WebSocketTests.clientFrame(opcode: 1, Array(negative.utf8)))
        let close = try #require(refused.lastIndex(of: 0x88), "\(refused)")
        #expect(Array(refused[(close + 2)..<(close + 4)]) == [0x03, 0xEF], "close 1007")
        #expect(String(decoding: refused[(close + 4)...], as: UTF8.self).contains("field 'seq'"))
    }

    @Test("frames read with an unreadable one are logged as dropped because the connection is closing",
          .timeLimit(.minutes(1)))
    func droppedFramesAreLogged() throws {
        let lines = LockedLines()
        let (running, port) = try Self.startServer(lines: lines)
        defer { running.waitUntilDone(seconds: 35) }
        let ping = try FrameEncoder().encode(Packet(cmd: .request, seq: 4, opcode: .ping,
                                                    body: .ping(PingRequest(interactive: true))))
        // A PING, then a header with cmd 9: one read; the PING is decoded (logged in), the rest cannot be.
        _ = try Self.exchange(port: port, ping + [10, 9, 0, 5, 0, 1, 0, 0, 0, 0])
        for _ in 0..<50 where !lines.contains("not frames") { usleep(100_000) }
        #expect(lines.contains("serve: conn#1: PING (cmd 0, seq 4) dropped: the connection is closing"), "\(lines.all)")
    }

    @Test("HEAD of a download answers its head alone; HEAD elsewhere is 405 naming it", .timeLimit(.minutes(1)))
    func headRequests() throws {
        let lines = LockedLines()
        let (running, port) = try Self.startServer(maxConnections: 2, lines: lines)
        defer { running.waitUntilDone(seconds: 35) }
        let missing = String(decoding: try Self.exchange(
            port: port, Array("HEAD /file/3 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)), as: UTF8.self)
        #expect(missing.hasPrefix("HTTP/1.1 404 Not Found\r\n"), "\(missing) \(lines.all)")
        #expect(missing.hasSuffix("\r\n\r\n"), "a HEAD's answer has no body: \(missing)")
        let other = String(decoding: try Self.exchange(
            port: port, Array("HEAD /websocket HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)), as: UTF8.self)
        #expect(other.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n") && other.contains("Allow: GET, POST"), "\(other)")
        #expect(other.hasSuffix("\r\n\r\n"), "\(other)")
    }

    @Test("a HEAD of a stored download has the GET's Content-Length and no body")
    func headAnswer() {
        let answer = String(decoding: HTTPDownload.answer(kind: .file, id: 3, bytes: [1, 2, 3], fileName: "a.txt",
                                                          headOnly: true), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.contains("Content-Length: 3\r\n"))
        #expect(answer.hasSuffix("\r\n\r\n"))
        var transport = ConnectionTransport.undecided
        let unwrapped = try? transport.unwrap(Array("HEAD /video/12 HTTP/1.1\r\n\r\n".utf8), encoder: FrameEncoder())
        #expect(unwrapped?.download == HTTPDownload(kind: .video, id: 12, headOnly: true))
    }

    @Test("a request head whose lines end in a bare LF is read (uploads, downloads) or refused 400 (WebSocket)")
    func bareLFHeads() throws {
        var upload = ConnectionTransport.undecided
        let post = "POST /upload?fileIds=5 HTTP/1.1\nContent-Length: 3\nContent-Disposition: attachment; filename=a.txt\n\nabc"
        let received = try upload.unwrap(Array(post.utf8), encoder: FrameEncoder()).upload
        #expect(received == HTTPUpload.Received(target: .media(5), bytes: Array("abc".utf8), fileName: "a.txt"))
        var download = ConnectionTransport.undecided
        #expect(try download.unwrap(Array("GET /file/3 HTTP/1.1\nHost: x\n\n".utf8), encoder: FrameEncoder()).download
                == HTTPDownload(kind: .file, id: 3))
        var webSocket = ConnectionTransport.undecided
        let handshake = WebSocketTests.requestText().replacingOccurrences(of: "\r\n", with: "\n")
        #expect {
            _ = try webSocket.unwrap(Array(handshake.utf8), encoder: FrameEncoder())
        } throws: { error in
            guard let failure = error as? ConnectionTransport.Failure else { return false }
            return String(decoding: failure.answer, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request")
                && failure.description.contains("bare LF")
        }
    }

    @Test("a multipart upload with two parts is refused 400 naming it; one part is still taken")
    func multipartTwoParts() throws {
        func body(_ parts: [(name: String, data: String)]) -> String {
            parts.map { "--b0\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\($0.name)\"\r\n\r\n\($0.data)\r\n" }
                .joined() + "--b0--\r\n"
        }
        func request(_ body: String) -> [UInt8] {
            Array(("POST /upload?fileIds=5 HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=b0\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        }
        var one = ConnectionTransport.undecided
        let single = try one.unwrap(request(body([("a.txt", "hello")])), encoder: FrameEncoder()).upload
        #expect(single == HTTPUpload.Received(target: .media(5), bytes: Array("hello".utf8), fileName: "a.txt"))
        var two = ConnectionTransport.undecided
        #expect {
            _ = try two.unwrap(request(body([("a.txt", "hello"), ("b.txt", "world")])), encoder: FrameEncoder())
        } throws: { error in
            guard let failure = error as? ConnectionTransport.Failure else { return false }
            return String(decoding: failure.answer, as: UTF8.self).hasPrefix("HTTP/1.1 400 Bad Request")
                && failure.description.contains("more than one part")
        }
    }
}
