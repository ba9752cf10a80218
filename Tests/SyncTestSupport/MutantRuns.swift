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

    /// A server whose history pages show edits and deletes only after 10 minutes (a lagging read replica).
    public static var laggingReplica: ServerKnobs {
        var knobs = ServerKnobs()
        knobs.historyEditLag = .seconds(Int64(600))
        return knobs
    }

    /// Alice opens chat 100 (caching its newest page); Bob's other device deletes the 5th message and edits the
    /// 10th, neither cached by Alice, whose pushes reach her first; then she scrolls to the top, and the lagging
    /// replica serves both in their old versions (`removal-before-message-lost`).
    /// - Returns: the ids of the deleted and the edited message.
    public static func changesBeforeMessages(_ world: TestWorld) -> (deleted: Int64, edited: Int64) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        let history = world.server.messages(inChat: 100)
        let deleted = history[4].id
        let edited = history[9].id
        world.deliverServerActions(world.server.delete(chatId: 100, messageId: deleted, deleter: 2, now: world.now))
        world.deliverServerActions(
            world.server.edit(chatId: 100, messageId: edited, editor: 2, text: "edited early", now: world.now))
        world.run(for: .seconds(Int64(1)))
        scrollToTop(world, "alice")
        world.run(for: .seconds(Int64(5)))
        return (deleted, edited)
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

    /// Alice, with 16 seq slots, sends 30 photos at once (`seq-reuse-inflight`), their uploads all running together
    /// (one at a time, the default, would leave most seqs free).
    public static func sixteenSeqs(_ parameters: inout ClientParameters) {
        parameters.seqModulus = 16
        parameters.maxConcurrentUploads = 30
    }

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

    /// Alice's chat 100 gets 40 messages while she is offline (no pushes); after her LOGIN opened the gap, Bob posts
    /// a live message (`catch-up-from-live-push`).
    public static func livePushAfterGap(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.setReachable("alice", false)
        world.server.seedHistory(chatId: 100, sender: 2, texts: (1...40).map { "gap \($0)" }, now: world.now)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(30)))
        world.deliverServerActions(world.server.post(chatId: 100, sender: 2, text: "live", now: world.now))
        world.run(for: .seconds(Int64(5)))
    }

    /// The server knobs that make a MSG_SEND outlast the 20 s request timeout by 2 s (`duplicate-is-failure`).
    public static let sendsJustTooSlow = ServerKnobs(processingDelay: [.msgSend: .fixed(.seconds(Int64(22)))])

    /// With `sendsJustTooSlow` until the first send is stored, Alice's send times out; its retry (same cid, at least
    /// 5 s later with `slowRetries`) is answered "already exists" (`duplicate-is-failure`).
    public static func retryAnsweredDuplicate(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "once"))
        world.run(for: .seconds(Int64(23)))
        world.server.knobs = ServerKnobs()
        world.run(for: .seconds(Int64(150)))
    }

    /// Retries 10 s doubling (each drawn in [d/2, d]) and at most 3 attempts (`duplicate-is-failure`); set on
    /// `makeWorld`.
    public static func slowRetries(_ parameters: inout ClientParameters) {
        parameters.taskRetryBase = .seconds(Int64(10))
        parameters.maxTaskAttempts = 3
    }

    /// Alice starts offline, writes "a" and "b", relaunches the app still offline, then the network returns
    /// (`outbox-in-memory-while-offline`).
    public static func offlineSendsThenRelaunch(_ world: TestWorld) {
        world.setReachable("alice", false)
        world.start("alice")
        world.user("alice", .sendText(chatId: 100, text: "a"))
        world.user("alice", .sendText(chatId: 100, text: "b"))
        world.run(for: .seconds(Int64(1)))
        world.restartApp("alice")
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(90)))
    }

    /// Alice sends one message with three 50 kB photos (`send-before-all-uploads`).
    public static func threePhotoMessage(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendPhotos(chatId: 100, count: 3, sizeBytes: 50_000, caption: "trip"))
        world.run(for: .seconds(Int64(60)))
    }

    /// The server knobs that answer every MSG_SEND at once with an error for the first 60 s (`retry-without-backoff`).
    public static let failingSends = {
        var knobs = ServerKnobs()
        knobs.failingPeriods = [.init(opcode: .msgSend, start: .start, end: .start + .seconds(Int64(60)))]
        return knobs
    }()

    /// Alice sends "patient" while MSG_SEND fails, and waits until well after it works again.
    public static func sendDuringFailures(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "patient"))
        world.run(for: .seconds(Int64(180)))
    }

    /// How many MSG_SENDs Alice sent.
    public static func msgSendCount(_ world: TestWorld) -> Int {
        world.sentRequests.filter { $0.0 == "alice" && $0.1.opcode == .msgSend }.count
    }

    /// Alice's device clock runs 5 minutes slow (`own-message-device-time`); set on `makeWorld`.
    public static func deviceClockSlow(_ parameters: inout ClientParameters) {
        parameters.deviceEpochMilliseconds = 1_700_000_000_000 - 300_000
    }

    /// Alice opens chat 100, then chat 200, while their pages are slow at the server; her link resets (down 1 s)
    /// and the world runs 60 s more: the lost connection's replies may come on the new one (`repliesFollowDevice`).
    public static func openTwoChatsAcrossReset(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(200))
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(60)))
    }

    /// Alice sends "mine" and Bob's reply arrives.
    public static func sendAndReply(_ world: TestWorld) {
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "mine"))
        world.run(for: .seconds(Int64(2)))
        world.deliverServerActions(world.server.post(chatId: 100, sender: 2, text: "reply", now: world.now))
        world.run(for: .seconds(Int64(5)))
    }
}
