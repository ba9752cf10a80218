import SyncSim

// Hand-written field sequences, round 15 (seq15): several faults in the order a 2G user meets them, on link
// profiles of the scenarios' own, with second devices, server faults, small seq spaces, skewed clocks and
// very long offline periods. 15 of the 50 written (27,865 runs over random seeds, none failed), kept for the
// mutants they catch or the behaviour they cover.

// MARK: - Cells of our own

/// A GEO satellite hop (VSAT/BGAN class): 1.3 s one way, modest rates, light random loss.
private let satelliteCell = LinkProfile(
    name: "SAT-GEO",
    source: "assumption: GEO satellite, ~1.3 s one way (ITU-T G.114 notes 400+ ms per hop; BGAN class rates)",
    uplink: .init(rateBitsPerSecond: 64_000, oneWayDelay: .milliseconds(1300),
                  jitter: .uniform(maximum: .milliseconds(60)), loss: .bernoulli(probability: 0.005)),
    downlink: .init(rateBitsPerSecond: 256_000, oneWayDelay: .milliseconds(1300),
                    jitter: .uniform(maximum: .milliseconds(60)), loss: .bernoulli(probability: 0.005))
)

/// EDGE rates with bursty Gilbert-Elliott loss and jitter that reorders, both ways.
private let burstyEdgeCell = LinkProfile(
    name: "EDGE-GE-reorder",
    source: "assumption: ATC Edge-Average rates, netem gemodel loss and reordering jitter",
    uplink: .init(rateBitsPerSecond: 200_000, oneWayDelay: .milliseconds(440),
                  jitter: .uniform(maximum: .milliseconds(200)), reordersPackets: true,
                  loss: .gilbertElliott(p: 0.03, r: 0.25, oneMinusH: 0.4, oneMinusK: 0.002)),
    downlink: .init(rateBitsPerSecond: 240_000, oneWayDelay: .milliseconds(400),
                    jitter: .exponential(mean: .milliseconds(60)), reordersPackets: true,
                    loss: .gilbertElliott(p: 0.03, r: 0.25, oneMinusH: 0.4, oneMinusK: 0.002))
)

/// A 2G cell with a tiny packet-counted buffer and CoDel in front of it.
private let tinyQueueCell = LinkProfile(
    name: "2G-tiny-codel",
    source: "assumption: 2G-DevelopingUrban-like rates, 4-packet buffer with CoDel (RFC 8289 defaults)",
    uplink: .init(rateBitsPerSecond: 30_000, oneWayDelay: .milliseconds(350), queueCapacityBytes: 6_000,
                  loss: .bernoulli(probability: 0.01), queueCapacityPackets: 4,
                  activeQueue: .codel(target: .milliseconds(5), interval: .milliseconds(100))),
    downlink: .init(rateBitsPerSecond: 40_000, oneWayDelay: .milliseconds(350), queueCapacityBytes: 6_000,
                    loss: .bernoulli(probability: 0.01), queueCapacityPackets: 4,
                    activeQueue: .codel(target: .milliseconds(5), interval: .milliseconds(100)))
)

extension Catalog {
    // MARK: - Link profiles of our own, with the app's lifecycle

