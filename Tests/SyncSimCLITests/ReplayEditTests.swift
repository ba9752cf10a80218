import Foundation
import Scenarios
import SyncSim
import SyncTrace
import Testing

@testable import SyncSimCLI

/// Edits and deletes in a capture (`ReplayEdits`): the round trip on the two catalog scenarios that edit and delete,
/// and what the DSL cannot express, on changed copies of changes-before-messages-cached's capture (bob's other device
/// deletes his newest message, 30, at 5 s and edits the one before, 28, at 6 s; alice opens the chat at 10 s and
/// the lagging replica serves both unchanged).
@Suite struct ReplayEditTests {
    /// The capture, each call in a file of its own (the tests run in parallel).
    static func capture581() throws -> ReplayTimeline {
        let path = NSTemporaryDirectory() + "syncsim-replay-edits-\(UUID().uuidString).pcapng"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = TraceDecodeCommandTests.run(["run", "changes-before-messages-cached", "--seed", "581", "--pcap",
                                                  path])
        #expect(result.code == 0, "the original passes with the reference engine")
        return ReplayTimeline(try TraceDecoder().decode(path: path))
    }

    static func emission(_ timeline: ReplayTimeline) -> ReplayScenarioEmitter.Emission {
        ReplayScenarioEmitter(timeline: timeline, model: ReplayWorldModel(timeline)).emission(named: "emitted")
    }

    /// Every entry of the timeline through `change` (nil drops it).
    static func mapped(_ timeline: ReplayTimeline,
                       _ change: (ReplayTimeline.Entry) -> [ReplayTimeline.Entry]) -> ReplayTimeline {
        var timeline = timeline
        for index in timeline.connections.indices {
            timeline.connections[index].entries = timeline.connections[index].entries.flatMap(change)
        }
        return timeline
    }

    static func edits(_ scenario: Scenario) -> [Action] {
        scenario.steps.map(\.action).filter {
            switch $0 {
            case .editMessage, .deleteMessage: true
            default: false
            }
        }
    }

