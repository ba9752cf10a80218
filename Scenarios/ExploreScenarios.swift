import SyncSim

// Regressions `syncsim explore` found against the reference engine and the simulator, shrunk (docs/explore.md).

extension Catalog {
    /// Carol scrolls to the top of a chat she never opened, and the scroll opens it; the first page's response is
    /// lost, so the open completes only after the history retry. The scroll must wait for the open instead of being
    /// dropped (explore seed 1004, shrunk from 151 steps).
    public static let exploreScrollWhileOpening = Scenario(
        "explore-scroll-while-opening",
        summary: "a scroll issued while the chat's first page is still loading is kept, not dropped",
        seeds: [1004, 1, 2],
        tags: [.history],
        runLength: .seconds(572)
    ) {
        Server(history: ["alice+carol": 1])
        Client("alice", profile: .twoGRural, parameters: ["prefetchDistance": 30])
        Client("carol", profile: .edge)
        Chat("group1", members: ["alice", "carol"])
        Chat("group2", members: ["alice", "carol"])
        Timeline {
            At(.milliseconds(49_875)) { LoseResponses(to: .chatHistory, count: 3) }
            At(.milliseconds(227_511)) { ScrollUp("carol", in: "alice+carol", messages: 1000) }
        }
        Expect {
            Invariants(.all)
        }
    }

    /// Bob's GPRS link hands over to offline while his photo upload still has packets queued, and back 30 s later:
    /// the queued packets are dropped as on a link that is down (the simulator divided by the zero rate before),
    /// and the upload and the message behind it are delivered once the link is back.
    public static let exploreHandoverToOfflineMidUpload = Scenario(
        "explore-handover-to-offline-mid-upload",
        summary: "a handover to offline while packets wait in the queue drops them; everything is delivered after",
        seeds: [1, 2, 3],
        tags: [.connection],
        runLength: .minutes(8)
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .gprs)
        Timeline {
            At(.seconds(5)) { SendPhoto(from: "bob", bytes: 40_000, caption: "view", in: "alice+bob") }
            At(.seconds(7)) { Send(from: "bob", text: "after the photo", in: "alice+bob") }
            At(.seconds(9)) { Handover("bob", to: .offline) }
            At(.seconds(39)) { Handover("bob", to: .gprs) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(6), .serverMessageCount(chat: "alice+bob", count: 2))
        }
    }
}
