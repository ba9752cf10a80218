import SyncSim

// Photo uploads `syncsim explore` found the reference engine getting wrong, shrunk and tidied (docs/explore.md,
// "Defects found against the reference engine").

extension Catalog {
    /// Bob sends 20 photos on GPRS (20 kbit/s up) with a seq space of 8 (`seqModulus`). His own uploads fill the
    /// uplink, so his PHOTO_UPLOAD token requests wait behind them for up to 30 s and time out (20 s); once every
    /// seq is busy a timed-out one is handed out again, and the late answer to the old request completes the new
    /// one: the task gets a token the server issued for another photo's size. The CDN refused it at every attempt
    /// and the task kept it, retrying until the run ended (T5; explore seeds 6077, 7483, 12436, 14797, shrunk from
    /// 6077). A refused upload now gives its token up and asks PHOTO_UPLOAD for a fresh one.
    public static let exploreUploadRefusedTokenRenewed = Scenario(
        "explore-upload-refused-token-renewed",
        summary: "an upload the CDN refuses (another photo's token, from a late answer on a reused seq) gets a new token",
        seeds: [6077, 1, 2],
        tags: [.sending],
        runLength: .minutes(15)
    ) {
        Server()
        Client("alice", profile: .wifi)
        // Tasks that never give up (the explore probe's 133 attempts), so a task stuck on a refused token is T5
        // instead of a visible failure. Every upload at once, as the engine ran them when explore found this: one at a
        // time (the default since session 27) leaves no upload in front of a token request.
        Client("bob", profile: .gprs, parameters: ["seqModulus": 8, "initialSeq": 4, "maxTaskAttempts": 133,
                                                   "maxConcurrentUploads": 64])
        Timeline {
            At(.milliseconds(1103)) { SendPhotos(from: "bob", count: 4, bytes: 36_942, caption: "p55", in: "alice+bob") }
            At(.milliseconds(3419)) { SendPhoto(from: "bob", bytes: 35_585, caption: "p4", in: "alice+bob") }
            At(.milliseconds(12_017)) { SendPhoto(from: "bob", bytes: 7901, caption: "p34", in: "alice+bob") }
            At(.milliseconds(14_430)) { SendPhoto(from: "bob", bytes: 20_174, caption: "p42", in: "alice+bob") }
            At(.milliseconds(40_763)) { SendPhotos(from: "bob", count: 3, bytes: 18_384, caption: "p48", in: "alice+bob") }
            At(.milliseconds(45_252)) { RestartApp("bob") }
            At(.milliseconds(50_618)) { SendPhoto(from: "bob", bytes: 47_946, caption: "p28", in: "alice+bob") }
            At(.milliseconds(52_060)) { SendPhoto(from: "alice", bytes: 7899, caption: "p13", in: "alice+bob") }
            At(.milliseconds(67_132)) { SendPhoto(from: "bob", bytes: 33_841, caption: "p32", in: "alice+bob") }
            At(.milliseconds(69_692)) { MarkRead("bob", "alice+bob") }
            At(.milliseconds(70_811)) { SendPhotos(from: "bob", count: 4, bytes: 13_197, caption: "p50", in: "alice+bob") }
            At(.milliseconds(74_552)) { SendPhotos(from: "bob", count: 4, bytes: 38_039, caption: "p44", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(14), .converged)
        }
    }

    /// Alice, on a GSM data call (9.6 kbit/s each way), sends eight photos of 20 kB to the group, then a text to Bob.
    /// The engine started every upload at once: eight CDN connections filled her uplink's buffer (160 kB, two minutes
    /// at 9.6 kbit/s), her PINGs and the text's MSG_SEND waited behind them past their timeouts, and she reconnected
    /// again and again while uploads restarted from byte 0 (found by explore on new cells in session 26, written here in
    /// session 27). Uploads now run one at a time (`maxConcurrentUploads`), so the text and the PINGs wait behind one
    /// photo at most; with two at a time Alice still reconnects four times.
    public static let photoQueueOnGSMData = Scenario(
        "gsm-data-photo-queue",
        summary: "eight photos queued on a 9.6 kbit/s GSM data call: one upload at a time, PINGs and a text get through",
        seeds: [1, 2],
        tags: [.photo, .slow],
        runLength: .minutes(40)
    ) {
        Server()
        LinkProfile(
            name: "GSM-CSD",
            source: "assumption: GSM circuit-switched data (CSD) at its 9.6 kbit/s bearer rate, 300 ms one way",
            uplink: .init(rateBitsPerSecond: 9_600, oneWayDelay: .milliseconds(300)),
            downlink: .init(rateBitsPerSecond: 9_600, oneWayDelay: .milliseconds(300))
        )
        Client("alice", profile: "GSM-CSD")
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Chat("friends", members: ["alice", "bob", "carol"])
        Timeline {
            for index in 1...8 {
                At(.milliseconds(Int64(2_000 + 100 * index))) {
                    SendPhoto(from: "alice", bytes: 20_000, caption: "photo \(index)", in: "friends")
                }
            }
            At(.seconds(10)) { Send(from: "alice", text: "photos are coming", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .seconds(90), .serverOrder(chat: "alice+bob", texts: ["photos are coming"]))
            Eventually(within: .minutes(30), .serverOrder(chat: "friends", texts: (1...8).map { "photo \($0)" }))
            Eventually(within: .minutes(31), .converged)
            MetricBound("reconnects", client: "alice", atMost: 0)
            MetricBound("uploadsStarted", client: "alice", atMost: 8)
            MetricBound("requestTimeouts", atMost: 0)
            MetricBound("tasksFailed", atMost: 0)
        }
    }
}
