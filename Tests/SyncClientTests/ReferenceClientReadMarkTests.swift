import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Read marks: sent only when they advance, one per chat at a time, kept across offline periods and restarts.
@Suite struct ReferenceClientReadMarkTests {
    private func makeWorld() -> TestWorld {
        let world = TestWorld()
        world.addClient("alice", userId: 1)
        world.server.addUser(id: 2, name: "bob", token: "token-bob")
        world.server.addChat(id: 100, members: [1, 2], now: world.now)
        world.server.seedHistory(chatId: 100, sender: 2, texts: (1...25).map { "old \($0)" }, now: world.now)
        return world
    }

    private func marksSent(_ world: TestWorld) -> [Int64] {
        world.sentRequests.compactMap { name, packet in
            guard name == "alice", case .chatMark(let request) = packet.body else { return nil }
            return request.messageId
        }
    }

    private func serverMark(_ world: TestWorld) -> Int64? {
        world.server.marks(inChat: 100).first { $0.userId == 1 }?.mark
    }

    @Test("opening the chat again and again on a dead link sends no mark that does not advance")
    func reopeningSendsNothingNew() {
        let world = makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        for n in 1...3 {
            world.deliverServerActions(world.server.post(chatId: 100, sender: 2, text: "new \(n)", now: world.now))
            world.run(for: .seconds(Int64(1)))
        }
        world.run(for: .seconds(Int64(3)))
        #expect(serverMark(world) == 28)
        world.makeHalfOpen("alice")
        for _ in 1...8 {
            world.user("alice", .openChat(100))
            world.run(for: .seconds(Int64(1)))
        }
        world.run(for: .seconds(Int64(90)))
        #expect(marksSent(world) == marksSent(world).sorted() && Set(marksSent(world)).count == marksSent(world).count,
                "\(marksSent(world))")
        #expect(marksSent(world).last == 28)
        #expect(serverMark(world) == 28)
    }

    @Test("a mark seen while offline is stored, survives a restart and is sent once after LOGIN")
    func offlineMarkSentAfterLogin() {
        let world = makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        #expect(serverMark(world) == 25)
        // Bob's messages arrive while the chat is open; the link then breaks before their marks are answered.
        world.server.knobs.processingDelay[.chatMark] = .fixed(.seconds(Int64(5)))
        for n in 1...3 {
            world.deliverServerActions(world.server.post(chatId: 100, sender: 2, text: "new \(n)", now: world.now))
        }
        world.run(for: .seconds(Int64(1)))
        world.setReachable("alice", false)
        world.run(for: .seconds(Int64(10)))
        world.server.knobs.processingDelay[.chatMark] = nil
        for _ in 1...8 {
            world.user("alice", .openChat(100))
            world.run(for: .seconds(Int64(1)))
        }
        world.restartApp("alice")
        world.run(for: .seconds(Int64(5)))
        let before = marksSent(world).count
        world.setReachable("alice", true)
        world.run(for: .seconds(Int64(60)))
        #expect(serverMark(world) == 28)
        #expect(marksSent(world).count == before + 1, "\(marksSent(world))")
    }

    @Test("the server never moves a read position backwards") func serverMarkMonotonic() {
        let world = makeWorld()
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(2)))
        var server = world.server
        _ = server.handle(.connectionOpened(ServerConnectionID(rawValue: 99)), now: world.now)
        let login = LoginRequest(token: "token-alice", chatsSync: 0, contactsSync: 0, chatsCount: 10)
        _ = server.handle(.packetReceived(Packet(cmd: .request, seq: 1, opcode: .login, body: .login(login)),
                                          on: ServerConnectionID(rawValue: 99)), now: world.now)
        let old = ChatMarkRequest(chatId: 100, messageId: 3, mark: 3)
        let actions = server.handle(.packetReceived(Packet(cmd: .request, seq: 2, opcode: .chatMark,
                                                           body: .chatMark(old)),
                                                    on: ServerConnectionID(rawValue: 99)), now: world.now)
        #expect(server.marks(inChat: 100).first { $0.userId == 1 }?.mark == 25)
        #expect(!actions.contains { if case .send(let p, _) = $0 { p.opcode == .notifMark } else { false } })
    }
}
