import SyncSim

// Hand-written field sequences, round 36 (session 36: a helper wrote 30 from the field's fault orders, unlike the
// earlier rounds'; these 12 are kept). Five found three reference-engine defects, all in the chat-list catch-up after
// LOGIN (CHATS_LIST), failing V1 before the fix (the first two on every seed of 1..200, the third on 174 of them
// unshrunk, 27 shrunk): a LOGIN asking for no chats (`loginChatsCount` 0)
// never listed any while last-sync moved on; one CHATS_LIST error gave up the chats still to list, which last-sync had
// already passed; a message posted while the client was away and deleted between its LOGIN answer and its CHATS_LIST
// page left the chat's entry without it for good. The others cover the catch-up under server restarts, crashes and
// held answers in a two-seq space, and catch engine mutants: `seq-reuse-inflight`, `send-before-all-uploads`,
// `merge-skips-bridge`, `since-from-device-clock`, `own-message-device-time`, `gap-ignored-after-login`.

// MARK: - Cells of our own

/// A rural EDGE cell at the edge of coverage: 32 kbit/s, 480 ms one way, heavy loss bursts, reordering jitter.
private let fadingEdgeCell = LinkProfile(
    name: "EDGE-fade-36",
    source: "assumption: EDGE at the cell edge, one timeslot (~32 kbit/s), 480 ms one way, Gilbert-Elliott bursts (~6%)",
    uplink: .init(rateBitsPerSecond: 24_000, oneWayDelay: .milliseconds(480),
                  jitter: .uniform(maximum: .milliseconds(220)), reordersPackets: true,
                  loss: .gilbertElliott(p: 0.05, r: 0.2, oneMinusH: 0.6, oneMinusK: 0.002)),
    downlink: .init(rateBitsPerSecond: 32_000, oneWayDelay: .milliseconds(460),
                    jitter: .uniform(maximum: .milliseconds(220)), reordersPackets: true,
                    loss: .gilbertElliott(p: 0.05, r: 0.2, oneMinusH: 0.6, oneMinusK: 0.002))
)

/// A lossy GSM data cell (CSD-like 9.6 kbit/s), 8% independent loss, a short buffer.
private let lossyGsmCell = LinkProfile(
    name: "GSM-9k6-lossy-36",
    source: "assumption: circuit-switched GSM data, 9.6 kbit/s, 700 ms one way, 8% loss, 20 kB buffer",
    uplink: .init(rateBitsPerSecond: 9_600, oneWayDelay: .milliseconds(700), queueCapacityBytes: 20_000,
                  loss: .bernoulli(probability: 0.08)),
    downlink: .init(rateBitsPerSecond: 9_600, oneWayDelay: .milliseconds(700), queueCapacityBytes: 20_000,
                    loss: .bernoulli(probability: 0.08))
)

