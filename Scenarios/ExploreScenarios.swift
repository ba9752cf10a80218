import SyncSim

// Regressions `syncsim explore` found against the reference engine and the simulator, shrunk (docs/explore.md).

extension Catalog {
    /// Carol scrolls to the top of a chat she never opened, and the scroll opens it; the first page's response is
    /// lost, so the open completes only after the history retry. The scroll must wait for the open instead of being
    /// dropped (explore seed 1004, shrunk from 151 steps).
    public static let exploreScrollWhileOpening = Scenario(
        "explore-scroll-while-opening",
        summary: "a scroll issued while the chat's first page is still loading is kept, not dropped",
        seeds: [1004, 1, 2],
        tags: [.history],
        runLength: .seconds(572)
    ) {
        Server(history: ["alice+carol": 1])
        Client("alice", profile: .twoGRural, parameters: ["prefetchDistance": 30])
        Client("carol", profile: .edge)
        Chat("group1", members: ["alice", "carol"])
        Chat("group2", members: ["alice", "carol"])
        Timeline {
            At(.milliseconds(49_875)) { LoseResponses(to: .chatHistory, count: 3) }
            At(.milliseconds(227_511)) { ScrollUp("carol", in: "alice+carol", messages: 1000) }
        }
        Expect {
            Invariants(.all)
        }
    }

    /// Bob's GPRS link hands over to offline while his photo upload still has packets queued, and back 30 s later:
    /// the queued packets are dropped as on a link that is down (the simulator divided by the zero rate before),
    /// and the upload and the message behind it are delivered once the link is back.
    public static let exploreHandoverToOfflineMidUpload = Scenario(
        "explore-handover-to-offline-mid-upload",
        summary: "a handover to offline while packets wait in the queue drops them; everything is delivered after",
        seeds: [1, 2, 3],
        tags: [.connection],
        runLength: .minutes(8)
    ) {
        Server()
        Client("alice", profile: .threeG)
        Client("bob", profile: .gprs)
        Timeline {
            At(.seconds(5)) { SendPhoto(from: "bob", bytes: 40_000, caption: "view", in: "alice+bob") }
            At(.seconds(7)) { Send(from: "bob", text: "after the photo", in: "alice+bob") }
            At(.seconds(9)) { Handover("bob", to: .offline) }
            At(.seconds(39)) { Handover("bob", to: .gprs) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(6), .serverMessageCount(chat: "alice+bob", count: 2))
        }
    }

    /// Carol's link is down (with a reset) while she sends, so her app's connection attempts wait for SYN
    /// retransmissions; the link returns and the attempt's path goes half-open before the SYN gets through. The
    /// attempt must be given up after `connectTimeout` and retried; before the fix it stayed "connecting" forever and
    /// the message was never sent (T5; explore seed 124, shrunk from 192 steps; seeds 21 and 135 were the same kind).
    public static let exploreConnectIntoHalfOpen = Scenario(
        "explore-connect-into-dead-path",
        summary: "a connection attempt into a dead path is given up after connectTimeout and retried",
        seeds: [124, 1, 2],
        tags: [.connection],
        runLength: .seconds(854)
    ) {
        Server(history: ["group1": 1])
        Client("bob", profile: .fourG)
        Client("carol", profile: .twoGRural)
        Chat("group1", members: ["bob"])
        Chat("group2", members: ["carol"])
        Timeline {
            At(.milliseconds(5767)) { LinkDown("carol", .withReset) }
            At(.milliseconds(7963)) { Send(from: "carol", text: "m1", in: "group2") }
            At(.milliseconds(75_323)) { LinkUp("carol") }
            At(.milliseconds(86_076)) { HalfOpen("carol") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(5), .serverMessageCount(chat: "group2", count: 1))
        }
    }

    /// Alice's SESSION_INIT answer is held, her first connection goes half-open, and the app is suspended while the
    /// SESSION_INIT of her second connection waits. On resume, the deferred events reach the engine in order: the
    /// half-open socket's close, then the second connection's, then the overdue timers. P3 must judge the requests
    /// once all of them arrived; before the fix it judged after the first (explore seed 168, shrunk from 71 steps).
    public static let exploreHeldSessionInitHalfOpen = Scenario(
        "explore-resume-after-dead-socket",
        summary: "a resumed app gets all its deferred events before P3 judges its overdue requests",
        seeds: [168, 1, 2],
        tags: [.connection],
        runLength: .minutes(7)
    ) {
        Server()
        Client("alice", profile: .gprs, parameters: ["prefetchDistance": 0])
        Timeline {
            At(.milliseconds(44_884)) { HoldResponses(to: .sessionInit, until: .time(.milliseconds(91_064))) }
            At(.milliseconds(61_247)) { HalfOpen("alice") }
            At(.milliseconds(79_467)) { Background("alice") }
            At(.milliseconds(112_999)) { Foreground("alice") }
        }
        Expect {
            Invariants(.all)
        }
    }

    /// Alice's photo message is stored but its MSG_SEND response is lost; the retry is answered "already exists",
    /// and the newest page that would bring the message into her cache is lost too. The page must be asked again
    /// until it comes; before the fix the chat was not open, the page was never retried, and her chat list never
    /// showed the message (V1; explore seed 58, shrunk from 237 steps).
    public static let exploreDuplicateAnswerPageLost = Scenario(
        "explore-duplicate-answer-page-lost",
        summary: "after an \"already exists\" answer the chat's newest page is fetched until it comes",
        seeds: [58, 1, 2],
        tags: [.sending],
        runLength: .seconds(596)
    ) {
        Server()
        Client("alice", profile: .threeG, parameters: ["seqModulus": 256, "initialSeq": 77])
        Client("bob", profile: .threeG, parameters: ["historyPageSize": 20, "seqModulus": 256, "initialSeq": 232])
        Timeline {
            At(.milliseconds(133_717)) { LoseResponses(to: .chatHistory, count: 2) }
            At(.milliseconds(258_567)) { LinkDown("alice", for: .milliseconds(28_432)) }
            At(.milliseconds(267_134)) { SendPhoto(from: "alice", bytes: 10_830, caption: "p3", in: "alice+bob") }
            At(.milliseconds(285_489)) { LoseResponses(to: .msgSend, count: 1) }
        }
        Expect {
            Invariants(.all)
        }
    }

    /// Alice scrolls to the top of a chat while her link is silently down, then opens the same chat again: the open
    /// shows the newest messages, which ends the scroll, so C6 no longer judges it (before the fix C6 still did:
    /// a simulator error, explore seed 45, shrunk from 263 steps). The chat still converges once the link is back.
    public static let exploreReopenEndsScroll = Scenario(
        "explore-reopen-ends-scroll",
        summary: "opening the chat that is open ends an earlier scroll to the top; the chat converges",
        seeds: [45, 1, 2],
        tags: [.history],
        runLength: .seconds(568)
    ) {
        Server(history: ["alice+bob": 64])
        Client("alice", profile: .fourG, parameters: ["historyPageSize": 50, "seqModulus": 8, "initialSeq": 7])
        Client("bob", profile: .wifi, parameters: ["seqModulus": 8, "initialSeq": 6])
        Timeline {
            At(.milliseconds(57_056)) { LinkDown("alice") }
            At(.milliseconds(84_952)) { ScrollUp("alice", in: "alice+bob", messages: 1000) }
            At(.milliseconds(93_850)) { OpenChat("alice", "alice+bob") }
            At(.milliseconds(137_947)) { LinkUp("alice") }
        }
        Expect {
            Invariants(.all)
        }
    }
}
