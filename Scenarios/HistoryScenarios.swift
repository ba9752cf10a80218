import SyncSim

// History cache, chunks and gaps (DESIGN.md §7, invariants C1-C6, V1).

extension Catalog {
    /// Bob writes 45 messages while Alice is offline, so the chat's last message changes: after login a new chunk
    /// opens at the top with a gap below it, and scrolling up fills the gap.
    public static let historyGapAfterLogin = Scenario(
        "history-gap-after-login",
        summary: "the last message changed while offline: a gap opens after login and scrolling fills it",
        seeds: [101, 102, 103],
        tags: [.history]
    ) {
        Server(history: ["alice+bob": 200])
        Client("alice", profile: .threeG, parameters: ["historyPageSize": 30])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(20)) { LinkDown("alice", for: .minutes(2)) }
            for index in 0..<45 {
                At(.seconds(30) + .seconds(index)) { Send(from: "bob", text: "while away \(index)", in: "alice+bob") }
            }
            At(.minutes(3)) { OpenChat("alice", "alice+bob") }
            At(.minutes(4)) { ScrollUp("alice", in: "alice+bob", messages: 400) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(8), .historyComplete(client: "alice", chat: "alice+bob"))
        }
    }

    /// Three offline spells each leave a gap in Alice's cache; scrolling to the top must cross every gap and end
    /// with one chunk marked start of history.
    public static let scrollThroughGapsToStart = Scenario(
        "scroll-through-gaps-to-start",
        summary: "scrolling to the top crosses several gaps and ends with one chunk from the start of history",
        seeds: [111, 112],
        tags: [.history],
        runLength: .minutes(15)
    ) {
        Server(history: ["alice+bob": 300])
        Client("alice", profile: .edge, parameters: ["historyPageSize": 25, "prefetchDistance": 10])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            for spell in 0..<3 {
                At(.minutes(1) + .minutes(spell * 2)) { LinkDown("alice", for: .seconds(60)) }
                for index in 0..<40 {
                    At(.minutes(1) + .minutes(spell * 2) + .seconds(5) + .milliseconds(index * 500)) {
                        Send(from: "bob", text: "spell \(spell) #\(index)", in: "alice+bob")
                    }
                }
                At(.minutes(2) + .minutes(spell * 2) + .seconds(10)) { OpenChat("alice", "alice+bob") }
            }
            At(.minutes(8)) { ScrollUp("alice", in: "alice+bob", messages: 1_000) }
        }
        Expect {
            Invariants(.chunks)
            Invariants(.V1)
            Eventually(within: .minutes(14), .historyComplete(client: "alice", chat: "alice+bob"))
        }
    }

    /// For a minute, a third of Alice's pushes are lost and a third duplicated while Bob writes: no message may
    /// appear twice, and the lost ones must come back through sync.
    public static let duplicatedAndLostPushes = Scenario(
        "duplicated-and-lost-pushes",
        summary: "lost and duplicated pushes leave no duplicate in the cache and sync restores the lost ones",
        seeds: [121, 122, 123],
        tags: [.history]
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(10)) {
                PushLoss("alice", probability: 0.3, for: .seconds(60))
                PushDuplication("alice", probability: 0.3, for: .seconds(60))
            }
            for index in 0..<30 {
                At(.seconds(12) + .seconds(index * 2)) { Send(from: "bob", text: "p\(index)", in: "alice+bob") }
            }
            At(.minutes(2)) { LinkDown("alice", for: .seconds(5), .withReset) }
            At(.minutes(3)) { OpenChat("alice", "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(5), .converged)
        }
    }

    /// A group chat of 100 phones on mixed profiles, twenty of whom write: every member converges on the same
    /// history.
    public static let groupChat100Mixed = Scenario(
        "group-chat-100-mixed",
        summary: "a 100-member group chat on mixed link profiles converges for every member",
        seeds: [131],
        tags: [.history, .slow],
        runLength: .minutes(15)
    ) {
        let profiles: [ProfileName] = [.edge, .threeG, .fourG, .wifi, .twoGRural, .gprs, .edgeLossy]
        let names = (0..<100).map { "u" + String(1_000 + $0).dropFirst() }
        Server()
        for (index, name) in names.enumerated() {
            Client(name, profile: profiles[index % profiles.count])
        }
        Chat("crowd", members: names)
        Timeline {
            for (index, name) in names.enumerated() where index % 5 == 0 {
                At(.seconds(10) + .seconds(index)) { Send(from: name, text: "hello from \(name)", in: "crowd") }
            }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(10), .serverMessageCount(chat: "crowd", count: 20))
            Eventually(within: .minutes(14), .converged)
        }
    }
}
