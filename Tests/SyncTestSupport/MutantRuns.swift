import SimCore
import SyncClient
import SyncServer

/// The focused runs that make each engine mutant misbehave, shared by the engine's mutant tests (which assert
/// what the user would see) and the checker's (which assert the invariant the mutant table in docs/models.md names).
///
/// Alice (1) and Bob (2) share chat 100 with `history` messages from Bob; Alice and Carol (3, no client) share
/// chat 200. Mutants apply to Alice only.
public enum MutantRuns {
    /// The world of every focused run; no app started yet.
    /// - Parameters:
    ///   - mutant: alice's engine mutant, nil for the reference engine.
    ///   - knobs: the server's knobs.
    ///   - history: how many messages chat 100 starts with (at least 1).
    ///   - observer: the world's observer (default: a `ChunkStoreTrap`).
    ///   - alice: further changes to alice's parameters.
    public static func makeWorld(
        mutant: Mutant? = nil, knobs: ServerKnobs = ServerKnobs(), history: Int = 100,
        observer: (any TestWorldObserver)? = ChunkStoreTrap(), alice: ((inout ClientParameters) -> Void)? = nil
    ) -> TestWorld {
        let world = TestWorld(knobs: knobs, observer: observer)
        world.addClient("alice", userId: 1) { p in
            p.mutant = mutant
            alice?(&p)
        }
        world.addClient("bob", userId: 2)
        world.server.addUser(id: 3, name: "carol", token: "token-carol")
        world.server.addChat(id: 100, members: [1, 2], now: world.now)
        world.server.addChat(id: 200, members: [1, 3], now: world.now)
        world.server.seedHistory(chatId: 100, sender: 2, texts: (1...max(1, history)).map { "old \($0)" },
                                 now: world.now)
        return world
    }

    /// Scrolls up by 20 messages `steps` times, a second apart.
    public static func scrollToTop(_ world: TestWorld, _ client: String, steps: Int = 12) {
        for _ in 0..<steps {
            world.user(client, .scrollUp(messages: 20))
            world.run(for: .seconds(Int64(1)))
        }
    }

    /// Alice caches chat 100's newest page, goes offline while 50 messages arrive, and logs in again: the LOGIN
    /// entry's last message is unknown, with a gap below it (`gap-ignored-after-login`).
    public static func gapAfterLogin(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .closeChat)
        world.setReachable("alice", false)
        world.server.seedHistory(chatId: 100, sender: 2, texts: (1...50).map { "gap \($0)" }, now: world.now)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(30)))
    }

    /// `gapAfterLogin`, then Alice opens chat 100 and scrolls across the gap to the top (`merge-skips-bridge`).
    public static func scrollAcrossGap(_ world: TestWorld) {
        gapAfterLogin(world)
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(1)))
        scrollToTop(world, "alice")
    }

    /// A post to chat 200 whose push is lost, then a pushed post to chat 100, then a reconnect
    /// (`since-from-newest-push`).
    /// - Returns: the actions of the lost post (none).
    @discardableResult
    public static func lostPushThenReconnect(_ world: TestWorld) -> [ServerAction] {
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        world.server.knobs.pushLossProbability = 1
        let lost = world.server.post(chatId: 200, sender: 3, text: "lost push", now: world.now)
        world.server.knobs.pushLossProbability = 0
        world.run(for: .seconds(Int64(1)))
        world.deliverServerActions(world.server.post(chatId: 100, sender: 2, text: "pushed", now: world.now))
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(30)))
        return lost
    }

    /// Alice's device clock runs an hour ahead of the server (`since-from-device-clock`); set on `makeWorld`.
    public static func deviceClockAhead(_ parameters: inout ClientParameters) {
        parameters.deviceEpochMilliseconds = 1_700_000_000_000 + 3_600_000
    }

    /// Chat 200 changes while Alice is offline, then she reconnects (`since-from-device-clock`).
    public static func changeWhileOffline(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        world.setReachable("alice", false)
        _ = world.server.post(chatId: 200, sender: 3, text: "while offline", now: world.now)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(30)))
    }

    /// The server knobs that make a MSG_SEND outlast the 20 s request timeout (`resend-new-cid`).
    public static let slowSends = ServerKnobs(processingDelay: [.msgSend: .fixed(.seconds(Int64(25)))])

    /// With `slowSends`, Alice sends "once", which times out and is retried after the server is fast again.
    public static func sendTimesOut(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "once"))
        world.run(for: .seconds(Int64(21)))
        world.server.knobs = ServerKnobs()
        world.run(for: .seconds(Int64(60)))
    }

    /// The server knobs that answer sends out of order (`parallel-sends`): delays uniform in 0–3 s.
    public static let reorderingSends = ServerKnobs(processingDelay: [.msgSend: .uniform(.zero, .seconds(Int64(3)))])

    /// Alice sends "s1" ... "s8" at once.
    public static func eightSends(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        for n in 1...8 { world.user("alice", .sendText(chatId: 100, text: "s\(n)")) }
        world.run(for: .seconds(Int64(60)))
    }

    /// The server knobs that refuse every LOGIN (`backoff-reset-on-connect`).
    public static let failingLogins = ServerKnobs(errorRate: [.login: 1])

    /// Alice's app runs for 120 s.
    public static func runTwoMinutes(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(120)))
    }

    /// Alice, with 16 seq slots, sends 30 photos at once (`seq-reuse-inflight`).
    public static func sixteenSeqs(_ parameters: inout ClientParameters) { parameters.seqModulus = 16 }

    /// Alice sends photos "p1" ... "p30" at once.
    public static func thirtyPhotos(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        for n in 1...30 { world.user("alice", .sendPhoto(chatId: 100, sizeBytes: 100, caption: "p\(n)")) }
        world.run(for: .seconds(Int64(120)))
    }

    /// The server knobs that keep a send in flight for 2 s (`inflight-dropped-on-disconnect`).
    public static let sendsInFlight = ServerKnobs(processingDelay: [.msgSend: .fixed(.seconds(Int64(2)))])

    /// Alice sends "in flight" and loses her network while it is in flight, then gets it back.
    public static func disconnectWhileSending(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "in flight"))
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(90)))
    }
}