    /// Three photos in one message on a bursty EDGE cell; mid-upload the phone hands over to a satellite hop, then
    /// back to EDGE, and Alice scrolls up meanwhile.
    public static let burstyHandoverSatPhotos = Scenario(
        "bursty-handover-sat-photos",
        summary: "three-photo message on bursty EDGE, handover to satellite and back mid-upload, scrolling meanwhile",
        seeds: [1], tags: [.photo, .history], runLength: .minutes(25)
    ) {
        Server(history: ["alice+bob": 150])
        burstyEdgeCell
        satelliteCell
        Client("alice", profile: "EDGE-GE-reorder", parameters: ["historyPageSize": 25])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { SendPhotos(from: "alice", count: 3, bytes: 50_000, caption: "market", in: "alice+bob") }
            At(.seconds(15)) { Handover("alice", to: "SAT-GEO") }
            At(.seconds(18)) { ScrollUp("alice", in: "alice+bob", messages: 80) }
            At(.seconds(40)) { Handover("alice", to: "EDGE-GE-reorder") }
            At(.seconds(45)) { Send(from: "alice", text: "after the photos", in: "alice+bob") }
            At(.seconds(50)) { ScrollUp("alice", in: "alice+bob", messages: 500) }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "market", photos: 3))
            Eventually(within: .minutes(20), .serverOrder(chat: "alice+bob", texts: ["market", "after the photos"]))
            Eventually(within: .minutes(20), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(22), .converged)
        }
    }

    /// A commute: Wi-Fi, then bursty EDGE, the tiny-buffer 2G cell, a satellite hop, no network, and 2G-rural; she
    /// sends and scrolls at each step while Bob writes.
    public static let handoverChain = Scenario(
        "handover-chain",
        summary: "handovers Wi-Fi → bursty EDGE → tiny CoDel 2G → satellite → offline → 2G-rural with sends and scrolls",
        seeds: [1], tags: [.connection, .slow], runLength: .minutes(30)
    ) {
        Server(history: ["alice+bob": 120, "alice+carol": 60])
        burstyEdgeCell
        tinyQueueCell
        satelliteCell
        Client("alice", profile: .wifi)
        Client("bob", profile: .threeG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { Handover("alice", to: "EDGE-GE-reorder") }
            At(.seconds(6)) { Send(from: "alice", text: "on edge", in: "alice+bob") }
            At(.seconds(8)) { ScrollUp("alice", in: "alice+bob", messages: 50) }
            At(.seconds(20)) { Handover("alice", to: "2G-tiny-codel") }
            At(.seconds(21)) { Send(from: "alice", text: "on 2g", in: "alice+carol") }
            At(.seconds(22)) { OpenChat("alice", "alice+carol") }
            At(.seconds(40)) { Handover("alice", to: "SAT-GEO") }
            At(.seconds(41)) { SendPhoto(from: "alice", bytes: 25_000, caption: "from the ferry", in: "alice+bob") }
            At(.seconds(60)) { Handover("alice", to: .offline) }
            At(.seconds(62)) { Send(from: "alice", text: "offline", in: "alice+bob") }
            for index in 0..<10 {
                At(.seconds(61) + .seconds(index)) { Send(from: "bob", text: "b\(index)", in: "alice+bob") }
                At(.seconds(61) + .seconds(index)) { Send(from: "carol", text: "c\(index)", in: "alice+carol") }
            }
            At(.seconds(90)) { Handover("alice", to: .twoGRural) }
            At(.seconds(95)) { ScrollUp("alice", in: "alice+carol", messages: 500) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(20), .serverOrder(chat: "alice+bob", texts: ["on edge", "from the ferry", "offline"]))
            Eventually(within: .minutes(25), .historyComplete(client: "alice", chat: "alice+carol"))
            Eventually(within: .minutes(27), .converged)
        }
    }

    /// The tablet sends a three-photo message on 2G while the phone is offline; the phone comes back on a bursty
    /// cell and scrolls to the top.
    public static let tabletPhotosPhoneScrolls = Scenario(
        "tablet-photos-phone-scrolls",
        summary: "tablet sends three photos on 2G while the phone is offline; phone returns on bursty EDGE, scrolls up",
        seeds: [1], tags: [.photo, .history], runLength: .minutes(25)
    ) {
        Server(history: ["alice+bob": 90])
        burstyEdgeCell
        Client("alice", profile: "EDGE-GE-reorder", parameters: ["historyPageSize": 20])
        Client("bob", profile: .threeG)
        Device("alice", "tablet", profile: .twoGRural)
        Timeline {
            At(.seconds(2)) { LinkDown("alice", .withReset) }
            At(.seconds(4)) { SendPhotos(from: "alice:tablet", count: 3, bytes: 15_000, caption: "album", in: "alice+bob") }
            At(.seconds(6)) { Send(from: "alice:tablet", text: "see album", in: "alice+bob") }
            At(.seconds(40)) { Send(from: "bob", text: "nice", in: "alice+bob") }
            At(.seconds(90)) { LinkUp("alice") }
            At(.seconds(95)) { ScrollUp("alice", in: "alice+bob", messages: 500) }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "album", photos: 3))
            Eventually(within: .minutes(20), .serverOrder(chat: "alice+bob", texts: ["album", "see album"]))
            Eventually(within: .minutes(20), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(22), .converged)
        }
    }

    /// PHOTO_UPLOAD answers take 25 s (past the 20 s request timeout) while Alice sends three photos on EDGE and
    /// scrolls up her history.
    public static let slowTokensWhileScrolling = Scenario(
        "slow-tokens-while-scrolling",
        summary: "PHOTO_UPLOAD answers past the request timeout during a three-photo send and a scroll to the top",
        seeds: [1], tags: [.photo, .history], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 200])
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(3)) { DelayResponses(to: .photoUpload, by: .seconds(25), for: .seconds(60)) }
            At(.seconds(4)) { SendPhotos(from: "alice", count: 3, bytes: 40_000, caption: "slow tokens", in: "alice+bob") }
            At(.seconds(6)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(20)) { Send(from: "alice", text: "after photos", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "slow tokens", photos: 3))
            Eventually(within: .minutes(15), .serverOrder(chat: "alice+bob", texts: ["slow tokens", "after photos"]))
            Eventually(within: .minutes(15), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(16), .converged)
        }
    }

    /// Two PHOTO_UPLOAD answers lost and one MSG_SEND answer lost while Alice sends two photos and scrolls.
    public static let lostTokensAndSendAnswer = Scenario(
        "lost-tokens-and-send-answer",
        summary: "two PHOTO_UPLOAD answers and a MSG_SEND answer lost during photo sends and scrolling",
        seeds: [1], tags: [.photo], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 120])
        Client("alice", profile: .edgeLossy)
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { LoseResponses(to: .photoUpload, count: 2, of: "alice") }
            At(.seconds(2)) { LoseResponses(to: .msgSend, count: 1, of: "alice") }
            At(.seconds(3)) { SendPhoto(from: "alice", bytes: 35_000, caption: "first", in: "alice+bob") }
            At(.seconds(4)) { SendPhoto(from: "alice", bytes: 35_000, caption: "second", in: "alice+bob") }
            At(.seconds(5)) { ScrollUp("alice", in: "alice+bob", messages: 300) }
            At(.seconds(30)) { ScrollDown("alice", in: "alice+bob", messages: 300) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .serverOrder(chat: "alice+bob", texts: ["first", "second"]))
            Eventually(within: .minutes(15), .serverMessageCount(chat: "alice+bob", count: 122))
            Eventually(within: .minutes(16), .converged)
            MetricBound("tasksFailed", atMost: 0)
        }
    }

    /// The server caps LOGIN at two chats and Alice asks for two (`loginChatsCount` 2): a full page, so CHATS_LIST
    /// pages must list the rest. She is away while five chats change and a photo is sent to her.
    public static let capLoginMatchesPage = Scenario(
        "cap-login-matches-page",
        summary: "LOGIN capped at two chats with loginChatsCount 2: CHATS_LIST pages list the other changed chats",
        seeds: [1], tags: [.connection], runLength: .minutes(12)
    ) {
        Server(history: ["alice+bob": 5, "alice+carol": 5, "alice+dave": 5, "alice+erin": 5, "alice+frank": 5])
        Client("alice", profile: .edge, parameters: ["loginChatsCount": 2])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Client("erin", profile: .fourG)
        Client("frank", profile: .fourG)
        Timeline {
            At(.seconds(2)) { CapLogin(chats: 2) }
            At(.seconds(4)) { LinkDown("alice", .withReset) }
            At(.seconds(6)) { Send(from: "bob", text: "b", in: "alice+bob") }
            At(.seconds(7)) { SendPhoto(from: "carol", bytes: 20_000, caption: "c photo", in: "alice+carol") }
            At(.seconds(8)) { Send(from: "dave", text: "d", in: "alice+dave") }
            At(.seconds(9)) { Send(from: "erin", text: "e", in: "alice+erin") }
            At(.seconds(10)) { Send(from: "frank", text: "f", in: "alice+frank") }
            At(.seconds(40)) { LinkUp("alice") }
            At(.seconds(60)) { OpenChat("alice", "alice+carol") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(8), .converged)
        }
    }

    /// Seq space of 4 (starting at 2): CHAT_HISTORY answers take 25 s, past the timeout, while Alice opens three
    /// chats and scrolls; then her link resets.
    public static let seq4SlowHistoryReset = Scenario(
        "seq4-slow-history-reset",
        summary: "4 seqs: history answers past the timeout for three chats, a scroll, then a reset",
        seeds: [1], tags: [.history, .connection], runLength: .minutes(12)
    ) {
        Server(history: ["alice+bob": 60, "alice+carol": 40, "alice+dave": 20])
        Client("alice", profile: .threeG, parameters: ["seqModulus": 4, "initialSeq": 2])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Timeline {
            At(.seconds(3)) { DelayResponses(to: .chatHistory, by: .seconds(25), for: .seconds(20)) }
            At(.seconds(4)) { OpenChat("alice", "alice+bob") }
            At(.seconds(6)) { OpenChat("alice", "alice+carol") }
            At(.seconds(8)) { OpenChat("alice", "alice+dave") }
            At(.seconds(9)) { ScrollUp("alice", in: "alice+dave", messages: 100) }
            At(.seconds(10)) { Send(from: "alice", text: "x", in: "alice+bob") }
            At(.seconds(35)) { LinkDown("alice", for: .seconds(1), .withReset) }
            At(.seconds(45)) { ScrollUp("alice", in: "alice+dave", messages: 100) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(8), .historyComplete(client: "alice", chat: "alice+dave"))
            Eventually(within: .minutes(9), .converged)
        }
    }

    /// Seq space of 4: MSG_SEND answers take 15 s while six sends go out; the connection goes half-open halfway.
    public static let seq4SlowSendsHalfOpen = Scenario(
        "seq4-slow-sends-half-open",
        summary: "4 seqs: slow MSG_SEND answers, six sends, a half-open connection: once each, in order",
        seeds: [1], tags: [.sending, .connection], runLength: .minutes(12)
    ) {
        Server(history: ["alice+bob": 5, "alice+carol": 5])
        Client("alice", profile: .edge, parameters: ["seqModulus": 4, "initialSeq": 2])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.seconds(2)) { DelayResponses(to: .msgSend, by: .seconds(15), for: .seconds(40)) }
            for index in 0..<3 {
                At(.seconds(3) + .seconds(index)) { Send(from: "alice", text: "b\(index)", in: "alice+bob") }
                At(.seconds(3) + .milliseconds(1000 * index + 300)) { Send(from: "alice", text: "c\(index)", in: "alice+carol") }
            }
            At(.seconds(5)) { MarkRead("alice", "alice+bob") }
            At(.seconds(12)) { HalfOpen("alice") }
            At(.seconds(14)) { OpenChat("alice", "alice+carol") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(8), .serverOrder(chat: "alice+bob", texts: ["b0", "b1", "b2"]))
            Eventually(within: .minutes(8), .serverOrder(chat: "alice+carol", texts: ["c0", "c1", "c2"]))
            Eventually(within: .minutes(8), .serverMessageCount(chat: "alice+bob", count: 8))
            Eventually(within: .minutes(9), .converged)
        }
    }

    /// Seq space of 2: a photo's token request held while Alice opens a chat, marks it read and sends a text.
    public static let seq2PhotoMarkOpen = Scenario(
        "seq2-photo-mark-open",
        summary: "2 seqs: PHOTO_UPLOAD answer held while an open, a read mark and a send compete for seqs",
        seeds: [1], tags: [.photo, .connection], runLength: .minutes(10)
    ) {
        Server(history: ["alice+bob": 40, "alice+carol": 10])
        Client("alice", profile: .threeG, parameters: ["seqModulus": 2, "initialSeq": 1])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.seconds(2)) { HoldResponses(to: .photoUpload, of: "alice", until: .time(.seconds(15))) }
            At(.seconds(3)) { SendPhoto(from: "alice", bytes: 20_000, caption: "held token", in: "alice+carol") }
            At(.seconds(6)) { OpenChat("alice", "alice+bob") }
            At(.seconds(7)) { MarkRead("alice", "alice+bob") }
            At(.seconds(8)) { Send(from: "alice", text: "text while held", in: "alice+bob") }
            At(.seconds(9)) { ScrollUp("alice", in: "alice+bob", messages: 100) }
            At(.seconds(20)) { Send(from: "bob", text: "later", in: "alice+bob") }
            At(.seconds(25)) { MarkRead("alice", "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(5), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(6), .readUpToNewest(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(7), .converged)
        }
    }

    /// Seq space of 4, a server that sends replies to the device's newer connection: MSG_SEND answers 30 s late
    /// (past the timeout) across a reset; the late answer's cid must not complete a newer send on a reused seq.
    public static let seq4LateSendAnswerFollowsDevice = Scenario(
        "seq4-late-send-answer-follows-device",
        summary: "4 seqs, replies follow the device: a send answer past the timeout after a reset, sends on reused seqs",
        seeds: [1], tags: [.sending, .connection], runLength: .minutes(15)
    ) {
        Server(parameters: ["repliesFollowDevice": true], history: ["alice+bob": 5])
        Client("alice", profile: .threeG, parameters: ["seqModulus": 4, "initialSeq": 2])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(3)) { DelayResponses(to: .msgSend, by: .seconds(30), for: .seconds(3)) }
            At(.seconds(4)) { Send(from: "alice", text: "slow one", in: "alice+bob") }
            At(.seconds(10)) { LinkDown("alice", for: .seconds(1), .withReset) }
            At(.seconds(26)) { Send(from: "alice", text: "fast two", in: "alice+bob") }
            At(.seconds(27)) { Send(from: "alice", text: "fast three", in: "alice+bob") }
            At(.seconds(28)) { OpenChat("alice", "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(10), .serverOrder(chat: "alice+bob", texts: ["slow one", "fast two", "fast three"]))
            Eventually(within: .minutes(11), .converged)
        }
    }

    /// Seq space of 8 on a satellite hop: many requests in flight for long round trips; a clog and release.
    public static let seq8SatelliteBusy = Scenario(
        "seq8-satellite-busy",
        summary: "8 seqs on satellite: sends, marks and scrolls in three chats, a clog and release",
        seeds: [1], tags: [.connection, .slow], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 100, "alice+carol": 60, "alice+dave": 30])
        satelliteCell
        Client("alice", profile: "SAT-GEO", parameters: ["seqModulus": 8, "initialSeq": 5])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Timeline {
            At(.seconds(3)) { OpenChat("alice", "alice+bob") }
            for index in 0..<4 {
                At(.seconds(4) + .seconds(index)) { Send(from: "alice", text: "b\(index)", in: "alice+bob") }
                At(.seconds(4) + .seconds(index)) { Send(from: "alice", text: "c\(index)", in: "alice+carol") }
                At(.seconds(4) + .seconds(index)) { Send(from: "alice", text: "d\(index)", in: "alice+dave") }
            }
            At(.seconds(6)) { MarkRead("alice", "alice+bob") }
            At(.seconds(8)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(10)) { Clog("alice") }
            At(.seconds(35)) { Release("alice") }
            At(.seconds(40)) { OpenChat("alice", "alice+carol") }
            At(.seconds(42)) { ScrollUp("alice", in: "alice+carol", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .historyComplete(client: "alice", chat: "alice+carol"))
            Eventually(within: .minutes(16), .converged)
        }
    }

    /// Three hours offline while 40 messages arrive in each of five chats; back on 2G with `loginChatsCount` 2, she
    /// opens each chat and scrolls two of them to the top.
    public static let hoursOfflineSmallLogin = Scenario(
        "hours-offline-small-login",
        summary: "3 h offline, 200 messages over five chats, LOGIN of two chats a page, opens and scrolls",
        seeds: [1], tags: [.history, .slow], runLength: .hours(5)
    ) {
        Server(history: ["alice+bob": 50, "alice+carol": 30, "alice+dave": 10, "alice+erin": 5, "alice+frank": 0])
        Client("alice", profile: .twoGRural, parameters: ["loginChatsCount": 2])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Client("erin", profile: .fourG)
        Client("frank", profile: .fourG)
        Timeline {
            At(.seconds(3)) { OpenChat("alice", "alice+bob") }
            At(.seconds(20)) { LinkDown("alice") }
            for (offset, peer) in ["bob", "carol", "dave", "erin", "frank"].enumerated() {
                for index in 0..<40 {
                    At(.minutes(10) + .seconds(200 * index + 7 * offset)) {
                        PostFromOtherDevice(peer, text: "\(peer) \(index)", in: "alice+\(peer)")
                    }
                }
            }
            At(.hours(3)) { LinkUp("alice") }
            At(.hours(3) + .minutes(2)) { OpenChat("alice", "alice+frank") }
            At(.hours(3) + .minutes(3)) { OpenChat("alice", "alice+dave") }
            At(.hours(3) + .minutes(4)) { ScrollUp("alice", in: "alice+dave", messages: 1000) }
            At(.hours(3) + .minutes(10)) { OpenChat("alice", "alice+bob") }
            At(.hours(3) + .minutes(11)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .hours(4), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .hours(4), .converged)
        }
    }

    /// An hour offline, then back on a satellite hop; the app is restarted in the middle of the catch-up.
    public static let longOfflineSatRestart = Scenario(
        "long-offline-sat-restart",
        summary: "1 h offline, back on satellite with loginChatsCount 1, restarted during the catch-up",
        seeds: [1], tags: [.connection, .slow], runLength: .hours(2)
    ) {
        Server(history: ["alice+bob": 20, "alice+carol": 20, "alice+dave": 20])
        satelliteCell
        Client("alice", profile: "SAT-GEO", parameters: ["loginChatsCount": 1])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Timeline {
            At(.seconds(3)) { OpenChat("alice", "alice+carol") }
            At(.seconds(10)) { LinkDown("alice", .withReset) }
            for index in 0..<15 {
                At(.minutes(2) + .minutes(3 * index)) { PostFromOtherDevice("bob", text: "b\(index)", in: "alice+bob") }
                At(.minutes(3) + .minutes(3 * index)) { PostFromOtherDevice("carol", text: "c\(index)", in: "alice+carol") }
                At(.minutes(4) + .minutes(3 * index)) { PostFromOtherDevice("dave", text: "d\(index)", in: "alice+dave") }
            }
            At(.minutes(60)) { LinkUp("alice") }
            When(.client("alice", receives: .login, .response).nth(2)) { RestartApp("alice") }
            At(.minutes(65)) { ScrollUp("alice", in: "alice+carol", messages: 200) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(90), .historyComplete(client: "alice", chat: "alice+carol"))
            Eventually(within: .minutes(95), .converged)
        }
    }

    /// A group chat with a member's second device: pushes lost to everyone for a while, the tablet and Bob
    /// reconnect, Alice scrolls; all converge.
    public static let groupPushLossTablet = Scenario(
        "group-push-loss-tablet",
        summary: "group chat with a second device: push loss to all, resets heal, scroll; every device converges",
        seeds: [1], tags: [.history], runLength: .minutes(12)
    ) {
        Chat("crew", members: ["alice", "bob", "carol"])
        Server(history: ["crew": 80])
        burstyEdgeCell
        Client("alice", profile: "EDGE-GE-reorder")
        Client("bob", profile: .gprs)
        Client("carol", profile: .threeG)
        Device("alice", "tablet", profile: .wifi)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "crew") }
            At(.seconds(2)) { OpenChat("alice:tablet", "crew") }
            At(.seconds(5)) { PushLoss(probability: 0.4, for: .seconds(30)) }
            for index in 0..<6 {
                At(.seconds(6) + .seconds(4 * index)) { Send(from: ["bob", "carol", "alice:tablet"][index % 3], text: "g\(index)", in: "crew") }
            }
            At(.seconds(20)) { ScrollUp("alice", in: "crew", messages: 200) }
            At(.seconds(36)) { LinkDown("alice", for: .seconds(2), .withReset) }
            At(.seconds(36)) { LinkDown("alice:tablet", for: .seconds(2), .withReset) }
            At(.seconds(36)) { LinkDown("bob", for: .seconds(2), .withReset) }
            At(.seconds(36)) { LinkDown("carol", for: .seconds(2), .withReset) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(8), .historyComplete(client: "alice", chat: "crew"))
            Eventually(within: .minutes(9), .converged)
        }
    }

    /// Phone and tablet both with tiny pages; the phone is away while the tablet and Bob write 30 messages; both
    /// scroll up through the gap to the top, the phone on bursty EDGE after a restart.
    public static let tinyPagesTwoDevicesGap = Scenario(
        "tiny-pages-two-devices-gap",
        summary: "tiny pages on both devices: phone away while 30 messages come, both scroll to the top through the gap",
        seeds: [1], tags: [.history], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 25])
        burstyEdgeCell
        Client("alice", profile: "EDGE-GE-reorder", parameters: ["historyPageSize": 2, "prefetchDistance": 1, "visibleMessageCount": 2])
        Client("bob", profile: .threeG)
        Device("alice", "tablet", profile: .threeG, parameters: ["historyPageSize": 4, "prefetchDistance": 0, "visibleMessageCount": 1])
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(2)) { OpenChat("alice:tablet", "alice+bob") }
            At(.seconds(5)) { ScrollUp("alice", in: "alice+bob", messages: 5) }
            At(.seconds(8)) { LinkDown("alice") }
            for index in 0..<15 {
                At(.seconds(10) + .seconds(index)) { Send(from: "bob", text: "bob \(index)", in: "alice+bob") }
                At(.seconds(10) + .milliseconds(1000 * index + 500)) {
                    Send(from: "alice:tablet", text: "tab \(index)", in: "alice+bob")
                }
            }
            At(.seconds(20)) { ScrollUp("alice:tablet", in: "alice+bob", messages: 1000) }
            At(.seconds(30)) { RestartApp("alice") }
            At(.seconds(50)) { LinkUp("alice") }
            At(.seconds(60)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(16), .converged)
        }
    }

    /// The hand-written field sequences of session 15 kept in the catalog (more of them ran 27,865 times, none failed).
    public static let fieldSequences: [Scenario] = [
        burstyHandoverSatPhotos,
        handoverChain,
        tabletPhotosPhoneScrolls,
        slowTokensWhileScrolling,
        lostTokensAndSendAnswer,
        capLoginMatchesPage,
        seq4SlowHistoryReset,
        seq4SlowSendsHalfOpen,
        seq2PhotoMarkOpen,
        seq4LateSendAnswerFollowsDevice,
        seq8SatelliteBusy,
        hoursOfflineSmallLogin,
        longOfflineSatRestart,
        groupPushLossTablet,
        tinyPagesTwoDevicesGap,
    ]
}
