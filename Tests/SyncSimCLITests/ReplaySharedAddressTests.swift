import Foundation
import SyncSim
import SyncTrace
import Testing

@testable import SyncSimCLI

/// Users behind one address (a NAT, or one host's loopback) are clients of their own in a replay: the real PyMax
/// capture of `Fixtures/tls/pymax-tls.pcap`'s plain leg (port 45075) has alice and bob both on 127.0.0.1.
@Suite struct ReplaySharedAddressTests {
    static let capture = TraceDecodeCommandTests.fixture("tls/pymax-tls.pcap")

    static func timeline() throws -> ReplayTimeline {
        var arguments = ArgumentList(["--port", "45075"])
        let options = try TraceDecodeCommand.CaptureOptions(&arguments, takesSummary: false)
        return try ReplayCommand.timeline(capture, options: options, console: Console(out: { _ in }, err: { _ in }))
    }

    @Test("two PyMax users on one host's loopback: two clients, each with its own connection and send")
    func emitsTwoClients() throws {
        let timeline = try Self.timeline()
        #expect(timeline.clientAddresses == ["127.0.0.1#1", "127.0.0.1#2"])
        #expect(timeline.sharedAddresses.count == 1)
        let emission = ReplayScenarioEmitter(timeline: timeline, model: ReplayWorldModel(timeline))
            .emission(named: "plain")
        let scenario = emission.scenario
        #expect(scenario.clients.map(\.name) == ["alice", "bob"])
        let actions = scenario.steps.map(\.action)
        #expect(!actions.contains { if case .restartApp = $0 { true } else { false } },
                "a second user's connection is no app restart")
        #expect(actions.contains { if case .sendText("alice", "alice+bob", "hello over TLS") = $0 { true } else { false } })
        #expect(actions.contains {
            if case .sendText("bob", "alice+bob", "a push through the terminator") = $0 { true } else { false }
        })
        #expect(emission.source().contains("// doubt: 2 users logged in from 127.0.0.1"))
        #expect(!emission.source().contains("several clients behind one address"))
        #expect(scenario.problems() == [])
        #expect(WorldExecutor().run(scenario, seed: 1, options: RunOptions()).violations.map(\.description) == [])
    }

    @Test("--client names a user behind the shared address; the bare address lists the clients, exit 2")
    func clientOption() {
        let bob = TraceDecodeCommandTests.run(["replay", Self.capture, "--port", "45075", "--against", "client",
                                               "--client", "127.0.0.1#2"])
        #expect(bob.code == 0)
        #expect(bob.out.last?.contains("to bob (reference engine") == true)
        let bare = TraceDecodeCommandTests.run(["replay", Self.capture, "--port", "45075", "--against", "client",
                                                "--client", "127.0.0.1"])
        #expect(bare.code == 2)
        #expect(bare.err.contains("clients: 127.0.0.1#1, 127.0.0.1#2"))
    }
}
