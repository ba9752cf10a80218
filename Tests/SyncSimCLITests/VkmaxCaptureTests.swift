import Foundation
import SyncProtocol
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
            + "0 differences; digest 9039fb4e0d18b10c"], "\(server.out)")
        let client = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "client"])
        #expect(client.code == 0, "\(client.out)")
        #expect(client.out.last?.contains(": 0 violations of") == true, "\(client.out)")
    }
}
