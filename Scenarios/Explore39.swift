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

    /// Session 39's explore repros, fixed.
    public static let explore39: [Scenario] = [e39Explore39501286]
}
