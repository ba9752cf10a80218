import SimCore
import SyncClient
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing

/// A server that sends a reply whose connection closed to the device's newer connection (`repliesFollowDevice`):
/// with a small seq space, counting seqs on across connections wraps back to the stale reply's seq (catalog
/// `stale-page-on-new-connection-small-seqs`, found by hand-written field sequences, seq14).
@Suite("ReferenceClient: stale replies on a new connection")
struct ReferenceClientStaleReplyTests {
    @Test("a page of the lost connection, answered on the new one, never completes a request that reused its seq")
    func stalePageNeverCompletesNewRequest() {
        var knobs = ServerKnobs(slowPeriods: [
            ServerKnobs.SlowPeriod(start: .start, end: .start + .seconds(Int64(60)), extraDelay: .seconds(Int64(12)),
                                   opcode: .chatHistory, userId: 1),
        ])
        knobs.repliesFollowDevice = true
        let world = MutantRuns.makeWorld(knobs: knobs, history: 40, alice: { $0.seqModulus = 4 })
        world.server.seedHistory(chatId: 200, sender: 3, texts: (1...40).map { "carol \($0)" }, now: world.now)
        MutantRuns.openTwoChatsAcrossReset(world)
        let cached = world.view("alice").chunkStores[200]?.messages ?? []
        let server = Set(world.server.messages(inChat: 200).map(\.id))
        // Before the fix chat 100's page (seq 3 of the lost connection) completed the new connection's request for
        // chat 200's newest page, which had seq 3 too: chat 100's messages were cached under chat 200.
        #expect(!cached.contains { $0.text.hasPrefix("old") })
        #expect(cached.allSatisfy { server.contains($0.id) })
        #expect(cached.count >= 30)
    }

    @Test("with every seq held for a lost connection's answers, SESSION_INIT waits for one instead of giving up")
    func sessionInitWaitsForOrphanedSeq() {
        var knobs = ServerKnobs(slowPeriods: [
            ServerKnobs.SlowPeriod(start: .start, end: .start + .seconds(Int64(60)), extraDelay: .seconds(Int64(10)),
                                   opcode: .msgSend, userId: 1),
        ])
        knobs.repliesFollowDevice = true
        let world = MutantRuns.makeWorld(knobs: knobs, alice: { $0.seqModulus = 2 })
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .sendText(chatId: 100, text: "one"))
        world.user("alice", .sendText(chatId: 200, text: "two"))
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(90)))
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
        #expect(world.server.messages(inChat: 100).filter { $0.text == "one" }.count == 1)
        #expect(world.server.messages(inChat: 200).filter { $0.text == "two" }.count == 1)
    }
}
