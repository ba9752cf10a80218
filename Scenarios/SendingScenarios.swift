import SyncSim

// Sending and the persistent task queue (DESIGN.md §7, invariants T1-T6).

extension Catalog {
    /// A send is in flight when Alice's EDGE link drops for 25 s, longer than the 20 s request timeout: the send
    /// times out and is retried while the first copy still waits in TCP; the queue must deliver it exactly once.
    public static let reconnectDuringSend = Scenario(
        "reconnect-during-send",
        summary: "a send in flight when the EDGE link drops for 25 s is delivered exactly once",
        seeds: [1, 2, 3],
        tags: [.sending]
    ) {
        Server()
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(6)) { Send(from: "alice", text: "hi", in: "alice+bob") }
            At(.milliseconds(6_300)) { LinkDown("alice", for: .seconds(25)) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .serverMessageCount(chat: "alice+bob", count: 1))
            Eventually(within: .minutes(3), .converged)
        }
    }

    /// The server answers a later request first (a slow CHAT_HISTORY overtaken by MSG_SEND responses): every
    /// response must still reach its own waiter.
    public static let outOfOrderResponses = Scenario(
        "out-of-order-responses",
        summary: "the server answers a later request first; each response reaches its own waiter",
        seeds: [11, 12, 13],
        tags: [.sending]
    ) {
        Server(history: ["alice+bob": 120, "alice+carol": 40])
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.milliseconds(9_900)) { DelayResponses(to: .chatHistory, by: .seconds(3), for: .seconds(2)) }
            At(.seconds(10)) { OpenChat("alice", "alice+bob") }
            At(.milliseconds(10_200)) { Send(from: "alice", text: "one", in: "alice+carol") }
            After(.milliseconds(200)) { Send(from: "alice", text: "two", in: "alice+carol") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(1), .serverOrder(chat: "alice+carol", texts: ["one", "two"]))
            Eventually(within: .minutes(2), .converged)
        }
    }

    /// A 150 kB photo on a 2G-rural uplink (about a minute of upload) loses its link for 20 s mid-upload; the
    /// upload resumes or restarts and the photo message is sent once, after its upload.
    public static let photoOn2GLinkDrop = Scenario(
        "photo-on-2g-link-drop",
        summary: "a photo upload on 2G loses the link mid-upload; the photo message goes out once, after the upload",
        seeds: [21, 22],
        tags: [.sending, .photo],
        runLength: .minutes(20)
    ) {
        Server()
        Client("alice", profile: .twoGRural)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(10)) { SendPhoto(from: "alice", bytes: 150_000, caption: "view", in: "alice+bob") }
            At(.seconds(40)) { LinkDown("alice", for: .seconds(20)) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .serverMessageCount(chat: "alice+bob", count: 1))
            Eventually(within: .minutes(15), .queueDrained(client: "alice"))
        }
    }

    /// Texts and a photo are queued offline, then the app restarts before the network returns: the tasks come
    /// back from the database and are all sent, in order.
    public static let restartWithPendingTasks = Scenario(
        "restart-with-pending-tasks",
        summary: "tasks queued offline survive an app restart and are sent in order",
        seeds: [31, 32],
        tags: [.sending]
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { LinkDown("alice") }
            At(.seconds(3)) { Send(from: "alice", text: "a", in: "alice+bob") }
            At(.seconds(4)) { Send(from: "alice", text: "b", in: "alice+bob") }
            At(.seconds(5)) { SendPhoto(from: "alice", bytes: 60_000, caption: "c", in: "alice+bob") }
            At(.seconds(6)) { Send(from: "alice", text: "d", in: "alice+bob") }
            At(.seconds(8)) { RestartApp("alice") }
            At(.seconds(20)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(3), .serverTexts(chat: "alice+bob", texts: ["a", "b", "c", "d"]))
        }
    }

    /// The app crashes while a photo uploads; after the restart the committed tasks resume and the photo is sent
    /// once, never before its upload.
    public static let crashMidPhotoUpload = Scenario(
        "crash-mid-photo-upload",
        summary: "the app crashes mid photo upload; the photo is sent once after a finished upload",
        seeds: [41, 42],
        tags: [.sending, .photo]
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { SendPhoto(from: "alice", bytes: 400_000, in: "alice+bob") }
            At(.seconds(7)) { CrashApp("alice") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(4), .serverMessageCount(chat: "alice+bob", count: 1))
        }
    }

    /// A delay spike of several RTTs on EDGE (RFC 3481 §2.4) hits a burst of sends: timeouts and retries must not
    /// duplicate or reorder messages.
    public static let delaySpikeDuringSends = Scenario(
        "delay-spike-during-sends",
        summary: "a multi-second delay spike during a burst of sends causes no duplicate and no reordering",
        seeds: [51, 52, 53],
        tags: [.sending]
    ) {
        Server()
        Client("alice", profile: .edge, parameters: ["requestTimeout": .duration(.seconds(20))])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(10)) { DelaySpike("alice", by: .seconds(12), for: .seconds(30)) }
            for index in 0..<5 {
                At(.seconds(11) + .seconds(index * 2)) {
                    Send(from: "alice", text: "burst \(index)", in: "alice+bob")
                }
            }
        }
        Expect {
            Invariants(.all)
            Eventually(
                within: .minutes(4),
                .serverTexts(chat: "alice+bob", texts: ["burst 0", "burst 1", "burst 2", "burst 3", "burst 4"])
            )
        }
    }
}
