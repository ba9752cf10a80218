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

    /// Bob's LOGIN lists one chat of two (`loginChatsCount` 1), and while his CHATS_LIST page is on its way Carol
    /// edits a message in the other chat: its `modified` time moves above the page's marker, so the page does not
    /// list it, and the edit's push is his only word of it. Before the fix the push for a chat missing from the list
    /// changed nothing and the chat stayed missing for good (`syncsim explore --param loginChatsCount=1 --param
    /// historyPageSize=1`, seed 703138, shrunk). Now such a push starts a CHATS_LIST pass from the top.
    public static let catchUpEditDuringFirstLogin = Scenario(
        "catch-up-chat-changed-during-pages",
        summary: "a chat changes while the CHATS_LIST pages after a full LOGIN page are read: its push gets it listed",
        seeds: [703_138],
        tags: [.history, .connection],
        runLength: .seconds(120)
    ) {
        Server(history: ["group1": 2, "group2": 1])
        Client("bob", profile: .edge, parameters: ["loginChatsCount": 1, "historyPageSize": 1])
        Client("carol", profile: .fourG, parameters: ["loginChatsCount": 1, "historyPageSize": 1])
        Chat("group1", members: ["bob", "carol"])
        Chat("group2", members: ["bob", "carol"])
        Timeline {
            At(.milliseconds(2714)) { EditMessage(from: "carol", in: "group1", text: "e327") }
        }
        Expect {
            Invariants(.all)
        }
    }

    /// Alice (2G, `loginChatsCount` 1) loses her network while her first catch-up's CHATS_LIST page is on its way;
    /// Carol edits a message Alice has cached. Session 10's engine kept last-sync at 0 until the last page, and a
    /// LOGIN from last-sync 0 carries no changes: the edit never reached her (`syncsim explore --param
    /// loginChatsCount=1 --param historyPageSize=1`, seed 703182, shrunk). Now last-sync moves with the LOGIN answer
    /// and the rest of the list is kept in the store, so the next LOGIN brings the edit and the pages go on.
    public static let firstCatchUpCutShort = Scenario(
        "first-catch-up-cut-short",
        summary: "the first catch-up is cut short by a lost network: the next LOGIN brings the edits made meanwhile",
        seeds: [703_182],
        tags: [.history, .connection],
        runLength: .seconds(300)
    ) {
        Server(history: ["alice+carol": 174, "group1": 1])
        Client("alice", profile: .twoGRural, parameters: ["prefetchDistance": 30, "loginChatsCount": 1,
                                                          "historyPageSize": 1])
        Client("carol", profile: .fourG, parameters: ["historyPageSize": 1, "loginChatsCount": 1])
        Chat("group1", members: ["alice", "carol"])
        Timeline {
            At(.milliseconds(4650)) { Connectivity("alice", .lost) }
            At(.milliseconds(6081)) { EditMessage(from: "carol", in: "alice+carol", text: "e18") }
            At(.milliseconds(36_218)) { PostFromOtherDevice("carol", text: "w2", in: "alice+carol") }
            At(.milliseconds(67_439)) { Connectivity("alice", .restored) }
        }
        Expect {
            Invariants(.all)
        }
    }
}
