import Foundation
import SyncProtocol
import Testing

@testable import SyncTrace

/// Fixtures/pcap/sync-session.pcapng: a short sync session written by `PcapngWriter`, with one server packet left
/// out so the capture has a gap. Set SYNCSIM_WRITE_FIXTURES=1 to rewrite the file after changing the generator.
@Suite struct SyncSessionFixtureTests {
    static func string(_ text: String) -> MessagePackValue { .string(text) }
    static func map(_ pairs: [(String, MessagePackValue)]) -> MessagePackValue {
        .map(pairs.map { MessagePackPair(.string($0.0), $0.1) })
    }

    /// The capture's bytes, built deterministically.
    static func generate() throws -> [UInt8] {
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 0), port: 50_001),
            server: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 1), port: 443),
            clientISN: 3_000_000_000, serverISN: 123_456, mss: 1200)
        var writer = PcapngWriter(interfaces: [.init(name: "alice-edge")])
        var time: Int64 = 1_767_225_600_000_000_000  // 2026-01-01T00:00:00Z
        let encoder = FrameEncoder()
        func frame(_ cmd: Command, _ seq: UInt16, _ opcode: Opcode, _ payload: MessagePackValue) throws -> [UInt8] {
            try encoder.encode(Frame(cmd: cmd, seq: seq, opcode: opcode, payload: payload))
        }
        func add(_ packets: [[UInt8]], after milliseconds: Int64, dropping dropped: Set<Int> = []) {
            for (index, packet) in packets.enumerated() {
                time += milliseconds * 1_000_000
                if !dropped.contains(index) {
                    writer.append(packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: time))
                }
            }
        }
        let messages: [MessagePackValue] = (1...40).map { id in
            map([
                ("id", .uint(UInt64(1000 + id))), ("time", .uint(1_767_225_000_000 + UInt64(id) * 60_000)),
                ("sender", .uint(7)), ("text", string("message number \(id) in the history page")),
            ])
        }
        add(connection.open(), after: 200)
        add(
            connection.send(
                try frame(
                    .request, 1, .sessionInit,
                    map([
                        ("deviceId", string("alice-phone")),
                        ("clientVersion", string("syncsim")),
                    ])),
                .clientToServer), after: 5)
        add(
            connection.send(
                try frame(.response, 1, .sessionInit, map([("time", .uint(1_767_225_600_400))])),
                .serverToClient), after: 410)
        add(
            connection.send(
                try frame(
                    .request, 2, .login,
                    map([
                        ("token", string("t-alice")), ("chatsSync", .uint(0)),
                        ("contactsSync", .uint(0)), ("chatsCount", .uint(40)),
                    ])),
                .clientToServer), after: 3)
        add(
            connection.send(
                try frame(
                    .response, 2, .login,
                    map([
                        ("profile", map([("id", .uint(7)), ("name", string("Alice"))])),
                        ("chats", .array([])), ("contacts", .array([])),
                        ("time", .uint(1_767_225_601_000)),
                    ])),
                .serverToClient), after: 620)
        add(
            connection.send(
                try frame(
                    .request, 3, .chatHistory,
                    map([
                        ("chatId", .uint(42)), ("from", .uint(0)),
                        ("forward", .uint(0)), ("backward", .uint(40)),
                    ])),
                .clientToServer), after: 4)
        // The history page is large but compresses below 1200 bytes: send it raw-sized by disabling compression,
        // so it spans several packets and the second one can go missing from the capture.
        let page = try FrameEncoder(compressionThresholdBytes: .max).encode(
            Frame(cmd: .response, seq: 3, opcode: .chatHistory, payload: map([("messages", .array(messages))])))
        add(connection.send(page, .serverToClient), after: 380, dropping: [1])
        add(
            connection.send(try frame(.request, 4, .ping, map([("interactive", .bool(true))])), .clientToServer),
            after: 900)
        add(connection.send(try frame(.response, 4, .ping, map([])), .serverToClient), after: 350)
        add(
            connection.send(
                try frame(.push, 0, .notifMessage, map([("chatId", .uint(42)), ("message", messages[0])])),
                .serverToClient), after: 1200)
        add([connection.close(.clientToServer), connection.close(.serverToClient)], after: 30_000)
        return writer.bytes
    }

    static func fixturePath(filePath: String = #filePath) -> String { FixturePath.pcap("sync-session.pcapng") }

    @Test("the fixture is exactly what the generator writes (PcapngWriter output is deterministic)")
    func matchesGenerator() throws {
        let bytes = try Self.generate()
        if ProcessInfo.processInfo.environment["SYNCSIM_WRITE_FIXTURES"] == "1" {
            try Data(bytes).write(to: URL(fileURLWithPath: Self.fixturePath()))
        }
        let stored = try #require(FileManager.default.contents(atPath: Self.fixturePath()))
        #expect([UInt8](stored) == bytes)
    }

    @Test("the fixture decodes to its frames, with the missing packet reported as a gap and a resync after it")
    func decodes() throws {
        let decoding = try TraceDecoder().decode(path: Self.fixturePath())
        #expect(decoding.trace.packetCount == 15)
        let connection = try #require(decoding.connections.first)
        #expect(
            connection.frames.map(\.opcode) == [
                .sessionInit, .sessionInit, .login, .login, .chatHistory, .ping, .ping, .notifMessage,
            ])
        #expect(connection.connection.serverToClient.gaps.map(\.length) == [1200])
        #expect(connection.issues.map(\.kind) == [.gap, .frameCutByGap, .skippedToResync])
        let summary = TraceFrameSummary(decoding.connections)
        #expect(summary.latencies.map(\.opcode) == [.ping, .sessionInit, .login])
        #expect(summary.unansweredRequestCount == 1)  // CHAT_HISTORY: its response lost its middle to the gap
    }
}
