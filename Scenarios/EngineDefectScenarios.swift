import SyncSim

// Defects of the reference engine found by trying it as a new user would (issue 12, part 1): each scenario failed
// before its fix.

extension Catalog {
    /// Alice opens a chat and sends, with no faults: her message is on screen from the send on, as a local echo and
    /// then as a stored message in the chunk she looks at. Before the fix the acknowledged message sat in a
    /// one-message chunk above the visible one and never came back to the screen without further traffic.
    public static let ownSendStaysOnScreen = Scenario(
        "own-send-stays-on-screen",
        summary: "a sent message stays on screen after its ack: it joins the chunk the screen shows",
        seeds: [401, 402],
        tags: [.history, .sending]
    ) {
        Server(history: ["alice+bob": 30])
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(3)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { Send(from: "alice", text: "mine", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually("alice's message is stored and on screen in the chunk she looks at", within: .seconds(60),
                       clients: ["alice"]) { probe in
                let visible = probe.screen(of: "alice").visibleMessageIds
                guard let first = visible.first,
                      let chunk = probe.chunks(of: "alice", in: "alice+bob").first(where: {
                          $0.lower <= first && first <= $0.upper
                      }),
                      let mine = probe.cachedMessages(of: "alice", in: "alice+bob").first(where: { $0.text == "mine" })
                else { return false }
                return visible.contains(mine.id) && chunk.lower <= mine.id && mine.id <= chunk.upper
            }
        }
    }

    /// Alice has a chat open when her link drops (with a reset) for 20 s while Bob sends 6 messages: after LOGIN the
    /// view moves to the newest page and scrolling up bridges the gap below it (C6). Before the fix the view stayed
    /// on the old start-of-history chunk, message 4 was never fetched, and only reopening the chat hid it.
    public static let openChatAcrossReconnect = Scenario(
        "open-chat-across-reconnect",
        summary: "a chat open across a reconnect moves to the newest page; scrolling up bridges the gap (C6)",
        seeds: [411, 412],
        tags: [.history, .connection]
    ) {
        Server(history: ["alice+bob": 3])
        Client("alice", profile: .threeG, parameters: ["historyPageSize": 5])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { LinkDown("alice", for: .seconds(20), .withReset) }
            for index in 0..<6 {
                At(.seconds(8) + .seconds(index * 2)) { Send(from: "bob", text: "away \(index)", in: "alice+bob") }
            }
            At(.seconds(60)) { ScrollUp("alice", in: "alice+bob", messages: 20) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .seconds(90), .historyComplete(client: "alice", chat: "alice+bob"))
        }
    }

    /// Bob's three messages arrive while Alice has the chat open; her marks for them are slow to be answered and her
    /// link drops (with a reset); she opens the chat 8 times offline. The newest mark is kept and sent once after
    /// LOGIN, so the server's read position reaches Bob's last message. Before the fix marks went out only on an
    /// open, were dropped while offline, and the server's mark stayed behind.
    public static let readMarkKeptOffline = Scenario(
        "read-mark-kept-offline",
        summary: "read marks advance only, are kept while offline and sent once after LOGIN",
        seeds: [421, 422],
        tags: [.history, .connection]
    ) {
        Server(history: ["alice+bob": 25])
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(4)) { DelayResponses(to: .chatMark, by: .seconds(10), for: .seconds(5)) }
            for index in 0..<3 {
                At(.seconds(5) + .seconds(index)) { Send(from: "bob", text: "new \(index)", in: "alice+bob") }
            }
            At(.seconds(10)) { LinkDown("alice", .withReset) }
            for index in 0..<8 {
                At(.seconds(11) + .seconds(index)) { OpenChat("alice", "alice+bob") }
            }
            At(.seconds(30)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .seconds(90), .readUpToNewest(client: "alice", chat: "alice+bob"))
        }
    }

    /// Alice's 500 KB photo upload on EDGE is cut three times by link drops (with a reset), with `maxTaskAttempts`
    /// 3: interruptions by the network are not task attempts, so the photo is still delivered. Before the fix each
    /// cut counted, and the third failed the photo for good.
    public static let uploadSurvivesLinkDrops = Scenario(
        "upload-survives-link-drops",
        summary: "an upload cut by link drops is not a failed attempt; the photo is delivered",
        seeds: [431, 432],
        tags: [.sending]
    ) {
        Server()
        Client("alice", profile: .edge, parameters: ["maxTaskAttempts": 3])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(1)) { SendPhoto(from: "alice", bytes: 500_000, caption: "cut", in: "alice+bob") }
            for index in 0..<4 {
                At(.seconds(12) + .seconds(index * 15)) { LinkDown("alice", for: .seconds(2), .withReset) }
            }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(4), .serverTexts(chat: "alice+bob", texts: ["cut"]))
            MetricBound("tasksFailed", atMost: 0)
        }
    }

    /// Bob asks LOGIN for two chats (`loginChatsCount` 2) and comes back from 70 s offline to five changed ones:
    /// the answer lists the two newest, the other three come from CHATS_LIST pages after it, and the edit of a
    /// message he had cached in one of those (Alice's, no longer the chat's last) comes with the LOGIN answer.
    /// Before the fix the engine took the LOGIN page as the whole list and moved last-sync past the other chats, so
    /// they stayed missing from his chat list, with the old text cached (`syncsim explore --param
    /// loginChatsCount=1`: 31 of 150 runs broke V1).
    public static let catchUpPastLoginPage = Scenario(
        "catch-up-past-login-page",
        summary: "more chats changed while away than LOGIN lists: the rest come from CHATS_LIST pages, edits too",
        seeds: [441, 442, 443],
        tags: [.history, .connection]
    ) {
        Server(history: ["alice+bob": 3, "bob+carol": 3, "bob+dave": 2, "group1": 5, "group2": 2])
        Client("alice", profile: .fourG)
        Client("bob", profile: .threeG, parameters: ["loginChatsCount": 2])
        Client("carol", profile: .wifi)
        Client("dave", profile: .edge)
        Chat("group1", members: ["alice", "bob", "carol"])
        Chat("group2", members: ["bob", "carol", "dave"])
        Timeline {
            At(.seconds(3)) { OpenChat("bob", "group1") }
            At(.seconds(5)) { Send(from: "alice", text: "a1", in: "group1") }
            At(.seconds(8)) { OpenChat("bob", "alice+bob") }
            At(.seconds(12)) { LinkDown("bob", for: .seconds(70), .withReset) }
            At(.seconds(20)) { Send(from: "carol", text: "c1", in: "group1") }
            At(.seconds(22)) { EditMessage(from: "alice", in: "group1", text: "a1, edited while bob was away") }
            At(.seconds(30)) { Send(from: "dave", text: "d1", in: "group2") }
            At(.seconds(31)) { Send(from: "dave", text: "d2", in: "bob+dave") }
            At(.seconds(32)) { Send(from: "carol", text: "c2", in: "bob+carol") }
            At(.seconds(33)) { Send(from: "alice", text: "a2", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .converged)
        }
    }
}
