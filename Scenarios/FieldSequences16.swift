import SyncSim

// Hand-written field sequences, round 16 (seq16): restarts inside multi-step photo tasks with handovers, scrolls
// across several gaps while the link clogs, second devices writing while the phone is away, edits and deletes of
// messages whose send is still in the queue or unanswered, server faults right after a store with small seq
// spaces, hours offline, sub-kbit cells of the scenarios' own and request timeouts shorter than the round trip.

// MARK: - Cells of our own

/// A congested GPRS cell at the edge of coverage: under a kilobit per second up, a few down, long delays, short
/// buffers (the rates field users report on overloaded rural cells at busy hours).
private let subKbitCell = LinkProfile(
    name: "GPRS-subkbit",
    source: "assumption: overloaded GPRS cell, one timeslot shared by many users (~0.8 kbit/s up, ~4 kbit/s down)",
    uplink: .init(rateBitsPerSecond: 800, oneWayDelay: .milliseconds(700),
                  jitter: .uniform(maximum: .milliseconds(150)), queueCapacityBytes: 12_000,
                  loss: .bernoulli(probability: 0.01)),
    downlink: .init(rateBitsPerSecond: 4_000, oneWayDelay: .milliseconds(700),
                    jitter: .uniform(maximum: .milliseconds(150)), queueCapacityBytes: 24_000,
                    loss: .bernoulli(probability: 0.01))
)

/// A low-earth-orbit hop with frequent short outages (satellite handoffs every few minutes) and reordering.
private let leoCell = LinkProfile(
    name: "LEO-handoffs",
    source: "assumption: LEO constellation, ~40 ms one way, short outages at satellite handoffs, reordering jitter",
    uplink: .init(rateBitsPerSecond: 2_000_000, oneWayDelay: .milliseconds(40),
                  jitter: .uniform(maximum: .milliseconds(30)), reordersPackets: true,
                  loss: .bernoulli(probability: 0.003),
                  outages: .random(meanInterval: .seconds(45), meanLength: .milliseconds(1500))),
    downlink: .init(rateBitsPerSecond: 10_000_000, oneWayDelay: .milliseconds(40),
                    jitter: .uniform(maximum: .milliseconds(30)), reordersPackets: true,
                    loss: .bernoulli(probability: 0.003),
                    outages: .random(meanInterval: .seconds(45), meanLength: .milliseconds(1500)))
)

/// A GEO satellite hop: 1.3 s one way.
private let geoCell = LinkProfile(
    name: "GEO-slow",
    source: "assumption: GEO satellite, ~1.3 s one way, 64/256 kbit/s (BGAN class)",
    uplink: .init(rateBitsPerSecond: 64_000, oneWayDelay: .milliseconds(1300),
                  jitter: .uniform(maximum: .milliseconds(80))),
    downlink: .init(rateBitsPerSecond: 256_000, oneWayDelay: .milliseconds(1300),
                    jitter: .uniform(maximum: .milliseconds(80)))
)

extension Catalog {
    // MARK: - Restarts inside multi-step photo tasks

