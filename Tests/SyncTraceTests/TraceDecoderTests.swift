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
}
