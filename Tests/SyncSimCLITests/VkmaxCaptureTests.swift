import Foundation
import SyncProtocol
import SyncSim
import SyncTrace
import Testing

@testable import SyncSimCLI

/// Fixtures/websocket/vkmax-session.pcap: vkmax 1.0.2 (PyPI vkmax), a field client written apart from PyMax, as alice
/// and bob against `syncsim serve` (Fixtures/websocket/README.md): JSON over WebSocket, MSG_EDIT's `messageId` as a
/// string, CONTACT_INFO, a reply's `link`.
@Suite struct VkmaxCaptureTests {
    static let capture = TraceDecodeCommandTests.fixture("websocket/vkmax-session.pcap")

    @Test("both vkmax sessions decode with no issue; alice's MSG_EDIT names its message by a string id")
    func decodes() throws {
        let decoding = try TraceDecoder().decode(path: Self.capture)
        #expect(decoding.connections.count == 2)
        for connection in decoding.connections {
            #expect(connection.isWebSocket)
            #expect(connection.issues.isEmpty, "\(connection.issues)")
        }
        let alice = decoding.connections[0].frames.filter { $0.direction == .clientToServer }.map(\.opcode)
        #expect(alice == [.sessionInit, .login, .ping, .chatHistory, .msgSend, .msgEdit, .contactInfo, .msgDelete])
        let edit = try #require(decoding.connections[0].frames.first { $0.opcode == .msgEdit && $0.cmd == .request })
        guard case .map(let pairs) = edit.payload else { Issue.record("MSG_EDIT payload \(edit.payload)"); return }
        #expect(pairs.contains(MessagePackPair(.string("messageId"), .string("61"))))
    }

    /// Replayed against the rebuilt server, the edit and the delete name the message by the rebuilt server's id
    /// (the history is renumbered from 1, so the captured 61 is another id there): before, both were answered
    /// `message.notFound` and the pushes they cause were missing.
    @Test("replayed against the server the answers and pushes agree; to the reference engine, no violation")
    func replays() {
        let server = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "server"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out == ["replayed 12 requests on 2 connections against the server: 12 answers compared, "
            + "0 differences; digest 12e2c977e66504bc"], "\(server.out)")
        let client = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "client"])
        #expect(client.code == 0, "\(client.out)")
        #expect(client.out.last?.contains(": 0 violations of") == true, "\(client.out)")
    }

    /// vkmax sent, edited and deleted alice's message within two milliseconds on loopback. The emitted steps came in
    /// the capture's times, EditMessage (5 ms) and DeleteMessage (6 ms) with the Send (6 ms) not yet on the server, so
    /// they changed an older seeded message of alice's and "hello from vkmax" stayed. Now they wait for the Send to
    /// reach the server on the emitted link.
    @Test("the emitted edit and delete of alice's own message follow its Send, and remove that message")
    func emittedChangesFollowTheirSend() throws {
        let emission = try RoundTripTests.emitted(from: Self.capture)
        var scenario = emission.scenario
        func time(_ matches: (Action) -> Bool) throws -> SimDuration {
            let step = try #require(scenario.steps.first { matches($0.action) })
            guard case .at(let time) = step.timing else { throw CancellationError() }
            return time
        }
        let send = try time { if case .sendText("alice", _, "hello from vkmax") = $0 { true } else { false } }
        let edit = try time { if case .editMessage("alice", _, "edited by vkmax") = $0 { true } else { false } }
        let delete = try time { if case .deleteMessage("alice", _) = $0 { true } else { false } }
        #expect(send < edit && edit <= delete)
        #expect(emission.source().contains("once its Send (0.00"))
        scenario.expectations.eventually.append(Eventually(
            "hello from vkmax sent, edited and removed; the seeded history untouched", within: scenario.runLength,
            clients: ["alice"]
        ) { probe in
            let messages = probe.serverMessages(in: "alice+bob")
            let changed = messages.filter { $0.isRemoved || $0.text == "edited by vkmax" }
            return changed.count == 1 && changed[0].isRemoved && changed[0].cid != nil
                && messages.contains { $0.text == "a reply from vkmax" && !$0.isRemoved }
        })
        let run = WorldExecutor().run(scenario, seed: 1, options: RunOptions())
        #expect(run.violations.isEmpty, "\(run.violations.map(\.description))")
    }
}
