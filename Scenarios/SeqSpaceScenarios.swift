import SyncSim

// Requests that find every seq in flight (found by hand-written field sequences, docs/explore.md, "Defects found
// against the reference engine").

extension Catalog {
    /// Alice's two sends, in two chats, wait for answers the server holds for 10 s, and with a seq space of 2
    /// (`seqModulus`) every seq is in flight when she opens a chat she never loaded and scrolls to its top. The
    /// engine dropped that CHAT_HISTORY for lack of a seq and, when the answers freed the seqs, woke only the task
    /// queue and the chat-list catch-up: the chat stayed unopened and the scroll waited until the next reconnect
    /// (C6 after ten quiet minutes). A history load that finds no seq now goes out when a request completes, as the
    /// tasks do; so do read marks (`ReferenceClientSeqWaitTests`).
    public static let historyWaitsForFreeSeq = Scenario(
        "history-waits-for-free-seq",
        summary: "an open and a scroll asked while every seq is in flight go out when a seq frees",
        seeds: [1301, 1302],
        tags: [.history, .connection],
        runLength: .minutes(3)
    ) {
        Server(history: ["alice+bob": 100])
        Client("alice", profile: .fourG, parameters: ["seqModulus": 2])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Timeline {
            At(.seconds(9)) { HoldResponses(to: .msgSend, of: "alice", until: .time(.seconds(20))) }
            At(.seconds(10)) { Send(from: "alice", text: "to carol", in: "alice+carol") }
            At(.seconds(10)) { Send(from: "alice", text: "to dave", in: "alice+dave") }
            At(.seconds(12)) { OpenChat("alice", "alice+bob") }
            At(.seconds(13)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(1), .historyComplete(client: "alice", chat: "alice+bob"))
        }
    }
}