    /// Three photos in one message on EDGE; the app is restarted while the second is uploading, then the phone hands
    /// over to GPRS and the app crashes while the third uploads; it comes back on 3G.
    public static let restartMidPhotosHandover = Scenario(
        "restart-mid-photos-handover",
        summary: "three-photo message: restart during upload 2, handover to GPRS, crash during upload 3, back on 3G",
        seeds: [1], tags: [.photo], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 30])
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(3)) { SendPhotos(from: "alice", count: 3, bytes: 40_000, caption: "restarted album", in: "alice+bob") }
            When(.server(answers: .photoUpload, to: "alice").nth(2)) { RestartApp("alice") }
            At(.seconds(25)) { Handover("alice", to: .gprs) }
            When(.server(answers: .photoUpload, to: "alice").nth(4)) { CrashApp("alice") }
            At(.seconds(60)) { Handover("alice", to: .threeG) }
            At(.seconds(62)) { Send(from: "alice", text: "did it arrive?", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "restarted album", photos: 3))
            Eventually(within: .minutes(15), .serverOrder(chat: "alice+bob", texts: ["restarted album", "did it arrive?"]))
            Eventually(within: .minutes(16), .converged)
            MetricBound("tasksFailed", atMost: 0)
        }
    }

    /// Two photo messages queued offline; the app is killed while the first is being processed (before any token),
    /// restarted offline, and the network returns on a sub-kbit cell before a handover to 3G.
    public static let crashProcessingOfflineSubkbit = Scenario(
        "crash-processing-offline-subkbit",
        summary: "photos queued offline, crash during processing, relaunch offline, back on a sub-kbit cell then 3G",
        seeds: [1], tags: [.photo, .slow], runLength: .minutes(40)
    ) {
        Server(history: ["alice+bob": 10])
        subKbitCell
        Client("alice", profile: .threeG, parameters: ["photoProcessingTime": .duration(.seconds(6)),
                                                       "requestTimeout": .duration(.seconds(60))])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { LinkDown("alice") }
            At(.seconds(3)) { SendPhoto(from: "alice", bytes: 3_000, caption: "tiny one", in: "alice+bob") }
            At(.seconds(4)) { SendPhotos(from: "alice", count: 2, bytes: 2_000, caption: "tiny pair", in: "alice+bob") }
            At(.seconds(6)) { CrashApp("alice") }
            At(.seconds(12)) { RestartApp("alice") }
            At(.seconds(30)) { Handover("alice", to: "GPRS-subkbit") }
            At(.seconds(31)) { LinkUp("alice") }
            At(.minutes(8)) { Handover("alice", to: .threeG) }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "tiny pair", photos: 2))
            Eventually(within: .minutes(30), .serverOrder(chat: "alice+bob", texts: ["tiny one", "tiny pair"]))
            Eventually(within: .minutes(32), .converged)
        }
    }

    /// The photo's token request is answered with errors three times, then the app is backgrounded and suspended
    /// mid-upload, the phone hands over to Wi-Fi while suspended, and comes back.
    public static let tokenErrorsBackgroundHandover = Scenario(
        "token-errors-background-handover",
        summary: "PHOTO_UPLOAD errors, backgrounded mid-upload, handover to Wi-Fi while suspended, foreground",
        seeds: [1], tags: [.photo, .connection], runLength: .minutes(15)
    ) {
        Server(history: ["alice+bob": 20])
        Client("alice", profile: .edgeLossy)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(1)) { ErrorReplies(to: .photoUpload, count: 3, of: "alice") }
            At(.seconds(2)) { SendPhotos(from: "alice", count: 2, bytes: 60_000, caption: "beach", in: "alice+bob") }
            At(.seconds(3)) { Send(from: "alice", text: "wait for it", in: "alice+bob") }
            At(.seconds(20)) { Background("alice") }
            At(.seconds(30)) { Handover("alice", to: .wifi) }
            At(.seconds(60)) { Foreground("alice") }
            At(.seconds(61)) { OpenChat("alice", "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "beach", photos: 2))
            Eventually(within: .minutes(10), .serverOrder(chat: "alice+bob", texts: ["beach", "wait for it"]))
            Eventually(within: .minutes(12), .converged)
        }
    }

    /// The OS reports the network lost and back four times while a four-photo message uploads on 3G, and a
    /// restart comes right after the last report.
    public static let connectivityFlapsFourPhotos = Scenario(
        "connectivity-flaps-four-photos",
        summary: "four-photo message while the OS reports the network lost/restored four times, then a restart",
        seeds: [1], tags: [.photo, .connection], runLength: .minutes(15)
    ) {
        Server(history: ["alice+bob": 15])
        Client("alice", profile: .threeG)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { SendPhotos(from: "alice", count: 4, bytes: 80_000, caption: "four", in: "alice+bob") }
            for index in 0..<4 {
                At(.seconds(5) + .seconds(7 * index)) { Connectivity("alice", .lost) }
                At(.seconds(8) + .seconds(7 * index)) { Connectivity("alice", .restored) }
            }
            At(.seconds(27) + .milliseconds(300)) { RestartApp("alice") }
            At(.seconds(40)) { Send(from: "alice", text: "four sent", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Always(.photosComplete(chat: "alice+bob", caption: "four", photos: 4))
            Eventually(within: .minutes(10), .serverOrder(chat: "alice+bob", texts: ["four", "four sent"]))
            Eventually(within: .minutes(12), .converged)
        }
    }

    // MARK: - Scrolling across several gaps

    /// Three gaps in the cache (the phone away three times while Bob writes 40 each time); Alice scrolls up across
    /// them with tiny pages while the link clogs twice, then scrolls back down to the newest.
    public static let scrollThreeGapsClogging = Scenario(
        "scroll-three-gaps-clogging",
        summary: "three gaps in the cache, scroll up across them while the link clogs twice, then scroll down",
        seeds: [1], tags: [.history], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 60])
        Client("alice", profile: .edge, parameters: ["historyPageSize": 8, "prefetchDistance": 2])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            for round in 0..<3 {
                At(.seconds(10 + 40 * round)) { LinkDown("alice", .withReset) }
                for index in 0..<40 {
                    At(.seconds(11 + 40 * round) + .milliseconds(500 * index)) {
                        PostFromOtherDevice("bob", text: "r\(round) m\(index)", in: "alice+bob")
                    }
                }
                At(.seconds(35 + 40 * round)) { LinkUp("alice") }
            }
            At(.seconds(140)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(145)) { Clog("alice") }
            At(.seconds(160)) { Release("alice") }
            At(.seconds(170)) { Clog("alice") }
            At(.seconds(171)) { ScrollDown("alice", in: "alice+bob", messages: 50) }
            At(.seconds(190)) { Release("alice") }
            At(.seconds(200)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(300)) { ScrollDown("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(16), .converged)
        }
    }

    /// Gaps again, then scrolling up and down alternately in small steps while pushes to Alice are delayed and
    /// duplicated, and she restarts halfway.
    public static let scrollUpDownDelayedPushes = Scenario(
        "scroll-up-down-delayed-pushes",
        summary: "gaps, alternate small scrolls up and down while pushes are delayed and duplicated; restart halfway",
        seeds: [1], tags: [.history], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 90])
        Client("alice", profile: .threeG, parameters: ["historyPageSize": 10, "visibleMessageCount": 8])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { LinkDown("alice") }
            for index in 0..<25 {
                At(.seconds(6) + .milliseconds(400 * index)) { Send(from: "bob", text: "gap \(index)", in: "alice+bob") }
            }
            At(.seconds(20)) { LinkUp("alice") }
            At(.seconds(40)) { DelayPushes(to: "alice", by: .seconds(4), for: .seconds(60)) }
            At(.seconds(40)) { PushDuplication("alice", probability: 0.5, for: .seconds(60)) }
            for index in 0..<12 {
                At(.seconds(42) + .seconds(4 * index)) {
                    if index % 2 == 0 {
                        ScrollUp("alice", in: "alice+bob", messages: 15)
                    } else {
                        ScrollDown("alice", in: "alice+bob", messages: 6)
                    }
                }
                At(.seconds(43) + .seconds(4 * index)) { Send(from: "bob", text: "live \(index)", in: "alice+bob") }
            }
            At(.seconds(66)) { RestartApp("alice") }
            At(.seconds(70)) { OpenChat("alice", "alice+bob") }
            At(.seconds(120)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.seconds(200)) { LinkDown("alice", for: .seconds(2), .withReset) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(16), .converged)
        }
    }

    /// A scroll to the top over a sub-kbit cell with small pages: the page answers come close to the timeout.
    public static let subkbitScrollToTop = Scenario(
        "subkbit-scroll-to-top",
        summary: "scroll to the top of 120 messages on a sub-kbit cell, pages near the request timeout",
        seeds: [1], tags: [.history, .slow], runLength: .minutes(60)
    ) {
        Server(history: ["alice+bob": 120])
        subKbitCell
        Client("alice", profile: "GPRS-subkbit", parameters: ["historyPageSize": 10, "requestTimeout": .duration(.seconds(40))])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(30)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.minutes(3)) { Send(from: "bob", text: "are you there", in: "alice+bob") }
            At(.minutes(4)) { Send(from: "alice", text: "slowly", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(50), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(55), .converged)
        }
    }

    // MARK: - Second devices

    /// The phone is offline with two sends of its own queued while the tablet sends five to the same chat and
    /// marks it read; the phone relaunches offline, then comes back on EDGE.
    public static let tabletSendsPhoneQueuedOffline = Scenario(
        "tablet-sends-phone-queued-offline",
        summary: "phone offline with queued sends, tablet sends five and marks read, phone relaunches, returns",
        seeds: [1], tags: [.sending], runLength: .minutes(15)
    ) {
        Server(history: ["alice+bob": 20])
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Device("alice", "tablet", profile: .wifi)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(4)) { LinkDown("alice") }
            At(.seconds(5)) { Send(from: "alice", text: "phone 1", in: "alice+bob") }
            for index in 0..<5 {
                At(.seconds(6) + .seconds(index)) { Send(from: "alice:tablet", text: "tablet \(index)", in: "alice+bob") }
            }
            At(.seconds(8)) { Send(from: "alice", text: "phone 2", in: "alice+bob") }
            At(.seconds(12)) { OpenChat("alice:tablet", "alice+bob") }
            At(.seconds(14)) { MarkRead("alice:tablet", "alice+bob") }
            At(.seconds(20)) { RestartApp("alice") }
            At(.seconds(40)) { LinkUp("alice") }
            At(.seconds(50)) { MarkRead("alice", "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(10), .serverOrder(chat: "alice+bob", texts: ["phone 1", "phone 2"]))
            Eventually(within: .minutes(10), .serverMessageCount(chat: "alice+bob", count: 27))
            Eventually(within: .minutes(11), .readUpToNewest(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(12), .converged)
        }
    }

    /// A group chat in which Alice's tablet and phone both write while the phone's MSG_SEND answers are held and its
    /// link then resets; Carol is on a sub-kbit cell.
    public static let groupTwoDevicesHeldAnswers = Scenario(
        "group-two-devices-held-answers",
        summary: "group chat: phone and tablet both send, phone's answers held then a reset; a member on sub-kbit",
        seeds: [1], tags: [.sending, .connection], runLength: .minutes(30)
    ) {
        Chat("family", members: ["alice", "bob", "carol"])
        Server(history: ["family": 40])
        subKbitCell
        Client("alice", profile: .threeG)
        Client("bob", profile: .edge)
        Client("carol", profile: "GPRS-subkbit", parameters: ["requestTimeout": .duration(.seconds(60)), "historyPageSize": 10])
        Device("alice", "tablet", profile: .wifi)
        Timeline {
            At(.seconds(2)) { OpenChat("carol", "family") }
            At(.seconds(3)) { HoldResponses(to: .msgSend, of: "alice", until: "reset") }
            for index in 0..<3 {
                At(.seconds(4) + .seconds(2 * index)) { Send(from: "alice", text: "phone \(index)", in: "family") }
                At(.seconds(5) + .seconds(2 * index)) { Send(from: "alice:tablet", text: "tab \(index)", in: "family") }
            }
            At(.seconds(12)) { LinkDown("alice", for: .seconds(2), .withReset).named("reset") }
            At(.seconds(15)) { Send(from: "bob", text: "bob sees", in: "family") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(10), .serverOrder(chat: "family", texts: ["phone 0", "phone 1", "phone 2"]))
            Eventually(within: .minutes(10), .serverOrder(chat: "family", texts: ["tab 0", "tab 1", "tab 2"]))
            Eventually(within: .minutes(25), .converged)
        }
    }

    /// Six hours offline; the tablet edits and deletes her messages meanwhile and Bob writes in three chats; the
    /// phone returns on GPRS with a LOGIN of one chat a page and scrolls.
    public static let sixHoursOfflineTabletEdits = Scenario(
        "six-hours-offline-tablet-edits",
        summary: "6 h offline while the tablet edits and deletes and three chats change; back on GPRS, one chat a page",
        seeds: [1], tags: [.history, .slow], runLength: .hours(8)
    ) {
        Server(history: ["alice+bob": 30, "alice+carol": 30, "alice+dave": 30])
        Client("alice", profile: .gprs, parameters: ["loginChatsCount": 1])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Device("alice", "tablet", profile: .wifi)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(5)) { Send(from: "alice", text: "before", in: "alice+bob") }
            At(.seconds(20)) { LinkDown("alice") }
            At(.minutes(30)) { Send(from: "alice:tablet", text: "tab draft", in: "alice+bob") }
            At(.minutes(31)) { EditMessage(from: "alice", in: "alice+bob", text: "tab final") }
            At(.minutes(60)) { Send(from: "alice:tablet", text: "to carol", in: "alice+carol") }
            At(.minutes(61)) { DeleteMessage(from: "alice", in: "alice+carol") }
            for index in 0..<12 {
                At(.minutes(90) + .minutes(20 * index)) { PostFromOtherDevice("bob", text: "b\(index)", in: "alice+bob") }
                At(.minutes(95) + .minutes(20 * index)) { PostFromOtherDevice("dave", text: "d\(index)", in: "alice+dave") }
            }
            At(.hours(6)) { LinkUp("alice") }
            At(.hours(6) + .minutes(2)) { OpenChat("alice", "alice+carol") }
            At(.hours(6) + .minutes(3)) { ScrollUp("alice", in: "alice+carol", messages: 1000) }
            At(.hours(6) + .minutes(6)) { OpenChat("alice", "alice+bob") }
            At(.hours(6) + .minutes(7)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .hours(7), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .hours(7), .converged)
        }
    }

    // MARK: - Edits and deletes of messages in the task queue

    /// Alice's send is stored but its answer held; meanwhile her tablet edits it (the edit push reaches the phone
    /// before the answer with the original text), and then deletes her previous message.
    public static let editBeforeHeldSendAnswer = Scenario(
        "edit-before-held-send-answer",
        summary: "send stored, answer held; the tablet edits it and deletes an older one before the answer comes",
        seeds: [1], tags: [.sending], runLength: .minutes(10)
    ) {
        Server(history: ["alice+bob": 10])
        Client("alice", profile: .threeG)
        Client("bob", profile: .edge)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(3)) { Send(from: "alice", text: "first", in: "alice+bob") }
            At(.seconds(8)) { HoldResponses(to: .msgSend, of: "alice", until: .time(.seconds(25))) }
            At(.seconds(9)) { Send(from: "alice", text: "typo", in: "alice+bob") }
            When(.server(answers: .msgSend, to: "alice").nth(2)) { EditMessage(from: "alice", in: "alice+bob", text: "fixed") }
            At(.seconds(15)) { Send(from: "alice", text: "third", in: "alice+bob") }
            At(.seconds(30)) { DeleteMessage(from: "alice", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(5), .serverOrder(chat: "alice+bob", texts: ["first", "fixed"]))
            Eventually(within: .minutes(6), .converged)
        }
    }

    /// Alice's send answer is lost; the message is deleted from another device before her retry, which the server
    /// answers "already exists"; her cache must end with the tombstone, not the message.
    public static let deleteBeforeRetryDuplicate = Scenario(
        "delete-before-retry-duplicate",
        summary: "send answer lost, message deleted elsewhere, the retry answered 'already exists': no ghost",
        seeds: [1], tags: [.sending], runLength: .minutes(10)
    ) {
        Server(history: ["alice+bob": 12])
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(3)) { LoseResponses(to: .msgSend, count: 1, of: "alice") }
            At(.seconds(4)) { Send(from: "alice", text: "regret", in: "alice+bob") }
            When(.server(receives: .msgSend, from: "alice").nth(2)) { DeleteMessage(from: "alice", in: "alice+bob") }
            At(.seconds(5)) { LinkDown("alice", for: .seconds(2), .withReset) }
            At(.seconds(40)) { Send(from: "alice", text: "after regret", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(5), .serverOrder(chat: "alice+bob", texts: ["after regret"]))
            Eventually(within: .minutes(6), .converged)
        }
    }

    /// Alice's messages are edited and deleted from her tablet while three sends of hers sit in the phone's queue
    /// offline, and the phone crashes before the network returns.
    public static let editsWhileQueueOfflineCrash = Scenario(
        "edits-while-queue-offline-crash",
        summary: "tablet edits and deletes while three phone sends are queued offline; crash, network back",
        seeds: [1], tags: [.sending], runLength: .minutes(12)
    ) {
        Server(history: ["alice+bob": 8])
        Client("alice", profile: .edgeLossy)
        Client("bob", profile: .threeG)
        Device("alice", "tablet", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(3)) { Send(from: "alice", text: "online one", in: "alice+bob") }
            At(.seconds(15)) { LinkDown("alice") }
            At(.seconds(16)) { Send(from: "alice", text: "q1", in: "alice+bob") }
            At(.seconds(17)) { Send(from: "alice", text: "q2", in: "alice+bob") }
            At(.seconds(18)) { EditMessage(from: "alice", in: "alice+bob", text: "online one, edited") }
            At(.seconds(19)) { Send(from: "alice:tablet", text: "tab", in: "alice+bob") }
            At(.seconds(20)) { DeleteMessage(from: "alice", in: "alice+bob") }
            At(.seconds(21)) { Send(from: "alice", text: "q3", in: "alice+bob") }
            At(.seconds(22)) { EditMessage(from: "alice", in: "alice+bob", text: "online one, again") }
            At(.seconds(25)) { CrashApp("alice") }
            At(.seconds(40)) { LinkUp("alice") }
            At(.seconds(60)) { EditMessage(from: "alice", in: "alice+bob", text: "q3 edited") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(6), .serverOrder(chat: "alice+bob", texts: ["q1", "q2"]))
            Eventually(within: .minutes(8), .converged)
        }
    }

    // MARK: - Server faults with small seq spaces

    /// The link resets right after the server stored each of two sends (answers lost with the connection); seq space
    /// of `modulus`; the retries meet "already exists" on reused seqs.
    static func resetAfterStore(modulus: Int, initial: Int) -> Scenario {
        Scenario(
            "seq\(modulus)-reset-after-store",
            summary: "\(modulus) seqs: the connection drops right after each of two stores; retries, a page, a mark",
            seeds: [1], tags: [.sending, .connection], runLength: .minutes(12)
        ) {
            Server(history: ["alice+bob": 25, "alice+carol": 5])
            Client("alice", profile: .threeG, parameters: ["seqModulus": .int(modulus), "initialSeq": .int(initial)])
            Client("bob", profile: .fourG)
            Client("carol", profile: .fourG)
            Timeline {
                At(.seconds(2)) { OpenChat("alice", "alice+bob") }
                At(.seconds(3)) { Send(from: "alice", text: "one", in: "alice+bob") }
                At(.seconds(3)) { Send(from: "alice", text: "c one", in: "alice+carol") }
                When(.server(answers: .msgSend, to: "alice")) { LinkDown("alice", for: .seconds(1), .withReset) }
                At(.seconds(8)) { MarkRead("alice", "alice+bob") }
                At(.seconds(9)) { Send(from: "alice", text: "two", in: "alice+bob") }
                When(.server(answers: .msgSend, to: "alice").nth(4)) { LinkDown("alice", for: .seconds(1), .withReset) }
                At(.seconds(10)) { ScrollUp("alice", in: "alice+bob", messages: 100) }
                At(.seconds(11)) { Send(from: "alice", text: "c two", in: "alice+carol") }
            }
            Expect {
                Invariants(.all)
                Eventually(within: .minutes(8), .serverOrder(chat: "alice+bob", texts: ["one", "two"]))
                Eventually(within: .minutes(8), .serverOrder(chat: "alice+carol", texts: ["c one", "c two"]))
                Eventually(within: .minutes(8), .historyComplete(client: "alice", chat: "alice+bob"))
                Eventually(within: .minutes(9), .converged)
            }
        }
    }

    public static let seq4ResetAfterStore = resetAfterStore(modulus: 4, initial: 3)
    public static let seq2ResetAfterStore = resetAfterStore(modulus: 2, initial: 0)
    public static let seq3ResetAfterStore = resetAfterStore(modulus: 3, initial: 2)

    /// A server that reorders its answers (processing jitter of 2 s), with a seq space of `modulus`: sends, opens and
    /// marks interleave; a server restart comes in the middle.
    static func jitteryServerRestart(modulus: Int) -> Scenario {
        Scenario(
            "seq\(modulus)-jittery-server-restart",
            summary: "\(modulus) seqs, server answers reordered by 2 s of jitter, a server restart mid-burst",
            seeds: [1], tags: [.connection], runLength: .minutes(12)
        ) {
            Server(parameters: ["processingJitter": .duration(.seconds(2))],
                   history: ["alice+bob": 50, "alice+carol": 30, "alice+dave": 10])
            Client("alice", profile: .threeG, parameters: ["seqModulus": .int(modulus), "initialSeq": .int(modulus - 1)])
            Client("bob", profile: .fourG)
            Client("carol", profile: .fourG)
            Client("dave", profile: .fourG)
            Timeline {
                At(.seconds(2)) { OpenChat("alice", "alice+bob") }
                for index in 0..<4 {
                    At(.seconds(3) + .milliseconds(700 * index)) { Send(from: "alice", text: "b\(index)", in: "alice+bob") }
                    At(.seconds(3) + .milliseconds(700 * index + 300)) { Send(from: "alice", text: "c\(index)", in: "alice+carol") }
                }
                At(.seconds(4)) { OpenChat("alice", "alice+carol") }
                At(.seconds(5)) { MarkRead("alice", "alice+carol") }
                At(.seconds(5) + .milliseconds(500)) { ServerRestart(downtime: .seconds(3)) }
                At(.seconds(6)) { OpenChat("alice", "alice+dave") }
                At(.seconds(7)) { ScrollUp("alice", in: "alice+dave", messages: 100) }
                At(.seconds(30)) { OpenChat("alice", "alice+bob") }
                At(.seconds(31)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            }
            Expect {
                Invariants(.all)
                Eventually(within: .minutes(8), .serverOrder(chat: "alice+bob", texts: ["b0", "b1", "b2", "b3"]))
                Eventually(within: .minutes(8), .serverOrder(chat: "alice+carol", texts: ["c0", "c1", "c2", "c3"]))
                Eventually(within: .minutes(8), .historyComplete(client: "alice", chat: "alice+bob"))
                Eventually(within: .minutes(9), .converged)
            }
        }
    }

    public static let seq4JitteryServerRestart = jitteryServerRestart(modulus: 4)
    public static let seq8JitteryServerRestart = jitteryServerRestart(modulus: 8)

    /// Seq space of `modulus`, a server sending replies to the device's newer connection: CHAT_HISTORY answers held
    /// 30 s (past the 20 s timeout) across a reset; new opens on the new connection reuse the seqs.
    static func latePageFollowsDevice(modulus: Int) -> Scenario {
        Scenario(
            "seq\(modulus)-late-page-follows-device",
            summary: "\(modulus) seqs, replies follow the device: pages answered past the timeout after a reset",
            seeds: [1], tags: [.history, .connection], runLength: .minutes(10)
        ) {
            Server(parameters: ["repliesFollowDevice": true],
                   history: ["alice+bob": 40, "alice+carol": 40, "alice+dave": 40])
            Client("alice", profile: .threeG, parameters: ["seqModulus": .int(modulus), "initialSeq": 1])
            Client("bob", profile: .fourG)
            Client("carol", profile: .fourG)
            Client("dave", profile: .fourG)
            Timeline {
                At(.seconds(3)) { DelayResponses(to: .chatHistory, by: .seconds(30), for: .seconds(3)) }
                At(.seconds(4)) { OpenChat("alice", "alice+bob") }
                At(.seconds(5)) { OpenChat("alice", "alice+carol") }
                At(.seconds(6)) { LinkDown("alice", for: .seconds(1), .withReset) }
                At(.seconds(26)) { OpenChat("alice", "alice+dave") }
                At(.seconds(27)) { Send(from: "alice", text: "hello dave", in: "alice+dave") }
                At(.seconds(28)) { ScrollUp("alice", in: "alice+dave", messages: 10) }
                At(.seconds(33)) { OpenChat("alice", "alice+bob") }
                At(.seconds(34)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            }
            Expect {
                Invariants(.all)
                Eventually(within: .minutes(6), .historyComplete(client: "alice", chat: "alice+bob"))
                Eventually(within: .minutes(7), .converged)
            }
        }
    }

    public static let seq4LatePageFollowsDevice = latePageFollowsDevice(modulus: 4)
    public static let seq2LatePageFollowsDevice = latePageFollowsDevice(modulus: 2)

    /// Seq space of 4: LOGIN answers held 8 s while Bob posts (pushes come before the first LOGIN answer), then the
    /// link resets and the next LOGIN answer is lost.
    public static let seq4HeldLoginPushes = Scenario(
        "seq4-held-login-pushes",
        summary: "4 seqs: LOGIN answer held while pushes come, a reset, the next LOGIN answer lost",
        seeds: [1], tags: [.connection], runLength: .minutes(10)
    ) {
        Server(history: ["alice+bob": 20, "alice+carol": 3])
        Client("alice", profile: .edge, parameters: ["seqModulus": 4, "initialSeq": 3])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.zero) { HoldResponses(to: .login, of: "alice", until: .time(.seconds(9))) }
            At(.seconds(3)) { Send(from: "bob", text: "early 1", in: "alice+bob") }
            At(.seconds(4)) { Send(from: "carol", text: "early 2", in: "alice+carol") }
            At(.seconds(5)) { EditMessage(from: "bob", in: "alice+bob", text: "early 1 edited") }
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(6)) { Send(from: "alice", text: "mine", in: "alice+bob") }
            At(.seconds(12)) { LoseResponses(to: .login, count: 1, of: "alice") }
            At(.seconds(12)) { LinkDown("alice", for: .seconds(1), .withReset) }
            At(.seconds(15)) { DeleteMessage(from: "carol", in: "alice+carol") }
            At(.seconds(60)) { OpenChat("alice", "alice+carol") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(6), .serverOrder(chat: "alice+bob", texts: ["early 1 edited", "mine"]))
            Eventually(within: .minutes(7), .converged)
        }
    }

    /// Seq space of 2 and PHOTO_UPLOAD answers lost twice while a photo and texts go out, with MSG_SEND errors for a
    /// period (server knob) and a half-open connection after it.
    public static let seq2LostTokensSendErrors = Scenario(
        "seq2-lost-tokens-send-errors",
        summary: "2 seqs: two PHOTO_UPLOAD answers lost, a MSG_SEND error period, a half-open connection",
        seeds: [1], tags: [.photo, .sending], runLength: .minutes(20)
    ) {
        Server(parameters: ["msgSendErrorsFrom": .duration(.seconds(10)), "msgSendErrorsUntil": .duration(.seconds(30))],
               history: ["alice+bob": 10])
        Client("alice", profile: .threeG, parameters: ["seqModulus": 2, "initialSeq": 1])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(2)) { LoseResponses(to: .photoUpload, count: 2, of: "alice") }
            At(.seconds(3)) { SendPhoto(from: "alice", bytes: 30_000, caption: "p", in: "alice+bob") }
            At(.seconds(4)) { Send(from: "alice", text: "t1", in: "alice+bob") }
            At(.seconds(12)) { Send(from: "alice", text: "t2", in: "alice+bob") }
            At(.seconds(13)) { OpenChat("alice", "alice+bob") }
            At(.seconds(35)) { HalfOpen("alice") }
            At(.seconds(36)) { Send(from: "alice", text: "t3", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .serverOrder(chat: "alice+bob", texts: ["p", "t1", "t2", "t3"]))
            Eventually(within: .minutes(16), .converged)
        }
    }

    // MARK: - Request timeouts shorter than the round trip

    /// On a GEO hop (2.6 s round trip) with a request timeout of 4 s, a delay spike of 3 s each way makes every
    /// request time out for 40 s; sends, an open and a read mark must survive it without duplicates.
    public static let timeoutBelowRttSpike = Scenario(
        "timeout-below-rtt-spike",
        summary: "GEO hop, 4 s request timeout, a delay spike makes every request time out for 40 s",
        seeds: [1], tags: [.connection, .sending], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 60])
        geoCell
        Client("alice", profile: "GEO-slow", parameters: ["requestTimeout": .duration(.seconds(4)),
                                                         "pongTimeout": .duration(.seconds(8)),
                                                         "connectTimeout": .duration(.seconds(15))])
        Client("bob", profile: .fourG)
        Timeline {
            At(.seconds(10)) { OpenChat("alice", "alice+bob") }
            At(.seconds(20)) { DelaySpike("alice", by: .seconds(3), for: .seconds(40)) }
            At(.seconds(22)) { Send(from: "alice", text: "s1", in: "alice+bob") }
            At(.seconds(23)) { Send(from: "alice", text: "s2", in: "alice+bob") }
            At(.seconds(24)) { ScrollUp("alice", in: "alice+bob", messages: 100) }
            At(.seconds(25)) { MarkRead("alice", "alice+bob") }
            At(.seconds(30)) { Send(from: "bob", text: "b1", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .serverOrder(chat: "alice+bob", texts: ["s1", "s2"]))
            Eventually(within: .minutes(15), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .minutes(16), .converged)
        }
    }

    /// A request timeout (3 s) below the time a page takes on GPRS with big pages, with a small seq space: every
    /// page times out at first and its late answer comes; the engine must not take one chat's late page for another.
    public static let seq4TimeoutBelowPageTime = Scenario(
        "seq4-timeout-below-page-time",
        summary: "4 seqs, a 3 s request timeout below a GPRS page's transfer time, opens of three chats",
        seeds: [1], tags: [.history, .connection], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 80, "alice+carol": 80, "alice+dave": 80])
        Client("alice", profile: .gprs, parameters: ["seqModulus": 4, "initialSeq": 1,
                                                    "requestTimeout": .duration(.seconds(3)),
                                                    "historyPageSize": 40])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Client("dave", profile: .fourG)
        Timeline {
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(7)) { OpenChat("alice", "alice+carol") }
            At(.seconds(9)) { OpenChat("alice", "alice+dave") }
            At(.seconds(10)) { ScrollUp("alice", in: "alice+dave", messages: 1000) }
            At(.seconds(60)) { Handover("alice", to: .threeG) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .historyComplete(client: "alice", chat: "alice+dave"))
            Eventually(within: .minutes(16), .converged)
        }
    }

    /// Seq numbers starting just below the 16-bit wrap, a request timeout below the round trip of a LEO link during
    /// its outages, and a long burst of sends in two chats.
    public static let wrapLeoShortTimeouts = Scenario(
        "wrap-leo-short-timeouts",
        summary: "seqs from 65533, LEO link with outages, 1 s request timeout, 20 sends in two chats",
        seeds: [1], tags: [.sending, .connection], runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 10, "alice+carol": 10])
        leoCell
        Client("alice", profile: "LEO-handoffs", parameters: ["initialSeq": 65_533, "requestTimeout": .duration(.seconds(1))])
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            for index in 0..<10 {
                At(.seconds(3) + .milliseconds(900 * index)) { Send(from: "alice", text: "b\(index)", in: "alice+bob") }
                At(.seconds(3) + .milliseconds(900 * index + 450)) { Send(from: "alice", text: "c\(index)", in: "alice+carol") }
            }
            At(.seconds(4)) { OpenChat("alice", "alice+bob") }
            At(.seconds(8)) { DelaySpike("alice", by: .milliseconds(800), for: .seconds(10)) }
            At(.seconds(20)) { OpenChat("alice", "alice+carol") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(15), .serverOrder(chat: "alice+bob", texts: (0..<10).map { "b\($0)" }))
            Eventually(within: .minutes(15), .serverOrder(chat: "alice+carol", texts: (0..<10).map { "c\($0)" }))
        }
    }

    // MARK: - Long offline periods and clocks

    /// Twelve hours offline with the device clock set back a day while away; sends queued before, a restart while
    /// offline, then a half-open connection right after the return.
    public static let twelveHoursSkewedRestart = Scenario(
        "twelve-hours-skewed-restart",
        summary: "12 h offline, clock a day behind, queued sends, restart offline, half-open after the return",
        seeds: [1], tags: [.connection, .slow], runLength: .hours(14)
    ) {
        Server(history: ["alice+bob": 40, "alice+carol": 10])
        Client("alice", profile: .edge)
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(10)) { LinkDown("alice") }
            At(.seconds(11)) { Send(from: "alice", text: "queued 1", in: "alice+bob") }
            At(.seconds(12)) { Send(from: "alice", text: "queued 2", in: "alice+carol") }
            At(.hours(1)) { SkewClock("alice", by: .hours(-24)) }
            for index in 0..<20 {
                At(.hours(2) + .minutes(25 * index)) { PostFromOtherDevice("bob", text: "night \(index)", in: "alice+bob") }
            }
            At(.hours(6)) { RestartApp("alice") }
            At(.hours(8)) { EditMessage(from: "bob", in: "alice+bob", text: "night 19, edited") }
            At(.hours(12)) { LinkUp("alice") }
            When(.connected("alice").nth(3)) { HalfOpen("alice") }
            At(.hours(12) + .minutes(5)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .hours(13), .serverOrder(chat: "alice+bob", texts: ["night 0", "queued 1"]))
            Eventually(within: .hours(13), .historyComplete(client: "alice", chat: "alice+bob"))
            Eventually(within: .hours(13), .converged)
        }
    }

    /// Two hours offline with read marks made offline in two chats, the tablet reading further meanwhile; back online
    /// the phone's older marks must not move the server's back.
    public static let offlineMarksTabletReadsFurther = Scenario(
        "offline-marks-tablet-reads-further",
        summary: "2 h offline with read marks made offline; the tablet reads further; marks never go back",
        seeds: [1], tags: [.connection], runLength: .hours(3)
    ) {
        Server(history: ["alice+bob": 30, "alice+carol": 30])
        Client("alice", profile: .edge)
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Device("alice", "tablet", profile: .wifi)
        Timeline {
            At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            At(.seconds(4)) { OpenChat("alice", "alice+carol") }
            At(.seconds(10)) { LinkDown("alice") }
            At(.seconds(11)) { MarkRead("alice", "alice+bob") }
            At(.seconds(12)) { MarkRead("alice", "alice+carol") }
            At(.minutes(10)) { Send(from: "bob", text: "later b", in: "alice+bob") }
            At(.minutes(11)) { Send(from: "carol", text: "later c", in: "alice+carol") }
            At(.minutes(20)) { OpenChat("alice:tablet", "alice+bob") }
            At(.minutes(21)) { MarkRead("alice:tablet", "alice+bob") }
            At(.minutes(22)) { OpenChat("alice:tablet", "alice+carol") }
            At(.minutes(23)) { MarkRead("alice:tablet", "alice+carol") }
            At(.hours(2)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.all)
            Always("read marks stay at the tablet's", from: .time(.minutes(25)), clients: ["alice"]) { world in
                let bob = world.serverMessages(in: "alice+bob").last?.id
                let carol = world.serverMessages(in: "alice+carol").last?.id
                return world.readMark(of: "alice", in: "alice+bob") == bob
                    && world.readMark(of: "alice", in: "alice+carol") == carol
            }
            Eventually(within: .hours(2) + .minutes(30), .converged)
        }
    }
}