extension Catalog {
    /// The smallest form of `zero-chat-login-list-errors`: LOGIN asks for zero chats (`loginChatsCount` 0, which
    /// parameter validation accepts) and nothing else goes wrong: Alice is away 10 min while two chats change. Before
    /// the fix no CHATS_LIST was ever sent (the empty page gave no marker) while last-sync moved on (V1).
    public static let zeroChatLoginPlain = Scenario(
        "zero-chat-login-plain",
        summary: "loginChatsCount 0: away 10 min while two chats change, then back; no other fault",
        seeds: [1], tags: [.connection], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 5])
        Client("alice", profile: .threeG, parameters: ["loginChatsCount": 0])
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Timeline {
            At(.seconds(10)) { LinkDown("alice") }
            At(.minutes(2)) { Send(from: "bob", text: "bob while away", in: "alice+bob") }
            At(.minutes(3)) { Send(from: "carol", text: "carol while away", in: "alice+carol") }
            At(.minutes(10)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(18), .converged)
        }
    }

    /// LOGIN asks for zero chats (`loginChatsCount` 0) after an hour away with four chats changed: the whole
    /// catch-up is CHATS_LIST, whose first answers are errors and then lost, while pushes are duplicated.
    public static let zeroChatLoginListErrors = Scenario(
        "zero-chat-login-list-errors",
        summary: "loginChatsCount 0 after 1 h away; CHATS_LIST errors twice then two answers lost; pushes doubled",
        seeds: [1], tags: [.connection, .history], runLength: .minutes(80)
    ) {
        Server(history: ["alice+bob": 8, "alice+carol": 8])
        Client("alice", profile: .edge, parameters: ["loginChatsCount": 0])
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Client("dave", profile: .threeG)
        Client("erin", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(4)) { MarkRead("alice", "alice+bob") }
            At(.seconds(10)) { LinkDown("alice") }
            for (offset, peer) in ["bob", "carol", "dave", "erin"].enumerated() {
                At(.minutes(10 + 10 * offset)) { Send(from: peer, text: "hello from \(peer)", in: "alice+\(peer)") }
            }
            At(.minutes(50)) { EditMessage(from: "carol", in: "alice+carol", text: "hello from carol, edited") }
            At(.minutes(58)) { ErrorReplies(to: .chatsList, count: 2, of: "alice") }
            At(.minutes(59)) { LoseResponses(to: .chatsList, count: 2, of: "alice") }
            At(.minutes(59)) { PushDuplication("alice", probability: 0.5, for: .minutes(5)) }
            At(.minutes(60)) { LinkUp("alice") }
            At(.minutes(60) + .seconds(30)) { Send(from: "dave", text: "dave again", in: "alice+dave") }
            At(.minutes(62)) { OpenChat("alice", "alice+erin") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(75), .converged)
        }
    }

    /// One CHATS_LIST error reply during a catch-up (LOGIN lists one of three changed chats): the error ends the
    /// catch-up and last-sync has moved on, so the chats not yet listed were never listed (before the fix: the
    /// engine now retries a CHATS_LIST error as a timeout, and gives up only on `proto.opcode`).
    public static let chatsListOneErrorCatchUp = Scenario(
        "chats-list-one-error-catch-up",
        summary: "LOGIN of one chat, three chats changed while away; the first CHATS_LIST answer is an error",
        seeds: [1], tags: [.connection], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 5])
        Client("alice", profile: .threeG, parameters: ["loginChatsCount": 1])
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Client("dave", profile: .threeG)
        Timeline {
            At(.seconds(10)) { LinkDown("alice") }
            At(.minutes(2)) { Send(from: "bob", text: "bob while away", in: "alice+bob") }
            At(.minutes(3)) { Send(from: "carol", text: "carol while away", in: "alice+carol") }
            At(.minutes(4)) { Send(from: "dave", text: "dave while away", in: "alice+dave") }
            At(.minutes(9)) { ErrorReplies(to: .chatsList, count: 1, of: "alice") }
            At(.minutes(10)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(18), .converged)
        }
    }

    /// `late-chats-list-pushes-unlisted` seed 1 shrunk: a chat listed empty at the first LOGIN gets a message while
    /// Alice is away, then (after her LOGIN answer, before her slow CHATS_LIST is processed) a deletion moves its
    /// `modified` above the catch-up marker: no page lists it, the delete push names a chat already in the list,
    /// and the entry never learned its last message (V1, before the fix: a catch-up below a LOGIN page now ends
    /// with a pass from the top over the chats changed since the LOGIN answer).
    public static let lateChatsListDeleteAboveMarker = Scenario(
        "late-chats-list-delete-above-marker",
        summary: "shrunk: slow CHATS_LIST, a delete moves a stale listed chat above the catch-up marker",
        seeds: [1], tags: [.connection], runLength: .minutes(20)
    ) {
        Server()
        Client("alice", profile: .edge, parameters: ["loginChatsCount": 1])
        Client("dave", profile: .threeG)
        Client("erin", profile: .threeG)
        Timeline {
            At(.seconds(10)) { LinkDown("alice") }
            At(.seconds(90)) { Send(from: "erin", text: "erin 1", in: "alice+erin") }
            At(.minutes(3)) { DelayResponses(to: .chatsList, by: .seconds(25), for: .minutes(1), of: "alice") }
            At(.seconds(181)) { LinkUp("alice") }
            At(.seconds(220)) { Send(from: "dave", text: "dave 2", in: "alice+dave") }
            At(.minutes(4)) { DeleteMessage(from: "erin", in: "alice+erin") }
        }
        Expect {
            Invariants(.all)
        }
    }

    /// CHATS_LIST answered 25 s late for two minutes (past the 20 s request timeout) while LOGIN lists one chat of
    /// four; pushes of unlisted chats come during the late pages.
    public static let lateChatsListPushesUnlisted = Scenario(
        "late-chats-list-pushes-unlisted",
        summary: "CHATS_LIST 25 s late (timeout 20 s), LOGIN of one chat of four; pushes of unlisted chats meanwhile",
        seeds: [1], tags: [.connection], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 6])
        Client("alice", profile: .edge, parameters: ["loginChatsCount": 1])
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Client("dave", profile: .threeG)
        Client("erin", profile: .threeG)
        Timeline {
            At(.seconds(10)) { LinkDown("alice") }
            for (offset, peer) in ["bob", "carol", "dave", "erin"].enumerated() {
                At(.minutes(1) + .seconds(10 * offset)) { Send(from: peer, text: "\(peer) 1", in: "alice+\(peer)") }
            }
            At(.minutes(3)) { DelayResponses(to: .chatsList, by: .seconds(25), for: .minutes(2), of: "alice") }
            At(.minutes(3) + .seconds(1)) { LinkUp("alice") }
            At(.minutes(3) + .seconds(15)) { Send(from: "carol", text: "carol 2", in: "alice+carol") }
            At(.minutes(3) + .seconds(40)) { Send(from: "dave", text: "dave 2", in: "alice+dave") }
            At(.minutes(4)) { DeleteMessage(from: "erin", in: "alice+erin") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .converged)
        }
    }

    /// Alice is away 30 min while six chats change; LOGIN lists one chat, the rest come by CHATS_LIST. The server
    /// restarts as her second CHATS_LIST arrives and again as the fourth is answered; pushes meanwhile.
    public static let chatsListServerRestarts = Scenario(
        "chats-list-server-restarts",
        summary: "30 min away, six chats changed, LOGIN of one chat; server restarts at the 2nd and 4th CHATS_LIST",
        seeds: [1], tags: [.connection, .history], runLength: .minutes(50)
    ) {
        Server(history: ["alice+bob": 10, "alice+carol": 10, "alice+dave": 10])
        Client("alice", profile: .gprs, parameters: ["loginChatsCount": 1])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Client("erin", profile: .fourG)
        Client("fred", profile: .fourG)
        Client("gina", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { LinkDown("alice") }
            At(.seconds(6)) { Send(from: "alice", text: "queued to carol", in: "alice+carol") }
            for (offset, peer) in ["bob", "carol", "dave", "erin", "fred", "gina"].enumerated() {
                for index in 0..<3 {
                    At(.minutes(2 + 4 * index) + .seconds(20 * offset)) {
                        Send(from: peer, text: "\(peer) \(index)", in: "alice+\(peer)")
                    }
                }
            }
            At(.minutes(20)) { DeleteMessage(from: "dave", in: "alice+dave") }
            At(.minutes(30)) { LinkUp("alice") }
            When(.server(receives: .chatsList, from: "alice").nth(2)) { ServerRestart(downtime: .seconds(4)) }
            When(.server(answers: .chatsList, to: "alice").nth(4)) { ServerRestart(downtime: .seconds(2)) }
            At(.minutes(30) + .seconds(20)) { Send(from: "erin", text: "erin during catch-up", in: "alice+erin") }
            At(.minutes(33)) { OpenChat("alice", "alice+gina") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(40), .serverOrder(chat: "alice+carol", texts: ["queued to carol"]))
            Eventually(within: .minutes(45), .converged)
        }
    }

    /// LOGIN lists one chat of five changed; the app crashes right after the first CHATS_LIST page is handled and
    /// again after the second LOGIN answer; an edit lands on a chat not yet listed in between.
    public static let crashAtChatsListPages = Scenario(
        "crash-at-chats-list-pages",
        summary: "LOGIN of one chat, five changed; crash after the 1st CHATS_LIST page and after the 2nd LOGIN answer",
        seeds: [1], tags: [.connection, .history], runLength: .minutes(30)
    ) {
        Server(history: ["alice+bob": 6, "alice+carol": 6, "alice+dave": 6])
        Client("alice", profile: .edge, parameters: ["loginChatsCount": 1])
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Client("dave", profile: .threeG)
        Client("erin", profile: .threeG)
        Client("fred", profile: .threeG)
        Timeline {
            At(.seconds(10)) { LinkDown("alice") }
            for (offset, peer) in ["bob", "carol", "dave", "erin", "fred"].enumerated() {
                At(.minutes(1) + .seconds(15 * offset)) { Send(from: peer, text: "\(peer) while away", in: "alice+\(peer)") }
            }
            At(.minutes(4)) { LinkUp("alice") }
            When(.client("alice", receives: .chatsList, .response).nth(1)) { CrashApp("alice") }
            When(.client("alice", receives: .login, .response).nth(3)) { CrashApp("alice") }
            When(.server(receives: .chatsList, from: "alice").nth(2)) {
                EditMessage(from: "carol", in: "alice+carol", text: "carol while away, edited")
            }
            At(.minutes(8)) { OpenChat("alice", "alice+carol") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(25), .converged)
        }
    }

    /// CHATS_LIST answers held at the server over a reset in a 2-seq space, replies following the device: the held
    /// page reaches the new connection while the new catch-up's own CHATS_LIST is in flight.
    public static let heldChatsListResetSeq2 = Scenario(
        "held-chats-list-reset-seq2",
        summary: "2 seqs, replies follow the device: CHATS_LIST answer held over a reset; the new catch-up's in flight",
        seeds: [1], tags: [.connection], runLength: .minutes(20)
    ) {
        Server(parameters: ["repliesFollowDevice": .bool(true)], history: ["alice+bob": 6])
        Client("alice", profile: .threeG, parameters: ["loginChatsCount": 1, "seqModulus": 2, "initialSeq": 0])
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Client("dave", profile: .threeG)
        Timeline {
            At(.seconds(10)) { LinkDown("alice") }
            At(.minutes(1)) { Send(from: "bob", text: "bob while away", in: "alice+bob") }
            At(.minutes(1) + .seconds(20)) { Send(from: "carol", text: "carol while away", in: "alice+carol") }
            At(.minutes(1) + .seconds(40)) { Send(from: "dave", text: "dave while away", in: "alice+dave") }
            At(.minutes(3)) { HoldResponses(to: .chatsList, of: "alice", until: .time(.minutes(3) + .seconds(12))) }
            At(.minutes(3) + .seconds(1)) { LinkUp("alice") }
            When(.server(receives: .chatsList, from: "alice").nth(1)) { LinkDown("alice", for: .seconds(3), .withReset) }
            At(.minutes(3) + .seconds(2)) { Send(from: "alice", text: "alice back", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .converged)
        }
    }

    /// Four hours offline with three single photos, an album of three and texts queued in two chats; back on a
    /// 9.6 kbit/s lossy GSM cell, restarted as the 2nd token answer is sent, handed over to 2G-rural mid-upload,
    /// crashed as the 2nd MSG_SEND answer arrives, then handed to 3G for the tail.
    public static let hoursOfflinePhotosGsmRestarts = Scenario(
        "hours-offline-photos-gsm-restarts",
        summary: "4 h offline, 6 photos in 4 messages plus texts; lossy 9.6 kbit/s return, restart, handover, crash",
        seeds: [1], tags: [.photo, .slow], runLength: .hours(5)
    ) {
        Server(history: ["alice+bob": 10, "alice+carol": 10])
        lossyGsmCell
        Client("alice", profile: .threeG, parameters: ["maxConcurrentUploads": 2,
                                                        "photoProcessingTime": .duration(.seconds(5))])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.seconds(5)) { LinkDown("alice") }
            At(.seconds(10)) { SendPhoto(from: "alice", bytes: 12_000, caption: "p1", in: "alice+bob") }
            At(.seconds(11)) { Send(from: "alice", text: "t1", in: "alice+bob") }
            At(.seconds(12)) { SendPhotos(from: "alice", count: 3, bytes: 8_000, caption: "album", in: "alice+carol") }
            At(.seconds(13)) { SendPhoto(from: "alice", bytes: 10_000, caption: "p2", in: "alice+bob") }
            At(.seconds(14)) { Send(from: "alice", text: "t2", in: "alice+carol") }
            At(.seconds(15)) { SendPhoto(from: "alice", bytes: 9_000, caption: "p3", in: "alice+carol") }
            At(.seconds(16)) { Send(from: "alice", text: "t3", in: "alice+bob") }
            At(.hours(1)) { RestartApp("alice") }
            for index in 0..<6 {
                At(.minutes(20) + .minutes(30 * index)) {
                    Send(from: index % 2 == 0 ? "bob" : "carol", text: "while away \(index)",
                         in: index % 2 == 0 ? "alice+bob" : "alice+carol")
                }
            }
            At(.hours(4)) { Handover("alice", to: "GSM-9k6-lossy-36") }
            At(.hours(4) + .seconds(1)) { LinkUp("alice") }
            When(.server(answers: .photoUpload, to: "alice").nth(2)) { RestartApp("alice") }
            When(.server(answers: .photoUpload, to: "alice").nth(4)) { Handover("alice", to: .twoGRural) }
            When(.client("alice", receives: .msgSend, .response).nth(2)) { CrashApp("alice") }
            At(.hours(4) + .minutes(30)) { Handover("alice", to: .threeG) }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+carol", caption: "album", photos: 3))
            Eventually(within: .hours(4) + .minutes(50),
                       .serverOrder(chat: "alice+bob", texts: ["p1", "t1", "p2", "t3"]))
            Eventually(within: .hours(4) + .minutes(50),
                       .serverOrder(chat: "alice+carol", texts: ["album", "t2", "p3"]))
            Eventually(within: .hours(4) + .minutes(58), .converged)
        }
    }

    /// Alice scrolls to the top with pages of 5 while Bob writes; the app crashes right after the 2nd and the 6th
    /// push are handled and restarts cleanly after the 4th; a gap was made before.
    public static let crashAtPushesWhileScrolling = Scenario(
        "crash-at-pushes-while-scrolling",
        summary: "pages of 5, scroll to the top across a gap; crash after the 2nd and 6th push, restart after the 4th",
        seeds: [1], tags: [.history], runLength: .minutes(15)
    ) {
        Server(history: ["alice+bob": 35])
        Client("alice", profile: .edge, parameters: ["historyPageSize": 5])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { LinkDown("alice") }
            for index in 0..<15 {
                At(.seconds(6) + .milliseconds(400 * index)) {
                    PostFromOtherDevice("bob", text: "gap \(index)", in: "alice+bob")
                }
            }
            At(.seconds(15)) { LinkUp("alice") }
            At(.seconds(20)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            for index in 0..<10 {
                At(.seconds(21) + .milliseconds(1_500 * index)) { Send(from: "bob", text: "live \(index)", in: "alice+bob") }
            }
            When(.client("alice", receives: .notifMessage, .push).nth(2)) { CrashApp("alice") }
            When(.client("alice", receives: .notifMessage, .push).nth(4)) { RestartApp("alice") }
            When(.client("alice", receives: .notifMessage, .push).nth(6)) { CrashApp("alice") }
            At(.minutes(2)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(10), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(13), .converged)
        }
    }

    /// The device clock jumps three days ahead while a page is in flight and four days back while sends are queued
    /// offline; the server's clock is two hours behind real time; a restart after the jump back.
    public static let clockJumpsMidPageServerBehind = Scenario(
        "clock-jumps-mid-page-server-behind",
        summary: "clock +3 d while a page is in flight, -4 d with sends queued offline; server 2 h behind; restart",
        seeds: [1], tags: [.connection, .history], runLength: .minutes(15)
    ) {
        Server(history: ["alice+bob": 50], clockOffset: .hours(-2))
        Client("alice", profile: .edge, parameters: ["historyPageSize": 10])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            When(.server(receives: .chatHistory, from: "alice").nth(2)) { SkewClock("alice", by: .hours(72)) }
            At(.seconds(20)) { LinkDown("alice") }
            At(.seconds(22)) { Send(from: "alice", text: "skewed 1", in: "alice+bob") }
            At(.seconds(23)) { SkewClock("alice", by: .hours(-96)) }
            At(.seconds(24)) { Send(from: "alice", text: "skewed 2", in: "alice+bob") }
            At(.seconds(26)) { Send(from: "bob", text: "bob meanwhile", in: "alice+bob") }
            At(.seconds(30)) { RestartApp("alice") }
            At(.seconds(40)) { LinkUp("alice") }
            At(.seconds(60)) { MarkRead("alice", "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(10), .serverOrder(chat: "alice+bob", texts: ["skewed 1", "skewed 2"]))
            Eventually(within: .minutes(12), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(14), .converged)
        }
    }

    /// Two seqs, answers reordered by 2.5 s of server jitter, replies following the device, a 4 s request timeout:
    /// sends, an album, marks and pages in two chats while the link resets three times.
    public static let seq2JitterMixedResets = Scenario(
        "seq2-jitter-mixed-resets",
        summary: "2 seqs, 2.5 s jitter, replies follow the device, 4 s timeout: sends, album, marks, pages, 3 resets",
        seeds: [1], tags: [.connection, .sending], runLength: .minutes(20)
    ) {
        Server(parameters: ["repliesFollowDevice": .bool(true), "processingJitter": .duration(.milliseconds(2_500))],
               history: ["alice+bob": 30, "alice+carol": 30])
        Client("alice", profile: .threeG, parameters: ["seqModulus": 2, "initialSeq": 1, "historyPageSize": 8,
                                                        "requestTimeout": .duration(.seconds(4))])
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(3)) { SendPhotos(from: "alice", count: 2, bytes: 20_000, caption: "pair", in: "alice+carol") }
            for index in 0..<4 {
                At(.seconds(4) + .seconds(2 * index)) { Send(from: "alice", text: "s\(index)", in: "alice+bob") }
            }
            At(.seconds(6)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(7)) { MarkRead("alice", "alice+bob") }
            At(.seconds(9)) { LinkDown("alice", for: .seconds(2), .withReset) }
            At(.seconds(12)) { OpenChat("alice", "alice+carol") }
            At(.seconds(13)) { ScrollUp("alice", in: "alice+carol", messages: 1000) }
            At(.seconds(15)) { LinkDown("alice", for: .seconds(1), .withReset) }
            At(.seconds(16)) { Send(from: "carol", text: "carol push", in: "alice+carol") }
            At(.seconds(18)) { MarkRead("alice", "alice+carol") }
            At(.seconds(21)) { LinkDown("alice", for: .seconds(3), .withReset) }
            At(.seconds(40)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            // The scroll of alice+carol stopped when she left it at 40 s; she comes back to finish it.
            At(.minutes(3)) { ScrollUp("alice", in: "alice+carol", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+carol", caption: "pair", photos: 2))
            Eventually(within: .minutes(12), .serverOrder(chat: "alice+bob", texts: (0..<4).map { "s\($0)" }))
            Eventually(within: .minutes(14), .historyComplete(client: "alice", chat: "alice+carol"))
            Eventually(within: .minutes(18), .converged)
        }
    }

    // MARK: - Tried, kept out of the catalog (each passed seeds 1..200; FieldSequencesTriedTests keeps them valid)

    /// Alice opens the chat while her CHAT_HISTORY answers are held at the server; Bob edits his newest message,
    /// deletes it and deletes the next one (pushes of changes to messages Alice has not cached yet); Alice's app
    /// crashes; the held opening page (built before the edits) is then sent to her new connection in a 2-seq space.
    public static let heldPageEditsDeletesCrashSeq2 = Scenario(
        "held-page-edits-deletes-crash-seq2",
        summary: "2 seqs, replies follow the device: opening page held; Bob edits and deletes into it; crash; page comes",
        seeds: [1], tags: [.history, .fieldBug], runLength: .minutes(10)
    ) {
        Server(parameters: ["repliesFollowDevice": .bool(true)], history: ["alice+bob": 40])
        Client("alice", profile: .edge, parameters: ["seqModulus": 2, "initialSeq": 1, "historyPageSize": 10])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { HoldResponses(to: .chatHistory, of: "alice", until: .time(.seconds(14))) }
            At(.seconds(3)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { EditMessage(from: "bob", in: "alice+bob", text: "bob's newest, edited while held") }
            At(.seconds(6)) { DeleteMessage(from: "bob", in: "alice+bob") }
            At(.seconds(7)) { DeleteMessage(from: "bob", in: "alice+bob") }
            At(.seconds(9)) { CrashApp("alice") }
            At(.seconds(10)) { OpenChat("alice", "alice+bob") }
            At(.seconds(30)) { Send(from: "bob", text: "after the held page", in: "alice+bob") }
            At(.seconds(40)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(6), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(8), .converged)
        }
    }

    /// The same held opening page, but the deletes reach Alice's cache through LOGIN (she was offline while Bob
    /// deleted) and a clean restart falls between the held page's release and her scroll; 3 seqs.
    public static let heldPageDeletesWhileOfflineSeq3 = Scenario(
        "held-page-deletes-while-offline-seq3",
        summary: "3 seqs, replies follow the device: page held, Alice offline while Bob deletes; release, restart",
        seeds: [1], tags: [.history], runLength: .minutes(10)
    ) {
        Server(parameters: ["repliesFollowDevice": .bool(true), "processingJitter": .duration(.milliseconds(800))],
               history: ["alice+bob": 25])
        Client("alice", profile: .edgeLossy, parameters: ["seqModulus": 3, "initialSeq": 2, "historyPageSize": 6])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { HoldResponses(to: .chatHistory, of: "alice", until: .time(.seconds(20))) }
            At(.seconds(3)) { OpenChat("alice", "alice+bob") }
            At(.seconds(4)) { ScrollUp("alice", in: "alice+bob", messages: 12) }
            At(.seconds(6)) { LinkDown("alice") }
            At(.seconds(8)) { DeleteMessage(from: "bob", in: "alice+bob") }
            At(.seconds(9)) { EditMessage(from: "alice", in: "alice+bob", text: "alice's newest, edited on the web") }
            At(.seconds(10)) { PostFromOtherDevice("bob", text: "while alice is away", in: "alice+bob") }
            At(.seconds(18)) { LinkUp("alice") }
            At(.seconds(22)) { RestartApp("alice") }
            At(.seconds(24)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(6), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(8), .converged)
        }
    }

    /// A photo token answer held at the server while the app crashes; the token comes on the new connection in a
    /// 2-seq space, where the relaunched engine has asked for a token again and sent a text and a mark.
    public static let heldTokenCrashSeq2 = Scenario(
        "held-token-crash-seq2",
        summary: "2 seqs, replies follow the device: PHOTO_UPLOAD answer held over a crash; text and mark compete",
        seeds: [1], tags: [.photo, .sending], runLength: .minutes(10)
    ) {
        Server(parameters: ["repliesFollowDevice": .bool(true)], history: ["alice+bob": 10])
        Client("alice", profile: .threeG, parameters: ["seqModulus": 2, "initialSeq": 0,
                                                        "photoProcessingTime": .duration(.milliseconds(200))])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { HoldResponses(to: .photoUpload, of: "alice", until: .time(.seconds(12))) }
            At(.seconds(3)) { SendPhoto(from: "alice", bytes: 40_000, caption: "held token", in: "alice+bob") }
            At(.seconds(6)) { CrashApp("alice") }
            At(.seconds(8)) { Send(from: "alice", text: "text after crash", in: "alice+bob") }
            At(.seconds(9)) { OpenChat("alice", "alice+bob") }
            At(.seconds(10)) { MarkRead("alice", "alice+bob") }
            At(.seconds(11)) { SendPhoto(from: "alice", bytes: 30_000, caption: "second photo", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "held token", photos: 1))
            Eventually(within: .minutes(6), .serverOrder(chat: "alice+bob",
                                                         texts: ["held token", "text after crash", "second photo"]))
            Eventually(within: .minutes(8), .converged)
        }
    }

    /// The LOGIN answer of Alice's return (one chat listed) is followed at once by a half-open connection; the
    /// CHATS_LIST of the catch-up goes into the dead socket until pings notice; sends wait.
    public static let halfOpenAfterLoginAnswerCatchUp = Scenario(
        "half-open-after-login-answer-catch-up",
        summary: "half-open right after the 2nd LOGIN answer, LOGIN of one chat, five chats changed, sends waiting",
        seeds: [1], tags: [.connection], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 5, "alice+carol": 5])
        Client("alice", profile: .edge, parameters: ["loginChatsCount": 1, "pingInterval": .duration(.seconds(10)),
                                                      "pongTimeout": .duration(.seconds(6))])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Client("erin", profile: .fourG)
        Client("fred", profile: .fourG)
        Timeline {
            At(.seconds(5)) { LinkDown("alice", for: .minutes(3), .withReset) }
            At(.seconds(10)) { Send(from: "alice", text: "queued a", in: "alice+bob") }
            At(.seconds(11)) { Send(from: "alice", text: "queued b", in: "alice+carol") }
            for (offset, peer) in ["bob", "carol", "dave", "erin", "fred"].enumerated() {
                At(.seconds(30 + 10 * offset)) { Send(from: peer, text: "news from \(peer)", in: "alice+\(peer)") }
            }
            When(.client("alice", receives: .login, .response).nth(2)) { HalfOpen("alice") }
            At(.minutes(5)) { OpenChat("alice", "alice+fred") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(12), .serverOrder(chat: "alice+carol", texts: ["queued b"]))
            Eventually(within: .minutes(18), .converged)
        }
    }

    /// Pages of one message, no prefetch, one visible message: Alice scrolls up across two gaps in steps while Bob
    /// keeps writing and the link drops for 1.5 s every 7 s; pushes duplicated.
    public static let pageOfOneFlappingPushes = Scenario(
        "page-of-one-flapping-pushes",
        summary: "historyPageSize 1, prefetch 0, 1 visible: scroll through two gaps while pushes come and the link flaps",
        seeds: [1], tags: [.history], runLength: .minutes(25)
    ) {
        Server(history: ["alice+bob": 12])
        Client("alice", profile: .edge, parameters: ["historyPageSize": 1, "prefetchDistance": 0,
                                                      "visibleMessageCount": 1])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            for round in 0..<2 {
                At(.seconds(10 + 40 * round)) { LinkDown("alice") }
                for index in 0..<6 {
                    At(.seconds(12 + 40 * round) + .seconds(index)) {
                        PostFromOtherDevice("bob", text: "gap\(round)-\(index)", in: "alice+bob")
                    }
                }
                At(.seconds(30 + 40 * round)) { LinkUp("alice") }
                At(.seconds(35 + 40 * round)) { OpenChat("alice", "alice+bob") }
            }
            At(.seconds(100)) { PushDuplication("alice", probability: 0.4, for: .minutes(3)) }
            for step in 0..<12 {
                At(.seconds(110) + .seconds(7 * step)) { LinkDown("alice", for: .milliseconds(1_500)) }
                At(.seconds(112) + .seconds(7 * step)) { ScrollUp("alice", in: "alice+bob", messages: 3) }
                if step % 3 == 0 {
                    At(.seconds(114) + .seconds(7 * step)) { Send(from: "bob", text: "live \(step)", in: "alice+bob") }
                }
            }
            At(.minutes(5)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(20), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(23), .converged)
        }
    }

    /// Pages of one message scrolled down: Alice is scrolled to the top, goes away while 20 come, returns, and scrolls
    /// down one message at a time through the gap while pushes are delayed and the app restarts halfway.
    public static let pageOfOneScrollDownDelayedPushes = Scenario(
        "page-of-one-scroll-down-delayed-pushes",
        summary: "historyPageSize 1, prefetch 0: scrolled to the top, 20 while away, scroll down through the gap",
        seeds: [1], tags: [.history], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 15])
        Client("alice", profile: .threeG, parameters: ["historyPageSize": 1, "prefetchDistance": 0,
                                                        "visibleMessageCount": 2])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(60)) { LinkDown("alice") }
            for index in 0..<20 {
                At(.seconds(62) + .milliseconds(300 * index)) { Send(from: "bob", text: "new \(index)", in: "alice+bob") }
            }
            At(.seconds(80)) { DelayPushes(to: "alice", by: .seconds(4), for: .minutes(2)) }
            At(.seconds(85)) { LinkUp("alice") }
            for step in 0..<12 {
                At(.seconds(90) + .seconds(3 * step)) { ScrollDown("alice", in: "alice+bob", messages: 3) }
                At(.seconds(91) + .seconds(3 * step)) { Send(from: "bob", text: "during \(step)", in: "alice+bob") }
            }
            At(.seconds(107)) { RestartApp("alice") }
            At(.minutes(4)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(18), .converged)
        }
    }

    /// Pages of a thousand messages on GPRS, every frame compressed (`compressionThresholdBytes` 0): a 2,500-message
    /// chat scrolled to the top while a loss burst hits the second page.
    public static let thousandPagesCompressAll = Scenario(
        "thousand-pages-compress-all",
        summary: "historyPageSize 1000 and compression of every frame on GPRS: scroll 2,500 to the top, a loss burst",
        seeds: [1], tags: [.history, .slow], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 2_500])
        Client("alice", profile: .gprs, parameters: ["historyPageSize": 1_000, "compressionThresholdBytes": 0,
                                                      "requestTimeout": .duration(.seconds(60))])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { ScrollUp("alice", in: "alice+bob", messages: 5_000) }
            When(.client("alice", receives: .chatHistory, .response).nth(1)) {
                LossBurst("alice", for: .seconds(10), lossRate: 0.3)
            }
            At(.seconds(40)) { Send(from: "bob", text: "while paging", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(18), .converged)
        }
    }

    /// A request timeout of 3 s on a 2G-rural link whose round trip is 1.3 s and whose pages take seconds: sends,
    /// a page and a mark race their timeouts; late answers come to seqs held back.
    public static let timeoutNearRtt2GRural = Scenario(
        "timeout-near-rtt-2g-rural",
        summary: "requestTimeout 3 s on 2G-rural (1.3 s RTT): sends, pages of 10 and marks race their timeouts",
        seeds: [1], tags: [.connection, .sending], runLength: .minutes(30)
    ) {
        Server(history: ["alice+bob": 40])
        Client("alice", profile: .twoGRural, parameters: ["requestTimeout": .duration(.seconds(3)),
                                                           "historyPageSize": 10, "seqModulus": 8])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            for index in 0..<6 {
                At(.seconds(10) + .seconds(2 * index)) { Send(from: "alice", text: "rural \(index)", in: "alice+bob") }
            }
            At(.seconds(15)) { MarkRead("alice", "alice+bob") }
            At(.seconds(20)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(30)) { Send(from: "bob", text: "bob answers", in: "alice+bob") }
            At(.seconds(40)) { MarkRead("alice", "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(25), .serverOrder(chat: "alice+bob", texts: (0..<6).map { "rural \($0)" }))
            Eventually(within: .minutes(28), .converged)
        }
    }

    /// One attempt per task (`maxTaskAttempts` 1): the first token answer of an album is an error, so its upload
    /// fails for good; the album's message and the texts after it must end done or failed, never stuck.
    public static let oneAttemptTokenErrorAlbum = Scenario(
        "one-attempt-token-error-album",
        summary: "maxTaskAttempts 1, PHOTO_UPLOAD error for an album of two; texts after it; nothing stuck",
        seeds: [1], tags: [.photo, .sending], runLength: .minutes(10)
    ) {
        Server()
        Client("alice", profile: .edge, parameters: ["maxTaskAttempts": 1])
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Timeline {
            At(.seconds(2)) { ErrorReplies(to: .photoUpload, count: 1, of: "alice") }
            At(.seconds(3)) { SendPhotos(from: "alice", count: 2, bytes: 30_000, caption: "doomed album", in: "alice+bob") }
            At(.seconds(4)) { Send(from: "alice", text: "after the album", in: "alice+bob") }
            At(.seconds(5)) { Send(from: "alice", text: "in another chat", in: "alice+carol") }
            At(.seconds(6)) { LinkDown("alice", for: .seconds(5)) }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "doomed album", photos: 2))
            Eventually(within: .minutes(5), .serverTexts(chat: "alice+carol", texts: ["in another chat"]))
            Eventually(within: .minutes(8), .allQueuesDrained)
        }
    }

    /// One attempt per task while the server refuses sends for a minute: three sends queued offline come back inside
    /// the refusal window and fail for good; three more after it must be delivered in order; a crash between.
    public static let oneAttemptSendErrorWindowCrash = Scenario(
        "one-attempt-send-error-window-crash",
        summary: "maxTaskAttempts 1, MSG_SEND refused 30-90 s: queued sends fail, later sends arrive; a crash",
        seeds: [1], tags: [.sending], runLength: .minutes(10)
    ) {
        Server(parameters: ["msgSendErrorsFrom": .duration(.seconds(30)), "msgSendErrorsUntil": .duration(.seconds(90))])
        Client("alice", profile: .edgeLossy, parameters: ["maxTaskAttempts": 1])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(5)) { LinkDown("alice") }
            for index in 0..<3 {
                At(.seconds(10) + .seconds(index)) { Send(from: "alice", text: "refused \(index)", in: "alice+bob") }
            }
            At(.seconds(40)) { LinkUp("alice") }
            At(.seconds(70)) { CrashApp("alice") }
            for index in 0..<3 {
                At(.seconds(100) + .seconds(index)) { Send(from: "alice", text: "accepted \(index)", in: "alice+bob") }
            }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(6), .serverOrder(chat: "alice+bob", texts: (0..<3).map { "accepted \($0)" }))
            Eventually(within: .minutes(8), .allQueuesDrained)
        }
    }

    /// Reconnect backoff without growth or jitter, 100 ms apart (the shortest cap the DSL takes; written with 50 ms),
    /// and a 2 s connect timeout on 2G-rural, whose handshake takes most of that: the link drops four times for 20 s
    /// while sends and a scroll wait.
    public static let flatBackoffShortConnectTimeout = Scenario(
        "flat-backoff-short-connect-timeout",
        summary: "backoff 100 ms flat, no jitter, connectTimeout 2 s on 2G-rural; four 20 s outages; sends and a scroll",
        seeds: [1], tags: [.connection], runLength: .minutes(15)
    ) {
        Server(history: ["alice+bob": 30])
        Client("alice", profile: .twoGRural, parameters: [
            "backoffBase": .duration(.milliseconds(100)), "backoffCap": .duration(.milliseconds(100)),
            "backoffFactor": 1, "backoffJitter": 0, "connectTimeout": .duration(.seconds(2)),
        ])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            for index in 0..<4 {
                At(.seconds(20) + .seconds(40 * index)) { LinkDown("alice", for: .seconds(20)) }
                At(.seconds(25) + .seconds(40 * index)) { Send(from: "alice", text: "flat \(index)", in: "alice+bob") }
            }
            At(.seconds(70)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(10), .serverOrder(chat: "alice+bob", texts: (0..<4).map { "flat \($0)" }))
            Eventually(within: .minutes(12), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(14), .converged)
        }
    }

    /// A server that closes a connection after 3 s without a frame from the client, with the client pinging every
    /// 30 s: Alice's connection is closed between every action while she sends, scrolls and receives pushes.
    public static let serverIdleTimeoutChurn = Scenario(
        "server-idle-timeout-churn",
        summary: "server idleTimeout 3 s, pings every 30 s: connections closed between actions; sends, scrolls, pushes",
        seeds: [1], tags: [.connection], runLength: .minutes(10)
    ) {
        Server(parameters: ["idleTimeout": .duration(.seconds(3))], history: ["alice+bob": 60])
        Client("alice", profile: .gprs, parameters: ["historyPageSize": 15])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            for index in 0..<8 {
                At(.seconds(10) + .seconds(7 * index)) { Send(from: "alice", text: "idle \(index)", in: "alice+bob") }
                At(.seconds(13) + .seconds(7 * index)) { Send(from: "bob", text: "push \(index)", in: "alice+bob") }
            }
            At(.seconds(30)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(80)) { MarkRead("alice", "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(6), .serverOrder(chat: "alice+bob", texts: (0..<8).map { "idle \($0)" }))
            Eventually(within: .minutes(7), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(9), .converged)
        }
    }

    /// An album of five queued on a fading EDGE cell whose link drops each time a CDN upload starts (seen as a
    /// PHOTO_UPLOAD answer), three times; a crash in the middle of processing.
    public static let albumFadingCellDropsAtTokens = Scenario(
        "album-fading-cell-drops-at-tokens",
        summary: "album of five on a fading EDGE cell; the link drops at the 1st, 3rd and 5th token; a crash",
        seeds: [1], tags: [.photo], runLength: .minutes(30)
    ) {
        Server()
        fadingEdgeCell
        Client("alice", profile: "EDGE-fade-36", parameters: ["photoProcessingTime": .duration(.seconds(3))])
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { SendPhotos(from: "alice", count: 5, bytes: 15_000, caption: "five", in: "alice+bob") }
            At(.seconds(4)) { CrashApp("alice") }
            At(.seconds(6)) { Send(from: "alice", text: "after five", in: "alice+bob") }
            for nth in [1, 3, 5] {
                When(.client("alice", receives: .photoUpload, .response).nth(nth)) {
                    LinkDown("alice", for: .seconds(6), .withReset)
                }
            }
            At(.minutes(20)) { Handover("alice", to: .threeG) }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "five", photos: 5))
            Eventually(within: .minutes(26), .serverOrder(chat: "alice+bob", texts: ["five", "after five"]))
            Eventually(within: .minutes(28), .converged)
        }
    }

    /// The phone is offline four hours with sends queued and a crash offline; the tablet sends, edits and deletes the
    /// user's messages meanwhile; deletes come as REMOVED NOTIF_MESSAGEs (PyMax 1.2.5's shape); the phone returns on
    /// 2G-rural with LOGIN capped at one chat.
    public static let tabletDeletesRemovedNoticePhoneAway = Scenario(
        "tablet-deletes-removed-notice-phone-away",
        summary: "removed-message deletes: tablet sends, edits, deletes for 4 h; phone queued, crashed, back on 2G",
        seeds: [1], tags: [.history, .slow], runLength: .hours(5)
    ) {
        Server(parameters: ["deleteNotice": .string("removed-message")],
               history: ["alice+bob": 20, "alice+carol": 20])
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Device("alice", "tablet", profile: .wifi)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(3)) { OpenChat("alice:tablet", "alice+bob") }
            At(.seconds(10)) { LinkDown("alice") }
            At(.seconds(12)) { Send(from: "alice", text: "phone queued 1", in: "alice+bob") }
            At(.seconds(13)) { Send(from: "alice", text: "phone queued 2", in: "alice+carol") }
            At(.minutes(5)) { CrashApp("alice") }
            for index in 0..<8 {
                At(.minutes(10) + .minutes(20 * index)) {
                    Send(from: "alice:tablet", text: "tablet \(index)", in: index % 2 == 0 ? "alice+bob" : "alice+carol")
                }
                if index % 3 == 1 {
                    At(.minutes(15) + .minutes(20 * index)) {
                        DeleteMessage(from: "alice", in: index % 2 == 0 ? "alice+bob" : "alice+carol")
                    }
                }
                if index % 3 == 2 {
                    At(.minutes(15) + .minutes(20 * index)) {
                        EditMessage(from: "alice", in: index % 2 == 0 ? "alice+bob" : "alice+carol",
                                    text: "tablet \(index), edited")
                    }
                }
            }
            At(.hours(3)) { DeleteMessage(from: "bob", in: "alice+bob") }
            At(.hours(3) + .minutes(1)) { Send(from: "carol", text: "carol late", in: "alice+carol") }
            At(.hours(4) - .seconds(1)) { CapLogin(chats: 1) }
            At(.hours(4)) { Handover("alice", to: .twoGRural) }
            At(.hours(4) + .seconds(1)) { LinkUp("alice") }
            At(.hours(4) + .minutes(2)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.hours(4) + .minutes(6)) { OpenChat("alice", "alice+carol") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .hours(4) + .minutes(40), .serverOrder(chat: "alice+carol", texts: ["phone queued 2"]))
            Eventually(within: .hours(4) + .minutes(40), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .hours(4) + .minutes(55), .converged)
        }
    }

    /// A ten-member group: members write in bursts, four of them delete their newest and two edit theirs while Alice
    /// is away 20 min and pushes to everyone are lost half the time; Alice returns and scrolls to the top.
    public static let tenMemberGroupDeletesPushLoss = Scenario(
        "ten-member-group-deletes-push-loss",
        summary: "ten-member group: bursts, four deletes, two edits, half the pushes lost; Alice away 20 min",
        seeds: [1], tags: [.history, .slow], runLength: .minutes(40)
    ) {
        Chat("crowd", members: ["alice", "bob", "carol", "dave", "erin", "fred", "gina", "hank", "iris", "jack"])
        Server(history: ["crowd": 50])
        Client("alice", profile: .edge, parameters: ["historyPageSize": 12])
        Client("bob", profile: .threeG)
        Client("carol", profile: .gprs)
        Client("dave", profile: .edgeLossy)
        Client("erin", profile: .fourG)
        Client("fred", profile: .threeG)
        Client("gina", profile: .wifi)
        Client("hank", profile: .twoGRural)
        Client("iris", profile: .fourG)
        Client("jack", profile: .edge)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "crowd") }
            At(.seconds(3)) { OpenChat("hank", "crowd") }
            At(.seconds(30)) { LinkDown("alice") }
            At(.minutes(1)) { PushLoss(probability: 0.5, for: .minutes(15)) }
            let members = ["bob", "carol", "dave", "erin", "fred", "gina", "hank", "iris", "jack"]
            for round in 0..<3 {
                for (offset, member) in members.enumerated() {
                    At(.minutes(2 + 5 * round) + .seconds(5 * offset)) {
                        Send(from: member, text: "\(member) r\(round)", in: "crowd")
                    }
                }
            }
            for member in ["bob", "dave", "gina", "jack"] {
                At(.minutes(16) + .seconds(members.firstIndex(of: member)! * 3)) {
                    DeleteMessage(from: member, in: "crowd")
                }
            }
            At(.minutes(17)) { EditMessage(from: "erin", in: "crowd", text: "erin r2, edited") }
            At(.minutes(17) + .seconds(5)) { EditMessage(from: "hank", in: "crowd", text: "hank r2, edited") }
            At(.minutes(20)) { LinkUp("alice") }
            At(.minutes(21)) { ScrollUp("alice", in: "crowd", messages: 1000) }
            At(.minutes(22)) { Send(from: "alice", text: "alice is back", in: "crowd") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(32), .historyComplete(client: "alice", chat: "crowd"))
            Eventually(within: .minutes(38), .converged)
        }
    }

    /// The app crashes the instant the server answers its second LOGIN (the answer is on the wire), with sends
    /// queued and a page request from before; the server restarts at the third LOGIN; DelayResponses on MSG_SEND.
    public static let crashAtLoginAnswerRestartAtThird = Scenario(
        "crash-at-login-answer-restart-at-third",
        summary: "crash as the 2nd LOGIN answer leaves the server; server restart as the 3rd arrives; slow sends",
        seeds: [1], tags: [.connection, .sending], runLength: .minutes(10)
    ) {
        Server(history: ["alice+bob": 20])
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(4)) { LinkDown("alice", for: .seconds(6), .withReset) }
            At(.seconds(5)) { Send(from: "alice", text: "q1", in: "alice+bob") }
            At(.seconds(6)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(7)) { Send(from: "alice", text: "q2", in: "alice+bob") }
            At(.seconds(8)) { Send(from: "bob", text: "b1", in: "alice+bob") }
            At(.seconds(9)) { DelayResponses(to: .msgSend, by: .seconds(6), for: .seconds(30), of: "alice") }
            When(.server(answers: .login, to: "alice").nth(2)) { CrashApp("alice") }
            When(.server(receives: .login, from: "alice").nth(3)) { ServerRestart(downtime: .seconds(3)) }
            At(.seconds(30)) { Send(from: "alice", text: "q3", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(6), .serverOrder(chat: "alice+bob", texts: ["q1", "q2", "q3"]))
            Eventually(within: .minutes(6), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(8), .converged)
        }
    }

    /// Alice backgrounds the app with a scroll's page in flight; while suspended the tablet deletes her newest
    /// message and Bob edits; she foregrounds on a different cell as the server restarts, then crashes at the first
    /// page answer after that.
    public static let suspendedTabletDeletesServerRestart = Scenario(
        "suspended-tablet-deletes-server-restart",
        summary: "backgrounded mid-page; tablet deletes, Bob edits; foreground as the server restarts; crash at a page",
        seeds: [1], tags: [.history, .connection], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 45])
        Client("alice", profile: .edge, parameters: ["historyPageSize": 10])
        Client("bob", profile: .threeG)
        Device("alice", "tablet", profile: .wifi)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(4)) { Send(from: "alice", text: "mine", in: "alice+bob") }
            At(.seconds(10)) { ScrollUp("alice", in: "alice+bob", messages: 25) }
            At(.seconds(10) + .milliseconds(300)) { Background("alice") }
            At(.seconds(30)) { DeleteMessage(from: "alice", in: "alice+bob") }
            At(.seconds(40)) { EditMessage(from: "bob", in: "alice+bob", text: "bob's newest, edited") }
            At(.seconds(50)) { Send(from: "bob", text: "bob more", in: "alice+bob") }
            At(.minutes(3)) { Handover("alice", to: .threeG) }
            At(.minutes(3) + .seconds(1)) { Foreground("alice") }
            At(.minutes(3) + .seconds(1)) { ServerRestart(downtime: .seconds(2)) }
            When(.client("alice", receives: .chatHistory, .response).nth(3)) { CrashApp("alice") }
            At(.minutes(4)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(12), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(18), .converged)
        }
    }

    /// Two LOGIN errors, then a LOGIN answer lost, then the server restarts as the fourth LOGIN arrives, while sends
    /// wait and LOGIN lists two chats of five changed.
    public static let loginErrorsLostRestartCatchUp = Scenario(
        "login-errors-lost-restart-catch-up",
        summary: "two LOGIN errors, a lost LOGIN answer, a server restart at the 4th LOGIN; LOGIN of two chats of five",
        seeds: [1], tags: [.connection], runLength: .minutes(25)
    ) {
        Server(history: ["alice+bob": 6])
        Client("alice", profile: .gprs, parameters: ["loginChatsCount": 2])
        Client("bob", profile: .threeG)
        Client("carol", profile: .threeG)
        Client("dave", profile: .threeG)
        Client("erin", profile: .threeG)
        Client("fred", profile: .threeG)
        Timeline {
            At(.seconds(10)) { LinkDown("alice") }
            At(.seconds(12)) { Send(from: "alice", text: "queued 1", in: "alice+bob") }
            At(.seconds(13)) { Send(from: "alice", text: "queued 2", in: "alice+fred") }
            for (offset, peer) in ["bob", "carol", "dave", "erin", "fred"].enumerated() {
                At(.minutes(1) + .seconds(10 * offset)) { Send(from: peer, text: "\(peer) 1", in: "alice+\(peer)") }
            }
            At(.minutes(3)) { ErrorReplies(to: .login, count: 2, of: "alice") }
            At(.minutes(3)) { LinkUp("alice") }
            When(.client("alice", receives: .login, .error).nth(2)) { LoseResponses(to: .login, count: 1, of: "alice") }
            When(.server(receives: .login, from: "alice").nth(5)) { ServerRestart(downtime: .seconds(5)) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(18), .serverOrder(chat: "alice+fred", texts: ["queued 2"]))
            Eventually(within: .minutes(22), .converged)
        }
    }

    /// Round 36's field sequences, in `Catalog.all` after round 18's.
    public static let fieldSequences36: [Scenario] = [
        zeroChatLoginPlain,
        zeroChatLoginListErrors,
        chatsListOneErrorCatchUp,
        lateChatsListDeleteAboveMarker,
        lateChatsListPushesUnlisted,
        chatsListServerRestarts,
        crashAtChatsListPages,
        heldChatsListResetSeq2,
        hoursOfflinePhotosGsmRestarts,
        crashAtPushesWhileScrolling,
        clockJumpsMidPageServerBehind,
        seq2JitterMixedResets,
    ]

    /// The other 18 of round 36, kept out of the catalog as earlier rounds' tried ones are: valid scenarios a user can
    /// add to `Catalog.all`.
    public static let fieldSequences36Tried: [Scenario] = [
        heldPageEditsDeletesCrashSeq2,
        heldPageDeletesWhileOfflineSeq3,
        heldTokenCrashSeq2,
        halfOpenAfterLoginAnswerCatchUp,
        pageOfOneFlappingPushes,
        pageOfOneScrollDownDelayedPushes,
        thousandPagesCompressAll,
        timeoutNearRtt2GRural,
        oneAttemptTokenErrorAlbum,
        oneAttemptSendErrorWindowCrash,
        flatBackoffShortConnectTimeout,
        serverIdleTimeoutChurn,
        albumFadingCellDropsAtTokens,
        tabletDeletesRemovedNoticePhoneAway,
        tenMemberGroupDeletesPushLoss,
        crashAtLoginAnswerRestartAtThird,
        suspendedTabletDeletesServerRestart,
        loginErrorsLostRestartCatchUp,
    ]
}
