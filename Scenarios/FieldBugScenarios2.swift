import SyncSim

// The second round of behaviours reported against field clients and servers in public trackers (issue 12,
// part 2), as regression scenarios. Each summary cites its report.

extension Catalog {
    /// Alice is away (link reset) while Bob sends 40 messages; after LOGIN, live messages arrive. The LOGIN entry
    /// opens a gap above her cached history; a client that takes its catch-up cursor from the first live message
    /// records no gap and never fetches the 40. The gap must stay until scrolling fills it.
    public static let catchUpCursorFromLivePush = Scenario(
        "catch-up-cursor-from-live-push",
        summary: "catch-up cursor never from a live message; an unfinished catch-up leaves a gap (fluux-messenger PR #534)",
        seeds: [501, 502],
        tags: [.fieldBug, .history]
    ) {
        Server(history: ["alice+bob": 30])
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { LinkDown("alice", .withReset) }
            for index in 0..<40 {
                At(.seconds(8) + .milliseconds(Int64(index) * 500)) {
                    Send(from: "bob", text: "missed \(index)", in: "alice+bob")
                }
            }
            At(.seconds(40)) { LinkUp("alice") }
            for index in 0..<6 {
                At(.seconds(50) + .seconds(index * 10)) { Send(from: "bob", text: "live \(index)", in: "alice+bob") }
            }
            At(.seconds(120)) { OpenChat("alice", "alice+bob") }
            At(.seconds(125)) { ScrollUp("alice", in: "alice+bob", messages: 200) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(5), .historyComplete(client: "alice", chat: "alice+bob"))
        }
    }

    /// Alice's send is stored but its response is lost; her retry with the same cid is answered with the server's
    /// "already exists" error, which means delivered: one message, no failed task, no retry loop.
    public static let retryAnsweredAlreadyExists = Scenario(
        "retry-answered-already-exists",
        summary: "a retry answered \"already exists\" counts as delivered, once (stream-chat-react PR #2331)",
        seeds: [511, 512],
        tags: [.fieldBug, .sending]
    ) {
        Server()
        Client("alice", profile: .threeG, parameters: ["maxTaskAttempts": 4])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(5)) { LoseResponses(to: .msgSend, count: 1) }
            At(.seconds(6)) { Send(from: "alice", text: "stored once", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .serverMessageCount(chat: "alice+bob", count: 1))
            Eventually(within: .minutes(2), .queueDrained(client: "alice"))
            MetricBound("tasksFailed", atMost: 0)
        }
    }

    /// Alice writes three messages offline, the app is killed and relaunched still offline, then the link returns:
    /// all three are delivered once, in order (the outbox is in the database, not in memory).
    public static let outboxSurvivesOfflineRestart = Scenario(
        "outbox-survives-offline-relaunch",
        summary: "three sends offline, app relaunched offline: all delivered once, in order (Expensify/App #5987)",
        seeds: [521, 522],
        tags: [.fieldBug, .sending]
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { LinkDown("alice", .withReset) }
            for (index, text) in ["one", "two", "three"].enumerated() {
                At(.seconds(4) + .seconds(index)) { Send(from: "alice", text: text, in: "alice+bob") }
            }
            At(.seconds(10)) { RestartApp("alice") }
            At(.seconds(20)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(3), .serverTexts(chat: "alice+bob", texts: ["one", "two", "three"]))
        }
    }

    /// Alice sends one message with three photos on EDGE: it goes out only after every upload is done, with all
    /// three photos, and nothing stays stuck uploading.
    public static let messageWaitsForAllUploads = Scenario(
        "message-waits-for-all-uploads",
        summary: "a three-photo message waits for every upload and carries all three (session-android PR #979)",
        seeds: [531, 532],
        tags: [.fieldBug, .sending]
    ) {
        Server()
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { SendPhotos(from: "alice", count: 3, bytes: 60_000, caption: "trip", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually("the server holds one message with all three photos", within: .minutes(4)) { probe in
                let messages = probe.serverMessages(in: "alice+bob")
                return messages.count == 1 && messages[0].attaches?.count == 3
            }
            Eventually(within: .minutes(4), .queueDrained(client: "alice"))
        }
    }

    /// For two minutes the server (or a proxy in front of it) answers every MSG_SEND at once with an error. Alice's
    /// send backs off exponentially with jitter and a cap, so the whole run stays under 60 requests; a client that
    /// retries at once sends hundreds. Her message goes out once the errors stop.
    public static let retryStormOnInstantErrors = Scenario(
        "retry-storm-on-instant-errors",
        summary: "instant errors for 2 min: retries back off (bounded request rate), then deliver (mtxclient #8)",
        seeds: [541, 542],
        tags: [.fieldBug, .sending],
        runLength: .minutes(5)
    ) {
        Server(parameters: ["msgSendErrorsFrom": .duration(.seconds(5)), "msgSendErrorsUntil": .duration(.seconds(125))])
        Client("alice", profile: .threeG)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(6)) { Send(from: "alice", text: "patient", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(5), .serverTexts(chat: "alice+bob", texts: ["patient"]))
            MetricBound("requests", atMost: 60)
        }
    }

    /// Alice's device clock runs 5 minutes slow. Her acknowledged messages must carry the server's time, so every
    /// device orders the conversation the same way; with the device time her messages sort above Bob's replies.
    public static let ownMessagesServerTime = Scenario(
        "own-messages-server-time",
        summary: "a device clock 5 min slow: acknowledged own messages take server time (wire-desktop #352)",
        seeds: [551, 552],
        tags: [.fieldBug, .sending]
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(1)) { SkewClock("alice", by: .minutes(-5)) }
            At(.seconds(4)) {
                OpenChat("alice", "alice+bob")
                OpenChat("bob", "alice+bob")
            }
            At(.seconds(6)) { Send(from: "alice", text: "question", in: "alice+bob") }
            At(.seconds(9)) { Send(from: "bob", text: "answer", in: "alice+bob") }
            At(.seconds(12)) { Send(from: "alice", text: "thanks", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .converged)
            Eventually("alice and bob order the chat by time as the server does", within: .minutes(2)) { probe in
                let server = probe.serverMessages(in: "alice+bob").map(\.id)
                return server.count == 3 && ["alice", "bob"].allSatisfy { client in
                    probe.cachedMessages(of: client, in: "alice+bob")
                        .sorted { ($0.time, $0.id) < ($1.time, $1.id) }.map(\.id) == server
                }
            }
        }
    }

    /// Alice's link dies silently at 10 s (no FIN reaches the server) while Bob keeps writing. The server must notice
    /// the dead connection within ping interval + timeout (50 s) and close it, and Alice gets every message on her
    /// next LOGIN: nothing is lost.
    public static let serverDetectsHalfOpen = Scenario(
        "server-detects-dead-connection",
        summary: "the server closes a silently dead connection within 50 s; nothing pushed is lost (ejabberd #1673)",
        seeds: [561, 562],
        tags: [.fieldBug, .connection]
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(10)) { LinkDown("alice") }
            for index in 0..<3 {
                At(.seconds(20) + .seconds(index * 10)) { Send(from: "bob", text: "into the void \(index)", in: "alice+bob") }
            }
            At(.seconds(120)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.all)
            Always(.serverSessions(client: "alice", count: 0), from: .seconds(65), until: .seconds(119))
            Eventually(within: .minutes(5), .converged)
        }
    }

    /// Alice's connection goes half-open (NAT rebinding) and her app reconnects on a new one while the server still
    /// holds the old: her LOGIN must replace the older session of the same device, so at most one stays live (the
    /// server's idle timeout is long here, so liveness alone would not clean up in time). Nothing is lost.
    public static let oneSessionPerDevice = Scenario(
        "one-session-per-device",
        summary: "after a blip the device's new LOGIN replaces its older session (wire-webapp PR #21448)",
        seeds: [571, 572],
        tags: [.fieldBug, .connection]
    ) {
        Server(parameters: ["idleTimeout": .duration(.seconds(300))])
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(10)) { HalfOpen("alice") }
            for index in 0..<3 {
                At(.seconds(20) + .seconds(index * 20)) { Send(from: "bob", text: "after blip \(index)", in: "alice+bob") }
            }
        }
        Expect {
            Invariants(.all)
            Eventually.world("after her reconnect alice has exactly one connection on the server, logged in",
                             within: .seconds(150)) { world in
                guard world.now >= .start + .seconds(Int64(90)), let alice = world.userIdentifier("alice") else {
                    return false
                }
                return world.server.openConnections.filter { $0.userId == alice }.count == 1
                    && world.isLoggedIn("alice")
            }
            Eventually(within: .minutes(4), .converged)
        }
    }

    /// Alice opens her chat with Bob, then her chat with Carol, while CHAT_HISTORY answers take 12 s; her link drops
    /// (with a reset) and she reconnects. This server sends a reply whose connection closed to the device's new
    /// connection (`repliesFollowDevice`), as Slack's RTM resends its last reply. A client whose seqs restart on each
    /// connection takes Bob's stale page for the answer to its new request for Carol's chat and files Bob's messages
    /// under Carol's. Replies must match (connection, seq, opcode): seqs go on counting across connections.
    public static let staleReplyOnNewConnection = Scenario(
        "stale-reply-on-new-connection",
        summary: "a reply from the last connection never completes a new request with its seq (node-slack-sdk #251)",
        seeds: [581, 582],
        tags: [.fieldBug, .connection]
    ) {
        Server(parameters: ["repliesFollowDevice": .bool(true)], history: ["alice+bob": 40, "alice+carol": 40])
        Client("alice", profile: .fourG)
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.seconds(3)) { DelayResponses(to: .chatHistory, by: .seconds(12), for: .seconds(60)) }
            At(.seconds(4)) { OpenChat("alice", "alice+bob") }
            At(.seconds(6)) { OpenChat("alice", "alice+carol") }
            At(.seconds(7)) { LinkDown("alice", for: .seconds(2), .withReset) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .converged)
        }
    }
}