    /// The emitted scenario passes with the reference engine and catches removal-before-message-lost, as the
    /// original does.
    @Test("pushed edits and deletes become EditMessage/DeleteMessage, a stale page historyEditLag",
          arguments: [("changes-before-messages-cached", UInt64(581), Int64(1)),
                      ("explore-pending-edit-survives-crash", UInt64(100_061), Int64(2))])
    func roundTrip(name: String, seed: UInt64, lagMinutes: Int64) throws {
        let path = try RoundTripTests.capture(name, seed: seed)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try RoundTripTests.emitted(from: path)
        let original = try #require(Catalog.scenario(named: name))
        // The same edits and deletes as the original, in its order.
        #expect(Self.edits(emission.scenario) == Self.edits(original))
        #expect(emission.scenario.server.parameters["historyEditLag"]
            == .duration(.minutes(lagMinutes)))
        let source = emission.source()
        #expect(source.contains("): bob's newest message in alice+bob"))
        #expect(source.contains("// server: historyEditLag from a stale page: CHAT_HISTORY answer seq 3 on connection"))
        #expect(!RoundTripTests.fails(emission.scenario, seed: seed, mutant: nil))
        #expect(RoundTripTests.fails(original, seed: seed, mutant: "removal-before-message-lost"))
        #expect(RoundTripTests.fails(emission.scenario, seed: seed, mutant: "removal-before-message-lost"))
    }

    @Test("the comments name the packets: each push, its connection and time, and updateTime")
    func comments() throws {
        let emission = Self.emission(try Self.capture581())
        let source = emission.source()
        #expect(source.contains("// delete of message 30 in chat 1 at 5.001 s (NOTIF_MSG_DELETE on connection 1 at 5.103 s; "
            + "NOTIF_MSG_DELETE on connection 2 at 5.076 s; updateTime 1700000005000): bob's newest message in alice+bob"))
        #expect(source.contains("At(.milliseconds(6001)) { EditMessage(from: \"bob\", in: \"alice+bob\", "
            + "text: \"edited early\") }"))
        #expect(emission.unplaced.isEmpty)
    }

    @Test("an edit of a message other than the sender's newest is not placed, with the newer message named")
    func notTheNewest() throws {
        let timeline = Self.mapped(try Self.capture581()) { entry in
            var entry = entry
            if case .notifMessage(var push) = entry.packet.body, push.message.status == ChatMessage.edited {
                push.message.id = 26
                entry.packet.body = .notifMessage(push)
            }
            return [entry]
        }
        let emission = Self.emission(timeline)
        #expect(Self.edits(emission.scenario) == [.deleteMessage(client: "bob", chat: "alice+bob")])
        let line = try #require(emission.unplaced.first { $0.hasPrefix("edit of message 26 in chat 1") })
        #expect(line.contains("not bob's newest message in alice+bob (message 28 of theirs is newer)"))
        #expect(emission.source().contains("// not placed: edit of message 26"))
        #expect(emission.scenario.problems() == [])
    }

    @Test("a client's own MSG_EDIT is replayed as an edit from its other device; an unanswered MSG_DELETE is not")
    func ownRequests() throws {
        // Bob's connection (2) asks MSG_EDIT instead of getting the push; later a MSG_DELETE that gets no answer.
        let timeline = Self.mapped(try Self.capture581()) { entry in
            guard entry.connection == 2, case .notifMessage(let push) = entry.packet.body,
                  push.message.status == ChatMessage.edited else { return [entry] }
            var ask = entry
            ask.direction = .clientToServer
            ask.time = entry.time - .milliseconds(150)
            ask.packet = Packet(cmd: .request, seq: 40, opcode: .msgEdit,
                                body: .msgEdit(MsgEditRequest(chatId: 1, messageId: 28, text: push.message.text)))
            var answer = entry
            answer.packet = Packet(cmd: .response, seq: 40, opcode: .msgEdit,
                                   body: .msgEditResponse(MsgEditResponse(message: push.message)))
            var delete = entry
            delete.direction = .clientToServer
            delete.time = entry.time + .seconds(1)
            delete.packet = Packet(cmd: .request, seq: 41, opcode: .msgDelete,
                                   body: .msgDelete(MsgDeleteRequest(chatId: 1, messageIds: [28])))
            return [ask, answer, delete]
        }
        let emission = Self.emission(timeline)
        #expect(Self.edits(emission.scenario) == [.deleteMessage(client: "bob", chat: "alice+bob"),
                                                   .editMessage(client: "bob", chat: "alice+bob", text: "edited early")])
        #expect(emission.source().contains("answer to the client's own MSG_EDIT seq 40 on connection 2"))
        #expect(emission.source().contains("the reference engine does not edit, so another device of bob makes the change"))
        #expect(emission.unplaced.contains { $0.contains("MSG_DELETE of message(s) 28 in chat 1 never answered") })
    }

    @Test("a page that shows a change holds the lag below its age: halfway between the stale and the current page")
    func freshPageBoundsLag() throws {
        // The page at 10.209 s shows the delete of 30 (5.1 s old) but not the edit of 28 (4.1 s old).
        let timeline = Self.mapped(try Self.capture581()) { entry in
            var entry = entry
            if case .chatHistoryResponse(var page) = entry.packet.body,
               let index = page.messages.firstIndex(where: { $0.id == 30 }) {
                page.messages[index].status = ChatMessage.removed
                page.messages[index].text = ""
                page.messages[index].updateTime = 1_700_000_005_000
                entry.packet.body = .chatHistoryResponse(page)
            }
            return [entry]
        }
        let emission = Self.emission(timeline)
        let lag = try #require({ () -> SimDuration? in
            if case .duration(let lag) = emission.scenario.server.parameters["historyEditLag"] { return lag }
            return nil
        }())
        #expect(lag > .seconds(4) && lag < .seconds(5))
        #expect(emission.source().contains("held halfway to a page that was current"))
    }

    @Test("the rebuilt history's senders go in turn: where that makes another message the sender's newest, a doubt")
    func rebuiltHistoryDoubt() throws {
        // Message 29 is bob's in this capture, and his edit is of 29: the rebuilt history gives 29 to alice.
        let timeline = Self.mapped(try Self.capture581()) { entry in
            var entry = entry
            func bobs29(_ message: ChatMessage) -> ChatMessage {
                var message = message
                if message.id == 29 { message.sender = 2 }
                return message
            }
            switch entry.packet.body {
            case .chatHistoryResponse(var page):
                page.messages = page.messages.map(bobs29)
                entry.packet.body = .chatHistoryResponse(page)
            case .notifMessage(var push) where push.message.status == ChatMessage.edited:
                push.message.id = 29
                entry.packet.body = .notifMessage(push)
            default:
                break
            }
            return [entry]
        }
        let emission = Self.emission(timeline)
        #expect(Self.edits(emission.scenario).count == 2)
        let doubt = try #require(emission.unplaced.first { $0.hasPrefix("edit of message 29") })
        #expect(doubt.contains("bob's newest there is its message 28 (the capture's 28)"))
        #expect(emission.source().contains("// doubt: edit of message 29"))
    }

    @Test("a capture without edits or deletes emits neither, and no historyEditLag")
    func noEdits() throws {
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: ReplayCommandTests.offlineSends))
        let emission = Self.emission(timeline)
        #expect(Self.edits(emission.scenario).isEmpty)
        #expect(emission.scenario.server.parameters["historyEditLag"] == nil)
    }
}
