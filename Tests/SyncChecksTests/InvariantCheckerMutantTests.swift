import SimCore
import SyncChecks
import SyncProtocol
import SyncServer
import Testing
@testable import SyncClient

/// Alice (1) and Bob (2) share chat 100; Alice and Carol (3) share chat 200. Chat 100 has `history` messages.
private func makeWorld(
    mutant: Mutant? = nil, knobs: ServerKnobs = ServerKnobs(), history: Int = 100,
    alice: ((inout ClientParameters) -> Void)? = nil
) -> CheckedWorld {
    let world = CheckedWorld(knobs: knobs)
    world.addClient("alice", userId: 1) { p in
        p.mutant = mutant
        alice?(&p)
    }
    world.addClient("bob", userId: 2)
    world.server.addUser(id: 3, name: "carol", token: "token-carol")
    world.server.addChat(id: 100, members: [1, 2], now: world.now)
    world.server.addChat(id: 200, members: [1, 3], now: world.now)
    world.server.seedHistory(chatId: 100, sender: 2, texts: (1...max(1, history)).map { "old \($0)" }, now: world.now)
    return world
}

private func scrollToTop(_ world: CheckedWorld, _ client: String, steps: Int = 12) {
    for _ in 0..<steps {
        world.user(client, .scrollUp(messages: 20))
        world.run(for: .seconds(Int64(1)))
    }
}

/// The reference engine yields no finding; `mutant` yields at least one of `expected` (the README's mutant table).
private func expectVerdict(_ world: CheckedWorld, mutant: Mutant?, expected: [InvariantID]) {
    if mutant == nil {
        #expect(world.findings == [], "reference engine: \(world.findings.map(\.description))")
    } else {
        let broken = world.brokenInvariants
        #expect(expected.contains { broken.contains($0) },
                "\(mutant!.rawValue): expected one of \(expected), found \(world.findings.map(\.description))")
    }
}

/// Each mutant of the reference engine, run through a focused world with every checker on, breaks the invariant
/// the README's mutant table names; the reference engine in the same run breaks none.
@Suite struct InvariantCheckerMutantTests {
    @Test("two clients reading and sending converge with no finding, C6 and V1 included") func referenceConverges() {
        let world = makeWorld()
        world.start("alice")
        world.start("bob")
        world.run(for: .seconds(Int64(2)))
        world.user("bob", .openChat(100))
        for n in 1...5 {
            world.user("alice", .sendText(chatId: 100, text: "new \(n)"))
            world.user("alice", .sendPhoto(chatId: 100, sizeBytes: 2_000, caption: "photo \(n)"))
            world.user("bob", .scrollUp(messages: 15))
            world.run(for: .milliseconds(700))
        }
        scrollToTop(world, "bob")
        world.run(for: .seconds(Int64(30)))
        world.checker.checkScrolledToTop(client: "bob", chatId: 100, view: world.view("bob"), server: world.server,
                                         at: world.now)
        world.checkEndOfRun(["alice", "bob"])
        #expect(world.findings == [], "\(world.findings.map(\.description))")
    }

    @Test("gap-ignored-after-login breaks C2", arguments: [nil, Mutant.gapIgnoredAfterLogin])
    func gapIgnoredAfterLogin(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
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
        expectVerdict(world, mutant: mutant, expected: [.C2])
    }

