import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// A change stored in the very millisecond a LOGIN answer was made in is not in that answer, and the server lists
/// what changed strictly after `chatsSync`: the next LOGIN asks from one millisecond before last-sync (round 39's
/// field sequences, `s39-post-at-login-answer-push-lost`: the push of such a post, lost with the connection, left
/// the chat list without the message for good).
@Suite struct ReferenceClientLoginMillisecondTests {
    private static func makeWorld() -> TestWorld {
        let world = TestWorld()
        world.addClient("alice", userId: 1)
        world.addClient("bob", userId: 2)
        world.server.addChat(id: 101, members: [1, 2], now: world.now)
        world.server.seedHistory(chatId: 101, sender: 2, texts: ["old 1", "old 2"], now: world.now)
        return world
    }

    @Test("a message stored in the LOGIN answer's millisecond, its push lost, is listed by the next LOGIN")
    func postInAnswerMillisecond() {
        let world = Self.makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        let lastSync = world.view("alice").lastSyncMilliseconds
        #expect(lastSync > 0)
        // Stored at last-sync's millisecond without a push (its push was lost with the connection).
        let message = world.server.seedMessage(chatId: 101, sender: 2, text: "same millisecond",
                                               serverTimeMilliseconds: lastSync)
        #expect(message.time == lastSync)
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(2)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(60)))
        let view = world.view("alice")
        #expect(view.lastSyncMilliseconds > lastSync)
        #expect(view.chatList[101]?.lastMessage?.id == message.id)
    }

    @Test("an edit made in the LOGIN answer's millisecond, its push lost, comes with the next LOGIN's messages")
    func editInAnswerMillisecond() {
        let world = Self.makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        world.user("alice", .openChat(101))
        world.run(for: .seconds(Int64(3)))
        world.user("alice", .closeChat)
        world.run(for: .seconds(Int64(1)))
        let older = world.server.messages(inChat: 101)[0].id
        #expect(world.view("alice").chunkStores[101]?.message(id: older) != nil)
        // Reconnect, then edit at the new answer's millisecond with no push (Alice is cut off at once after it).
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(2)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(20)))
        let lastSync = world.view("alice").lastSyncMilliseconds
        world.setReachable("alice", false)
        let at = SimInstant(nanosecondsSinceStart: (lastSync - world.server.serverTimeMilliseconds(at: .start))
            * 1_000_000)
        _ = world.server.edit(chatId: 101, messageId: older, editor: 2, text: "old 1, edited", now: at)
        #expect(world.server.messages(inChat: 101)[0].updateTime == lastSync)
        world.run(for: .seconds(Int64(2)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(60)))
        #expect(world.view("alice").chunkStores[101]?.message(id: older)?.text == "old 1, edited")
    }
}
