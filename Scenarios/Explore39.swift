import SyncSim

// Shrunk repros of `syncsim explore` failures found in session 39.

extension Catalog {
    /// Frank's view followed the newest messages of a one-message chat; his send's answer was lost, and the retry was
    /// answered "already exists", so the engine fetched the newest page: with pages of 1, a chunk of his message
    /// alone above a gap. The view stayed on the chunk below, and his message left the screen with its echo (V2).
    /// A view that follows the newest messages now moves to them whenever a newest page leaves a gap below them.
    public static let e39Explore39501286 = Scenario("e39-explore-39501286", summary: "found by syncsim explore (seed 39501286): a view that follows the newest messages shows a newest page that leaves a gap below it (V2)", seeds: [39_501_286], tags: [.history], runLength: .milliseconds(1_476_540)) {
            Server(parameters: ["msgSendErrorsFrom": .duration(.milliseconds(129_469)), "msgSendErrorsUntil": .duration(.milliseconds(153_848))], history: ["carol+frank": 1])
            Client("carol", profile: .fourG, parameters: ["historyPageSize": 1, "seqModulus": 16, "initialSeq": 4, "visibleMessageCount": 3, "prefetchDistance": 0, "maxTaskAttempts": 56])
            Client("frank", profile: .edgeLossy, parameters: ["seqModulus": 16, "initialSeq": 3, "historyPageSize": 1, "visibleMessageCount": 3, "prefetchDistance": 0, "maxTaskAttempts": 56])
            Chat("group1", members: ["carol", "frank"])
            Timeline {
                At(.milliseconds(215_656)) { ScrollDown("frank", in: "carol+frank", messages: 47) }
                At(.milliseconds(311_286)) { LoseResponses(to: .msgSend, count: 1) }
                At(.milliseconds(313_097)) { Send(from: "frank", text: "m6", in: "carol+frank") }
                At(.milliseconds(334_600)) { ScrollDown("frank", in: "carol+frank", messages: 80) }
            }
        }

    /// Bob's link moved to a cell with CoDel while clogged, so packets waited in its CoDel stage; at the release he
    /// moved on to a cell without CoDel, whose queue nothing served while that stage held packets, and his link sent
    /// nothing for the rest of the run: 20 sends queued at the end (T5). A handover away from CoDel now moves what
    /// the CoDel stage held into the drop-tail queue (`Network.leaveCoDelStage`). Found by explore on a helper's own
    /// cells (session 39, seed 39002382); the three of them the run uses are declared here.
    public static let e39Explore39002382 = Scenario("e39-explore-39002382", summary: "found by syncsim explore (seed 39002382): a handover away from a CoDel cell while its CoDel stage holds packets leaves the link working (T5)", seeds: [39_002_382], tags: [.connection], runLength: .milliseconds(6_934_499)) {
            Server(parameters: ["msgSendErrorsFrom": .duration(.milliseconds(230_346)), "msgSendErrorsUntil": .duration(.milliseconds(282_869))], history: ["alice+bob": 1])
            LinkProfile(
                name: "tiny-queue-2", source: "assumption: 2-packet buffer",
                uplink: .init(rateBitsPerSecond: 50_000, oneWayDelay: .milliseconds(100), queueCapacityBytes: 1500, queueCapacityPackets: 2),
                downlink: .init(rateBitsPerSecond: 100_000, oneWayDelay: .milliseconds(100), queueCapacityPackets: 2)
            )
            LinkProfile(
                name: "long-outage", source: "assumption: a 12-minute outage at 60 s",
                uplink: .init(rateBitsPerSecond: 200_000, oneWayDelay: .milliseconds(200), outages: .scheduled([OutageWindow(start: .minutes(1), length: .minutes(12))])),
                downlink: .init(rateBitsPerSecond: 240_000, oneWayDelay: .milliseconds(200), outages: .scheduled([OutageWindow(start: .minutes(1), length: .minutes(12))]))
            )
            LinkProfile(
                name: "codel-slow", source: "assumption: CoDel on a 30 kbit/s link, 3-packet queue",
                uplink: .init(rateBitsPerSecond: 30_000, oneWayDelay: .milliseconds(200), activeQueue: .codel(target: .milliseconds(1), interval: .milliseconds(1))),
                downlink: .init(rateBitsPerSecond: 30_000, oneWayDelay: .milliseconds(200), queueCapacityPackets: 3, activeQueue: .codel(target: .milliseconds(5), interval: .milliseconds(100)))
            )
            Client("alice", profile: "long-outage", parameters: ["seqModulus": 256, "initialSeq": 25])
            Client("bob", profile: "tiny-queue-2", parameters: ["seqModulus": 256, "initialSeq": 146])
            Timeline {
                At(.milliseconds(306_376)) { Handover("bob", to: "codel-slow") }
                At(.milliseconds(331_462)) { Clog("bob") }
                At(.milliseconds(345_969)) { PostFromOtherDevice("bob", text: "w316", in: "alice+bob") }
                At(.milliseconds(347_399)) { Send(from: "bob", text: "m248", in: "alice+bob") }
                At(.milliseconds(356_999)) { Release("bob") }
                At(.milliseconds(356_999)) { Handover("bob", to: "tiny-queue-2") }
            }
        }

    /// Session 39's explore repros, fixed.
    public static let explore39: [Scenario] = [e39Explore39501286, e39Explore39002382]
}