    @Test("merge-skips-bridge breaks C2", arguments: [nil, Mutant.mergeSkipsBridge])
    func mergeSkipsBridge(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
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
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(1)))
        scrollToTop(world, "alice")
        world.checker.checkScrolledToTop(client: "alice", chatId: 100, view: world.view("alice"),
                                         server: world.server, at: world.now)
        expectVerdict(world, mutant: mutant, expected: [.C2])
    }

    @Test("since-from-newest-push breaks V1 (a lost push is never listed)",
          arguments: [nil, Mutant.sinceFromNewestPush])
    func sinceFromNewestPush(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        world.server.knobs.pushLossProbability = 1
        _ = world.server.post(chatId: 200, sender: 3, text: "lost push", now: world.now)
        world.server.knobs.pushLossProbability = 0
        world.run(for: .seconds(Int64(1)))
        world.deliverServerActions(world.server.post(chatId: 100, sender: 2, text: "pushed", now: world.now))
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(30)))
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.V1])
        if mutant != nil { #expect(world.brokenInvariants.contains(.V1)) }
    }

    @Test("since-from-device-clock breaks P4 and V1", arguments: [nil, Mutant.sinceFromDeviceClock])
    func sinceFromDeviceClock(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant) { p in p.deviceEpochMilliseconds = 1_700_000_000_000 + 3_600_000 }
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        world.setReachable("alice", false)
        _ = world.server.post(chatId: 200, sender: 3, text: "while offline", now: world.now)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(30)))
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.P4])
        if mutant != nil { #expect(world.brokenInvariants.contains(.V1)) }
    }

    @Test("resend-new-cid breaks T2", arguments: [nil, Mutant.resendNewCid])
    func resendNewCid(mutant: Mutant?) {
        let slow = ServerKnobs(processingDelay: [.msgSend: .fixed(.seconds(Int64(25)))])
        let world = makeWorld(mutant: mutant, knobs: slow)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "once"))
        world.run(for: .seconds(Int64(21)))
        world.server.knobs = ServerKnobs()
        world.run(for: .seconds(Int64(60)))
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.T2])
    }

    @Test("parallel-sends breaks T4", arguments: [nil, Mutant.parallelSends])
    func parallelSends(mutant: Mutant?) {
        let delay = DelayDistribution.uniform(.zero, .seconds(Int64(3)))
        let world = makeWorld(mutant: mutant, knobs: ServerKnobs(processingDelay: [.msgSend: delay]))
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        for n in 1...8 { world.user("alice", .sendText(chatId: 100, text: "s\(n)")) }
        world.run(for: .seconds(Int64(60)))
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.T4])
    }

    @Test("tasks-not-persisted breaks T1 and T6", arguments: [nil, Mutant.tasksNotPersisted])
    func tasksNotPersisted(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
        world.setReachable("alice", false)
        world.start("alice")
        world.user("alice", .sendText(chatId: 100, text: "a"))
        world.user("alice", .sendPhoto(chatId: 100, sizeBytes: 5_000, caption: "b"))
        world.run(for: .seconds(Int64(1)))
        world.restartApp("alice", crash: true)
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(90)))
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.T1, .T6])
        if mutant != nil { #expect(world.brokenInvariants.contains(.T6)) }
    }

    @Test("backoff-reset-on-connect breaks no invariant but storms the server with reconnects",
          arguments: [nil, Mutant.backoffResetOnConnect])
    func backoffResetOnConnect(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant, knobs: ServerKnobs(errorRate: [.login: 1]))
        world.start("alice")
        world.run(for: .seconds(Int64(120)))
        // The README's table names a reconnect-count bound (a scenario metric), not a §8 invariant.
        #expect(world.findings == [], "\(world.findings.map(\.description))")
        let attempts = world.connectAttempts.filter { $0.0 == "alice" }.count
        #expect((attempts < 15) == (mutant == nil), "\(attempts) connection attempts")
    }

    @Test("seq-reuse-inflight breaks P2 and P1", arguments: [nil, Mutant.seqReuseInflight])
    func seqReuseInflight(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant) { p in p.seqModulus = 16 }
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        for n in 1...30 { world.user("alice", .sendPhoto(chatId: 100, sizeBytes: 100, caption: "p\(n)")) }
        world.run(for: .seconds(Int64(120)))
        expectVerdict(world, mutant: mutant, expected: [.P2])
        if mutant != nil { #expect(world.brokenInvariants.contains(.P1)) }
    }

    @Test("inflight-dropped-on-disconnect breaks P3 and T5", arguments: [nil, Mutant.inflightDroppedOnDisconnect])
    func inflightDropped(mutant: Mutant?) {
        let slow = ServerKnobs(processingDelay: [.msgSend: .fixed(.seconds(Int64(2)))])
        let world = makeWorld(mutant: mutant, knobs: slow)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendText(chatId: 100, text: "in flight"))
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(90)))
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.P3])
        if mutant != nil { #expect(world.brokenInvariants.contains(.T5)) }
    }

    @Test("sampling every 7th event still catches a mutant; restarts are always checked")
    func sampling() {
        let world = CheckedWorld(options: CheckOptions(sampling: 7))
        world.addClient("alice", userId: 1) { p in p.mutant = .tasksNotPersisted }
        world.server.addChat(id: 100, members: [1], now: world.now)
        world.setReachable("alice", false)
        world.start("alice")
        world.user("alice", .sendText(chatId: 100, text: "a"))
        world.run(for: .seconds(Int64(1)))
        world.restartApp("alice")
        world.run(for: .seconds(Int64(1)))
        #expect(world.brokenInvariants.contains(.T6))
    }
}
