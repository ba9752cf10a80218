import SyncSim

// Found by `syncsim explore --param loginChatsCount=1` (round 39), shrunk from the generated scenario of seed
// 39303583 (--shrink-runs 800): a CHATS_LIST page's entry opened a chunk in Frank's open chat and nothing fetched the
// page joining it to the chunk on screen (V2 before the engine fix; `s39-listed-newer-message-open-chat` by hand).

extension Catalog {
    /// The reference engine breaks V2 here: V2 at 145.000s client frank chat carol+frank: expected message 597 (the newest) on screen, found on screen 571...588
    public static let explore39303583 = Scenario("explore-39303583", summary: "found by syncsim explore (seed 39303583): the reference engine breaks V2", seeds: [39_303_583], tags: [.connection], runLength: .milliseconds(2_545_500)) {
        Server(parameters: ["historyEditLag": .duration(.seconds(30)), "repliesFollowDevice": true], history: ["carol+erin": 1, "group1": 1, "group2": 1])
        Client("bob", profile: .twoGRural, parameters: ["historyPageSize": 20, "loginChatsCount": 1, "maxTaskAttempts": 91])
        Client("carol", profile: .threeG, parameters: ["prefetchDistance": 10, "loginChatsCount": 1, "maxTaskAttempts": 91])
        Client("erin", profile: .threeG, parameters: ["loginChatsCount": 1, "maxTaskAttempts": 91])
        Client("frank", profile: .wifi, parameters: ["loginChatsCount": 1, "maxTaskAttempts": 91])
        Chat("group1", members: ["bob", "carol", "erin", "frank"])
        Chat("group2", members: ["bob", "carol", "erin"])
        Timeline {
            At(.milliseconds(7132)) { Send(from: "frank", text: "m12", in: "carol+frank") }
            At(.milliseconds(9093)) { Send(from: "frank", text: "m13", in: "carol+frank") }
            At(.milliseconds(9471)) { Send(from: "frank", text: "m14", in: "carol+frank") }
            At(.milliseconds(11_448)) { Send(from: "frank", text: "m15", in: "carol+frank") }
            At(.milliseconds(12_429)) { Send(from: "frank", text: "m16", in: "carol+frank") }
            At(.milliseconds(15_572)) { LoseResponses(to: .msgSend, count: 3) }
            At(.milliseconds(16_163)) { Send(from: "frank", text: "m19", in: "carol+frank") }
            At(.milliseconds(17_615)) { SendPhoto(from: "erin", bytes: 13_786, caption: "p73", in: "bob+erin") }
            At(.milliseconds(18_454)) { Send(from: "erin", text: "m64", in: "bob+erin") }
            At(.milliseconds(18_815)) { Send(from: "carol", text: "m2", in: "carol+frank") }
            At(.milliseconds(22_636)) { ServerRestart(downtime: .milliseconds(27_647)) }
            At(.milliseconds(29_566)) { ScrollUp("frank", in: "carol+frank", messages: 98) }
            At(.milliseconds(33_412)) { LoseResponses(to: .chatsList, count: 3) }
            At(.milliseconds(34_398)) { ErrorReplies(to: .msgSend, count: 3) }
            At(.milliseconds(54_909)) { Background("carol") }
            At(.milliseconds(57_891)) { Send(from: "carol", text: "m68", in: "carol+frank") }
            At(.milliseconds(70_164)) { ServerRestart(downtime: .milliseconds(5146)) }
            At(.milliseconds(81_828)) { DelayPushes(to: "frank", by: .milliseconds(20_513), for: .milliseconds(6542)) }
            At(.milliseconds(86_994)) { Foreground("carol") }
            At(.milliseconds(103_198)) { ScrollDown("frank", in: "carol+frank", messages: 59) }
        }
        Expect {
            Invariants(.C1, .C2, .C3, .C4, .C5, .C6, .C7, .T1, .T2, .T3, .T4, .T5, .T6, .P1, .P2, .P3, .P4, .V2)
        }
    }
}
