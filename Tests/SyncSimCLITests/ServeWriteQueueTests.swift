import Foundation
import SimCore
import SyncProtocol
import SyncServer
import SyncTrace
import Testing

@testable import SyncSimCLI

/// `syncsim serve` writes without blocking: what a socket does not take waits in its connection's `SendQueue`, so a
/// client that stops reading holds up no one and still gets whole frames in order; answers the encoder refuses
/// become errors; an upload slot takes one upload.
@Suite struct ServeWriteQueueTests {
    @Test("a send queue hands out bytes in order and whole, tags a chunk once its last byte left, keeps bytes on failure")
    func sendQueue() {
        var queue = SendQueue<Int>()
        queue.append([1, 2, 3], tag: 1)
        queue.append([])
        queue.append([4, 5], tag: 2)
        #expect(queue.byteCount == 5)
        var written: [UInt8] = []
        var budget = 2
        func writer(_ bytes: [UInt8], _ offset: Int) -> Int? {
            let count = min(budget, bytes.count - offset)
            written += bytes[offset..<(offset + count)]
            budget -= count
            return count
        }
        var result = queue.drain(writer)
        #expect(result.written.isEmpty && !result.failed && written == [1, 2] && queue.byteCount == 3)
        result = queue.drain { _, _ in nil }
        #expect(result.failed && result.written.isEmpty && queue.byteCount == 3)
        budget = 2
        result = queue.drain(writer)
        #expect(result.written == [1] && written == [1, 2, 3, 4] && queue.byteCount == 1)
        budget = 100
        result = queue.drain(writer)
        #expect(result.written == [2] && written == [1, 2, 3, 4, 5] && queue.isEmpty)
        queue.append([9], tag: 3)
        #expect(queue.removeAll() == 1 && queue.isEmpty)
    }

    @Test("an answer over the frame limit becomes a proto.payload error of its seq and opcode; such a push is skipped")
    func unencodableAnswer() throws {
        let big = String(repeating: "x", count: 6 * 1024 * 1024)
        let message = ChatMessage(id: 1, time: 1, sender: 1, text: big, cid: 1)
        let answer = Packet(cmd: .response, seq: 7, opcode: .msgSend,
                            body: .msgSendResponse(MsgSendResponse(chatId: 1, message: message)))
        guard case .errorInstead(let bytes, let frame, let reason) = RealSocketServer.encodeForWire(
            answer, encoder: FrameEncoder()) else {
            Issue.record("expected an error in the answer's place")
            return
        }
        #expect(reason.contains("exceeds the 5 MiB limit"), "\(reason)")
        var decoder = FrameDecoder()
        var buffer = ByteReader()
        buffer.append(contentsOf: bytes)
        let decoded = try #require(try decoder.decodeFrame(&buffer))
        #expect(decoded.frame == frame && frame.cmd == .error && frame.seq == 7 && frame.opcode == .msgSend)
        guard case .error(let error) = try Packet(frame: frame).body else {
            Issue.record("expected an error payload")
            return
        }
        #expect(error.error == "proto.payload" && error.message.contains("MSG_SEND") && error.message.contains("5 MiB"))
        let push = Packet(cmd: .request, seq: 0, opcode: .notifMessage,
                          body: .notifMessage(NotifMessage(chatId: 1, message: message)))
        guard case .skipped = RealSocketServer.encodeForWire(push, encoder: FrameEncoder()) else {
            Issue.record("expected the push to be skipped")
            return
        }
        let small = Packet(cmd: .response, seq: 8, opcode: .ping, body: .empty)
        guard case .frame = RealSocketServer.encodeForWire(small, encoder: FrameEncoder()) else {
            Issue.record("expected a frame")
            return
        }
    }

