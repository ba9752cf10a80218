import SimCore
import SyncProtocol
import Testing

@testable import SyncTrace

/// Protocol frames carried in synthetic captures: framing across packets, timestamps, resync after gaps.
@Suite struct TraceDecoderTests {
    let flow = SyntheticFlow()

    static func frame(_ cmd: Command, seq: UInt16, _ opcode: Opcode, text: String = "hello") throws -> [UInt8] {
        try FrameEncoder().encode(
            Frame(
                cmd: cmd, seq: seq, opcode: opcode, payload: .map([MessagePackPair(.string("text"), .string(text))])))
    }

    func decode(_ frames: [[UInt8]], startMicroseconds: [Int]? = nil) throws -> TraceDecoder.ConnectionFrames {
        var capture = SyntheticCapture()
        for (index, frame) in frames.enumerated() {
            capture.add(frame, microseconds: startMicroseconds?[index] ?? index * 1000)
        }
        let decoding = try TraceDecoder().decode(path: capture.write())
        return try #require(decoding.connections.first)
    }

    @Test("requests and responses come out in time order with cmd, seq, opcode, payload and direction")
    func requestResponse() throws {
        let login = try Self.frame(.request, seq: 1, .login)
        let reply = try Self.frame(.response, seq: 1, .login, text: "welcome")
        let push = try Self.frame(.push, seq: 0, .notifMessage, text: "hi")
        let result = try decode(
            flow.handshake() + [
                flow.client(0, login), flow.server(0, reply + push, ack: login.count),
            ])
        #expect(result.frames.map(\.opcode) == [.login, .login, .notifMessage])
        #expect(result.frames.map(\.cmd) == [.request, .response, .push])
        #expect(result.frames.map(\.direction) == [.clientToServer, .serverToClient, .serverToClient])
        #expect(result.frames.map(\.packetNumber) == [4, 5, 5])
        #expect(result.frames[1].payload == .map([MessagePackPair(.string("text"), .string("welcome"))]))
        #expect(result.issues.isEmpty)
    }

    @Test("a frame split over packets takes the timestamp of the packet carrying its last byte")
    func splitFrame() throws {
        let bytes = try Self.frame(.request, seq: 9, .msgSend, text: String(repeating: "a", count: 50))
        let result = try decode(
            flow.handshake() + [
                flow.client(0, Array(bytes[0..<4])), flow.client(4, Array(bytes[4..<30])),
                flow.client(30, Array(bytes[30...])),
            ])
        let frame = try #require(result.frames.first)
        #expect(result.frames.count == 1)
        #expect(frame.packetNumber == 6)
        #expect(frame.timestamp.description == "1700000000.005000000")
        #expect(frame.seq == 9)
    }

    @Test("after a gap, decoding resyncs on the next plausible header and reports what it dropped")
    func resyncAfterGap() throws {
        let first = try Self.frame(.request, seq: 1, .chatHistory, text: String(repeating: "b", count: 40))
        let second = try Self.frame(.request, seq: 2, .ping)
        let third = try Self.frame(.request, seq: 3, .msgSend)
        let stream = first + second + third
        // The capture misses bytes 20..<30 (inside the first frame); the server's ACK shows they were sent.
        let result = try decode(
            flow.handshake() + [
                flow.client(0, Array(stream[0..<20])),
                flow.server(0, [], flags: PacketBytes.ack, ack: 30),
                flow.client(30, Array(stream[30...])),
            ])
        #expect(result.frames.map(\.seq) == [2, 3])
        #expect(result.frames.first?.decoded.offset == first.count)
        let kinds = result.issues.map(\.kind)
        #expect(kinds == [.gap, .frameCutByGap, .skippedToResync])
        #expect(result.issues.map(\.byteCount) == [10, 20, Int64(first.count - 30)])
    }

    @Test("a frame whose middle is captured after the ACK past it decodes whole, timed by the late packet")
    func lateMiddle() throws {
        let bytes = try Self.frame(.request, seq: 8, .msgSend, text: String(repeating: "c", count: 40))
        let result = try decode(
            flow.handshake() + [
                flow.client(0, Array(bytes[0..<20])), flow.client(30, Array(bytes[30...])),
                flow.server(0, [], flags: PacketBytes.ack, ack: bytes.count),
                flow.client(20, Array(bytes[20..<30])),
            ])
        #expect(result.frames.map(\.seq) == [8])
        #expect(result.frames.first?.packetNumber == 7)
        #expect(result.issues.isEmpty)
    }

