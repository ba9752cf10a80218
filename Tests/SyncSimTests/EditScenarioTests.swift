import Testing
@testable import SyncSim

/// `EditMessage` and `DeleteMessage` in a scenario: edits and deletes reach the clients, whatever they were doing.
@Suite struct EditScenarioTests {
    static let editsWhileOffline = Scenario(
        "edits-while-offline", summary: "bob edits and deletes while alice is offline and while she reads",
        seeds: [1, 2, 3]
    ) {
        Server(history: ["alice+bob": 60])
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            After(.seconds(1)) { Send(from: "bob", text: "first draft", in: "alice+bob") }
            After(.seconds(3)) { EditMessage(from: "bob", in: "alice+bob", text: "second draft") }
            After(.seconds(1)) { LinkDown("alice", for: .seconds(10)) }
            After(.seconds(2)) { DeleteMessage(from: "bob", in: "alice+bob") }
            After(.seconds(1)) { Send(from: "bob", text: "while you were away", in: "alice+bob") }
            After(.seconds(1)) { EditMessage(from: "bob", in: "alice+bob", text: "edited while you were away") }
            After(.seconds(15)) { ScrollUp("alice", in: "alice+bob", messages: 80) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .converged)
        }
    }

    @Test("the words build edit and delete actions and print back as DSL")
    func words() {
        let actions = Self.editsWhileOffline.steps.map(\.action)
        #expect(actions.contains(.editMessage(client: "bob", chat: "alice+bob", text: "second draft")))
        #expect(actions.contains(.deleteMessage(client: "bob", chat: "alice+bob")))
        #expect(Scenario.actionSource(.deleteMessage(client: "bob", chat: "alice+bob"))
                == "DeleteMessage(from: \"bob\", in: \"alice+bob\")")
        #expect(Self.editsWhileOffline.problems() == [])
    }

    @Test("a scenario of edits and deletes runs green with every invariant, C7 included", arguments: [1, 2, 3])
    func runsGreen(seed: UInt64) {
        let run = WorldExecutor().run(Self.editsWhileOffline, seed: seed, options: RunOptions())
        #expect(run.violations.map(\.description) == [])
    }
}
