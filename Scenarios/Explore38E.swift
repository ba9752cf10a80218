import SyncSim

// Shrunk repros of `syncsim explore --seed-base 38810000 --param historyPageSize=1 --param visibleMessageCount=3
// --param prefetchDistance=0` failures (round 38 E).

extension Catalog {
    public static let e38Explore38810120 = Scenario("e38-explore-38810120", summary: "found by syncsim explore (seed 38810120): the reference engine breaks C6", seeds: [38_810_120], tags: [.history], runLength: .milliseconds(3_796_900)) {
            Server(history: ["dave+erin": 1, "group1": 1])
            Client("dave", profile: .wifi, parameters: ["historyPageSize": 1, "visibleMessageCount": 3, "prefetchDistance": 0, "maxTaskAttempts": 133])
            Client("erin", profile: .threeG, parameters: ["historyPageSize": 1, "visibleMessageCount": 3, "prefetchDistance": 0, "maxTaskAttempts": 133])
            Chat("group1", members: ["dave", "erin"])
            Timeline {
                At(.milliseconds(17_897)) { ScrollUp("erin", in: "dave+erin", messages: 89) }
                At(.milliseconds(30_685)) { LoseResponses(to: .msgSend, count: 2) }
                At(.milliseconds(31_650)) { SendPhoto(from: "erin", bytes: 29_892, caption: "p3", in: "dave+erin") }
                At(.milliseconds(43_953)) { ScrollUp("erin", in: "dave+erin", messages: 1000) }
            }
        }

    public static let e38Explore38813172 = Scenario("e38-explore-38813172", summary: "found by syncsim explore (seed 38813172): a scroll up that moved nothing, made while the link was clogged, is not a scroll to the top once the view follows newer messages (C6)", seeds: [38_813_172], tags: [.history], runLength: .milliseconds(1_702_700)) {
            Server(parameters: ["historyEditLag": .duration(.minutes(2)), "repliesFollowDevice": true], history: ["alice+erin": 1])
            Client("alice", profile: .wifi, parameters: ["historyPageSize": 1, "visibleMessageCount": 3, "prefetchDistance": 0])
            Client("erin", profile: .gprs, parameters: ["prefetchDistance": 0, "historyPageSize": 1, "visibleMessageCount": 3])
            Client("frank", profile: .fourG, parameters: ["prefetchDistance": 0, "loginChatsCount": 1, "historyPageSize": 1, "visibleMessageCount": 3])
            Chat("group1", members: ["alice", "frank"])
            Timeline {
                At(.milliseconds(66_547)) { ScrollUp("alice", in: "group1", messages: 82) }
                At(.milliseconds(72_829)) { SendPhoto(from: "frank", bytes: 4549, caption: "p24", in: "group1") }
                At(.milliseconds(92_668)) { Clog("alice") }
                At(.milliseconds(93_441)) { Send(from: "frank", text: "m20", in: "group1") }
                At(.milliseconds(94_993)) { Send(from: "frank", text: "m21", in: "group1") }
                At(.milliseconds(95_279)) { Send(from: "frank", text: "m22", in: "group1") }
                At(.milliseconds(95_695)) { Send(from: "frank", text: "m23", in: "group1") }
                At(.milliseconds(105_987)) { ScrollUp("alice", in: "alice+erin", messages: 85) }
                At(.milliseconds(107_740)) { ScrollUp("alice", in: "group1", messages: 57) }
                At(.milliseconds(114_999)) { Release("alice") }
            }
        }

    public static let e38Explore38814779 = Scenario("e38-explore-38814779", summary: "found by syncsim explore (seed 38814779): the newest page waiting for a free seq after a LOGIN is not replaced by an older page (C6)", seeds: [38_814_779], tags: [.history], runLength: .seconds(5027)) {
            Server(history: ["alice+bob": 18])
            Client("alice", profile: .gprs, parameters: ["loginChatsCount": 2, "seqModulus": 8, "initialSeq": 2, "historyPageSize": 1, "visibleMessageCount": 3, "prefetchDistance": 0])
            Client("bob", profile: .edge, parameters: ["seqModulus": 8, "initialSeq": 1, "historyPageSize": 1, "visibleMessageCount": 3, "prefetchDistance": 0])
            Timeline {
                At(.milliseconds(2864)) { ScrollUp("bob", in: "alice+bob", messages: 1000) }
                At(.milliseconds(3005)) { ScrollDown("alice", in: "alice+bob", messages: 51) }
                At(.milliseconds(6806)) { ScrollUp("alice", in: "alice+bob", messages: 46) }
                At(.milliseconds(11_770)) { LossBurst("bob", for: .milliseconds(38_669), lossRate: 0.83) }
                At(.milliseconds(25_797)) { DeleteMessage(from: "bob", in: "alice+bob") }
                At(.milliseconds(27_520)) { PostFromOtherDevice("alice", text: "w1", in: "alice+bob") }
                At(.milliseconds(29_264)) { ScrollUp("bob", in: "alice+bob", messages: 1000) }
                At(.milliseconds(49_520)) { LoseResponses(to: .chatHistory, count: 3) }
                At(.milliseconds(57_304)) { ErrorReplies(to: .chatHistory, count: 3) }
                At(.milliseconds(103_480)) { LoseResponses(to: .chatHistory, count: 1) }
                At(.milliseconds(177_312)) { LoseResponses(to: .chatHistory, count: 2) }
                At(.milliseconds(207_208)) { LoseResponses(to: .chatHistory, count: 2) }
                At(.milliseconds(225_850)) { CloseChat("alice", "alice+bob") }
                At(.milliseconds(226_999)) { Handover("bob", to: .edge) }
            }
            Expect {
                Invariants(.C1, .C2, .C3, .C4, .C5, .C6, .C7, .T1, .T2, .T3, .T4, .T5, .T6, .P1, .P2, .P3, .P4, .V2)
            }
        }