    @Test("a capture that starts mid-stream skips to the first plausible header")
    func midStream() throws {
        let second = try Self.frame(.response, seq: 5, .login)
        let third = try Self.frame(.push, seq: 0, .notifMark)
        let tail: [UInt8] = [0x61, 0x62, 0x63, 10, 0x99, 0x01]  // the end of an earlier frame
        let result = try decode([flow.server(500, tail + second + third)])
        #expect(result.frames.map(\.seq) == [5, 0])
        #expect(result.issues.map(\.kind) == [.skippedToResync])
        #expect(result.issues.first?.byteCount == Int64(tail.count))
    }

    @Test("a connection captured without its handshake takes its roles from its frames when the ports mislead")
    func rolesFromFrames() throws {
        // The server listens above the client's ephemeral port (serve on 47201, a client on 38508): the port guess
        // makes the server the client; its answers say otherwise.
        var reversed = SyntheticFlow()
        reversed.clientPort = 38508
        reversed.serverPort = 47201
        let request = try Self.frame(.request, seq: 5, .ping)
        let answer = try Self.frame(.response, seq: 5, .ping)
        var capture = SyntheticCapture()
        capture.add(reversed.client(300, request), microseconds: 0)
        capture.add(reversed.server(700, answer, ack: 300 + request.count), microseconds: 1000)
        let decoding = try TraceDecoder().decode(path: capture.write())
        let connection = try #require(decoding.connections.first)
        #expect(connection.connection.client.port == 38508 && connection.connection.server.port == 47201)
        #expect(decoding.trace.connections.first?.client.port == 38508)
        #expect(connection.frames.map(\.direction) == [.clientToServer, .serverToClient])
        #expect(connection.frames.map(\.cmd) == [.request, .response])
        // Answers from both sides (or none) leave the guess as it was.
        #expect(!TraceDecoder.rolesAreReversed(connection.frames))
    }

    @Test("a header found by scanning whose payload never arrives is skipped, not reported as a cut frame")
    func tentativeHeaderAtEnd() throws {
        let bytes: [UInt8] = [1, 2, 3, 10, 0, 0, 1, 0, 1, 0, 0, 0, 99, 5, 6]
        let result = try decode([flow.server(500, Array(bytes[0..<8])), flow.server(508, Array(bytes[8...]))])
        #expect(result.frames.isEmpty)
        #expect(result.issues.map(\.kind) == [.skippedToResync])
        #expect(result.issues.first?.byteCount == Int64(bytes.count))
    }

    @Test("a bad header where a frame should start is reported and decoding resumes at the next frame")
    func badHeaderResync() throws {
        let good = try Self.frame(.request, seq: 1, .ping)
        var broken = try Self.frame(.request, seq: 2, .ping)
        broken[0] = 99
        let after = try Self.frame(.request, seq: 3, .ping)
        let result = try decode(flow.handshake() + [flow.client(0, good + broken + after)])
        #expect(result.frames.map(\.seq) == [1, 3])
        #expect(result.issues.map(\.kind) == [.badHeader, .skippedToResync])
    }

    @Test("a plausible header with a payload that does not decode is skipped whole")
    func undecodablePayload() throws {
        let good = try Self.frame(.request, seq: 1, .ping)
        let corrupt: [UInt8] = [10, 0, 0, 2, 0, 1, 0, 0, 0, 3, 0xc1, 0xc1, 0xc1]  // 0xc1 is never MessagePack
        let after = try Self.frame(.request, seq: 3, .ping)
        let result = try decode(flow.handshake() + [flow.client(0, good + corrupt + after)])
        #expect(result.frames.map(\.seq) == [1, 3])
        #expect(result.issues.map(\.kind) == [.undecodablePayload])
    }

