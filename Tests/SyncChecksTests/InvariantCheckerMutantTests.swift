import SimCore
import SyncChecks
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// The focused world of `MutantRuns` with every checker on.
private func makeWorld(
    mutant: Mutant? = nil, knobs: ServerKnobs = ServerKnobs(), alice: ((inout ClientParameters) -> Void)? = nil
) -> TestWorld {
    MutantRuns.makeWorld(mutant: mutant, knobs: knobs, observer: InvariantChecker(), alice: alice)
}

/// The reference engine yields no finding; `mutant` yields at least one of `expected` (the mutant table in docs/models.md).
private func expectVerdict(_ world: TestWorld, mutant: Mutant?, expected: [InvariantID]) {
    if mutant == nil {
        #expect(world.findings == [], "reference engine: \(world.findings.map(\.description))")
    } else {
        let broken = world.brokenInvariants
        #expect(expected.contains { broken.contains($0) },
                "\(mutant!.rawValue): expected one of \(expected), found \(world.findings.map(\.description))")
    }
}

/// Each mutant of the reference engine, run through a focused world with every checker on, breaks the invariant
/// the mutant table in docs/models.md names; the reference engine in the same run breaks none.
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
        MutantRuns.scrollToTop(world, "bob")
        world.run(for: .seconds(Int64(30)))
        world.checkScrolledToTop("bob", chatId: 100)
        world.checkEndOfRun(["alice", "bob"])
        #expect(world.findings == [], "\(world.findings.map(\.description))")
    }

    @Test("gap-ignored-after-login breaks C2", arguments: [nil, Mutant.gapIgnoredAfterLogin])
    func gapIgnoredAfterLogin(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
        MutantRuns.gapAfterLogin(world)
        expectVerdict(world, mutant: mutant, expected: [.C2])
    }

    @Test("merge-skips-bridge breaks C2", arguments: [nil, Mutant.mergeSkipsBridge])
    func mergeSkipsBridge(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
        MutantRuns.scrollAcrossGap(world)
        world.checkScrolledToTop("alice", chatId: 100)
        expectVerdict(world, mutant: mutant, expected: [.C2])
    }

    @Test("since-from-newest-push breaks V1 (a lost push is never listed)",
          arguments: [nil, Mutant.sinceFromNewestPush])
    func sinceFromNewestPush(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
        MutantRuns.lostPushThenReconnect(world)
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.V1])
        if mutant != nil { #expect(world.brokenInvariants.contains(.V1)) }
    }

    @Test("since-from-device-clock breaks P4 and V1", arguments: [nil, Mutant.sinceFromDeviceClock])
    func sinceFromDeviceClock(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant, alice: MutantRuns.deviceClockAhead)
        MutantRuns.changeWhileOffline(world)
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.P4])
        if mutant != nil { #expect(world.brokenInvariants.contains(.V1)) }
    }

    @Test("resend-new-cid breaks T2", arguments: [nil, Mutant.resendNewCid])
    func resendNewCid(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant, knobs: MutantRuns.slowSends)
        MutantRuns.sendTimesOut(world)
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.T2])
        // Each message names the one cid it was stored under, so two messages never list three cids together.
        for finding in world.findings where finding.invariant == .T2 {
            let pattern = /messages \d+ \(cid \d+\), \d+ \(cid \d+\)(; the task's cids? [\d, ]+ stored none)?/
            #expect(finding.found.wholeMatch(of: pattern) != nil, "\(finding.found)")
        }
    }

    @Test("parallel-sends breaks T4", arguments: [nil, Mutant.parallelSends])
    func parallelSends(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant, knobs: MutantRuns.reorderingSends)
        MutantRuns.eightSends(world)
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
        let world = makeWorld(mutant: mutant, knobs: MutantRuns.failingLogins)
        MutantRuns.runTwoMinutes(world)
        // The mutant table in docs/models.md names a reconnect-count bound (a scenario metric), not a §8 invariant.
        #expect(world.findings == [], "\(world.findings.map(\.description))")
        let attempts = world.connectAttempts.filter { $0.0 == "alice" }.count
        #expect((attempts < 15) == (mutant == nil), "\(attempts) connection attempts")
    }

    @Test("seq-reuse-inflight breaks P2 and P1", arguments: [nil, Mutant.seqReuseInflight])
    func seqReuseInflight(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant, alice: MutantRuns.sixteenSeqs)
        MutantRuns.thirtyPhotos(world)
        expectVerdict(world, mutant: mutant, expected: [.P2])
        if mutant != nil { #expect(world.brokenInvariants.contains(.P1)) }
    }

    @Test("inflight-dropped-on-disconnect breaks P3 and T5", arguments: [nil, Mutant.inflightDroppedOnDisconnect])
    func inflightDropped(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant, knobs: MutantRuns.sendsInFlight)
        MutantRuns.disconnectWhileSending(world)
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.P3])
        if mutant != nil { #expect(world.brokenInvariants.contains(.T5)) }
    }

    @Test("catch-up-from-live-push breaks C2", arguments: [nil, Mutant.catchUpFromLivePush])
    func catchUpFromLivePush(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
        MutantRuns.livePushAfterGap(world)
        expectVerdict(world, mutant: mutant, expected: [.C2])
    }

    // A send that fails for good asks the chat's newest page (explore seed 7351), so the mutant's delivered message
    // reaches the cache and V1 holds: only the task's state (the catalog's tasksFailed bound) shows the defect.
    @Test("duplicate-is-failure fails a delivered send (the tasksFailed metric bound); the newest page still shows it",
          arguments: [nil, Mutant.duplicateIsFailure])
    func duplicateIsFailure(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant, knobs: MutantRuns.sendsJustTooSlow, alice: MutantRuns.slowRetries)
        MutantRuns.retryAnsweredDuplicate(world)
        world.checkEndOfRun(["alice"])
        #expect(world.findings == [], "\(world.findings.map(\.description))")
        #expect(world.view("alice").tasks.contains { $0.state == .failed } == (mutant != nil))
    }

    @Test("outbox-in-memory-while-offline breaks T6 and T1", arguments: [nil, Mutant.outboxInMemoryWhileOffline])
    func outboxInMemoryWhileOffline(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
        MutantRuns.offlineSendsThenRelaunch(world)
        world.checkEndOfRun(["alice"])
        expectVerdict(world, mutant: mutant, expected: [.T6, .T1])
    }

    @Test("send-before-all-uploads breaks no invariant but sends a message short of photos",
          arguments: [nil, Mutant.sendBeforeAllUploads])
    func sendBeforeAllUploads(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant)
        MutantRuns.threePhotoMessage(world)
        world.checkEndOfRun(["alice"])
        #expect(world.findings == [], "\(world.findings.map(\.description))")
        let photos = world.server.messages(inChat: 100).first { $0.sender == 1 }?.attaches?.count
        #expect((photos == 3) == (mutant == nil))
    }

    @Test("retry-without-backoff breaks no invariant but storms the server (the requests metric bound)",
          arguments: [nil, Mutant.retryWithoutBackoff])
    func retryWithoutBackoff(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant, knobs: MutantRuns.failingSends)
        MutantRuns.sendDuringFailures(world)
        world.checkEndOfRun(["alice"])
        #expect(world.findings == [], "\(world.findings.map(\.description))")
        #expect((MutantRuns.msgSendCount(world) <= 9) == (mutant == nil))
    }

    @Test("own-message-device-time breaks C3", arguments: [nil, Mutant.ownMessageDeviceTime])
    func ownMessageDeviceTime(mutant: Mutant?) {
        let world = makeWorld(mutant: mutant, alice: MutantRuns.deviceClockSlow)
        MutantRuns.sendAndReply(world)
        expectVerdict(world, mutant: mutant, expected: [.C3])
    }

    @Test("server-no-liveness keeps a silently dead connection open; the reference server closes it within 50 s",
          arguments: [false, true])
    func serverNoLiveness(mutant: Bool) {
        var knobs = ServerKnobs()
        knobs.replacesOlderSessions = false
        if mutant { knobs.idleTimeout = nil }
        let world = makeWorld(knobs: knobs)
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        world.makeHalfOpen("alice")
        world.run(for: .seconds(Int64(120)))
        world.checkEndOfRun(["alice"])
        #expect(world.findings == [], "\(world.findings.map(\.description))")
        let sessions = world.server.openConnections.filter { $0.userId == 1 }.count
        #expect(sessions == (mutant ? 2 : 1), "\(world.server.openConnections)")
    }

    @Test("server-keeps-older-sessions leaves two live sessions of one device after a blip",
          arguments: [false, true])
    func serverKeepsOlderSessions(mutant: Bool) {
        var knobs = ServerKnobs()
        knobs.idleTimeout = .seconds(Int64(300))
        knobs.replacesOlderSessions = !mutant
        let world = makeWorld(knobs: knobs)
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        world.makeHalfOpen("alice")
        world.run(for: .seconds(Int64(90)))
        world.checkEndOfRun(["alice"])
        #expect(world.findings == [], "\(world.findings.map(\.description))")
        let sessions = world.server.openConnections.filter { $0.userId == 1 }.count
        #expect(sessions == (mutant ? 2 : 1), "\(world.server.openConnections)")
    }

    @Test("sampling every 7th event still links a retry's new cid to its task: resend-new-cid breaks T2",
          arguments: [nil, Mutant.resendNewCid])
    func samplingKeepsT2(mutant: Mutant?) {
        let world = TestWorld(checking: CheckOptions(sampling: 7), knobs: MutantRuns.slowSends)
        world.addClient("alice", userId: 1) { p in p.mutant = mutant }
        world.server.addChat(id: 100, members: [1], now: world.now)
        MutantRuns.sendTimesOut(world)
        world.checkEndOfRun(["alice"])
        #expect(world.brokenInvariants.contains(.T2) == (mutant != nil), "\(world.findings.map(\.description))")
    }

    @Test("sampling every 7th event still catches a mutant; restarts are always checked")
    func sampling() {
        let world = TestWorld(checking: CheckOptions(sampling: 7))
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
