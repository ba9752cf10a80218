import SimCore
import SyncProtocol
import SyncServer
import Testing
@testable import SyncClient

/// Randomized end-to-end runs of the reference engine against a faulty server and flaky reachability.
@Suite struct ReferenceClientFaultTests {
    @Test("under slow responses, lost/duplicated pushes, errors, link drops, half-open links, restarts: it converges",
          arguments: Array(UInt64(1)...UInt64(6)))
    func faultyRun(seed: UInt64) {
        let knobs = ServerKnobs(
            defaultProcessingDelay: .exponential(mean: .seconds(Int64(3))),
            pushLossProbability: 0.2, pushDuplicationProbability: 0.2,
            errorRate: [.msgSend: 0.1, .chatHistory: 0.1, .photoUpload: 0.1, .login: 0.1, .sessionInit: 0.05])
        let world = TestWorld(knobs: knobs, seed: seed)
        let names = ["alice", "bob"]
        world.addClient("alice", userId: 1)
        world.addClient("bob", userId: 2)
        world.server.addChat(id: 100, members: [1, 2], now: world.now)
        world.server.seedHistory(chatId: 100, sender: 2, texts: (1...80).map { "old \($0)" }, now: world.now)
        names.forEach(world.start)
        var rng = SeededGenerator(seed: seed)
        var enqueued: [String: [String]] = [:]
        for step in 0..<120 {
            let name = names[Int(rng.next() % 2)]
            switch rng.next() % 10 {
            case 0, 1, 2:
                let text = "\(name) \(step)"
                enqueued[name, default: []].append(text)
                world.user(name, .sendText(chatId: 100, text: text))
            case 3:
                let text = "\(name) photo \(step)"
                enqueued[name, default: []].append(text)
                world.user(name, .sendPhoto(chatId: 100, sizeBytes: 3_000, caption: text))
            case 4: world.user(name, .openChat(100))
            case 5, 6: world.user(name, .scrollUp(messages: Int(rng.next() % 40)))
            case 7: world.setReachable(name, rng.next() % 3 != 0)
            case 8:
                switch rng.next() % 6 {
                case 0: world.restartApp(name)
                case 1: world.restartServer()
                case 2: world.makeHalfOpen(name)
                case 3: world.restartApp(name, crash: true)
                default: break
                }
            default: world.user(name, .scrollDown(messages: 10))
            }
            world.run(for: .milliseconds(Int64(rng.next() % 1_500)))
        }
        world.server.knobs = ServerKnobs()
        for name in names { world.setReachable(name, true) }
        world.run(for: .seconds(Int64(300)))
        for name in names {
            world.user(name, .openChat(100))
            world.run(for: .seconds(Int64(2)))
            for _ in 0..<10 {
                world.user(name, .scrollUp(messages: 30))
                world.run(for: .seconds(Int64(2)))
            }
        }
        let server = world.server.messages(inChat: 100)
        for (index, name) in names.enumerated() {
            let sent = server.filter { $0.sender == Int64(index + 1) }.map(\.text)
            #expect(sent == (index == 1 ? (1...80).map { "old \($0)" } : []) + (enqueued[name] ?? []), "seed \(seed)")
            let view = world.view(name)
            let unfinished = view.tasks.filter { $0.state != .done }
            #expect(unfinished.isEmpty, "seed \(seed) \(name): \(unfinished)")
            let store = view.chunkStores[100]!
            #expect(store.chunks.count == 1, "seed \(seed) \(name): \(store.chunks)")
            #expect(store.messages == server, "seed \(seed) \(name)")
            #expect(view.lastSyncMilliseconds <= world.server.serverTimeMilliseconds(at: world.now))
        }
    }
}