    @Test("frames after undecodable ones keep their place on the wire in their numbers and in the issues")
    func numbersAfterUndecodable() throws {
        let good = try Self.frame(.request, seq: 1, .ping)
        let corrupt: [UInt8] = [10, 0, 0, 2, 0, 1, 0, 0, 0, 3, 0xc1, 0xc1, 0xc1]
        var corruptAgain = corrupt
        corruptAgain[3] = 3
        let after = try Self.frame(.request, seq: 4, .ping)
        let result = try decode(flow.handshake() + [flow.client(0, good + corrupt + corruptAgain + after)])
        #expect(result.frames.map(\.decoded.number) == [1, 4])
        #expect(result.issues.map(\.kind) == [.undecodablePayload, .undecodablePayload])
        #expect(result.issues.map { $0.detail.hasPrefix("frame \($0.offset == Int64(good.count) ? 2 : 3) at offset") }
            == [true, true], "\(result.issues.map(\.detail))")
    }

    @Test("an empty payload reads as the empty map, compressed or not, as PyMax reads it")
    func emptyPayload() throws {
        let plain: [UInt8] = [10, 0, 0, 1, 0, 1, 0, 0, 0, 0]
        let lz4: [UInt8] = [10, 0, 0, 2, 0, 1, 1, 0, 0, 0]
        let zstd: [UInt8] = [10, 0, 0, 3, 0, 1, 0xff, 0, 0, 0]
        let result = try decode(flow.handshake() + [flow.client(0, plain + lz4 + zstd)])
        #expect(result.frames.map(\.seq) == [1, 2, 3])
        #expect(result.frames.allSatisfy { $0.decoded.frame.payload == .map([]) })
        #expect(result.issues.isEmpty)
    }

    @Test("an HTTP request whose request line is split over segments is plain HTTP, not bad frame headers")
    func httpRequestLineOverSegments() throws {
        let request = Array("POST /upload?photoIds=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\nhi".utf8)
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)
        // Before, only the first packet's bytes were looked at: "POS" is no request line, and both directions read
        // as bad frame headers and bytes skipped to resync.
        let result = try decode(
            flow.handshake() + [
                flow.client(0, Array(request[0..<3])), flow.client(3, Array(request[3...])),
                flow.server(0, answer, ack: request.count),
            ])
        #expect(result.httpRequestLine == "POST /upload?photoIds=1 HTTP/1.1")
        #expect(result.issues.isEmpty)
        #expect(result.frames.isEmpty)
    }

    @Test("a WebSocket upgrade whose GET and 101 come in pieces of a few bytes is still unwrapped")
    func webSocketUpgradeOverSegments() throws {
        let request = Array("GET /websocket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8)
        let answer = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n".utf8)
        let login = try Self.frame(.request, seq: 1, .login)
        let reply = try Self.frame(.response, seq: 1, .login, text: "welcome")
        let mask: [UInt8] = [1, 2, 3, 4]
        let clientMessage = [0x82, 0x80 | UInt8(login.count)] + mask
            + login.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        let serverMessage = [0x82, UInt8(reply.count)] + reply
        let clientBytes = request + clientMessage
        let serverBytes = answer + serverMessage
        // Each direction in pieces of 2 bytes for its first 12 (shorter than "GET " ... "HTTP/1.1 101"), then the rest.
        var packets = flow.handshake()
        for start in stride(from: 0, to: 12, by: 2) {
            packets.append(flow.client(start, Array(clientBytes[start..<(start + 2)])))
        }
        packets.append(flow.client(12, Array(clientBytes[12...])))
        for start in stride(from: 0, to: 12, by: 2) {
            packets.append(flow.server(start, Array(serverBytes[start..<(start + 2)]), ack: clientBytes.count))
        }
        packets.append(flow.server(12, Array(serverBytes[12...]), ack: clientBytes.count))
        let result = try decode(packets)
        #expect(result.isWebSocket)
        #expect(result.issues.isEmpty)
        #expect(result.frames.map(\.opcode) == [.login, .login])
        #expect(result.frames.map(\.cmd) == [.request, .response])
    }

    @Test("a stream that ends inside a frame says so")
    func endsInsideFrame() throws {
        let bytes = try Self.frame(.request, seq: 1, .ping)
        let result = try decode(flow.handshake() + [flow.client(0, Array(bytes.dropLast(2)))])
        #expect(result.frames.isEmpty)
        #expect(result.issues.map(\.kind) == [.streamEndsInsideFrame])
    }

    @Test("the summary counts frames per opcode and matches responses to requests by seq")
    func summary() throws {
        let frames = [
            (0, try Self.frame(.request, seq: 1, .login)), (40_000, try Self.frame(.response, seq: 1, .login)),
            (50_000, try Self.frame(.request, seq: 2, .ping)), (60_000, try Self.frame(.request, seq: 3, .ping)),
            (62_000, try Self.frame(.response, seq: 3, .ping)), (70_000, try Self.frame(.push, seq: 0, .notifMessage)),
            (80_000, try Self.frame(.error, seq: 2, .ping)), (90_000, try Self.frame(.response, seq: 77, .chatHistory)),
        ]
        var clientOffset = 0
        var serverOffset = 0
        var packets = flow.handshake()
        var times = [0, 0, 0]
        for (time, bytes) in frames {
            if bytes[1] == UInt8(Command.request.rawValue) {
                packets.append(flow.client(clientOffset, bytes))
                clientOffset += bytes.count
            } else {
                packets.append(flow.server(serverOffset, bytes))
                serverOffset += bytes.count
            }
            times.append(time + 1000)
        }
        let result = try decode(packets, startMicroseconds: times)
        let summary = TraceFrameSummary([result])
        #expect(summary.opcodeCounts.map(\.opcode) == [.ping, .login, .chatHistory, .notifMessage])
        #expect(summary.opcodeCounts.map(\.total) == [4, 2, 1, 1])
        #expect(summary.opcodeCounts.first?.errors == 1)
        #expect(summary.latencies.map(\.opcode) == [.ping, .login])
        #expect(summary.latencies.map(\.count) == [2, 1])
        #expect(summary.latencies.first?.minimumNanoseconds == 2_000_000)
        #expect(summary.latencies.first?.maximumNanoseconds == 30_000_000)
        #expect(summary.latencies.last?.medianNanoseconds == 40_000_000)
        #expect(summary.unmatchedResponseCount == 1)
        #expect(summary.unansweredRequestCount == 0)
        #expect(summary.lines().count == 6)
    }

    @Test("the opcode table takes its column widths from the data: latencies of 10 s and more stay aligned")
    func summaryWidths() {
        var summary = TraceFrameSummary([])
        summary.opcodeCounts = [
            .init(opcode: .ping, requests: 3, responses: 3),
            .init(opcode: .login, requests: 123_456, responses: 1),
        ]
        summary.latencies = [
            .init(opcode: .ping, count: 3, minimumNanoseconds: 2_000_000, medianNanoseconds: 3_000_000,
                  p90Nanoseconds: 4_000_000, maximumNanoseconds: 4_000_000),
            .init(opcode: .login, count: 1, minimumNanoseconds: 12_345_600_000_000, medianNanoseconds: 12_345_600_000_000,
                  p90Nanoseconds: 12_345_600_000_000, maximumNanoseconds: 12_345_600_000_000),
        ]
        let lines = summary.lines()
        #expect(lines[0] == "opcode  requests  responses  pushes  errors  latency n      min ms   median ms      p90 ms      max ms")
        #expect(lines[1] == "PING           3          3       0       0          3         2.0         3.0         4.0         4.0")
        #expect(lines[2] == "LOGIN     123456          1       0       0          1  12345600.0  12345600.0  12345600.0  12345600.0")
        #expect(lines[0].count == lines[1].count && lines[1].count == lines[2].count)
    }
}

