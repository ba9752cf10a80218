import SimCore
import SyncChecks
import SyncProtocol
import SyncServer
import Testing
@testable import SyncClient

/// Randomized runs of the reference engine against a faulty server and flaky reachability, every checker on:
/// the checkers must not cry wolf under slow and out-of-order responses, lost and duplicated pushes, error
/// replies, link drops, half-open links, app restarts, crashes and server restarts.
@Suite struct InvariantCheckerFaultTests {
    @Test("a faulty run of the reference engine yields no finding", arguments: Array(UInt64(1)...UInt64(8)))
    func faultyRun(seed: UInt64) {
        let knobs = ServerKnobs(
            defaultProcessingDelay: .exponential(mean: .seconds(Int64(3))),
            pushLossProbability: 0.2, pushDuplicationProbability: 0.2,
            errorRate: [.msgSend: 0.1, .chatHistory: 0.1, .photoUpload: 0.1, .login: 0.1, .sessionInit: 0.05])
        let world = CheckedWorld(knobs: knobs, seed: seed)
        let names = ["alice", "bob"]
        // 16 seq slots make alice wrap her seqs often: P1 and P2 must still hold.
        world.addClient("alice", userId: 1) { p in p.seqModulus = 16 }
        world.addClient("bob", userId: 2)
        world.server.addChat(id: 100, members: [1, 2], now: world.now)
        world.server.seedHistory(chatId: 100, sender: 2, texts: (1...80).map { "old \($0)" }, now: world.now)
        names.forEach(world.start)
        var rng = SeededGenerator(seed: seed)
        for step in 0..<120 {
            let name = names[Int(rng.next() % 2)]
            switch rng.next() % 10 {
            case 0, 1, 2: world.user(name, .sendText(chatId: 100, text: "\(name) \(step)"))
            case 3: world.user(name, .sendPhoto(chatId: 100, sizeBytes: 3_000, caption: "\(name) photo \(step)"))
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
            world.checker.checkScrolledToTop(client: name, chatId: 100, view: world.view(name), server: world.server,
                                             at: world.now)
        }
        world.checkEndOfRun(names)
        #expect(world.findings == [], "seed \(seed): \(world.findings.map(\.description))")
    }
}