    @Test("a client that stops reading holds up no other client and later reads every push whole, in order",
          .timeLimit(.minutes(2)))
    func stuckReader() throws {
        let (serve, port) = try RealSocketTests.startServe(maxConnections: 2, durationSeconds: 90)
        defer {
            if serve.isRunning { kill(serve.processIdentifier, SIGTERM) }
            RealSocketTests.wait(for: serve, seconds: 5)
        }
        let alice = try FrameClient(port: port)
        let chatId = try alice.login("alice")
        let bob = try FrameClient(port: port)
        _ = try bob.login("bob")
        // alice reads nothing from here on; bob sends 1,200 texts of 15,000 random letters (LZ4 gains nothing on
        // them): 18 MB of pushes to alice, more than the kernel's buffers of both ends hold.
        var generator = SeededGenerator(seed: 5)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let count = 1_200
        var slowest = 0.0
        for batch in stride(from: 0, to: count, by: 20) {
            let start = Date()
            for number in batch..<(batch + 20) {
                let text = "\(number) " + String((0..<15_000).map { _ in letters[Int(generator.next() % 52)] })
                try bob.send(.msgSend, .msgSend(MsgSendRequest(
                    chatId: chatId, message: OutgoingMessage(text: text, cid: Int64(1_000 + number)))))
            }
            let answers = try bob.read(seconds: 10) { frames in frames.filter { $0.opcode == .msgSend }.count >= 20 }
            #expect(answers.filter { $0.opcode == .msgSend && $0.cmd == .response }.count == 20)
            slowest = max(slowest, Date().timeIntervalSince(start))
            if slowest > 4 { break }
        }
        #expect(slowest < 4, "bob waited \(slowest) s for a batch of answers while alice read nothing")
        let pushes = try alice.read(seconds: 20) { $0.filter { $0.opcode == .notifMessage }.count >= count }
            .filter { $0.opcode == .notifMessage }
        let numbers = try pushes.map { frame -> Int in
            guard case .notifMessage(let push) = try Packet(frame: frame).body else { return -1 }
            return Int(push.message.text.prefix { $0 != " " }) ?? -1
        }
        #expect(numbers == Array(0..<count), "alice read \(numbers.count) pushes")
        #expect(alice.failure == nil, "\(alice.failure ?? "")")
    }

