import SimCore
import SyncClient
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing

/// A view made against a stale cache (catalog `explore-scroll-in-stale-empty-cache` and
/// `explore-reconnect-keeps-scrolled-view`, explore seed 921142 with pages of three): the scroll to the top still ends
/// with one start chunk once the network is back.
@Suite("ReferenceClient: scrolls against a stale cache")
struct ReferenceClientStaleViewTests {
    /// Pages of three messages, one on screen, no prefetch: a page of the three messages posted is full, so it does
    /// not tell the start of the history.
    private static func smallPages(_ p: inout ClientParameters) {
        p.historyPageSize = 3
        p.visibleMessageCount = 1
        p.prefetchDistance = 0
    }

    @Test("a scroll in an empty view waits for the newest page of the next connection and reaches the start")
    func scrollInEmptyStaleView() {
        let world = MutantRuns.makeWorld(alice: Self.smallPages)
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        // Chat 200 (with Carol) is empty: its page comes back empty, the view has nothing to anchor on.
        world.user("alice", .openChat(200))
        world.run(for: .seconds(Int64(2)))
        #expect(world.view("alice").visibleMessageIds.isEmpty)
        // The connection goes silent: Carol's three messages are pushed into it and lost.
        world.makeHalfOpen("alice")
        for text in ["c1", "c2", "c3"] {
            world.deliverServerActions(world.server.post(chatId: 200, sender: 3, text: text, now: world.now))
        }
        world.run(for: .seconds(Int64(1)))
        #expect(world.view("alice").isOnline)
        world.user("alice", .scrollUp(messages: 1_000))
        world.run(for: .seconds(Int64(600)))
        #expect(world.view("alice").isOnline)
        let chunks = world.view("alice").chunkStores[200]?.chunks ?? []
        // Before the fix the scroll was dropped: the reconnect's newest page left `[1...3]`, not known to be the start.
        #expect(chunks.count == 1)
        #expect(chunks.first?.isStartOfHistory == true)
        #expect(world.view("alice").chunkStores[200]?.messages.map(\.text) == ["c1", "c2", "c3"])
        #expect(world.view("alice").visibleMessageIds == [world.server.messages(inChat: 200)[0].id])
    }

    @Test("an empty view's scroll ends when the newest page is still empty")
    func scrollInEmptyCurrentView() {
        let world = MutantRuns.makeWorld(alice: Self.smallPages)
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(200))
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .scrollUp(messages: 1_000))
        world.run(for: .seconds(Int64(2)))
        // A later message starts a view of its own: the old scroll does not carry it to the top.
        world.deliverServerActions(world.server.post(chatId: 200, sender: 3, text: "c1", now: world.now))
        world.run(for: .seconds(Int64(5)))
        let histories = world.sentRequests.filter { $0.0 == "alice" && $0.1.opcode == .chatHistory }
        // The open's page and the scroll's, then the newest page the push asked for: no page above it.
        #expect(histories.count == 3)
        #expect(world.view("alice").chunkStores[200]?.messages.map(\.text) == ["c1"])
    }

    @Test("a view scrolled to the top stays there after a reconnect and is joined to the newest page")
    func reconnectKeepsViewAtTop() {
        // Four messages: the open's newest page `[2...4]` is full, so reaching the top takes a scroll, which stops the
        // view following the newest messages (a view that still shows the newest message moves with them).
        let world = MutantRuns.makeWorld(history: 4, alice: Self.smallPages)
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .scrollUp(messages: 1_000))
        world.run(for: .seconds(Int64(2)))
        let first = world.server.messages(inChat: 100)[0].id
        #expect(world.view("alice").visibleMessageIds == [first])
        #expect(world.view("alice").chunkStores[100]?.chunks.count == 1)
        world.setReachable("alice", false)
        for text in ["b1", "b2", "b3"] {
            world.deliverServerActions(world.server.post(chatId: 100, sender: 2, text: text, now: world.now))
        }
        world.run(for: .seconds(Int64(5)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(120)))
        #expect(world.view("alice").isOnline)
        let chunks = world.view("alice").chunkStores[100]?.chunks ?? []
        // Before the fix the newest page `[5...7]` moved the view there and left `[1...4 start] [5...7]`.
        #expect(chunks.count == 1)
        #expect(chunks.first?.isStartOfHistory == true)
        #expect(world.view("alice").chunkStores[100]?.messages.count == 7)
        #expect(world.view("alice").visibleMessageIds == [first])
    }
}

/// A MSG_SEND answered after its request timed out (catalog `explore-late-answer-to-given-up-send`, explore seed
/// 945333 with `maxTaskAttempts=1`).
@Suite("ReferenceClient: late answers to sends")
struct ReferenceClientLateSendAnswerTests {
    @Test("the late answer to a send the engine gave up on caches the message and ends the task done")
    func lateAnswerToGivenUpSend() {
        // Alice's MSG_SENDs wait 30 s at the server, past her 20 s request timeout; one attempt per task.
        let slow = ServerKnobs.SlowPeriod(start: .start, end: .start + .seconds(Int64(600)),
                                          extraDelay: .seconds(Int64(30)), opcode: .msgSend, userId: 1)
        let world = MutantRuns.makeWorld(knobs: ServerKnobs(slowPeriods: [slow]), alice: { $0.maxTaskAttempts = 1 })
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .sendText(chatId: 100, text: "slow"))
        world.run(for: .seconds(Int64(25)))
        let task = world.view("alice").tasks.first { $0.text == "slow" }
        #expect(task?.state == .failed)
        #expect(world.server.messages(inChat: 100).last?.text != "slow")
        world.run(for: .seconds(Int64(15)))
        let stored = world.server.messages(inChat: 100).last
        #expect(stored?.text == "slow")
        // Before the fix the answer was dropped: the task stayed failed and the chat lacked its own message.
        let after = world.view("alice").tasks.first { $0.text == "slow" }
        #expect(after?.state == .done)
        #expect(after?.messageId == stored?.id)
        #expect(world.view("alice").chunkStores[100]?.messages.last?.text == "slow")
        #expect(world.view("alice").localEchoes.isEmpty)
    }
}
