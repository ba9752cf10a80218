import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Photo uploads cut by the network cost no task attempt, as sends cut by a disconnect do not.
@Suite struct ReferenceClientUploadTests {
    @Test("twelve network interruptions of an upload (more than maxTaskAttempts) still deliver the photo")
    func interruptionsAreNotAttempts() throws {
        let world = TestWorld()
        world.addClient("alice", userId: 1)
        world.server.addUser(id: 2, name: "bob", token: "token-bob")
        world.server.addChat(id: 100, members: [1, 2], now: world.now)
        world.start("alice")
        world.run(for: .seconds(Int64(1)))
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
}
