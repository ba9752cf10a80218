import SyncSim

// Edits and deletes (invariant C7) against a lagging read replica: a change may reach a client before the message
// it changes, and a history page may then serve the message in an older version.

extension Catalog {
    /// Bob's other device deletes his newest message of a 31-message chat that Alice has not opened (she holds only
    /// the chat's last message, Alice's own, from LOGIN), then edits his message before it. Both changes reach Alice
    /// as pushes before the messages they change. When she opens the chat, the lagging replica (`historyEditLag`
    /// 10 min) serves both in their old versions: she must keep the removal and the edit she was given and apply
    /// them when the messages come, not show the deleted message again.
    public static let changesBeforeMessagesCached = Scenario(
        "changes-before-messages-cached",
        summary: "a delete and an edit pushed before their messages are cached survive a stale history page (C7)",
        seeds: [581, 582],
        tags: [.history]
    ) {
        Server(parameters: ["historyEditLag": .duration(.minutes(10))], history: ["alice+bob": 31])
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { DeleteMessage(from: "bob", in: "alice+bob") }
            At(.seconds(6)) { EditMessage(from: "bob", in: "alice+bob", text: "edited early") }
            At(.seconds(10)) { OpenChat("alice", "alice+bob") }
            At(.seconds(12)) { ScrollUp("alice", in: "alice+bob", messages: 100) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .historyComplete(client: "alice", chat: "alice+bob"))
        }
    }
}
