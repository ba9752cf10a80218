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

    /// Alice (seq space of 4) opens her chat with Bob, then her chat with Carol, while CHAT_HISTORY answers take 12 s;
    /// her link resets and she reconnects. This server sends a reply whose connection closed to the device's new
    /// connection (`repliesFollowDevice`). Seqs go on counting across connections, but four of them wrap at once:
    /// the new connection's request for Carol's newest page had seq 3, the seq of the lost request for Bob's page,
    /// and Bob's stale page completed it, filed under Carol's chat (C3 "cached message 11 is not on the server",
    /// found by hand-written field sequences, seq14, seed 1; every seed failed with `seqModulus` 2 and 4). The seqs a
    /// lost connection left unanswered are now held back on the next one until their stale answer comes or their
    /// request's timeout passes (`RequestTracker.removeAll(holdingSeqsUntil:)`).
    public static let stalePageOnNewConnectionSmallSeqs = Scenario(
        "stale-page-on-new-connection-small-seqs",
        summary: "with 4 seqs, a stale page answered on the new connection never completes a request reusing its seq",
        seeds: [1, 2],
        tags: [.history, .connection],
        runLength: .minutes(6)
    ) {
        Server(parameters: ["repliesFollowDevice": true], history: ["alice+bob": 1, "alice+carol": 1])
        Client("alice", profile: .threeG, parameters: ["seqModulus": 4])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.seconds(3)) { DelayResponses(to: .chatHistory, by: .seconds(12), for: .milliseconds(7500)) }
            At(.seconds(4)) { OpenChat("alice", "alice+bob") }
            At(.seconds(6)) { OpenChat("alice", "alice+carol") }
            At(.seconds(7)) { LinkDown("alice", for: .milliseconds(1), .withReset) }
        }
        Expect {
            Invariants(.all)
        }
    }
}
