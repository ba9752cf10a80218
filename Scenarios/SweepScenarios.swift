import SyncSim

// Scenarios written for parameter sweeps (DESIGN.md §1, job 3): one user-facing task each, so a sweep's metrics
// measure that task.

extension Catalog {
    /// Alice opens a chat with 300 messages of history on EDGE and scrolls to its very first message: the task
    /// `historyPageSize` and `prefetchDistance` trade off (fewer, larger CHAT_HISTORY pages against waiting longer
    /// for each). Bob only holds the other end of the chat.
    public static let openAndScrollToStart = Scenario(
        "open-and-scroll-to-start",
        summary: "open a chat with 300 messages on EDGE and scroll to the start of its history (a sweep scenario)",
        seeds: [151, 152, 153],
        runLength: .minutes(10)
    ) {
        Server(history: ["alice+bob": 300])
        Client("alice", profile: .edge)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(10)) { ScrollUp("alice", in: "alice+bob", messages: 1_000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(9), .historyComplete(client: "alice", chat: "alice+bob"))
        }
    }
}