extension Catalog {
    /// The hand-written field sequences of session 16 kept in the catalog: the most distinct of the ones tried, and
    /// the two regression scenarios of the defect they found (a lost connection's unanswered seqs freed too soon).
    public static let fieldSequences16: [Scenario] = [
        restartMidPhotosHandover,
        crashProcessingOfflineSubkbit,
        scrollThreeGapsClogging,
        scrollUpDownDelayedPushes,
        tabletSendsPhoneQueuedOffline,
        editBeforeHeldSendAnswer,
        deleteBeforeRetryDuplicate,
        editsWhileQueueOfflineCrash,
        seq2ResetAfterStore,
        seq4JitteryServerRestart,
        timeoutBelowRttSpike,
        twelveHoursSkewedRestart,
        offlineMarksTabletReadsFurther,
        seq2TimedOutPageThenReset,
        seq4PagePastOrphanHold,
    ]

    /// The other sequences of session 16, tried over seeds 1...300 (none failed) and left out of the catalog to keep
    /// its run time: add them to `Catalog.all` to run them.
    public static let fieldSequences16Tried: [Scenario] = [
        tokenErrorsBackgroundHandover,
        connectivityFlapsFourPhotos,
        subkbitScrollToTop,
        groupTwoDevicesHeldAnswers,
        sixHoursOfflineTabletEdits,
        seq4ResetAfterStore,
        seq3ResetAfterStore,
        seq8JitteryServerRestart,
        seq4LatePageFollowsDevice,
        seq2LatePageFollowsDevice,
        seq4HeldLoginPushes,
        seq2LostTokensSendErrors,
        seq4TimeoutBelowPageTime,
        wrapLeoShortTimeouts,
    ] + timedOutPageVariants + orphanHoldVariants

