import SyncSim

// Behaviours reported against field clients in public bug trackers, as regression scenarios.

extension Catalog {
    /// Alice's app sits in the background while Bob sends more than one LOGIN window of messages: on resume only
    /// the newest page shows, the older messages must be a gap that scrolling fills (not silently skipped). Alice
    /// had the older history cached, so the last page up bridges the gap to it (100 messages: not a whole number of
    /// 40-message pages, so that page spans the gap).
    public static let backgroundBeyondLoginWindow = Scenario(
        "background-beyond-login-window",
        summary: "backgrounded while a peer sends more than a LOGIN window; resume shows a gap that scrolling fills",
        seeds: [301, 302, 303],
        tags: [.fieldBug, .history]
    ) {
        Server(history: ["alice+bob": 50])
        Client("alice", profile: .threeG, parameters: ["historyPageSize": 40])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(10)) { Background("alice") }
            for index in 0..<100 {
                At(.seconds(20) + .seconds(index)) { Send(from: "bob", text: "bg \(index)", in: "alice+bob") }
            }
            At(.seconds(200)) { Foreground("alice") }
            At(.seconds(205)) { OpenChat("alice", "alice+bob") }
            At(.seconds(230)) { ScrollUp("alice", in: "alice+bob", messages: 200) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(7), .historyComplete(client: "alice", chat: "alice+bob"))
        }
    }

    /// Bob's messages arrive while Alice's socket is down, and one more right after she reconnects: the catch-up
    /// point must come from the LOGIN response, never from that live push.
    public static let messagesWhileSocketDown = Scenario(
        "messages-while-socket-down",
        summary: "messages sent while the socket is down and right after reconnect; last-sync never from a live push",
        seeds: [311, 312],
        tags: [.fieldBug, .history]
    ) {
        Server()
        Client("alice", profile: .edge)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(20)) { LinkDown("alice") }
            for index in 0..<5 {
                At(.seconds(25) + .seconds(index)) { Send(from: "bob", text: "missed \(index)", in: "alice+bob") }
            }
            At(.seconds(40)) { LinkUp("alice") }
            At(.milliseconds(41_500)) { Send(from: "bob", text: "live", in: "alice+bob") }
            At(.seconds(60)) { LinkDown("alice", for: .seconds(30)) }
            At(.seconds(70)) { Send(from: "bob", text: "missed again", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(4), .converged)
        }
    }

    /// Alice's link clogs (a deep buffer that does not drain), so her send times out and is re-sent while the
    /// first copy still sits in the network; when the buffer drains both copies arrive: one message only.
    public static let resendWhileFirstCopyQueued = Scenario(
        "resend-while-first-copy-queued",
        summary: "a re-send while the first copy is still queued in the network yields one message",
        seeds: [321, 322],
        tags: [.fieldBug, .sending]
    ) {
        Server()
        Client("alice", profile: .edge, parameters: ["requestTimeout": .duration(.seconds(20))])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(10)) { Clog("alice") }
            At(.milliseconds(10_500)) { Send(from: "alice", text: "only once", in: "alice+bob") }
            At(.seconds(45)) { Release("alice") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(3), .serverMessageCount(chat: "alice+bob", count: 1))
        }
    }

    /// The server stores Alice's message but the response is lost: she times out and retries, and the retry
    /// with the same cid must not create a second message.
    public static let responseLostAfterStore = Scenario(
        "response-lost-after-store",
        summary: "the server stores a message but its response is lost; timeout, retry, still one message",
        seeds: [331, 332],
        tags: [.fieldBug, .sending]
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(5)) { LoseResponses(to: .msgSend, count: 1) }
            At(.seconds(6)) { Send(from: "alice", text: "stored once", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .serverMessageCount(chat: "alice+bob", count: 1))
            Eventually(within: .minutes(2), .queueDrained(client: "alice"))
        }
    }

    /// Alice writes a, b, c, d offline; when the network returns they must reach the server in that order, although
    /// the server processes requests with up to 300 ms of jitter (a multi-threaded server: responses may overtake).
    public static let offlineSendsInOrder = Scenario(
        "offline-sends-in-order",
        summary: "offline sends a, b, c, d reach the server in order",
        seeds: [341, 342, 343],
        tags: [.fieldBug, .sending]
    ) {
        Server(parameters: ["processingJitter": .duration(.milliseconds(300))])
        Client("alice", profile: .edgeLossy)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { LinkDown("alice") }
            for (index, text) in ["a", "b", "c", "d"].enumerated() {
                At(.seconds(3) + .seconds(index)) { Send(from: "alice", text: text, in: "alice+bob") }
            }
            At(.seconds(30)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(3), .serverTexts(chat: "alice+bob", texts: ["a", "b", "c", "d"]))
        }
    }

    /// Alice sends A while her link loses 40% of packets, then B a moment later: B must not overtake A, although
    /// the server processes requests with up to 1 s of jitter (a slow multi-threaded server) and a lost segment can
    /// make A and B arrive together.
    public static let weakLinkSendOrder = Scenario(
        "weak-link-send-order",
        summary: "A sent on a weak link, then B a moment later: the server has A before B",
        seeds: [351, 352, 353],
        tags: [.fieldBug, .sending]
    ) {
        Server(parameters: ["processingJitter": .duration(.seconds(1))])
        Client("alice", profile: .twoGRural)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(9)) { LossBurst("alice", for: .seconds(30), lossRate: 0.4) }
            At(.seconds(10)) { Send(from: "alice", text: "A", in: "alice+bob") }
            At(.milliseconds(10_200)) { Send(from: "alice", text: "B", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(5), .serverOrder(chat: "alice+bob", texts: ["A", "B"]))
        }
    }

    /// A send is stuck on a dying Wi-Fi link; the phone switches to EDGE (a new address: the old connection is reset)
    /// and the send must flush on the new link without an app restart.
    public static let stuckSendFlushesAfterHandover = Scenario(
        "stuck-send-flushes-after-handover",
        summary: "a send stuck on a dying link flushes after a Wi-Fi to EDGE switch, without restart",
        seeds: [361, 362],
        tags: [.fieldBug, .connection]
    ) {
        Server()
        Client("alice", profile: .wifi)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(10)) { LinkDown("alice") }
            At(.seconds(11)) { Send(from: "alice", text: "stuck", in: "alice+bob") }
            At(.seconds(20)) {
                LinkDown("alice", .withReset)
                Handover("alice", to: .edge)
                LinkUp("alice")
            }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .seconds(90), .serverMessageCount(chat: "alice+bob", count: 1))
        }
    }

    /// A network switch leaves Alice's connection half-open with two unsent messages, then she restarts the app:
    /// the messages are still queued after the restart and are sent.
    public static let halfOpenSwitchThenRestart = Scenario(
        "half-open-switch-then-restart",
        summary: "half-open on a network switch, then an app restart: unsent messages survive and are sent",
        seeds: [371, 372],
        tags: [.fieldBug, .connection]
    ) {
        Server()
        Client("alice", profile: .wifi)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(10)) {
                HalfOpen("alice")
                Handover("alice", to: .edge)
            }
            At(.seconds(11)) { Send(from: "alice", text: "x", in: "alice+bob") }
            At(.seconds(12)) { Send(from: "alice", text: "y", in: "alice+bob") }
            At(.seconds(15)) { RestartApp("alice") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(3), .serverTexts(chat: "alice+bob", texts: ["x", "y"]))
        }
    }

    /// The server rejects LOGIN again and again: each reconnect must wait longer than the last (backoff resets
    /// only after a successful LOGIN), so five minutes see only a handful of attempts. The bound: with the default
    /// backoff (1 s doubling to a 60 s cap, each delay drawn in [d/2, d]) the shortest schedule makes 7 attempts in
    /// the first ~32 s and then one every 30 s at least, about 18 in 350 s; a backoff reset on connect makes hundreds.
    public static let loginRejectedBackoffGrows = Scenario(
        "login-rejected-backoff-grows",
        summary: "LOGIN rejected repeatedly; reconnect backoff keeps growing instead of resetting on connect",
        seeds: [381, 382],
        tags: [.fieldBug, .connection],
        runLength: .minutes(6)
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(5)) { LinkDown("alice", .withReset) }
            At(.seconds(6)) { ErrorReplies(to: .login, count: 1_000) }
            At(.seconds(10)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.protocolAndSync)
            Invariants(.T1)
            MetricBound("loginAttempts", atMost: 20)
        }
    }

    /// After a reconnect a live push arrives before the catch-up LOGIN response (which the server delays): the
    /// catch-up must still fetch the messages between the old history and the push.
    public static let pushBeforeCatchUp = Scenario(
        "push-before-catch-up",
        summary: "a live push arrives before catch-up after reconnect; catch-up still fetches the messages before it",
        seeds: [391, 392],
        tags: [.fieldBug, .history]
    ) {
        Server(history: ["alice+bob": 30])
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(20)) { LinkDown("alice") }
            for index in 0..<10 {
                At(.seconds(25) + .seconds(index)) { Send(from: "bob", text: "gap \(index)", in: "alice+bob") }
            }
            At(.seconds(59)) { DelayResponses(to: .login, by: .seconds(3), for: .seconds(10)) }
            At(.seconds(60)) { LinkUp("alice") }
            At(.milliseconds(61_500)) { Send(from: "bob", text: "live", in: "alice+bob") }
            At(.seconds(70)) { OpenChat("alice", "alice+bob") }
            At(.seconds(75)) { ScrollUp("alice", in: "alice+bob", messages: 60) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(3), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(3), .converged)
        }
    }
}
