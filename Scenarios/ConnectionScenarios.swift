import SyncSim

// Connections, requests and the server (DESIGN.md §5-§7, invariants P1-P4).

extension Catalog {
    /// The server restarts while both users send: connections drop, data stays, every send lands once.
    public static let serverRestart = Scenario(
        "server-restart",
        summary: "the server restarts while sends are in flight; every message lands exactly once",
        seeds: [201, 202],
        tags: [.connection]
    ) {
        Server(history: ["alice+bob": 50])
        Client("alice", profile: .threeG)
        Client("bob", profile: .edge)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(10)) {
                Send(from: "alice", text: "before restart", in: "alice+bob")
                Send(from: "bob", text: "also before", in: "alice+bob")
            }
            At(.milliseconds(10_150)) { ServerRestart(downtime: .seconds(5)) }
            At(.seconds(30)) { Send(from: "alice", text: "after restart", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .serverMessageCount(chat: "alice+bob", count: 53))
            Eventually(within: .minutes(3), .converged)
        }
    }

    /// Alice's connection goes half-open (NAT rebinding): the server still thinks she is there, her pushes vanish,
    /// and only her ping notices (her request timeout, 60 s, is longer than the pong timeout, so her send is still in
    /// flight when the connection is dropped). She must reconnect, send and catch up.
    public static let halfOpenConnection = Scenario(
        "half-open-connection",
        summary: "a half-open connection is noticed by timeout or ping; the client reconnects, sends and catches up",
        seeds: [211, 212],
        tags: [.connection]
    ) {
        Server()
        Client("alice", profile: .threeG, parameters: ["requestTimeout": .duration(.seconds(60))])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(20)) { HalfOpen("alice") }
            At(.seconds(25)) { Send(from: "bob", text: "are you there?", in: "alice+bob") }
            At(.seconds(30)) { Send(from: "alice", text: "yes", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(3), .serverOrder(chat: "alice+bob", texts: ["are you there?", "yes"]))
            Eventually(within: .minutes(4), .converged)
        }
    }

    /// A field client with 8-bit seqs (256 slots) starts just below the wrap, and a CHAT_HISTORY request stays
    /// pending for a minute while 300 sends go out: allocation must wrap past the pending seq without reusing it,
    /// and the late response must find its waiter.
    public static let seqWrapLongPending = Scenario(
        "seq-wrap-long-pending",
        summary: "seq wraps at 65536 while an old request is pending; no seq is reused and responses match",
        seeds: [221, 222],
        tags: [.connection]
    ) {
        Server(history: ["alice+bob": 100])
        Client(
            "alice", profile: .fourG,
            parameters: ["seqModulus": 256, "initialSeq": 250, "requestTimeout": .duration(.minutes(2))]
        )
        Client("bob", profile: .fourG)
        Timeline {
            At(.milliseconds(4_900)) { DelayResponses(to: .chatHistory, by: .seconds(60), for: .seconds(1)) }
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            for index in 0..<300 {
                At(.seconds(6) + .milliseconds(index * 100)) {
                    Send(from: "alice", text: "n\(index)", in: "alice+bob")
                }
            }
        }
        Expect {
            Invariants(.protocolAndSync)
            Invariants(.T2, .T4)
            Eventually(within: .minutes(3), .serverMessageCount(chat: "alice+bob", count: 400))
        }
    }

    /// Alice uploads a photo on Wi-Fi and walks out of range: the link hands over to EDGE mid-upload, connections
    /// survive on the slower link and everything is delivered.
    public static let wifiToEdgeHandover = Scenario(
        "wifi-to-edge-handover",
        summary: "a Wi-Fi to EDGE handover mid photo upload; the upload and the texts behind it are delivered",
        seeds: [231, 232],
        tags: [.connection]
    ) {
        Server()
        Client("alice", profile: .wifi)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { SendPhoto(from: "alice", bytes: 500_000, caption: "beach", in: "alice+bob") }
            At(.milliseconds(2_500)) { Send(from: "alice", text: "look", in: "alice+bob") }
            At(.seconds(3)) { Handover("alice", to: .edge) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(3), .serverTexts(chat: "alice+bob", texts: ["beach", "look"]))
        }
    }

    /// Alice's device clock runs three hours behind the server: last-sync must come from server time, so a
    /// reconnect still fetches what Bob wrote meanwhile.
    public static let clockSkewLastSync = Scenario(
        "clock-skew-last-sync",
        summary: "a device clock three hours behind never becomes last-sync; reconnect still catches up",
        seeds: [241, 242],
        tags: [.connection]
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(1)) { SkewClock("alice", by: .hours(-3)) }
            At(.seconds(5)) { Send(from: "bob", text: "first", in: "alice+bob") }
            At(.seconds(20)) { LinkDown("alice", for: .seconds(40)) }
            At(.seconds(30)) { Send(from: "bob", text: "while away", in: "alice+bob") }
            At(.minutes(2)) { OpenChat("alice", "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(4), .converged)
        }
    }
}
