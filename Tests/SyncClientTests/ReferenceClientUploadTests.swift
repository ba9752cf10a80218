import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Photo uploads cut by the network cost no task attempt, as sends cut by a disconnect do not; an upload the CDN
/// refuses costs one and gives its token up.
@Suite struct ReferenceClientUploadTests {
    /// Alice online for a second, in chat 100 with bob (a server-side user).
    private func aliceOnlineWithBob() -> TestWorld {
        let world = TestWorld()
        world.addClient("alice", userId: 1)
        world.server.addUser(id: 2, name: "bob", token: "token-bob")
        world.server.addChat(id: 100, members: [1, 2], now: world.now)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        return world
    }

    @Test("twelve network interruptions of an upload (more than maxTaskAttempts) still deliver the photo")
    func interruptionsAreNotAttempts() throws {
        let world = aliceOnlineWithBob()
        world.user("alice", .sendPhoto(chatId: 100, sizeBytes: 500_000, caption: "cut"))
        var interruptions = 0
        for _ in 1...12 {
            for _ in 0..<60 where world.view("alice").uploadingTaskIds.isEmpty { world.run(for: .seconds(Int64(1))) }
            guard !world.view("alice").uploadingTaskIds.isEmpty else { break }
            world.setReachable("alice", false)
            world.run(for: .seconds(Int64(6)))
            world.setReachable("alice", true)
            interruptions += 1
        }
        #expect(interruptions == 12)
        world.run(for: .seconds(Int64(120)))
        let upload = try #require(world.view("alice").tasks.first { $0.kind == .uploadPhoto })
        #expect(upload.state == .done)
        #expect(upload.attempts == 0)
        #expect(world.server.messages(inChat: 100).map(\.text) == ["cut"])
    }

    /// Found by `syncsim explore` (seeds 6077, 7483, 12436, 14797; catalog `explore-upload-refused-token-renewed`):
    /// a late PHOTO_UPLOAD answer matched a newer request on a reused seq, so a task held another photo's token; the
    /// CDN refused it on every attempt, and the task retried under it until the run ended.
    @Test("an upload the CDN refuses asks for a fresh token, also after a restart, and the photo goes out once",
          arguments: [false, true])
    func refusedUploadRenewsToken(restartAfterRefusal: Bool) throws {
        let world = aliceOnlineWithBob()
        world.cdnRefusesNextUploads = 1
        world.user("alice", .sendPhoto(chatId: 100, sizeBytes: 20_000, caption: "refused once"))
        for _ in 0..<60 where world.refusedUploads.isEmpty { world.run(for: .milliseconds(Int64(100))) }
        let refused = try #require(world.refusedUploads.first)
        if restartAfterRefusal {
            // The refusal is in the database before the retry (backoff at least 0.5 s): the relaunched app must not
            // upload under the refused token either.
            world.run(for: .milliseconds(Int64(100)))
            world.restartApp("alice")
        }
        world.run(for: .seconds(Int64(60)))
        let tokenRequests = world.sentRequests.filter { $0.0 == "alice" && $0.1.opcode == .photoUpload }
        #expect(tokenRequests.count == 2)
        let upload = try #require(world.view("alice").tasks.first { $0.kind == .uploadPhoto })
        #expect(upload.state == .done)
        #expect(upload.attempts == 1)
        let token = try #require(upload.photoToken)
        #expect(token != refused.token)
        #expect(world.server.cdn.hasUpload(token: token))
        #expect(!world.server.cdn.hasUpload(token: refused.token))
        let messages = world.server.messages(inChat: 100)
        #expect(messages.map(\.text) == ["refused once"])
        #expect(messages.first?.attaches?.compactMap(\.photoToken) == [token])
    }

    /// Found by explore on a 9.6 kbit/s cell (session 27): every queued photo message started its upload at once, so a
    /// client with thirty photos opened thirty CDN connections, filled the uplink's buffer and lost its PINGs behind
    /// it. Uploads now wait for a free place, the oldest first (`maxConcurrentUploads`, default 1).
    @Test("photo uploads run at most maxConcurrentUploads at once, oldest first, and every photo goes out",
          arguments: [(limit: nil as Int?, expected: 1), (limit: 2, expected: 2), (limit: 8, expected: 4)])
    func uploadsWaitForAFreePlace(limit: Int?, expected: Int) throws {
        let world = TestWorld()
        world.addClient("alice", userId: 1) { p in
            if let limit { p.maxConcurrentUploads = limit }
        }
        world.server.addUser(id: 2, name: "bob", token: "token-bob")
        world.server.addChat(id: 100, members: [1, 2], now: world.now)
        world.server.addChat(id: 200, members: [1, 2], now: world.now)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
        // Four messages in two chats: sends wait per chat, uploads do not.
        for (index, chatId) in [100, 200, 100, 200].enumerated() {
            world.user("alice", .sendPhoto(chatId: Int64(chatId), sizeBytes: 300_000, caption: "photo \(index)"))
        }
        var most = 0
        var startOrder: [Int64] = []
        for _ in 0..<1_200 {
            world.run(for: .milliseconds(Int64(100)))
            let view = world.view("alice")
            let uploadIds = Set(view.tasks.filter { $0.kind == .uploadPhoto }.map(\.id))
            let running = view.runningTaskIds.filter { uploadIds.contains($0) }
            most = max(most, running.count)
            for id in running where !startOrder.contains(id) { startOrder.append(id) }
        }
        #expect(most == expected)
        #expect(startOrder == startOrder.sorted())
        #expect(startOrder.count == 4)
        #expect(world.server.messages(inChat: 100).map(\.text) == ["photo 0", "photo 2"])
        #expect(world.server.messages(inChat: 200).map(\.text) == ["photo 1", "photo 3"])
        #expect(world.view("alice").tasks.allSatisfy { $0.state == .done })
    }
}
