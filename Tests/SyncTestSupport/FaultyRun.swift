import SimCore
import SyncClient
import SyncServer

/// The randomized fault run both the engine's and the checker's fault suites drive: alice (1) and bob (2) share
/// chat 100 (80 old messages from bob) on a server with slow responses, lost and duplicated pushes and error
/// replies, while the clients send, scroll, lose their network, go half-open and restart, and the server restarts.
public enum FaultyRun {
    /// The two clients, in the order the run picks them.
    public static let clientNames = ["alice", "bob"]

    /// The faulty server: exponential processing delays (mean 3 s), 20% push loss and duplication, error replies.
    public static let knobs = ServerKnobs(
        defaultProcessingDelay: .exponential(mean: .seconds(Int64(3))),
        pushLossProbability: 0.2, pushDuplicationProbability: 0.2,
        errorRate: [.msgSend: 0.1, .chatHistory: 0.1, .photoUpload: 0.1, .login: 0.1, .sessionInit: 0.05])

    /// A world with the faulty server, both clients and chat 100; no app started yet.
    /// - Parameters:
    ///   - seed: the server's random stream (the run's steps draw from `drive`'s seed).
    ///   - observer: the world's observer (default: a `ChunkStoreTrap`).
    ///   - alice: changes to alice's parameters.
    public static func makeWorld(
        seed: UInt64, observer: (any TestWorldObserver)? = ChunkStoreTrap(),
        alice: ((inout ClientParameters) -> Void)? = nil
    ) -> TestWorld {
        let world = TestWorld(knobs: knobs, seed: seed, observer: observer)
        world.addClient("alice", userId: 1, parameters: alice)
        world.addClient("bob", userId: 2)
        world.server.addChat(id: 100, members: [1, 2], now: world.now)
        world.server.seedHistory(chatId: 100, sender: 2, texts: (1...80).map { "old \($0)" }, now: world.now)
        return world
    }

    /// Starts both apps, runs 120 random steps, then turns the faults off, waits 300 s and has each client open
    /// chat 100 and scroll to its top.
    /// - Parameters:
    ///   - world: a world from `makeWorld`.
    ///   - seed: the steps' random stream.
    ///   - didEnqueue: told each send as (client, text), in enqueue order.
    ///   - didScrollToTop: told each client once it scrolled to the top.
    public static func drive(
        _ world: TestWorld, seed: UInt64, didEnqueue: (String, String) -> Void = { _, _ in },
        didScrollToTop: (String) -> Void = { _ in }
    ) {
        let names = clientNames
        names.forEach(world.start)
        var rng = SeededGenerator(seed: seed)
        for step in 0..<120 {
            let name = names[Int(rng.next() % 2)]
            switch rng.next() % 10 {
            case 0, 1, 2:
                let text = "\(name) \(step)"
                didEnqueue(name, text)
                world.user(name, .sendText(chatId: 100, text: text))
            case 3:
                let text = "\(name) photo \(step)"
                didEnqueue(name, text)
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
            didScrollToTop(name)
        }
    }
}
