import Foundation
import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// C2/C3/C5 for one chat: every chunk holds exactly the server's messages in its range; a start chunk has nothing
/// older on the server.
private func cacheViolations(_ world: TestWorld, _ client: String, chatId: Int64) -> [String] {
    let serverMessages = world.server.messages(inChat: chatId)
    guard let store = world.view(client).chunkStores[chatId] else { return [] }
    var problems: [String] = []
    for chunk in store.chunks {
        let expected = serverMessages.filter { chunk.lower <= $0.id && $0.id <= chunk.upper }
        let cached = store.messageIds(in: chunk).map { store.message(id: $0)! }
        if expected.map(\.id) != cached.map(\.id) || expected.map(\.text) != cached.map(\.text) {
            problems.append("chunk \(chunk) differs from the server")
        }
        if chunk.isStartOfHistory, let first = serverMessages.first, first.id < chunk.lower {
            problems.append("chunk \(chunk) claims the start of history")
        }
    }
    return problems
}

private func texts(_ world: TestWorld, chatId: Int64, sender: Int64) -> [String] {
    world.server.messages(inChat: chatId).filter { $0.sender == sender }.map(\.text)
}

@Suite struct ReferenceClientTests {
    @Test("two clients, one sending while the other reads, converge to the server's history") func converge() {
        let world = MutantRuns.makeWorld()
        world.start("alice")
        world.start("bob")
        world.run(for: .seconds(Int64(2)))
        world.user("bob", .openChat(100))
        for n in 1...5 {
            world.user("alice", .sendText(chatId: 100, text: "new \(n)"))
            world.user("bob", .scrollUp(messages: 15))
            world.run(for: .milliseconds(700))
        }
        MutantRuns.scrollToTop(world, "bob")
        world.run(for: .seconds(Int64(10)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        MutantRuns.scrollToTop(world, "alice")
        #expect(texts(world, chatId: 100, sender: 1) == (1...5).map { "new \($0)" })
        for client in ["alice", "bob"] {
            #expect(cacheViolations(world, client, chatId: 100) == [])
            let store = world.view(client).chunkStores[100]!
            #expect(store.chunks.count == 1, "\(client): \(store.chunks)")
            #expect(store.messages == world.server.messages(inChat: 100), "\(client)")
        }
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
        #expect(world.view("alice").localEchoes.isEmpty)
        #expect(world.metrics("bob").chatOpenTimes.count == 1)
        #expect(world.server.marks(inChat: 100).map(\.userId) == [1, 2])
        #expect(world.metrics("alice").sendToAckLatencies.count == 5)
        #expect(world.view("alice").lastSyncMilliseconds > 0)
    }

    @Test("sends queued offline survive an app restart and reach the server once, in order, photos after uploads",
          arguments: [false, true])
    func restartDeliversOnce(crash: Bool) {
        let world = MutantRuns.makeWorld()
        world.setReachable("alice", false)
        world.start("alice")
        world.run(for: .milliseconds(500))
        world.user("alice", .sendText(chatId: 100, text: "t1"))
        world.user("alice", .sendPhoto(chatId: 100, sizeBytes: 20_000, caption: "p1"))
        world.user("alice", .sendText(chatId: 100, text: "t2"))
        world.user("alice", .sendPhoto(chatId: 100, sizeBytes: 5_000, caption: "p2"))
        world.user("alice", .sendText(chatId: 100, text: "t3"))
        world.run(for: .seconds(Int64(1)))
        #expect(world.view("alice").localEchoes.map(\.text) == ["t1", "p1", "t2", "p2", "t3"])
        world.restartApp("alice", crash: crash)
        world.run(for: .seconds(Int64(1)))
        #expect(world.view("alice").tasks.count == 9)
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(180)))
        #expect(texts(world, chatId: 100, sender: 1) == ["t1", "p1", "t2", "p2", "t3"])
        let photos = world.server.messages(inChat: 100).filter { $0.attaches != nil }
        #expect(photos.count == 2)
        for photo in photos {
            #expect(world.server.cdn.hasUpload(token: photo.attaches![0].photoToken!))
        }
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
        let cids = world.server.messages(inChat: 100).compactMap(\.cid)
        #expect(Set(cids).count == cids.count)
    }

