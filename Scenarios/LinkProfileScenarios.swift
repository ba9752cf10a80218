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

    /// Radio fades that last seconds, not packets (`LossModel.gilbertElliottTimed`): an EDGE cell whose fades of 3 s on
    /// average come every 20 s and lose 90% of packets while they last. Alice sends photos and texts across them and
    /// scrolls a long history; Bob, on the same cell, goes out of coverage for 30 s and receives everything. A fade
    /// ends with time even while TCP backs off, so the queue drains minutes, not hours, after the last send.
    public static let timedFadesCell = Scenario(
        "timed-fades-cell",
        summary: "radio fades of seconds on an EDGE cell: photos, sends and a scroll across them land once, in order",
        seeds: [3301, 3302],
        tags: [.history, .sending]
    ) {
        Server(history: ["alice+bob": 120])
        LinkProfile(
            name: "EDGE-fades",
            source: "assumption: ATC Edge-Average rates with radio fades of 3 s every 20 s, 90% of packets lost in one",
            uplink: .init(rateBitsPerSecond: 200_000, oneWayDelay: .milliseconds(440),
                          loss: .gilbertElliottTimed(meanGood: .seconds(20), meanBad: .seconds(3), oneMinusH: 0.9,
                                                     oneMinusK: 0.001)),
            downlink: .init(rateBitsPerSecond: 240_000, oneWayDelay: .milliseconds(400),
                            loss: .gilbertElliottTimed(meanGood: .seconds(20), meanBad: .seconds(3), oneMinusH: 0.9,
                                                       oneMinusK: 0.001))
        )
        Client("alice", profile: "EDGE-fades", parameters: ["historyPageSize": 20])
        Client("bob", profile: "EDGE-fades")
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(10)) { SendPhotos(from: "alice", count: 3, bytes: 30_000, caption: "fading", in: "alice+bob") }
            for index in 0..<10 {
                At(.seconds(12) + .seconds(3 * index)) { Send(from: "alice", text: "fade \(index)", in: "alice+bob") }
            }
            At(.seconds(20)) { LinkDown("bob", for: .seconds(30)) }
            for index in 0..<5 {
                At(.seconds(25) + .seconds(2 * index)) { Send(from: "bob", text: "back \(index)", in: "alice+bob") }
            }
            At(.minutes(1)) { ScrollUp("alice", in: "alice+bob", messages: 300) }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "fading", photos: 3))
            Eventually(within: .minutes(10), .serverMessageCount(chat: "alice+bob", count: 136))
            Eventually(within: .minutes(10), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(12), .converged)
        }
    }
}