    /// Regression scenario (seq16): a page timed out on a connection that then reset, answered on the next one.
    public static let seq2TimedOutPageThenReset = timedOutPageThenReset(modulus: 2, initial: 0)
    /// Regression scenario (seq16): a page in flight at a reset, answered past its own timeout on the next connection.
    public static let seq4PagePastOrphanHold = pageAnsweredPastOrphanHold(modulus: 4, initial: 0)
}

extension Catalog {
    /// Seq space of `modulus`, replies follow the device: Bob's page, answered 10 s late, times out on the first
    /// connection (request timeout 5 s), whose link then resets; on the new connection two chats' pages are slow,
    /// and Bob's late page arrives while they are in flight. The engine forgot the timed-out request's seq at the
    /// reset and handed it out again: Bob's page was filed under Carol's or Dave's chat (C3).
    static func timedOutPageThenReset(modulus: Int, initial: Int, answerDelay: SimDuration = .seconds(10),
                                      name: String? = nil) -> Scenario {
        Scenario(
            name ?? "seq\(modulus)-timed-out-page-then-reset-\(initial)",
            summary: "\(modulus) seqs, replies follow the device: a page timed out before a reset is answered on the new connection",
            seeds: [1], tags: [.history, .connection], runLength: .minutes(8)
        ) {
            Server(parameters: ["repliesFollowDevice": true],
                   history: ["alice+bob": 30, "alice+carol": 30, "alice+dave": 30])
            Client("alice", profile: .threeG, parameters: ["seqModulus": .int(modulus), "initialSeq": .int(initial),
                                                          "requestTimeout": .duration(.seconds(5))])
            Client("bob", profile: .fourG)
            Client("carol", profile: .fourG)
            Client("dave", profile: .fourG)
            Timeline {
                At(.seconds(3) + .milliseconds(500)) { DelayResponses(to: .chatHistory, by: answerDelay, for: .seconds(1)) }
                At(.seconds(4)) { OpenChat("alice", "alice+bob") }
                At(.seconds(9) + .milliseconds(500)) { LinkDown("alice", for: .milliseconds(300), .withReset) }
                At(.seconds(12)) { DelayResponses(to: .chatHistory, by: .seconds(4), for: .seconds(2)) }
                At(.seconds(12) + .milliseconds(100)) { OpenChat("alice", "alice+carol") }
                At(.seconds(12) + .milliseconds(600)) { OpenChat("alice", "alice+dave") }
                At(.seconds(13) + .milliseconds(100)) { OpenChat("alice", "alice+carol") }
                At(.seconds(13) + .milliseconds(600)) { OpenChat("alice", "alice+dave") }
            }
            Expect {
                Invariants(.all)
                Eventually(within: .minutes(6), .converged)
            }
        }
    }

