import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Edits, deletes and scrolls the engine got wrong until `syncsim explore` found them (docs/explore.md, "Defects
/// found against the reference engine"), each as the value the fix makes right.
@Suite struct ReferenceClientEditSyncTests {
    @Test("an older copy of a removed message from a lagging page does not reach the database: a relaunch keeps it removed")
    func olderCopyNotPersisted() {
        let world = MutantRuns.makeWorld(knobs: MutantRuns.laggingReplica, history: 10)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        let last = world.server.messages(inChat: 100).last!.id
        world.deliverServerActions(world.server.delete(chatId: 100, messageId: last, deleter: 2, now: world.now))
        world.run(for: .seconds(Int64(1)))
        #expect(world.view("alice").chunkStores[100]?.message(id: last)?.isRemoved == true)
        // The lagging replica serves the message in its old version: the cache keeps the removal, and so must the
        // database, which the relaunched app reads before any LOGIN could correct it.
        world.user("alice", .closeChat)
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        world.setReachable("alice", false)
        world.restartApp("alice", crash: true)
        world.run(for: .seconds(Int64(1)))
        let cached = world.view("alice").chunkStores[100]?.message(id: last)
        #expect(cached?.text == "")
        #expect(cached?.status == ChatMessage.removed)
    }

    @Test("an edit pushed before its message is cached survives an app restart")
    func pendingEditSurvivesRestart() {
        let world = MutantRuns.makeWorld(knobs: MutantRuns.laggingReplica)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        let edited = world.server.messages(inChat: 100)[9].id
        world.deliverServerActions(
            world.server.edit(chatId: 100, messageId: edited, editor: 2, text: "edited early", now: world.now))
        world.run(for: .seconds(Int64(1)))
        #expect(world.view("alice").chunkStores[100]?.pendingEdits[edited]?.text == "edited early")
        world.setReachable("alice", false)
        world.restartApp("alice", crash: true)
        world.run(for: .seconds(Int64(1)))
        #expect(world.view("alice").chunkStores[100]?.pendingEdits[edited]?.text == "edited early")
    }

    @Test("a client away while a cached message is edited and another deleted learns both at its next LOGIN")
    func changesWhileAwayArriveWithLogin() {
        let world = MutantRuns.makeWorld(history: 20)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        let history = world.server.messages(inChat: 100)
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(1)))
        world.deliverServerActions(
            world.server.edit(chatId: 100, messageId: history[15].id, editor: 2, text: "while away", now: world.now))
        world.deliverServerActions(world.server.delete(chatId: 100, messageId: history[12].id, deleter: 2,
                                                       now: world.now))
        world.run(for: .seconds(Int64(1)))
        #expect(world.view("alice").chunkStores[100]?.message(id: history[15].id)?.text == history[15].text)
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(30)))
        #expect(world.metrics("alice").logins == 2)
        #expect(world.view("alice").chunkStores[100]?.message(id: history[15].id)?.text == "while away")
        #expect(world.view("alice").chunkStores[100]?.message(id: history[12].id)?.isRemoved == true)
    }

    @Test("a scroll while an earlier one waits for older messages adds to it: both reach the top")
    func scrollsAccumulate() {
        let world = MutantRuns.makeWorld(history: 100)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(5)))
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .scrollUp(messages: 1_000))
        world.user("alice", .scrollUp(messages: 4))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(60)))
        let chunks = world.view("alice").chunkStores[100]?.chunks ?? []
        #expect(chunks.count == 1)
        #expect(chunks.first?.isStartOfHistory == true)
        #expect(chunks.first?.lower == world.server.messages(inChat: 100).first?.id)
    }

    @Test("a chat opened empty anchors on the first message sent there, and a scroll to the top then reaches it")
    func scrollInChatOpenedEmpty() {
        let world = MutantRuns.makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(200))
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .sendText(chatId: 200, text: "first"))
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .scrollUp(messages: 1_000))
        world.run(for: .seconds(Int64(5)))
        let chunks = world.view("alice").chunkStores[200]?.chunks ?? []
        #expect(chunks.count == 1)
        #expect(chunks.first?.isStartOfHistory == true)
    }

    @Test("a send that fails for good after unanswered attempts fetches the newest page, which shows it was stored")
    func failedSendFetchesNewestPage() {
        let world = MutantRuns.makeWorld(knobs: MutantRuns.slowSends, alice: { $0.maxTaskAttempts = 2 })
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "answers lost"))
        world.run(for: .seconds(Int64(120)))
        #expect(world.view("alice").tasks.map(\.state) == [.failed])
        #expect(world.server.messages(inChat: 100).last?.text == "answers lost")
        #expect(world.view("alice").chunkStores[100]?.messages.last?.text == "answers lost")
    }
}

