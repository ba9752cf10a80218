import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Defects round 37's hand-written field sequences found in the reference engine (Scenarios/FieldSequences37.swift).
@Suite struct ReferenceClientRound37Tests {
    /// Whether Alice's open chat 100 shows `text`: a local echo, or a visible cached message.
    private static func shows(_ view: ClientView, _ text: String) -> Bool {
        if view.localEchoes.contains(where: { $0.chatId == 100 && $0.text == text }) { return true }
        let visible = Set(view.visibleMessageIds)
        return view.chunkStores[100]?.messages.contains { visible.contains($0.id) && $0.text == text } ?? false
    }

    @Test("a send answered \"already exists\" stays on screen until the newest page shows the message")
    func echoThroughDuplicateAnswer() {
        // The first attempt is stored after its timeout (22 s against 20 s); the retry is answered "already exists"
        // and the newest page that brings the message takes 3 s. Before the fix the echo went with the answer and the
        // message was on screen again only when the page came.
        let world = MutantRuns.makeWorld(knobs: MutantRuns.sendsJustTooSlow, alice: MutantRuns.slowRetries)
        world.start("alice")
        world.start("bob")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(3)))
        world.user("alice", .sendText(chatId: 100, text: "once"))
        world.run(for: .seconds(Int64(23)))
        world.server.knobs = ServerKnobs(processingDelay: [.chatHistory: .fixed(.seconds(Int64(3)))])
        var hidden: [SimInstant] = []
        for _ in 0..<600 {
            world.run(for: .milliseconds(Int64(100)))
            if !Self.shows(world.view("alice"), "once") { hidden.append(world.now) }
        }
        #expect(world.server.messages(inChat: 100).filter { $0.text == "once" }.count == 1)
        #expect(world.sentRequests.filter { $0.0 == "alice" && $0.1.opcode == .msgSend }.count >= 2)
        #expect(hidden.isEmpty, "\"once\" not on screen at \(hidden.prefix(3)) and \(hidden.count - 1) more")
        // The echo ended: the message itself is on screen, shown once.
        #expect(world.view("alice").localEchoes.isEmpty)
    }

    @Test("a read mark the server refuses is sent again with backoff while the connection lives")
    func readMarkRetriedAfterError() {
        var knobs = ServerKnobs()
        knobs.failingPeriods = [.init(opcode: .chatMark, start: .start, end: .start + .seconds(Int64(10)))]
        let world = MutantRuns.makeWorld(knobs: knobs)
        world.start("alice")
        world.run(for: .seconds(Int64(2)))
        world.user("alice", .openChat(100))
        world.run(for: .seconds(Int64(60)))
        let newest = world.server.messages(inChat: 100).last!.id
        let marks = world.sentRequests.filter { $0.0 == "alice" && $0.1.opcode == .chatMark }
        // Refused until 10 s: 1 s after the first refusal, then 1-2, 2-4, 4-8 s; before the fix one try, then none
        // until the next LOGIN.
        #expect(marks.count >= 3 && marks.count <= 8, "\(marks.count) CHAT_MARKs")
        let read = world.server.marks(inChat: 100).first { $0.userId == 1 }
        #expect(read?.mark == newest && world.view("alice").isOnline, "\(world.server.marks(inChat: 100))")
    }
}
