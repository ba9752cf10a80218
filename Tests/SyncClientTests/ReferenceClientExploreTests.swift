import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Reference-engine defects `syncsim explore` found, each as the focused value the fix makes right (docs/mutants.md,
/// "Defects found by explore").
@Suite struct ReferenceClientExploreTests {
    @Test("a connection attempt that gets no answer is given up after connectTimeout and retried with backoff")
    func connectTimeout() {
        let world = MutantRuns.makeWorld()
        world.setDropsConnectAttempts("alice", true)
        world.start("alice")
        world.run(for: .seconds(Int64(9)))
        #expect(world.metrics("alice").connectTimeouts == 0)
        world.run(for: .seconds(Int64(2)))
        // Default connectTimeout 10 s: the first attempt is abandoned at 10 s, the next one starts after the backoff
        // (1 s, drawn in [0.5 s, 1 s]).
        #expect(world.metrics("alice").connectTimeouts == 1)
        #expect(world.connectAttempts.filter { $0.0 == "alice" }.count == 2)
        world.setDropsConnectAttempts("alice", false)
        world.run(for: .seconds(Int64(60)))
        #expect(world.view("alice").isOnline)
        #expect(world.metrics("alice").logins == 1)
    }

    @Test("a send answered \"already exists\" fetches the chat's newest page until it comes, also when pages fail")
    func duplicateFetchesNewestPageUntilItComes() {
        let world = MutantRuns.makeWorld(knobs: MutantRuns.sendsJustTooSlow, alice: MutantRuns.slowRetries)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "once"))
        world.run(for: .seconds(Int64(23)))
        // The retry is answered "already exists"; every CHAT_HISTORY fails until 100 s.
        world.server.knobs = ServerKnobs(errorRate: [.chatHistory: 1])
        world.run(until: .start + .seconds(Int64(100)))
        #expect(world.view("alice").chunkStores[100]?.messages.contains { $0.text == "once" } != true)
        world.server.knobs = ServerKnobs()
        world.run(for: .seconds(Int64(30)))
        #expect(world.view("alice").chunkStores[100]?.messages.map(\.text).contains("once") == true)
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
    }
}
