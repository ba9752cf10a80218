import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Records, after every event of one client, whether a text the user sent is on its screen: as a local echo in the
/// open chat, or as a stored message among the visible ids.
private final class ScreenWatcher: TestWorldObserver {
    let client: String
    let text: String
    /// After each event once the text was first shown: whether it was on screen, and where.
    var samples: [(at: SimInstant, shown: Bool, asEcho: Bool)] = []

    init(client: String, text: String) {
        self.client = client
        self.text = text
    }

    func clientEventDidRun(
        _ name: String, actions: [ClientAction], view: () -> ClientView, server: SyncServer, at now: SimInstant
    ) {
        guard name == client else { return }
        let view = view()
        guard let chatId = view.openChatId else { return }
        let asEcho = view.localEchoes.contains { $0.chatId == chatId && $0.text == text }
        let store = view.chunkStores[chatId]
        let asMessage = view.visibleMessageIds.contains { store?.message(id: $0)?.text == text }
        if asEcho || asMessage || !samples.isEmpty { samples.append((now, asEcho || asMessage, asEcho)) }
    }
}

/// The open chat's screen: what the user sees across acks, pushes and reconnects.
@Suite struct ReferenceClientScreenTests {
    private func makeWorld(history: Int, observer: (any TestWorldObserver)? = nil,
                           alice: ((inout ClientParameters) -> Void)? = nil) -> TestWorld {
        let world = TestWorld(observer: observer)
        world.addClient("alice", userId: 1, parameters: alice)
        world.server.addUser(id: 2, name: "bob", token: "token-bob")
        world.server.addChat(id: 100, members: [1, 2], now: world.now)
        world.server.seedHistory(chatId: 100, sender: 2, texts: (1...history).map { "old \($0)" }, now: world.now)
        return world
    }

    @Test("a sent message stays on screen from the send on: as echo, then stored in the visible chunk")
    func echoStaysOnScreen() throws {
        let watcher = ScreenWatcher(client: "alice", text: "mine")
        let world = makeWorld(history: 30, observer: watcher)
        world.start("alice")
        world.run(for: .seconds(Int64(3)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .sendText(chatId: 100, text: "mine"))
        world.run(for: .seconds(Int64(30)))
        #expect(watcher.samples.first?.asEcho == true)
        let offScreen = watcher.samples.filter { !$0.shown }.map(\.at)
        #expect(offScreen.isEmpty, "off screen at \(offScreen)")
        let view = world.view("alice")
        let sent = try #require(world.server.messages(inChat: 100).last)
        #expect(sent.text == "mine")
        // It ends inside the one chunk on screen, at the bottom, with the 19 before it.
        #expect(view.chunkStores[100]?.chunks == [Chunk(lower: 1, upper: sent.id, isStartOfHistory: true)])
        #expect(view.visibleMessageIds == Array((sent.id - 19)...sent.id))
    }

    @Test("a message pushed while the view shows the newest messages joins the screen once the page bridges it")
    func pushJoinsScreen() throws {
        let world = makeWorld(history: 30)
        world.start("alice")
        world.run(for: .seconds(Int64(3)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        world.deliverServerActions(world.server.post(chatId: 100, sender: 2, text: "live", now: world.now))
        world.run(for: .seconds(Int64(5)))
        let live = try #require(world.server.messages(inChat: 100).last)
        #expect(world.view("alice").visibleMessageIds.last == live.id)
    }

    @Test("after LOGIN the open chat moves to the newest page and scrolling up bridges the gap (C6)")
    func reconnectMovesToNewestPage() {
        let world = makeWorld(history: 3) { $0.historyPageSize = 5 }
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(3)))
        world.setReachable("alice", false)
        for n in 1...6 {
            _ = world.server.post(chatId: 100, sender: 2, text: "while away \(n)", now: world.now)
            world.run(for: .seconds(Int64(2)))
        }
        world.run(for: .seconds(Int64(8)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(35)))
        #expect(world.view("alice").visibleMessageIds.last == 9)
        world.user("alice", .scrollUp(messages: 20))
        world.run(for: .seconds(Int64(10)))
        let store = world.view("alice").chunkStores[100]!
        #expect(store.chunks == [Chunk(lower: 1, upper: 9, isStartOfHistory: true)])
        #expect(store.messageIds == Array(1...9))
    }
}