    /// Known limit, not in the catalog: Bob's page answered 20 s late, 15 s after the reset, past the one request
    /// timeout (5 s) for which the engine holds a lost connection's unanswered seqs. Seq and opcode cannot tell a
    /// stale answer from a fresh one; any bounded hold has an answer late enough to pass it.
    public static let timedOutPageBeyondHold = timedOutPageThenReset(
        modulus: 2, initial: 0, answerDelay: .seconds(20), name: "seq2-timed-out-page-beyond-hold")

    static let timedOutPageVariants: [Scenario] = [2, 3, 4].flatMap { modulus in
        (0..<modulus).filter { modulus != 2 || $0 != 0 }.map { timedOutPageThenReset(modulus: modulus, initial: $0) }
    }
}

extension Catalog {
    /// Seq space of `modulus`, replies follow the device: Bob's page is still in flight when the link resets at 15 s
    /// and the server answers it at 26 s, past its request's timeout (24 s) but soon after the reconnect, while two
    /// slow pages of the new connection are in flight.
    static func pageAnsweredPastOrphanHold(modulus: Int, initial: Int) -> Scenario {
        Scenario(
            "seq\(modulus)-page-past-orphan-hold-\(initial)",
            summary: "\(modulus) seqs, replies follow the device: a page in flight at a reset answered past its timeout",
            seeds: [1], tags: [.history, .connection], runLength: .minutes(8)
        ) {
            Server(parameters: ["repliesFollowDevice": true],
                   history: ["alice+bob": 30, "alice+carol": 30, "alice+dave": 30])
            Client("alice", profile: .threeG, parameters: ["seqModulus": .int(modulus), "initialSeq": .int(initial)])
            Client("bob", profile: .fourG)
            Client("carol", profile: .fourG)
            Client("dave", profile: .fourG)
            Timeline {
                At(.seconds(3) + .milliseconds(500)) { DelayResponses(to: .chatHistory, by: .seconds(22), for: .seconds(1)) }
                At(.seconds(4)) { OpenChat("alice", "alice+bob") }
                At(.seconds(15)) { LinkDown("alice", for: .milliseconds(500), .withReset) }
                At(.seconds(24)) { DelayResponses(to: .chatHistory, by: .seconds(4), for: .seconds(3)) }
                At(.seconds(24) + .milliseconds(500)) { OpenChat("alice", "alice+carol") }
                At(.seconds(25)) { OpenChat("alice", "alice+dave") }
                At(.seconds(25) + .milliseconds(500)) { OpenChat("alice", "alice+carol") }
                At(.seconds(26)) { OpenChat("alice", "alice+dave") }
            }
            Expect {
                Invariants(.all)
                Eventually(within: .minutes(6), .converged)
            }
        }
    }

    static let orphanHoldVariants: [Scenario] = [2, 3, 4].flatMap { modulus in
        (0..<modulus).filter { modulus != 4 || $0 != 0 }.map { pageAnsweredPastOrphanHold(modulus: modulus, initial: $0) }
    }
}
