import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// The catch-up past a full LOGIN page (`ReferenceClient.ChatListCatchUp`): found by `syncsim explore --param
/// loginChatsCount=1` (31 of 150 runs broke V1: chats that changed while the client was away stayed missing).
@Suite struct ChatListCatchUpTests {
    /// Alice (user 1) with `loginChatsCount` 2 in six chats with Bob (user 2), ids 101...106; the server lists two
    /// chats per CHATS_LIST page.
    private static func makeWorld(loginChatsCount: Int = 2, knobs: ServerKnobs = ServerKnobs()) -> TestWorld {
        var knobs = knobs
        knobs.chatsListPageSize = 2
        let world = TestWorld(knobs: knobs)
        world.addClient("alice", userId: 1) { $0.loginChatsCount = loginChatsCount }
        world.addClient("bob", userId: 2)
        for id in Int64(101)...106 {
            world.server.addChat(id: id, members: [1, 2], now: world.now)
            world.server.seedHistory(chatId: id, sender: 2, texts: ["old \(id)"], now: world.now)
        }
        return world
    }

    @Test("a first LOGIN listing as many chats as asked is followed by CHATS_LIST pages until every chat is listed")
    func firstLogin() {
        // All six chats were seeded at one instant: the pages must not skip chats sharing a `modified` time.
        let world = Self.makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        let view = world.view("alice")
        #expect(view.chatList.keys.sorted() == Array(Int64(101)...106))
        #expect(world.metrics("alice").requestsByOpcode[.chatsList, default: 0] >= 1)
        #expect(view.lastSyncMilliseconds > 0)
    }

    @Test("chats that changed while away beyond the LOGIN page are listed with their new last message and edits")
    func changedWhileAway() {
        let world = Self.makeWorld(loginChatsCount: 1)
        world.start("alice")
        world.start("bob")
        world.run(for: .seconds(Int64(5)))
        world.user("alice", .openChat(101))
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(102))
        world.run(for: .seconds(Int64(2)))
        world.setReachable("alice", false)
        let syncBefore = world.view("alice").lastSyncMilliseconds
        // Bob's other device edits his message in chat 101, then writes in every chat, 101 first (the oldest change).
        let seeded = world.server.messages(inChat: 101)[0].id
        world.deliverServerActions(
            world.server.edit(chatId: 101, messageId: seeded, editor: 2, text: "old 101, edited", now: world.now))
        for id in Int64(101)...106 {
            world.user("bob", .sendText(chatId: id, text: "new \(id)"))
            world.run(for: .seconds(Int64(1)))
        }
        world.run(for: .seconds(Int64(5)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(90)))
        let view = world.view("alice")
        #expect(view.chatList.keys.sorted() == Array(Int64(101)...106))
        for id in Int64(101)...106 {
            #expect(view.chatList[id]?.lastMessage?.text == "new \(id)", "chat \(id)")
        }
        // Chat 101's cached message got the edit that LOGIN carried, though 101 came on a later page.
        #expect(view.chunkStores[101]?.message(id: seeded)?.text == "old 101, edited")
        #expect(view.lastSyncMilliseconds > syncBefore)
    }

    /// A world in which every `opcode` request is refused (`server.unavailable`) for the first `minutes` minutes.
    private static func makeFailingWorld(_ opcode: Opcode, minutes: Int64) -> TestWorld {
        var knobs = ServerKnobs()
        knobs.failingPeriods = [.init(opcode: opcode, start: .start, end: .start + .minutes(minutes))]
        return makeWorld(loginChatsCount: 1, knobs: knobs)
    }

    @Test("a server refusing every CHATS_LIST page is asked again with backoff, and the catch-up ends once it answers")
    func refusedPagesBackOff() {
        // Before: one page every taskRetryBase (1 s) for as long as the fault lasted, 546 in ten minutes.
        // Now 1 s after the first refusal, then min(60 s, 2^(k-1) s) drawn in [d/2, d]: at most 20 in ten minutes
        // (1 + 1 + 2 + 4 + 8 + 16 + 30 s of shortest waits, then one per 30 s at least).
        let world = Self.makeFailingWorld(.chatsList, minutes: 10)
        world.start("alice")
        world.run(for: .minutes(10))
        let asked = world.metrics("alice").requestsByOpcode[.chatsList, default: 0]
        #expect(asked >= 6 && asked <= 25, "CHATS_LIST pages asked in ten refused minutes: \(asked)")
        #expect(world.view("alice").chatList.count == 1)
        // The fault is over: the next retry comes within the cap (60 s) and the pages list every chat.
        world.run(for: .seconds(Int64(75)))
        #expect(world.view("alice").chatList.keys.sorted() == Array(Int64(101)...106))
    }

    @Test("an open chat whose history pages are refused is asked again with backoff, and opens once the server answers")
    func refusedHistoryPagesBackOff() {
        let world = Self.makeFailingWorld(.chatHistory, minutes: 10)
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        world.user("alice", .openChat(101))
        world.run(for: .minutes(10))
        let asked = world.metrics("alice").requestsByOpcode[.chatHistory, default: 0]
        #expect(asked >= 6 && asked <= 25, "CHAT_HISTORY pages asked in ten refused minutes: \(asked)")
        world.run(for: .seconds(Int64(75)))
        #expect(world.view("alice").chunkStores[101]?.message(id: world.server.messages(inChat: 101)[0].id) != nil)
    }
}
