import SimCore
import SyncProtocol
import Testing
@testable import SyncClient

/// Times a server sends are whatever it sent: the engine's estimate of the server's clock saturates instead of
/// trapping (found by fuzz-client's smoke pass, 2026-12-04: a LOGIN answer whose `time` was near Int64.min overflowed
/// `time - now`; Fuzz/Regressions/fuzz-client/login-time-overflow).
@Suite struct ReferenceClientServerTimeTests {
    @Test("LOGIN answers at the ends of Int64 log the client in, and a pushed chat's catch-up still asks a page",
          arguments: [Int64.min, Int64.max, -1])
    func extremeLoginTimes(time: Int64) throws {
        var client = try EngineDriver(parameters: ClientParameters(token: "t"))
        let connection = client.connect()
        let login = client.logIn(connection)
        client.receive(Packet(cmd: .response, seq: login.seq, opcode: .login, body: .loginResponse(
            LoginResponse(profile: Profile(id: 1, name: "alice"), chats: [], contacts: [], time: time))),
            on: connection)
        #expect(client.engine.view.isOnline)
        // A push of a chat the list lacks starts a CHATS_LIST pass from the server's time now, plus a minute.
        let message = ChatMessage(id: 5, time: 1_000, sender: 2, text: "hi")
        client.receive(Packet(cmd: .request, seq: 0, opcode: .notifMessage,
                              body: .notifMessage(NotifMessage(chatId: 77, message: message))), on: connection)
        #expect(client.sent.contains { $0.opcode.rawValue == 53 }, "no CHATS_LIST page asked")
        #expect(ReferenceClient.saturating(.max, plus: 60_000) == .max)
        #expect(ReferenceClient.saturating(.min, plus: -5) == .min)
        #expect(ReferenceClient.saturating(10, plus: -3) == 7)
    }
}