    @Test("a 20 MB download to a reader that waits 6 s arrives whole while others are served; a second upload is 409",
          .timeLimit(.minutes(2)))
    func slowDownload() throws {
        let (serve, port) = try RealSocketTests.startServe(maxConnections: 6, durationSeconds: 90)
        defer {
            if serve.isRunning { kill(serve.processIdentifier, SIGTERM) }
            RealSocketTests.wait(for: serve, seconds: 5)
        }
        let alice = try FrameClient(port: port)
        _ = try alice.login("alice")
        try alice.send(.photoUpload, .photoUpload(PhotoUploadRequest(sizeBytes: nil)))
        let answer = try #require(try alice.read(seconds: 5) { $0.contains { $0.opcode == .photoUpload } }.last)
        guard case .photoUploadResponse(let slot) = try Packet(frame: answer).body, let url = slot.url,
              let photoId = url.split(separator: "=").last.flatMap({ Int64($0) }) else {
            Issue.record("expected a PHOTO_UPLOAD answer, got \(answer)")
            return
        }
        var generator = SeededGenerator(seed: 9)
        let photo = (0..<20_000_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        func post(_ body: [UInt8]) throws -> String {
            let head = "POST /upload?photoIds=\(photoId) HTTP/1.1\r\nContent-Length: \(body.count)\r\n\r\n"
            let reply = try WebSocketTests.exchange(port: port, Array(head.utf8) + body, until: { _ in false })
            return String(decoding: reply.prefix { $0 != 13 }, as: UTF8.self)
        }
        #expect(try post(photo) == "HTTP/1.1 200 OK")

        let reader = try PosixSocket.connect(port: UInt16(port))
        defer { PosixSocket.close(reader) }
        try PosixSocket.writeAll(reader, Array("GET /photo/\(photoId) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
        // While the download waits for its reader, alice is answered at once.
        usleep(500_000)
        let pingStart = Date()
        try alice.send(.ping, .ping(PingRequest(interactive: true)))
        _ = try alice.read(seconds: 5) { $0.contains { $0.opcode == .ping } }
        #expect(Date().timeIntervalSince(pingStart) < 1)
        sleep(6)
        var received: [UInt8] = []
        reading: while true {
            _ = PosixSocket.poll([reader], timeoutMilliseconds: 2_000)
            switch PosixSocket.read(reader) {
            case .bytes(let bytes): received += bytes
            case .closed: break reading
            case .wouldBlock: if received.count > photo.count { break reading }
            }
        }
        let headEnd = try #require(HTTPUpload.headEnd(in: received))
        let head = String(decoding: received[..<headEnd], as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200 OK") && head.contains("Content-Length: \(photo.count)"))
        #expect(received.count - headEnd - 4 == photo.count)
        #expect(received[(headEnd + 4)...].elementsEqual(photo))

        // A second upload to the slot is refused; the download still serves the first one's bytes.
        #expect(try post([1, 2, 3]) == "HTTP/1.1 409 Conflict")
        let again = try WebSocketTests.exchange(port: port, Array("GET /photo/\(photoId) HTTP/1.1\r\n\r\n".utf8),
                                                until: { _ in false })
        #expect(String(decoding: again.prefix(300), as: UTF8.self).contains("Content-Length: \(photo.count)"))
    }

    @Test("a client that reads nothing while more than maxUnsentBytes wait is closed with a line saying so",
          .timeLimit(.minutes(2)))
    func unsentCap() throws {
        var knobs = ServerKnobs()
        knobs.idleTimeout = nil  // the loop ends once both connections closed, not when their idle checks fire
        var core = SyncServer(knobs: knobs, generator: SeededGenerator(seed: 1))
        core.addUser(id: 1, name: "alice", token: "token-alice")
        core.addUser(id: 2, name: "bob", token: "token-bob")
        core.addChat(id: 100, members: [1, 2], now: .start)
        let lines = LockedLines()
        var server = try RealSocketServer(server: core, port: 0, duration: .seconds(Int64(60)), maxConnections: 2,
                                          log: { lines.append($0) })
        server.maxUnsentBytes = 1 << 20
        let port = Int(server.port)
        let running = ServerThread(server)
        running.start()
        defer { running.waitUntilDone(seconds: 65) }
        let alice = try FrameClient(port: port)
        _ = try alice.login("alice")
        let bob = try FrameClient(port: port)
        _ = try bob.login("bob")
        var generator = SeededGenerator(seed: 3)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for batch in 0..<60 where !lines.contains("cap; closing it") {
            for number in 0..<20 {
                let text = String((0..<15_000).map { _ in letters[Int(generator.next() % 52)] })
                try bob.send(.msgSend, .msgSend(MsgSendRequest(
                    chatId: 100, message: OutgoingMessage(text: text, cid: Int64(batch * 20 + number + 1)))))
            }
            _ = try bob.read(seconds: 10) { $0.filter { $0.opcode == .msgSend }.count >= 20 }
        }
        let line = lines.first { $0.contains("cap; closing it") }
        #expect(line?.hasPrefix("serve: conn#1: ") == true, "\(lines.all)")
        #expect(line?.contains("bytes wait for the client to read them, more than the 1048576-byte cap") == true)
        bob.close()
        alice.close()
    }

    /// Session 38's second real-client trial: a message whose attachment or formatting held megabytes was stored (the
    /// text limit alone let it through) and every LOGIN of the chat's members then exceeded the frame limit; and with
    /// `--max-connections`, serve stopped 50 s after the last close (the closed connections' idle checks).
    @Test("a MSG_SEND over maxMessageRequestBytes is refused before the server; --max-connections stops at the last close",
          .timeLimit(.minutes(1)))
    func oversizedRequestAndPromptStop() throws {
        var core = SyncServer(knobs: ServerKnobs(), generator: SeededGenerator(seed: 1))
        core.addUser(id: 1, name: "alice", token: "token-alice")
        core.addUser(id: 2, name: "bob", token: "token-bob")
        core.addChat(id: 100, members: [1, 2], now: .start)
        let lines = LockedLines()
        let server = try RealSocketServer(server: core, port: 0, duration: .seconds(Int64(60)), maxConnections: 1,
                                          log: { lines.append($0) })
        let port = Int(server.port)
        let running = ServerThread(server)
        running.start()
        let alice = try FrameClient(port: port)
        _ = try alice.login("alice")
        let text = String(repeating: "a", count: 10_000)
        let message = OutgoingMessage(text: text, cid: 1, elements: (0..<4).map { _ in
            var element = MessageElement(type: "STRONG", from: 0, length: 1)
            element.otherKeys = [MessagePackPair(.string("pad"), .string(String(repeating: "p", count: 9_000)))]
            return element
        })
        try alice.send(.msgSend, .msgSend(MsgSendRequest(chatId: 100, message: message)))
        let frames = try alice.read(seconds: 10) { $0.contains { $0.opcode == .msgSend } }
        let answer = try #require(frames.last { $0.opcode == .msgSend })
        guard answer.cmd == .error, case .error(let error) = try Packet(frame: answer).body else {
            Issue.record("expected an error answer, got \(answer)")
            return
        }
        #expect(error.error == "proto.payload" && error.message.contains("exceeds the server's limit of 32768 bytes"))
        alice.close()
        #expect(running.finished(within: 10), "serve kept running after its one connection closed: \(lines.all)")
    }

    @Test("a WebSocket client that only sends ping frames is not closed as idle; one silent for the timeout is",
          .timeLimit(.minutes(1)))
    func webSocketPingsAreActivity() throws {
        var knobs = ServerKnobs()
        knobs.idleTimeout = .seconds(Int64(2))
        var core = SyncServer(knobs: knobs, generator: SeededGenerator(seed: 1))
        core.addUser(id: 1, name: "alice", token: "token-alice")
        let lines = LockedLines()
        let server = try RealSocketServer(server: core, port: 0, duration: .seconds(Int64(30)), maxConnections: 1,
                                          log: { lines.append($0) })
        let port = server.port
        let running = ServerThread(server)
        running.start()
        defer { running.waitUntilDone(seconds: 35) }
        let fd = try PosixSocket.connect(port: port)
        defer { PosixSocket.close(fd) }
        try PosixSocket.writeAll(fd, WebSocketTests.request())
        // A ping frame every 0.5 s for 5 s: more than twice the idle timeout, and no request.
        var received: [UInt8] = []
        for _ in 0..<10 {
            try PosixSocket.writeAll(fd, WebSocketTests.clientFrame(opcode: 9, Array("hb".utf8)))
            usleep(500_000)
            while case .bytes(let bytes) = PosixSocket.read(fd) { received += bytes }
        }
        #expect(!lines.contains("closed by the server"), "\(lines.all)")
        let pong = WebSocketFrame.serverBytes(opcode: 10, payload: Array("hb".utf8))
        #expect(received.suffix(pong.count).elementsEqual(pong))
        // Then silence: closed within the timeout and a poll's margin.
        for _ in 0..<40 where !lines.contains("closed by the server") { usleep(100_000) }
        #expect(lines.contains("serve: conn#1 closed by the server"), "\(lines.all)")
    }
}

/// Log lines collected from a server's thread.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
    func first(where match: (String) -> Bool) -> String? { all.first(where: match) }
}

/// A `RealSocketServer` run on a thread of its own (the test's client runs on the test's).
final class ServerThread: @unchecked Sendable {
    private var server: RealSocketServer
    private let done = DispatchSemaphore(value: 0)

    init(_ server: RealSocketServer) { self.server = server }

    func start() {
        Thread { [self] in
            _ = server.run()
            done.signal()
        }.start()
    }

    func waitUntilDone(seconds: Int) { _ = done.wait(timeout: .now() + .seconds(seconds)) }

    /// Whether the run ended within `seconds`.
    func finished(within seconds: Int) -> Bool { done.wait(timeout: .now() + .seconds(seconds)) == .success }
}

/// A field client on a TCP socket to serve: frames out, frames in (`FrameDecoder`), blocking with a time limit.
final class FrameClient {
    let fd: Int32
    private var decoder = FrameDecoder()
    private var buffer = ByteReader()
    private let encoder = FrameEncoder()
    private var seq: UInt16 = 0
    /// Why the byte stream stopped decoding, if it did.
    private(set) var failure: String?

    private var isClosed = false

    init(port: Int) throws { fd = try PosixSocket.connect(port: UInt16(port)) }

    deinit { close() }

    /// Closes the socket (once).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        PosixSocket.close(fd)
    }

    /// SESSION_INIT and LOGIN as `name` (token `token-<name>`); returns the first chat's id.
    func login(_ name: String) throws -> Int64 {
        try send(.sessionInit, .sessionInit(.mobile(deviceId: "device-\(name)")))
        try send(.login, .login(LoginRequest(token: "token-\(name)", chatsSync: 0, contactsSync: 0, chatsCount: 100)))
        let frames = try read(seconds: 10) { $0.contains { $0.opcode == .login } }
        guard let login = frames.last(where: { $0.opcode == .login }),
              case .loginResponse(let answer) = try Packet(frame: login).body else {
            throw SocketError(operation: "login as \(name)", code: EPROTO)
        }
        return answer.chats.first?.id ?? 0
    }

    func send(_ opcode: Opcode, _ body: Packet.Body) throws {
        seq &+= 1
        try PosixSocket.writeAll(fd, try encoder.encode(Packet(cmd: .request, seq: seq, opcode: opcode, body: body)))
    }

    /// Frames read until `done` holds for all read in this call, the stream closes or breaks, or `seconds` pass.
    func read(seconds: Double, until done: ([Frame]) -> Bool) throws -> [Frame] {
        var frames: [Frame] = []
        let end = Date().addingTimeInterval(seconds)
        while !done(frames), Date() < end, failure == nil {
            _ = PosixSocket.poll([fd], timeoutMilliseconds: 100)
            switch PosixSocket.read(fd) {
            case .bytes(let bytes):
                buffer.append(contentsOf: bytes)
                do {
                    while let decoded = try decoder.decodeFrame(&buffer) { frames.append(decoded.frame) }
                } catch {
                    failure = "\(error)"
                }
            case .closed: return frames
            case .wouldBlock: continue
            }
        }
        return frames
    }
}
