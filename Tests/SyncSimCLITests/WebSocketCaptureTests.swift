import Foundation
import SyncSim
@testable import SyncTrace
import Testing

@testable import SyncSimCLI

/// Captures of WebSocket connections: Fixtures/websocket/pymax-webclient.pcap (PyMax 2.5.0's WebClient with binary
/// messages, 2.1.0's with JSON text; Fixtures/websocket/README.md), and hand-made streams that break.
@Suite struct WebSocketCaptureTests {
    static let capture = TraceDecodeCommandTests.fixture("websocket/pymax-webclient.pcap")

    /// A capture of the two WebClient sessions (2.5.0, then 2.1.0) decoded: ten frames each in the session's order,
    /// no issue, every frame's captured bytes ending inside its stream (a compressed message's frame too), alice's
    /// token in 2.1.0's LOGIN.
    static func expectBothSessions(_ decoding: TraceDecoder.Decoding) throws {
        #expect(decoding.connections.count == 2)
        let expected: [Opcode] = [.sessionInit, .sessionInit, .ping, .ping, .login, .login, .chatHistory,
                                  .chatHistory, .msgSend, .msgSend]
        for connection in decoding.connections {
            #expect(connection.isWebSocket)
            #expect(connection.issues.isEmpty, "\(connection.issues)")
            #expect(connection.frames.map(\.opcode) == expected)
            for frame in connection.frames {
                let stream = connection.connection.stream(frame.direction)
                #expect(frame.capturedBytes.upperBound <= stream.byteCount)
                #expect(frame.capturedBytes.lowerBound == Int64(frame.decoded.offset))
            }
        }
        let login = try #require(decoding.connections[1].frames.first { $0.opcode == .login && $0.cmd == .request })
        guard case .map(let pairs) = login.payload else { Issue.record("LOGIN payload \(login.payload)"); return }
        #expect(pairs.contains(MessagePackPair(.string("token"), .string("token-alice"))))
    }

    @Test("both WebClient sessions decode to their ten frames, ending where their WebSocket frames end")
    func decodes() throws {
        let decoding = try TraceDecoder().decode(path: Self.capture)
        try Self.expectBothSessions(decoding)
        #expect(decoding.connections[0].frames.contains { $0.opcode == .chatHistory && $0.decoded.header.isCompressed })
    }

    @Test("replayed against the server, to the reference engine and as a scenario, the capture agrees")
    func replays() {
        let decode = TraceDecodeCommandTests.run(["decode", Self.capture])
        #expect(decode.out.first?.hasPrefix(
            #"{"connection":1,"client":"127.0.0.1:55950","server":"127.0.0.1:7431","transport":"websocket","#) == true,
            "\(decode.out.first ?? "")")
        // Connection 1 (2.5.0) sent binary messages: the TCP layout, ver 10. Connection 2 (2.1.0) sent JSON text.
        let frameLines = decode.out.filter { $0.hasPrefix(#"{"time""#) }
        #expect(frameLines.count == 20)
        for line in frameLines where line.contains(#""connection":1,"#) {
            #expect(line.contains(#""ver":10,"#) && !line.contains(#""encoding""#), "\(line)")
        }
        let jsonLines = frameLines.filter { $0.contains(#""connection":2,"#) }
        #expect(jsonLines.count == 10)
        for line in jsonLines {
            #expect(line.contains(#""ver":11,"#) && line.contains(#""compressed":false,"encoding":"json","#), "\(line)")
        }
        // The first JSON request, SESSION_INIT, is 404 bytes of text holding a 315-byte MessagePack payload.
        #expect(jsonLines.first?.contains(#""wirePayloadBytes":404,"payloadBytes":315,"#) == true, "\(jsonLines)")
        let server = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "server"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out.last?.contains("10 answers compared, 0 differences") == true, "\(server.out)")
        let client = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "client"])
        #expect(client.code == 0, "\(client.out)")
        #expect(client.out.last?.contains(": 0 violations of") == true, "\(client.out)")
        let scenario = TraceDecodeCommandTests.run(["replay", Self.capture, "--run", "--seeds", "1..1"])
        #expect(scenario.code == 0, "\(scenario.out)")
        #expect(scenario.out.last == "1 run of 1 scenario: 1 passed, 0 failed", "\(scenario.out)")
    }

