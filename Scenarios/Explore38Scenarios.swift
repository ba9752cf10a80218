import SyncSim

// What `syncsim explore` found in session 38 once invariant V2 judged the view after a scroll down and `HoldResponses`
// answers followed the device, shrunk and tidied (docs/explore.md, "Defects found against the reference engine").

extension Catalog {
    /// Alice scrolls up past the top of the chat and then down past its bottom while her link is out: the chat's
    /// first page has not come. When it came, the scroll up ran (its rest was kept for the open) and the view stayed
    /// at the top of the history, although the user's last word was to go down (V2; explore seed 38102334, shrunk
    /// to these three steps). A scroll down now ends a scroll up kept for a page not yet come.
    public static let exploreScrollUpThenDownOffline = Scenario(
        "explore-scroll-up-then-down-offline",
        summary: "a scroll up and then down made before the chat's first page came ends at the newest messages",
        seeds: [38_102_334, 1, 2],
        tags: [.history],
        runLength: .minutes(20)
    ) {
        Server(history: ["alice+bob": 40])
        Client("alice", profile: .threeG)
        Client("bob", profile: .edgeLossy, parameters: ["prefetchDistance": 10])
        Timeline {
            At(.milliseconds(9_127)) { LinkDown("alice", for: .milliseconds(86_872)) }
            At(.milliseconds(80_804)) { ScrollUp("alice", in: "alice+bob", messages: 81) }
            At(.milliseconds(89_917)) { ScrollDown("alice", in: "alice+bob", messages: 83) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(5), .converged)
        }
    }

    /// Bob's LOGIN answers are held (`HoldResponses`) while his connection goes half-open and he reconnects twice;
    /// the server sends a held answer of a closed connection to his newest one (`repliesFollowDevice`), 2 ms
    /// before the current LOGIN's answer. The stale answer carries Bob's own edit, made on another device while his
    /// push was lost; the engine rightly ignores an answer to a request of an earlier connection, and the checker
    /// counted its edit as given (C7's scope: explore seed 38101891, shrunk to these four steps; four more seeds
    /// alike). An answer counts as given only for a request in flight on the connection it came on.
    public static let exploreHeldLoginFollowsDevice = Scenario(
        "explore-held-login-follows-device",
        summary: "a held LOGIN answer of a closed connection, sent to the device's newest one, is ignored and not judged",
        seeds: [38_101_891, 1, 2],
        tags: [.history, .connection],
        runLength: .minutes(8)
    ) {
        Server(parameters: ["historyEditLag": .duration(.minutes(10)), "repliesFollowDevice": true],
               history: ["alice+bob": 2])
        Client("alice", profile: .fourG, parameters: ["prefetchDistance": 5])
        Client("bob", profile: .fourG, parameters: ["historyPageSize": 5, "prefetchDistance": 0])
        Timeline {
            At(.milliseconds(166_331)) { RestartApp("bob") }
            At(.milliseconds(180_256)) { HalfOpen("bob") }
            At(.milliseconds(181_178)) { HoldResponses(to: .login, of: "bob", until: .time(.milliseconds(240_581))) }
            At(.milliseconds(202_067)) { EditMessage(from: "bob", in: "alice+bob", text: "e2") }
        }
        Expect {
            Invariants(.C1, .C2, .C3, .C4, .C5, .C6, .C7, .T1, .T2, .T3, .T4, .T5, .T6, .P1, .P2, .P3, .P4, .V2)
        }
    }

    /// Bob opens a chat holding two pushed messages (each a chunk of its own, the second late behind a lossy
    /// cell); the open's newest page, which was to join them, is lost and times out, and while its retry timer
    /// waited the world took the run for quiescent and stopped: the view stayed on the older message for good (V2;
    /// explore seed 38401914 with `--param historyPageSize=3 --param prefetchDistance=0 --param
    /// visibleMessageCount=1`, two more seeds alike). A history retry timer is sync work pending
    /// (`ReferenceClient.hasPendingSyncWork`), so the run goes on until the page came.
    public static let exploreNewestPageRetryPending = Scenario(
        "explore-newest-page-retry-pending",
        summary: "a run does not stop while the open chat's page waits to be asked again",
        seeds: [38_401_914, 1, 2],
        tags: [.history],
        runLength: .minutes(45)
    ) {
        Server(parameters: ["msgSendErrorsFrom": .duration(.milliseconds(51_216)),
                            "msgSendErrorsUntil": .duration(.milliseconds(81_999)),
                            "historyEditLag": .duration(.minutes(10))],
               history: ["bob+carol": 1, "group1": 1])
        Client("alice", profile: .twoGRural, parameters: ["historyPageSize": 3, "prefetchDistance": 0, "visibleMessageCount": 1])
        Client("bob", profile: .threeG, parameters: ["historyPageSize": 3, "prefetchDistance": 0, "visibleMessageCount": 1])
        Client("carol", profile: .fourG, parameters: ["historyPageSize": 3, "prefetchDistance": 0, "visibleMessageCount": 1])
        Chat("group1", members: ["alice", "bob", "carol"])
        Timeline {
            At(.milliseconds(8_994)) { ScrollDown("carol", in: "bob+carol", messages: 63) }
            At(.milliseconds(9_069)) { LossBurst("bob", for: .milliseconds(9_714), lossRate: 0.21) }
            At(.milliseconds(14_438)) { PostFromOtherDevice("alice", text: "w2", in: "group1") }
            At(.milliseconds(17_873)) { LoseResponses(to: .chatHistory, count: 3) }
            At(.milliseconds(18_189)) { LossBurst("bob", for: .milliseconds(20_340), lossRate: 0.58) }
            At(.milliseconds(18_473)) { PostFromOtherDevice("alice", text: "w3", in: "alice+bob") }
            At(.milliseconds(26_237)) { PostFromOtherDevice("alice", text: "w1", in: "alice+bob") }
            At(.milliseconds(39_482)) { ScrollDown("bob", in: "alice+bob", messages: 8) }
        }
        Expect {
            Invariants(.all)
        }
    }
}
