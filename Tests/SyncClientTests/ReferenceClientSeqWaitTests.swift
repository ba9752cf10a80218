import SimCore
import SyncClient
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing

/// Requests that find every seq in flight go out when a request completes and frees one (catalog
/// `history-waits-for-free-seq`): the task queue and the chat-list catch-up did already; history loads and read marks
/// were dropped until the next connection.
@Suite("ReferenceClient: requests waiting for a free seq")
struct ReferenceClientSeqWaitTests {
    /// Alice with a seq space of 2 and her MSG_SENDs answered 8 s late (Bob's at once): a send in each of chats 200
    /// and 300 keeps both her seqs in flight for 8 s (under the 20 s request timeout, so none is held back).
    private func busyWorld() -> TestWorld {
        let slow = ServerKnobs.SlowPeriod(start: .start, end: .start + .seconds(Int64(600)),
                                          extraDelay: .seconds(Int64(8)), opcode: .msgSend, userId: 1)
        let knobs = ServerKnobs(slowPeriods: [slow])
        let world = MutantRuns.makeWorld(knobs: knobs, alice: { $0.seqModulus = 2 })
        world.server.addChat(id: 300, members: [1, 3], now: world.now)
        return world
    }

    @Test("a chat opened while every seq is in flight loads its newest page once a send is answered")
    func openWaitsForFreeSeq() {
        let world = busyWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 200, text: "to carol"))
        world.user("alice", .sendText(chatId: 300, text: "to carol again"))
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(3)))
        // Only the chat list's last message is cached: the open's CHAT_HISTORY found no seq.
        #expect((world.view("alice").chunkStores[100]?.messages.count ?? 0) <= 1)
        world.run(for: .seconds(Int64(10)))
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
        // Before the fix that CHAT_HISTORY was never sent on this connection: chat 100 kept its one message.
        #expect((world.view("alice").chunkStores[100]?.messages.count ?? 0) >= 30)
        world.user("alice", .scrollUp(messages: 1_000))
        world.run(for: .seconds(Int64(10)))
        let chunks = world.view("alice").chunkStores[100]?.chunks ?? []
        #expect(chunks.count == 1 && chunks.first?.isStartOfHistory == true)
        #expect(world.view("alice").chunkStores[100]?.messages.count == 100)
    }

    @Test("a read mark seen while every seq is in flight goes out once a send is answered")
    func readMarkWaitsForFreeSeq() {
        let world = busyWorld()
        world.start("alice")
        world.start("bob")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(3)))
        world.user("alice", .sendText(chatId: 200, text: "to carol"))
        world.user("alice", .sendText(chatId: 300, text: "to carol again"))
        world.run(for: .seconds(Int64(1)))
        // Bob's message is pushed to Alice, whose view follows the newest messages: she reads it, but no seq is free.
        world.user("bob", .sendText(chatId: 100, text: "read me"))
        world.run(for: .seconds(Int64(3)))
        let newest = world.server.messages(inChat: 100).last
        #expect(newest?.text == "read me")
        world.run(for: .seconds(Int64(12)))
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
        #expect(world.view("alice").isOnline)
        #expect(world.metrics("alice").reconnects == 0)
        let mark = world.server.marks(inChat: 100).first { $0.userId == 1 }?.mark
        #expect(mark == newest?.id)
    }
}
