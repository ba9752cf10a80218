import SyncSim

// Link profiles of a scenario's own (docs/models.md, "Link profiles of your own").

extension Catalog {
    /// A cell none of the catalog's profiles describes: EDGE rates with bursty Gilbert-Elliott loss and jitter that
    /// reorders packets, both ways. Alice scrolls to the top of a long history across a gap, sends through a drop
    /// and a handover to it from 3G (Bob starts on it): TCP must deliver every frame in order over reordered and burst-lost segments,
    /// and the engine's chunks and task queue must hold as on the catalog's links.
    public static let burstyReorderingCell = Scenario(
        "bursty-reordering-cell",
        summary: "a cell of the scenario's own, bursty loss and reordering jitter: history merges, sends land once",
        seeds: [1301, 1302],
        tags: [.history, .sending]
    ) {
        Server(history: ["alice+bob": 150])
        LinkProfile(
            name: "EDGE-bursty-reordering",
            source: "assumption: ATC Edge-Average rates with netem-style gemodel loss and reordering jitter",
            uplink: .init(rateBitsPerSecond: 200_000, oneWayDelay: .milliseconds(440),
                          jitter: .uniform(maximum: .milliseconds(150)), reordersPackets: true,
                          loss: .gilbertElliott(p: 0.02, r: 0.3, oneMinusH: 0.3, oneMinusK: 0.001)),
            downlink: .init(rateBitsPerSecond: 240_000, oneWayDelay: .milliseconds(400),
                            jitter: .exponential(mean: .milliseconds(40)), reordersPackets: true,
                            loss: .gilbertElliott(p: 0.02, r: 0.3, oneMinusH: 0.3, oneMinusK: 0.001))
        )
        Client("alice", profile: .threeG, parameters: ["historyPageSize": 20])
        Client("bob", profile: "EDGE-bursty-reordering")
        Timeline {
            At(.seconds(2)) { Handover("alice", to: "EDGE-bursty-reordering") }
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(20)) { LinkDown("alice", for: .seconds(40)) }
            for index in 0..<25 {
                At(.seconds(25) + .seconds(index)) { Send(from: "bob", text: "while away \(index)", in: "alice+bob") }
            }
            for index in 0..<5 {
                At(.seconds(30) + .seconds(2 * index)) { Send(from: "alice", text: "queued \(index)", in: "alice+bob") }
            }
            At(.minutes(2)) { ScrollUp("alice", in: "alice+bob", messages: 400) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(8), .serverMessageCount(chat: "alice+bob", count: 180))
            Eventually(within: .minutes(8), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(9), .converged)
        }
    }
}