    @Test("after a server restart the client reconnects, logs in again and keeps sending") func serverRestart() {
        let world = MutantRuns.makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.restartServer()
        world.user("alice", .sendText(chatId: 100, text: "after restart"))
        world.run(for: .seconds(Int64(30)))
        #expect(texts(world, chatId: 100, sender: 1) == ["after restart"])
        #expect(world.metrics("alice").logins == 2)
        #expect(world.metrics("alice").reconnects == 1)
    }

    @Test("a scroll past the cached edge waits at the top for pages, then reaches the start of history")
    func scrollWaits() {
        let world = MutantRuns.makeWorld(history: 200)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(1)))
        #expect(world.view("alice").visibleMessageIds == Array(181...200))
        world.user("alice", .scrollUp(messages: 500))
        world.run(for: .seconds(Int64(10)))
        #expect(world.view("alice").visibleMessageIds.first == 1)
        #expect(world.metrics("alice").scrollWaitTimes.count == 1)
        #expect(world.metrics("alice").scrollWaitTimes.first.map { $0 > .zero } == true)
        #expect(world.view("alice").chunkStores[100]?.chunks == [Chunk(lower: 1, upper: 200, isStartOfHistory: true)])
        world.user("alice", .scrollDown(messages: 50))
        #expect(world.view("alice").visibleMessageIds.first == 51)
    }

    @Test("pings go out every 30 s while online") func pings() {
        let world = MutantRuns.makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(95)))
        #expect(world.metrics("alice").requestsByOpcode[.ping] == 3)
    }

    @Test("a half-open connection is dropped when a PING gets no pong, and the client reconnects") func pongTimeout() {
        let world = MutantRuns.makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(5)))
        world.makeHalfOpen("alice")
        world.run(for: .seconds(Int64(40)))
        #expect(world.metrics("alice").logins == 1)
        world.run(for: .seconds(Int64(20)))
        #expect(world.metrics("alice").logins == 2)
        #expect(world.metrics("alice").requestTimeouts == 1)
        #expect(world.view("alice").isOnline)
    }

    @Test("with 8-bit seqs, more requests than seq slots still match their responses") func smallSeqSpace() {
        let world = MutantRuns.makeWorld { p in p.seqModulus = 256 }
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        for n in 1...300 { world.user("alice", .sendText(chatId: 100, text: "m\(n)")) }
        world.run(for: .seconds(Int64(120)))
        #expect(texts(world, chatId: 100, sender: 1) == (1...300).map { "m\($0)" })
        let seqs = world.sentRequests.filter { $0.0 == "alice" }.map(\.1.seq)
        #expect(seqs.allSatisfy { $0 < 256 })
    }

    @Test("a send that keeps failing ends failed with a visible error; its photo's message fails with it; later sends go")
    func failingTasks() {
        let world = MutantRuns.makeWorld(knobs: ServerKnobs(errorRate: [.photoUpload: 1]))
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        world.user("alice", .sendPhoto(chatId: 100, sizeBytes: 1_000, caption: "never"))
        world.user("alice", .sendText(chatId: 100, text: "after"))
        world.run(for: .seconds(Int64(600)))
        let tasks = world.view("alice").tasks
        #expect(tasks.map(\.state) == [.done, .failed, .failed, .done])
        #expect(tasks[1].lastError?.hasPrefix("server.injected") == true)
        #expect(tasks[1].attempts == 10)
        #expect(tasks[2].lastError == "dependency 2 failed")
        #expect(texts(world, chatId: 100, sender: 1) == ["after"])
    }

    @Test("the same seed gives the same run") func deterministic() {
        func run() -> (ClientView, [ChatMessage], [SimInstant]) {
            let knobs = ServerKnobs(defaultProcessingDelay: .exponential(mean: .milliseconds(300)),
                                    pushLossProbability: 0.3)
            let world = MutantRuns.makeWorld(knobs: knobs)
            world.start("alice")
            world.start("bob")
            world.run(for: .seconds(Int64(1)))
            world.user("bob", .openChat(100))
            for n in 1...10 {
                world.user("alice", .sendText(chatId: 100, text: "\(n)"))
                world.user("bob", .scrollUp(messages: 7))
                world.run(for: .milliseconds(333))
            }
            world.setReachable("alice", false)
            world.run(for: .seconds(Int64(10)))
            world.setReachable("alice", true)
            world.run(for: .seconds(Int64(60)))
            return (world.view("bob"), world.server.messages(inChat: 100), world.connectAttempts.map(\.1))
        }
        let (a, b) = (run(), run())
        #expect(a.0 == b.0)
        #expect(a.1 == b.1)
        #expect(a.2 == b.2)
    }

    @Test("an app reopened from a database file finds its queue and cache there") func fileDatabase() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncsim-client-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var client = ReferenceClient(parameters: ClientParameters(token: "t"), database: try SQLiteDatabase(path: path),
                                     generator: SeededGenerator(seed: 1))
        _ = client.handle(.start, now: .start)
        _ = client.handle(.user(.sendText(chatId: 5, text: "queued")), now: .start)
        var reopened = ReferenceClient(parameters: ClientParameters(token: "t"),
                                       database: try SQLiteDatabase(path: path), generator: SeededGenerator(seed: 2))
        _ = reopened.handle(.start, now: .start + .seconds(Int64(1)))
        #expect(reopened.view.localEchoes.map(\.text) == ["queued"])
        #expect(reopened.view.tasks == client.view.tasks)
    }

    @Test("the pending-task count is the view's pending tasks, as tasks are queued and the view is read or not")
    func pendingTaskCount() {
        var client = ReferenceClient(parameters: ClientParameters(token: "t"), database: try! SQLiteDatabase(),
                                     generator: SeededGenerator(seed: 1))
        _ = client.handle(.start, now: .start)
        #expect(client.pendingTaskCount == 0)
        _ = client.handle(.user(.sendText(chatId: 5, text: "offline")), now: .start)
        _ = client.handle(.user(.sendPhotos(chatId: 5, count: 2, sizeBytes: 1_000, caption: "two")), now: .start)
        #expect(client.pendingTaskCount == 6, "counted before any view was read")
        #expect(client.pendingTaskCount == client.view.tasks.filter { $0.state == .pending }.count)
        _ = client.handle(.user(.sendText(chatId: 5, text: "one more")), now: .start)
        #expect(client.view.tasks.count == 7)
        #expect(client.pendingTaskCount == 7)
    }

    @Test("contacts from the first LOGIN are stored and outlive an app restart, when LOGIN no longer lists them")
    func contactsStored() {
        let world = MutantRuns.makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        let expected = [Contact(id: 2, name: "bob"), Contact(id: 3, name: "carol")]
        #expect(world.view("alice").contacts == expected)
        world.restartApp("alice", crash: true)
        world.run(for: .seconds(Int64(2)))
        #expect(world.metrics("alice").logins == 1, "the restarted engine logged in again")
        #expect(world.view("alice").contacts == expected)
    }

    // MARK: Mutants: each differs observably from the reference engine

    @Test("gap-ignored-after-login: a LOGIN entry with an unknown last message must open a new chunk",
          arguments: [nil, Mutant.gapIgnoredAfterLogin])
    func gapIgnoredAfterLogin(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant)
        MutantRuns.gapAfterLogin(world)
        #expect(cacheViolations(world, "alice", chatId: 100).isEmpty == (mutant == nil))
    }

    @Test("merge-skips-bridge: scrolling across a gap must cache the bridging page",
          arguments: [nil, Mutant.mergeSkipsBridge])
    func mergeSkipsBridge(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant)
        MutantRuns.scrollAcrossGap(world)
        #expect(world.view("alice").chunkStores[100]?.chunks.count == 1)
        #expect(cacheViolations(world, "alice", chatId: 100).isEmpty == (mutant == nil))
    }

    @Test("since-from-newest-push: last-sync must come from the LOGIN time, or a lost push is never listed",
          arguments: [nil, Mutant.sinceFromNewestPush])
    func sinceFromNewestPush(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant)
        #expect(MutantRuns.lostPushThenReconnect(world).isEmpty)
        let listed = world.view("alice").chatList[200]?.lastMessage?.text
        #expect((listed == "lost push") == (mutant == nil))
    }

    @Test("since-from-device-clock: a device clock ahead of the server must not skip changes",
          arguments: [nil, Mutant.sinceFromDeviceClock])
    func sinceFromDeviceClock(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, alice: MutantRuns.deviceClockAhead)
        MutantRuns.changeWhileOffline(world)
        let view = world.view("alice")
        #expect((view.chatList[200]?.lastMessage?.text == "while offline") == (mutant == nil))
        #expect((view.lastSyncMilliseconds <= world.server.serverTimeMilliseconds(at: world.now)) == (mutant == nil))
    }

    @Test("resend-new-cid: a send retried after a timeout must reuse its cid", arguments: [nil, Mutant.resendNewCid])
    func resendNewCid(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, knobs: MutantRuns.slowSends)
        MutantRuns.sendTimesOut(world)
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
        #expect((texts(world, chatId: 100, sender: 1) == ["once"]) == (mutant == nil))
    }

    @Test("parallel-sends: sends of one chat must go one at a time to keep their order",
          arguments: [nil, Mutant.parallelSends])
    func parallelSends(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, knobs: MutantRuns.reorderingSends)
        MutantRuns.eightSends(world)
        let sent = texts(world, chatId: 100, sender: 1)
        #expect(sent.sorted() == (1...8).map { "s\($0)" }.sorted())
        #expect((sent == (1...8).map { "s\($0)" }) == (mutant == nil))
    }

    @Test("tasks-not-persisted: queued sends must survive an app restart", arguments: [nil, Mutant.tasksNotPersisted])
    func tasksNotPersisted(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant)
        world.setReachable("alice", false)
        world.start("alice")
        world.user("alice", .sendText(chatId: 100, text: "a"))
        world.user("alice", .sendText(chatId: 100, text: "b"))
        world.run(for: .seconds(Int64(1)))
        world.restartApp("alice")
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(90)))
        #expect((texts(world, chatId: 100, sender: 1) == ["a", "b"]) == (mutant == nil))
    }

    @Test("backoff-reset-on-connect: the backoff must grow until a LOGIN succeeds",
          arguments: [nil, Mutant.backoffResetOnConnect])
    func backoffResetOnConnect(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, knobs: MutantRuns.failingLogins)
        MutantRuns.runTwoMinutes(world)
        let attempts = world.connectAttempts.filter { $0.0 == "alice" }.count
        #expect((attempts < 15) == (mutant == nil), "\(attempts) connection attempts")
    }

    @Test("seq-reuse-inflight: more parallel photo uploads than seq slots must not overwrite requests in flight",
          arguments: [nil, Mutant.seqReuseInflight])
    func seqReuseInflight(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, alice: MutantRuns.sixteenSeqs)
        MutantRuns.thirtyPhotos(world)
        let delivered = texts(world, chatId: 100, sender: 1) == (1...30).map { "p\($0)" }
        #expect(delivered == (mutant == nil))
    }

    @Test("inflight-dropped-on-disconnect: a send in flight at a disconnect must be retried",
          arguments: [nil, Mutant.inflightDroppedOnDisconnect])
    func inflightDropped(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, knobs: MutantRuns.sendsInFlight)
        MutantRuns.disconnectWhileSending(world)
        #expect(texts(world, chatId: 100, sender: 1) == ["in flight"])
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done } == (mutant == nil))
    }

    @Test("removal-before-message-lost: a message deleted before it was cached must show as removed when it comes",
          arguments: [nil, Mutant.removalBeforeMessageLost])
    func removalBeforeMessage(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, knobs: MutantRuns.laggingReplica)
        let (old, edited) = MutantRuns.changesBeforeMessages(world)
        let cache = world.view("alice").chunkStores[100]
        #expect((cache?.message(id: old)?.isRemoved == true) == (mutant == nil))
        #expect((cache?.message(id: edited)?.text == "edited early") == (mutant == nil))
    }

    @Test("catch-up-from-live-push: the gap a LOGIN entry opened stays until a page fills it",
          arguments: [nil, Mutant.catchUpFromLivePush])
    func catchUpFromLivePush(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant)
        MutantRuns.livePushAfterGap(world)
        let store = world.view("alice").chunkStores[100]!
        let claimedButMissing = world.server.messages(inChat: 100).filter {
            store.chunk(containing: $0.id) != nil && store.message(id: $0.id) == nil
        }
        #expect(claimedButMissing.isEmpty == (mutant == nil), "\(store.chunks)")
    }

    @Test("duplicate-is-failure: a retry answered \"already exists\" is delivered, not failed",
          arguments: [nil, Mutant.duplicateIsFailure])
    func duplicateIsFailure(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, knobs: MutantRuns.sendsJustTooSlow,
                                         alice: MutantRuns.slowRetries)
        MutantRuns.retryAnsweredDuplicate(world)
        #expect(texts(world, chatId: 100, sender: 1) == ["once"])
        let task = world.view("alice").tasks.first { $0.kind == .sendText }
        #expect(task?.state == (mutant == nil ? .done : .failed))
    }

    @Test("outbox-in-memory-while-offline: sends written offline survive a relaunch still offline",
          arguments: [nil, Mutant.outboxInMemoryWhileOffline])
    func outboxInMemoryWhileOffline(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant)
        MutantRuns.offlineSendsThenRelaunch(world)
        #expect((texts(world, chatId: 100, sender: 1) == ["a", "b"]) == (mutant == nil))
    }

    @Test("send-before-all-uploads: a three-photo message carries all three photos",
          arguments: [nil, Mutant.sendBeforeAllUploads])
    func sendBeforeAllUploads(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant)
        MutantRuns.threePhotoMessage(world)
        let sent = world.server.messages(inChat: 100).filter { $0.sender == 1 }
        #expect(sent.count == 1)
        #expect((sent.first?.attaches?.count == 3) == (mutant == nil), "\(sent)")
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
    }

    @Test("retry-without-backoff: sends failing at once for 60 s back off instead of storming",
          arguments: [nil, Mutant.retryWithoutBackoff])
    func retryWithoutBackoff(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, knobs: MutantRuns.failingSends)
        MutantRuns.sendDuringFailures(world)
        #expect(texts(world, chatId: 100, sender: 1) == ["patient"])
        // 1 s doubling, each delay drawn in [d/2, d]: at most 8 attempts fall within the first 60 s.
        #expect((MutantRuns.msgSendCount(world) <= 9) == (mutant == nil), "\(MutantRuns.msgSendCount(world)) sends")
    }

    @Test("own-message-device-time: an acknowledged own message keeps the server's time",
          arguments: [nil, Mutant.ownMessageDeviceTime])
    func ownMessageDeviceTime(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(mutant: mutant, alice: MutantRuns.deviceClockSlow)
        MutantRuns.sendAndReply(world)
        let server = world.server.messages(inChat: 100).first { $0.text == "mine" }
        let cached = world.view("alice").chunkStores[100]?.messages.first { $0.text == "mine" }
        #expect((cached?.time == server?.time) == (mutant == nil))
    }

    @Test("seq-restart-per-connection: a reply from the last connection never completes a new request",
          arguments: [nil, Mutant.seqRestartPerConnection])
    func seqRestartPerConnection(mutant: Mutant?) {
        // History pages take 12 s and a reply whose connection closed goes to the device's new connection.
        var knobs = ServerKnobs(processingDelay: [.chatHistory: .fixed(.seconds(Int64(12)))])
        knobs.repliesFollowDevice = true
        let world = MutantRuns.makeWorld(mutant: mutant, knobs: knobs)
        MutantRuns.openTwoChatsAcrossReset(world)
        // Chat 200 has no history; chat 100's seeded "old N" messages must never be filed under it.
        let misfiled = world.view("alice").chunkStores[200]?.messages.filter { $0.text.hasPrefix("old") } ?? []
        #expect(misfiled.isEmpty == (mutant == nil), "\(misfiled.count) of chat 100's messages under chat 200")
    }

    @Test("every mutant has a name and a focused test above") func mutantNames() {
        #expect(Mutant.allCases.map(\.rawValue) == [
            "merge-skips-bridge", "gap-ignored-after-login", "since-from-newest-push", "since-from-device-clock",
            "resend-new-cid", "parallel-sends", "tasks-not-persisted", "backoff-reset-on-connect",
            "seq-reuse-inflight", "inflight-dropped-on-disconnect", "removal-before-message-lost",
            "catch-up-from-live-push", "duplicate-is-failure",
            "outbox-in-memory-while-offline", "send-before-all-uploads", "retry-without-backoff",
            "own-message-device-time", "seq-restart-per-connection",
        ])
        #expect(Mutant(rawValue: "parallel-sends") == .parallelSends)
    }
}
