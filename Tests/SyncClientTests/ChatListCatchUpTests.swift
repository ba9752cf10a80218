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
    private static func makeWorld(loginChatsCount: Int = 2) -> TestWorld {
        var knobs = ServerKnobs()
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
}