/// Randomized framing: frames split into random segments, some segments lost, checked against the frames sent.
@Suite struct TraceDecoderRandomizedTests {
    @Test(
        "every split decodes every frame; losses cost only the frames they touch",
        arguments: [21, 22, 23, 24, 25, 26] as [UInt64])
    func randomized(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let encoder = FrameEncoder()
        for round in 0..<8 {
            let flow = SyntheticFlow(clientISN: UInt32.random(in: 0...UInt32.max, using: &random), serverISN: 9)
            var stream: [UInt8] = []
            var sent: [(seq: UInt16, range: Range<Int>)] = []
            for seq in 0..<UInt16.random(in: 1...30, using: &random) {
                // Binary payloads full of bytes that look like headers (10, 0...3, map markers) tempt the resync.
                let tempting: [UInt8] = [0, 0, 0, 1, 2, 3, 10, 10, 11, 0x81, 0x85, 0xde]
                let blob = (0..<Int.random(in: 0...1500, using: &random)).map { _ in
                    tempting.randomElement(using: &random)!
                }
                let bytes = try encoder.encode(
                    Frame(
                        cmd: .request, seq: seq, opcode: .msgSend,
                        payload: .map([MessagePackPair(.string("blob"), .binary(blob))])))
                sent.append((seq, stream.count..<(stream.count + bytes.count)))
                stream += bytes
            }
            let isLossy = round % 2 == 1
            var capture = SyntheticCapture()
            for frame in flow.handshake() { capture.add(frame) }
            var lost: [Range<Int>] = []
            var offset = 0
            var index = 0
            while offset < stream.count {
                let end = min(stream.count, offset + Int.random(in: 1...1400, using: &random))
                if isLossy && Int.random(in: 0..<6, using: &random) == 0 {
                    lost.append(offset..<end)
                } else {
                    capture.add(flow.client(offset, Array(stream[offset..<end])), microseconds: 100 + index)
                }
                offset = end
                index += 1
            }
            // The server acknowledges everything at the end, so every hole is a reported gap.
            capture.add(flow.server(0, [], flags: PacketBytes.ack, ack: stream.count), microseconds: 100 + index)
            let decoding = try TraceDecoder().decode(path: capture.write())
            let frames = try #require(decoding.connections.first, "seed \(seed) round \(round)").frames
            let intact = sent.filter { frame in !lost.contains { $0.overlaps(frame.range) } }
            #expect(frames.map(\.seq) == intact.map(\.seq), "seed \(seed) round \(round)")
            #expect(frames.map(\.decoded.offset) == intact.map(\.range.lowerBound), "seed \(seed) round \(round)")
        }
    }
}