    static let time = CaptureTimestamp(nanosecondsSinceEpoch: 0)

    /// A client stream: the HTTP head, then `frames`, one run each, with `gapAfter` runs then a gap.
    static func stream(_ runs: [[UInt8]], gapAfter: Int? = nil) -> TCPStreamTrace {
        var stream = TCPStreamTrace()
        stream.sawSYN = true
        var offset: Int64 = 0
        for (index, bytes) in ([WebSocketTests.request()] + runs).enumerated() {
            stream.pieces.append(.data(ByteRun(offset: offset, bytes: bytes, timestamp: time, packetNumber: index + 1)))
            offset += Int64(bytes.count)
            if index == gapAfter {
                stream.pieces.append(.gap(StreamGap(offset: offset, length: 100, cause: .notCaptured,
                                                    packetNumber: index + 1, timestamp: time)))
                offset += 100
            }
        }
        return stream
    }

    @Test("fragments join, control frames drop, a gap or a broken frame ends the direction with an issue naming it")
    func unwraps() throws {
        let ping = try FrameEncoder().encode(Frame(cmd: .request, seq: 1, opcode: .ping, payload: .map([])))
        let head = Int64(WebSocketTests.request().count)
        let whole = WebSocketStream(
            Self.stream([WebSocketTests.clientFrame(opcode: 2, Array(ping.prefix(4)), final: false)
                         + WebSocketTests.clientFrame(opcode: 9, []),
                         WebSocketTests.clientFrame(opcode: 0, Array(ping.dropFirst(4))),
                         WebSocketTests.clientFrame(opcode: 1, Array(#"{"seq":2,"opcode":1,"payload":{}}"#.utf8))]),
            connectionNumber: 1, direction: .clientToServer, maxPayloadBytes: 1 << 20)
        #expect(whole.issues.isEmpty)
        #expect(whole.stream.runs.map(\.bytes)
            == [ping, try FrameEncoder().encode(Frame(cmd: .request, seq: 2, opcode: .ping, payload: .map([])))])
        #expect(whole.spans.first?.captured == head..<(head + 10 + 6 + 6 + Int64(ping.count) - 4))
        // The binary message has no JSON form; the text one had no "ver" and 33 bytes of text.
        #expect(whole.spans.map(\.jsonMessage) == [nil, TraceFrame.JSONMessage(version: nil, textByteCount: 33)])
        #expect(whole.span(at: Int64(ping.count))?.jsonMessage?.textByteCount == 33)
        #expect(whole.span(at: Int64(ping.count) * 3) == nil)

        let cut = WebSocketStream(Self.stream([WebSocketTests.clientFrame(opcode: 2, ping),
                                               WebSocketTests.clientFrame(opcode: 2, ping)], gapAfter: 1),
                                  connectionNumber: 1, direction: .clientToServer, maxPayloadBytes: 1 << 20)
        #expect(cut.stream.runs.count == 1)
        #expect(cut.issues.map(\.kind) == [.gap, .webSocket])
        #expect(cut.issues.last?.detail.contains("a gap cuts the WebSocket stream") == true)

        let broken = WebSocketStream(Self.stream([[0x83, 0x80, 1, 2, 3, 4]]), connectionNumber: 1,
                                     direction: .clientToServer, maxPayloadBytes: 1 << 20)
        #expect(broken.issues.map(\.offset) == [head])
        #expect(broken.issues.first?.detail.hasPrefix("opcode 3 is reserved") == true)

        let json = WebSocketStream(Self.stream([WebSocketTests.clientFrame(opcode: 1, Array(#"{"seq":1}"#.utf8))]),
                                   connectionNumber: 1, direction: .clientToServer, maxPayloadBytes: 1 << 20)
        #expect(json.issues.map(\.kind) == [.undecodablePayload])
        #expect(json.issues.first?.detail == "JSON frame: field 'opcode' is missing")

        let badVersion = WebSocketStream(
            Self.stream([WebSocketTests.clientFrame(opcode: 1, Array(#"{"ver":"11","seq":1,"opcode":1}"#.utf8))]),
            connectionNumber: 1, direction: .clientToServer, maxPayloadBytes: 1 << 20)
        #expect(badVersion.issues.first?.detail
            == "JSON frame: field 'ver' is \"11\", not an integer in 0...4294967295")
    }
}

/// Captures begun after the upgrade (Fixtures/websocket/pymax-webclient-midstream.pcap, made by
/// make_midstream.py from the capture above), and mid-stream captures that are no WebSocket ones.
@Suite struct WebSocketMidStreamTests {
    static let capture = TraceDecodeCommandTests.fixture("websocket/pymax-webclient-midstream.pcap")

    @Test("a capture begun mid-connection is read as WebSocket from its first whole frame in each direction")
    func decodesFromFirstWholeFrame() throws {
        let decoding = try TraceDecoder().decode(path: Self.capture)
        #expect(decoding.connections.count == 2)
        let binary = decoding.connections[0], json = decoding.connections[1]
        #expect(binary.isWebSocket && json.isWebSocket)
        #expect(!binary.connection.clientToServer.sawSYN && !json.connection.serverToClient.sawSYN)
        // Connection 1 starts 7 and 5 bytes into its PING frames: those tails are skipped (23 and 8 bytes with the
        // frames' remaining payload), and LOGIN is the first frame each way.
        #expect(binary.frames.map(\.opcode) == [.login, .login, .chatHistory, .chatHistory, .msgSend, .msgSend])
        #expect(binary.issues.map(\.kind) == [.skippedToResync, .skippedToResync])
        #expect(binary.issues.map(\.byteCount) == [23, 8])
        #expect(binary.issues.allSatisfy { $0.detail.contains("the capture begins mid-connection") })
        #expect(binary.frames.allSatisfy { $0.jsonMessage == nil })
        // Connection 2 starts at a frame boundary: nothing is skipped, and its eight JSON frames decode.
        #expect(json.issues.isEmpty, "\(json.issues)")
        #expect(json.frames.map(\.opcode) == [.ping, .ping, .login, .login, .chatHistory, .chatHistory, .msgSend,
                                              .msgSend])
        #expect(json.frames.allSatisfy { $0.jsonMessage?.version == 11 })
        let server = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "server"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out.last?.contains("7 answers compared, 0 differences") == true, "\(server.out)")
    }

    @Test("no mid-stream connection of the other fixtures is taken for a WebSocket one")
    func otherCapturesAreNotWebSocket() throws {
        let folders = ["pcap", "replay", "tls"]
        var connections = 0
        for folder in folders {
            let directory = TraceDecodeCommandTests.fixture(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            where name.hasSuffix(".pcap") || name.hasSuffix(".pcapng") {
                guard let decoding = try? TraceDecoder().decode(path: directory + "/" + name) else { continue }
                for connection in decoding.connections {
                    connections += 1
                    #expect(!connection.isWebSocket, "\(folder)/\(name) connection \(connection.connection.number)")
                }
            }
        }
        #expect(connections > 10)
    }

    @Test("field frames captured mid-stream stay field frames; a masked frame of other bytes is no WebSocket")
    func fieldFramesMidStream() throws {
        let encoder = FrameEncoder()
        var fieldStream: [UInt8] = [0x82, 0x85, 1, 2, 3]  // a tail that looks like the start of a WebSocket frame
        for seq in 1...4 {
            fieldStream += try encoder.encode(Frame(cmd: .request, seq: UInt16(seq), opcode: .ping,
                                                    payload: .map([MessagePackPair(.string("interactive"), .bool(true))])))
        }
        let other = WebSocketTests.clientFrame(opcode: 2, Array("not a field frame at all".utf8))
            + WebSocketTests.clientFrame(opcode: 2, Array("nor this one".utf8))
        for (bytes, frames) in [(fieldStream, 4), (other, 0)] {
            var connection = try #require(try TraceDecoder().decode(path: WebSocketCaptureTests.capture)
                .connections.first?.connection)
            connection.clientToServer = TCPStreamTrace()
            connection.clientToServer.pieces = [.data(ByteRun(offset: 0, bytes: bytes,
                                                              timestamp: WebSocketCaptureTests.time, packetNumber: 1))]
            connection.serverToClient = TCPStreamTrace()
            let decoded = TraceDecoder().decode(connection)
            #expect(!decoded.isWebSocket)
            #expect(decoded.frames.count == frames)
        }
    }
}
