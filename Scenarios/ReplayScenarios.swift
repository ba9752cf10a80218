import SyncSim

// Scenarios that check the capture round trip (`run --pcap`, `replay --emit-scenario`): the emitted scenario must
// still catch what the original catches (docs/roundtrip.md).

extension Catalog {
    /// Alice sends three messages on a GPRS link that drops twice, once right after the first send and once right
    /// after the third: each must reach the server once and in order (the engine must keep in-flight sends across a
    /// disconnect and re-send them with the same cid). Bob then opens the chat and scrolls through all of it.
    /// From issue 19: the emitter once lost both drops and the GPRS profile, so its scenario no longer failed.
    public static let gprsFlapThenScroll = Scenario(
        "gprs-flap-then-scroll",
        summary: "three sends on a flapping GPRS link arrive once, in order",
        seeds: [501, 502],
        tags: [.fieldBug]
    ) {
        Server(history: ["alice+bob": 120])
        Client("alice", profile: .gprs)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(5)) { Send(from: "alice", text: "one", in: "alice+bob") }
            At(.milliseconds(5200)) { LinkDown("alice", for: .seconds(15)) }
            At(.seconds(8)) { Send(from: "alice", text: "two", in: "alice+bob") }
            At(.seconds(25)) { Send(from: "alice", text: "three", in: "alice+bob") }
            At(.milliseconds(25300)) { LinkDown("alice", for: .seconds(20)) }
            At(.seconds(90)) { OpenChat("bob", "alice+bob") }
            At(.seconds(95)) { ScrollUp("bob", in: "alice+bob", messages: 200) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(4), .serverOrder(chat: "alice+bob", texts: ["one", "two", "three"]))
            Eventually(within: .minutes(5), .historyComplete(client: "bob", chat: "alice+bob"))
        }
    }
}
