import SimCore
import SyncProtocol
import Testing
@testable import SyncClient

/// The seqs a lost connection left unanswered, in flight or already timed out, stay held on the next connection for
/// a request timeout after the loss (found by hand-written field sequences, seq16: with `repliesFollowDevice`, a late
/// page of one chat completed the new connection's CHAT_HISTORY of another chat on the reused seq).
@Suite struct ReferenceClientLostConnectionSeqTests {
    /// Connects the attempt the last step started and answers SESSION_INIT and LOGIN; returns the connection.
    private func connectAndLogIn(_ client: inout EngineDriver) -> ClientConnectionID {
        let connection = client.connect()
        let login = client.logIn(connection)
        client.receive(Packet(cmd: .response, seq: login.seq, opcode: .login, body: .loginResponse(
            LoginResponse(profile: Profile(id: 1, name: "alice"), chats: [], contacts: [], time: 2_000))),
            on: connection)
        return connection
    }

    private func page(_ request: Packet, ids: ClosedRange<Int64>) -> Packet {
        Packet(cmd: .response, seq: request.seq, opcode: .chatHistory, body: .chatHistoryResponse(ChatHistoryResponse(
            messages: ids.map { ChatMessage(id: $0, time: 1_000 + $0, sender: 2, text: "bob \($0)") })))
    }

    @Test("a page timed out before the connection went does not complete the next connection's page on its seq")
    func timedOutPageAnsweredOnNextConnection() throws {
        var parameters = ClientParameters(token: "t")
        parameters.seqModulus = 2
        var client = try EngineDriver(parameters: parameters)
        let first = connectAndLogIn(&client)
        client.step(.user(.openChat(100)))
        let stale = try #require(client.sent.first { $0.opcode == .chatHistory })
        let timeout = try #require(client.timersStarted.first { $0.at == client.now + parameters.requestTimeout }).timer
        client.step(.timerFired(timeout))
        #expect(!client.engine.view.inFlightRequests.contains { $0.seq == stale.seq })
        // The connection goes; the next one logs in and the user opens another chat.
        client.step(.disconnected(first))
        let reconnect = try #require(client.timersStarted.last).timer
        client.step(.timerFired(reconnect))
        let second = connectAndLogIn(&client)
        var onSecond = client.sent
        client.step(.user(.openChat(200)))
        onSecond += client.sent
        // Before the fix the seq was free again at once: the new page for chat 200 (or chat 100's again) took it.
        // Requests of other opcodes may take it: a stale page cannot complete them.
        #expect(!onSecond.contains { $0.seq == stale.seq && $0.opcode == .chatHistory })
        #expect(!client.engine.view.inFlightRequests.contains { $0.seq == stale.seq && $0.opcode == .chatHistory })
        // Bob's late page comes on the new connection: it completes nothing and frees the seq.
        client.step(.packetReceived(page(stale, ids: 1...3), on: second))
        #expect(client.engine.view.chunkStores[200]?.message(id: 1) == nil)
        #expect(client.engine.view.chunkStores[100]?.message(id: 1) == nil)
    }

    @Test("a lost connection's timed-out and in-flight seqs are held for a timeout after the loss")
    func trackerHoldsEveryUnansweredSeq() {
        var tracker = RequestTracker<Int>(seqModulus: 4, firstSeq: 0)
        func entry(_ timer: Int64, sentAt: SimInstant) -> RequestTracker<Int>.Entry {
            .init(opcode: .chatHistory, purpose: Int(timer), sentAt: sentAt, timer: ClientTimerID(rawValue: timer))
        }
        // Seq 0 sent at 0 s and timed out (held back for its late answer); seq 1 sent at 0 s, still in flight.
        tracker.register(seq: tracker.allocate()!, entry: entry(1, sentAt: .start))
        tracker.register(seq: tracker.allocate()!, entry: entry(2, sentAt: .start))
        #expect(tracker.expire(seq: 0, timer: ClientTimerID(rawValue: 1)) != nil)
        // The connection goes at 15 s; the hold is 20 s.
        let lost = tracker.removeAll(now: .start + .seconds(Int64(15)), holdingSeqsFor: { _ in .seconds(Int64(20)) })
        #expect(lost.map(\.seq) == [1])
        #expect(tracker.orphans[0]?.until == .start + .seconds(Int64(35)))
        #expect(tracker.orphans[1]?.until == .start + .seconds(Int64(35)))
        // Past the in-flight request's own timeout (20 s) both seqs are still held.
        tracker.releaseOrphans(at: .start + .seconds(Int64(21)))
        #expect(tracker.allocate() == 2)
        tracker.register(seq: 2, entry: entry(3, sentAt: .start + .seconds(Int64(21))))
        #expect(tracker.allocate() == 3)
        tracker.register(seq: 3, entry: entry(4, sentAt: .start + .seconds(Int64(21))))
        #expect(tracker.allocate() == nil)
        // A request of another opcode may take an orphaned seq; one of the orphan's own opcode may not.
        #expect(tracker.allocate(for: .login) == 0)
        #expect(tracker.allocate(for: .chatHistory) == nil)
        // The timed-out request's late answer frees its seq; the other is free at 35 s.
        #expect(tracker.complete(seq: 0, opcode: .chatHistory) == nil)
        #expect(tracker.orphans[0] == nil)
        tracker.releaseOrphans(at: .start + .seconds(Int64(35)))
        #expect(tracker.orphans.isEmpty)
    }
}
