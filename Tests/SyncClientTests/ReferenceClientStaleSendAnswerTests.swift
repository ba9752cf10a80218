import SimCore
import SyncProtocol
import Testing
@testable import SyncClient

@Suite struct ReferenceClientStaleSendAnswerTests {
    private func loginAnswer(_ login: Packet) -> Packet {
        Packet(cmd: .response, seq: login.seq, opcode: .login, body: .loginResponse(
            LoginResponse(profile: Profile(id: 1, name: "alice"), chats: [], contacts: [], time: 1_000)))
    }

    private func sendAnswer(_ request: Packet, id: Int64) -> Packet? {
        guard case .msgSend(let send) = request.body else { return nil }
        return Packet(cmd: .response, seq: request.seq, opcode: .msgSend, body: .msgSendResponse(MsgSendResponse(
            chatId: send.chatId,
            message: ChatMessage(id: id, time: 5_000 + id, sender: 1, text: send.message.text, cid: send.message.cid))))
    }

    @Test("a lost connection's MSG_SEND answer on a seq a newer send reused leaves that send in flight")
    func staleAnswerOnReusedSeq() throws {
        // A 4-seq space and a 3 s request timeout: the lost connection's seq is free again on the next one soon.
        var parameters = ClientParameters(token: "t")
        parameters.seqModulus = 4
        parameters.requestTimeout = .seconds(Int64(3))
        var client = try EngineDriver(parameters: parameters)
        let first = client.connect()
        client.receive(loginAnswer(client.logIn(first)), on: first)
        client.step(.user(.sendText(chatId: 100, text: "old")))
        let old = try #require(client.sent.first { $0.opcode == .msgSend })
        // The connection goes before the answer; the server answers on the device's next connection, late.
        let second = client.reconnect(after: first)
        client.receive(loginAnswer(client.logIn(second)), on: second)
        // Sends to another chat until one goes out with the old request's seq (answering the others).
        var newer = client.sent.first { $0.opcode == .msgSend && $0.seq == old.seq }
        var count = 0
        while newer == nil && count < 8 {
            count += 1
            client.step(.user(.sendText(chatId: 200, text: "new \(count)")))
            for request in client.sent where request.opcode == .msgSend {
                if request.seq == old.seq {
                    newer = request
                } else if let answer = sendAnswer(request, id: Int64(100 + count)) {
                    client.receive(answer, on: second)
                }
            }
        }
        let reused = try #require(newer)
        guard case .msgSend(let reusedSend) = reused.body, case .msgSend(let oldSend) = old.body else {
            Issue.record("expected MSG_SENDs")
            return
        }
        #expect(reusedSend.message.cid != oldSend.message.cid)
        let newerTask = try #require(client.engine.view.tasks.first { $0.cid == reusedSend.message.cid })
        client.receive(try #require(sendAnswer(old, id: 50)), on: second)
        // Before the fix the old answer completed the newer request: its task ended done with message 50.
        let after = try #require(client.engine.view.tasks.first { $0.id == newerTask.id })
        #expect(after.state != .done && after.messageId == nil)
        #expect(client.engine.view.inFlightRequests.contains { $0.seq == old.seq })
        // The newer send's own answer completes it.
        client.receive(try #require(sendAnswer(reused, id: 60)), on: second)
        let done = try #require(client.engine.view.tasks.first { $0.id == newerTask.id })
        #expect(done.state == .done && done.messageId == 60)
    }
}
