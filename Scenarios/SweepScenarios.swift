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
        tags: [.sweep],
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

    /// Alice keeps a chat open for ten minutes on a 2G-rural link (650 ms each way, 2% loss) while Bob writes once a
    /// minute; from minute 4 a 60 s burst loses 30% of her packets. PING every 30 s must keep the connection: a pong
    /// timeout shorter than the RTT plus a retransmission (RTO 1 s and more, RFC 6298) drops a live connection and
    /// reconnects, which a `pongTimeout` sweep shows as `reconnects`; a long one rides the losses out.
    public static let idleOnLossyLink = Scenario(
        "idle-on-lossy-link",
        summary: "ten minutes with a chat open on 2G-rural, a loss burst midway (a pong-timeout sweep scenario)",
        seeds: [161, 162, 163],
        tags: [.sweep],
        runLength: .minutes(15)
    ) {
        Server(history: ["alice+bob": 20])
        Client("alice", profile: .twoGRural)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.minutes(4)) { LossBurst("alice", for: .seconds(60), lossRate: 0.3) }
            for minute in 1...10 {
                At(.seconds(60 * minute)) { Send(from: "bob", text: "minute \(minute)", in: "alice+bob") }
            }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(14), .converged)
        }
    }
}
