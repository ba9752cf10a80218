import SyncSim

// Hand-written field sequences, round 36 (session 36: a helper wrote 30 from the field's fault orders, unlike the
// earlier rounds'; these 12 are kept). Five found three reference-engine defects, all in the chat-list catch-up after
// LOGIN (CHATS_LIST), each failing V1 on every seed before the fix: a LOGIN asking for no chats (`loginChatsCount` 0)
// never listed any while last-sync moved on; one CHATS_LIST error gave up the chats still to list, which last-sync had
// already passed; a message posted while the client was away and deleted between its LOGIN answer and its CHATS_LIST
// page left the chat's entry without it for good. The others cover the catch-up under server restarts, crashes and
// held answers in a two-seq space, and catch engine mutants: `seq-reuse-inflight`, `send-before-all-uploads`,
// `merge-skips-bridge`, `since-from-device-clock`, `own-message-device-time`, `gap-ignored-after-login`.

// MARK: - Cells of our own

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
    /// and the entry never learned its last message (V1, before the fix: a removal or edit naming a message newer
    /// than the entry's last now lists the chat by a pass from the top).
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
}