    public static let e38Explore38814779NoDelete = Scenario("e38-explore-38814779-no-delete", summary: "found by syncsim explore (seed 38814779, without its delete): the newest page waiting for a free seq after a LOGIN is not replaced by an older page (C6)", seeds: [38_814_779], tags: [.history], runLength: .seconds(5027)) {
            Server(history: ["alice+bob": 18])
            Client("alice", profile: .gprs, parameters: ["loginChatsCount": 2, "seqModulus": 8, "initialSeq": 2, "historyPageSize": 1, "visibleMessageCount": 3, "prefetchDistance": 0])
            Client("bob", profile: .edge, parameters: ["seqModulus": 8, "initialSeq": 1, "historyPageSize": 1, "visibleMessageCount": 3, "prefetchDistance": 0])
            Timeline {
                At(.milliseconds(2864)) { ScrollUp("bob", in: "alice+bob", messages: 1000) }
                At(.milliseconds(3005)) { ScrollDown("alice", in: "alice+bob", messages: 51) }
                At(.milliseconds(6806)) { ScrollUp("alice", in: "alice+bob", messages: 46) }
                At(.milliseconds(11_770)) { LossBurst("bob", for: .milliseconds(38_669), lossRate: 0.83) }
                At(.milliseconds(27_520)) { PostFromOtherDevice("alice", text: "w1", in: "alice+bob") }
                At(.milliseconds(29_264)) { ScrollUp("bob", in: "alice+bob", messages: 1000) }
                At(.milliseconds(49_520)) { LoseResponses(to: .chatHistory, count: 3) }
                At(.milliseconds(57_304)) { ErrorReplies(to: .chatHistory, count: 3) }
                At(.milliseconds(103_480)) { LoseResponses(to: .chatHistory, count: 1) }
                At(.milliseconds(177_312)) { LoseResponses(to: .chatHistory, count: 2) }
                At(.milliseconds(207_208)) { LoseResponses(to: .chatHistory, count: 2) }
                At(.milliseconds(225_850)) { CloseChat("alice", "alice+bob") }
                At(.milliseconds(226_999)) { Handover("bob", to: .edge) }
            }
            Expect {
                Invariants(.C1, .C2, .C3, .C4, .C5, .C6, .C7, .T1, .T2, .T3, .T4, .T5, .T6, .P1, .P2, .P3, .P4, .V2)
            }
        }

    /// A third C6 kind of the same parameters (session 39, seed 38954197 from 38950000): Bob's view showed the whole
    /// chat he held, `[2 start]`, and followed it; his link went down, four messages were posted, and he scrolled up
    /// with nothing to move; back online, the view followed the newest messages down. Not a defect: C6 no longer
    /// judges a scroll when the view follows the newest messages at the end (`World.endOfRunChecks`).
    public static let e38Explore38954197 = Scenario("e38-explore-38954197", summary: "found by syncsim explore (seed 38954197): a scroll up that moved nothing, made while the link was down, is not a scroll to the top once the view follows newer messages (C6)", seeds: [38_954_197], tags: [.history], runLength: .seconds(1334)) {
            Server(history: ["group1": 1])
            Client("alice", profile: .edgeLossy, parameters: ["historyPageSize": 1, "visibleMessageCount": 3, "prefetchDistance": 0])
            Client("bob", profile: .wifi, parameters: ["prefetchDistance": 0, "historyPageSize": 1, "visibleMessageCount": 3])
            Chat("group1", members: ["alice", "bob"])
            Timeline {
                At(.milliseconds(54_633)) { PostFromOtherDevice("alice", text: "w20", in: "alice+bob") }
                At(.milliseconds(55_969)) { ScrollDown("bob", in: "alice+bob", messages: 44) }
                At(.milliseconds(110_039)) { LinkDown("bob", for: .milliseconds(111_190)) }
                At(.milliseconds(166_036)) { PostFromOtherDevice("bob", text: "w9", in: "alice+bob") }
                At(.milliseconds(171_491)) { PostFromOtherDevice("alice", text: "w4", in: "alice+bob") }
                At(.milliseconds(175_266)) { PostFromOtherDevice("alice", text: "w17", in: "alice+bob") }
                At(.milliseconds(178_766)) { PostFromOtherDevice("alice", text: "w10", in: "alice+bob") }
                At(.milliseconds(182_915)) { ScrollUp("bob", in: "alice+bob", messages: 92) }
            }
        }

    /// The explore failures of round 38 E's parameters (`--param historyPageSize=1 --param visibleMessageCount=3
    /// --param prefetchDistance=0`), all passing now:
    /// - 38810120: a newest page that leaves a gap above the chunk of a user scrolled up is bridged
    ///   (`ReferenceClient.receivePage`, session 38);
    /// - 38814779 (with and without its delete): after a LOGIN with every seq in flight, the screen's newest page
    ///   waited for a seq and a later older page replaced it, so the message pushed while Bob was scrolled up stayed
    ///   in a chunk of its own; a waiting history load now keeps its place (`ReferenceClient.requestHistory`,
    ///   session 39);
    /// - 38813172 and 38954197: a scroll up that moved nothing (the whole held history on screen, from its start),
    ///   made while the link held back newer messages, after which the view followed them down; C6 no longer judges
    ///   a scroll when the view follows the newest messages at the end (`World.endOfRunChecks`, session 39).
    public static let fieldSequences38EExplore: [Scenario] = [
        e38Explore38810120, e38Explore38813172, e38Explore38814779, e38Explore38814779NoDelete, e38Explore38954197,
    ]
}
