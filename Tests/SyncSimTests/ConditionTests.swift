import Testing
@testable import SyncSim

/// A fixed world for conditions: one chat on the server, a cache per client.
private struct FakeWorld: WorldProbe {
    var now = SimInstant.start
    var server: [String: [ChatMessage]] = [:]
    var cache: [String: [ChatMessage]] = [:]
    var chunks: [String: Int] = [:]
    var pending: [String: Int] = [:]
    var hasConverged = false
    var clientNames = ["alice", "bob"]

    func serverMessages(in chat: String) -> [ChatMessage] { server[chat] ?? [] }
    func cachedMessages(of client: String, in chat: String) -> [ChatMessage] { cache[client + "/" + chat] ?? [] }
    func chunkCount(of client: String, in chat: String) -> Int { chunks[client + "/" + chat] ?? 0 }
    func pendingTaskCount(of client: String) -> Int { pending[client] ?? 0 }
    func isLoggedIn(_ client: String) -> Bool { client == "alice" }
}

private func message(_ id: Int64, _ text: String) -> ChatMessage {
    ChatMessage(id: id, time: id * 1_000, sender: 1, text: text)
}

@Suite struct ConditionTests {
    private let world = FakeWorld(
        server: ["a+b": [message(1, "A"), message(2, "x"), message(3, "B")]],
        cache: ["alice/a+b": [message(1, "A"), message(2, "x"), message(3, "B")]],
        chunks: ["alice/a+b": 1, "bob/a+b": 2],
        pending: ["bob": 1]
    )

    @Test("data conditions read the world", arguments: [
        (Condition.serverMessageCount(chat: "a+b", count: 3), true),
        (.serverMessageCount(chat: "a+b", count: 2), false),
        (.serverTexts(chat: "a+b", texts: ["A", "x", "B"]), true),
        (.serverOrder(chat: "a+b", texts: ["A", "B"]), true),
        (.serverOrder(chat: "a+b", texts: ["B", "A"]), false),
        (.serverOrder(chat: "a+b", texts: ["A", "C"]), false),
        (.queueDrained(client: "alice"), true),
        (.allQueuesDrained, false),
        (.historyComplete(client: "alice", chat: "a+b"), true),
        (.historyComplete(client: "bob", chat: "a+b"), false),
        (.loggedIn(client: "bob"), false),
        (.converged, false),
    ])
    func dataConditions(condition: Condition, expected: Bool) {
        #expect(condition.isSatisfied(in: world) == expected, "\(condition)")
    }

    @Test("a custom condition runs its closure and reports its label")
    func custom() {
        let eventually = Eventually("bob has work", within: .seconds(5)) { $0.pendingTaskCount(of: "bob") > 0 }
        #expect(eventually.condition.isSatisfied(in: world))
        #expect(eventually.condition.description == "bob has work")
    }
}

/// A world whose screens and read marks are set by the test.
private struct ScreenWorld: WorldProbe {
    var now = SimInstant.start
    var hasConverged = true
    var clientNames = ["alice"]
    var screens: [String: ClientScreen] = [:]
    var marks: [String: Int64] = [:]

    func serverMessages(in chat: String) -> [ChatMessage] { [message(1, "A"), message(2, "mine")] }
    func cachedMessages(of client: String, in chat: String) -> [ChatMessage] { [message(1, "A"), message(2, "mine")] }
    func chunkCount(of client: String, in chat: String) -> Int { 1 }
    func pendingTaskCount(of client: String) -> Int { 0 }
    func isLoggedIn(_ client: String) -> Bool { true }
    func screen(of client: String) -> ClientScreen { screens[client] ?? ClientScreen() }
    func readMark(of client: String, in chat: String) -> Int64? { marks[client + "/" + chat] }
}

@Suite struct ScreenConditionTests {
    @Test("textOnScreen holds for an echo in the open chat or a visible message, not for another chat's echo")
    func textOnScreen() {
        let condition = Condition.textOnScreen(client: "alice", chat: "a+b", text: "mine")
        let echo = ClientScreen.LocalEcho(chat: "a+b", cid: 7, text: "mine")
        let elsewhere = ClientScreen.LocalEcho(chat: "a+c", cid: 8, text: "mine")
        func world(_ screen: ClientScreen) -> ScreenWorld { ScreenWorld(screens: ["alice": screen]) }
        #expect(condition.isSatisfied(in: world(ClientScreen(openChat: "a+b", localEchoes: [echo]))))
        #expect(condition.isSatisfied(in: world(ClientScreen(openChat: "a+b", visibleMessageIds: [1, 2]))))
        #expect(!condition.isSatisfied(in: world(ClientScreen(openChat: "a+b", visibleMessageIds: [1]))))
        #expect(!condition.isSatisfied(in: world(ClientScreen(openChat: "a+b", localEchoes: [elsewhere]))))
        #expect(!condition.isSatisfied(in: world(ClientScreen(openChat: "a+c", localEchoes: [echo]))))
    }

    @Test("readUpToNewest compares the server's read mark with the newest message")
    func readMark() {
        let condition = Condition.readUpToNewest(client: "alice", chat: "a+b")
        #expect(condition.isSatisfied(in: ScreenWorld(marks: ["alice/a+b": 2])))
        #expect(!condition.isSatisfied(in: ScreenWorld(marks: ["alice/a+b": 1])))
        #expect(!condition.isSatisfied(in: ScreenWorld()))
    }
}

@Suite struct PhotosCompleteConditionTests {
    private func world(_ messages: [ChatMessage]) -> FakeWorld { FakeWorld(server: ["a+b": messages]) }

    private func photoMessage(_ id: Int64, _ caption: String, photos: Int) -> ChatMessage {
        var result = message(id, caption)
        result.attaches = (0..<photos).map { Attach.photo(token: "t\(id)-\($0)") }
        return result
    }

    @Test("photosComplete: every message with the caption carries the photo count; true while there is none")
    func photosComplete() {
        let condition = Condition.photosComplete(chat: "a+b", caption: "trip", photos: 3)
        #expect(condition.isSatisfied(in: world([message(1, "A")])))
        #expect(condition.isSatisfied(in: world([message(1, "A"), photoMessage(2, "trip", photos: 3)])))
        #expect(!condition.isSatisfied(in: world([photoMessage(2, "trip", photos: 1)])))
        #expect(!condition.isSatisfied(in: world([photoMessage(2, "trip", photos: 3), photoMessage(3, "trip", photos: 2)])))
        #expect(condition.clients == [] && condition.chat == "a+b")
        #expect(Scenario.conditionSource(condition) == #".photosComplete(chat: "a+b", caption: "trip", photos: 3)"#)
    }
}
