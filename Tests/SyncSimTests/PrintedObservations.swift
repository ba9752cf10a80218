// `Catalog.awaitingEngineFixes` as `dslSource()` printed it, compiled: the printer's output for When, Always and
// windowed metric bounds is valid DSL. When these scenarios move into `Catalog.all`, PrintedCatalog.swift takes them.
import Scenarios
import SyncSim
import Testing

@Suite struct PrintedObservationTests {
    @Test("the observation scenarios' printouts compile and read back to the same printout")
    func roundTrip() {
        #expect(PrintedObservations.all.count == Catalog.awaitingEngineFixes.count)
        for (original, reread) in zip(Catalog.awaitingEngineFixes, PrintedObservations.all) {
            #expect(reread.dslSource() == original.dslSource(), "\(original.name)")
            #expect(reread.steps.map(\.timing) == original.steps.map(\.timing))
        }
    }
}

enum PrintedObservations {
    static let all: [Scenario] = [
        Scenario("echo-stays-on-screen", summary: "a sent message stays on screen from the send on: as local echo, then as the acknowledged message", seeds: [401, 402, 403]) {
            Server(history: ["alice+bob": 30])
            Client("alice", profile: .threeG)
            Client("bob", profile: .fourG)
            Timeline {
                At(.seconds(3)) { OpenChat("alice", "alice+bob") }
                At(.seconds(5)) { Send(from: "alice", text: "on screen", in: "alice+bob").named("send") }
            }
            Expect {
                Invariants(.all)
                Eventually(within: .minutes(1), .serverMessageCount(chat: "alice+bob", count: 31))
                Always(.textOnScreen(client: "alice", chat: "alice+bob", text: "on screen"), from: "send")
            }
        },
        Scenario("read-marks-coalesced", summary: "chat opened 8 times offline: one CHAT_MARK (the newest) reaches the server after reconnect", seeds: [411, 412, 413]) {
            Server(history: ["alice+bob": 25])
            Client("alice", profile: .edge)
            Client("bob", profile: .fourG)
            Timeline {
                At(.seconds(2)) { OpenChat("alice", "alice+bob") }
                At(.seconds(4)) { Send(from: "bob", text: "unread 0", in: "alice+bob") }
                At(.seconds(5)) { Send(from: "bob", text: "unread 1", in: "alice+bob") }
                At(.seconds(6)) { Send(from: "bob", text: "unread 2", in: "alice+bob") }
                At(.seconds(20)) { LinkDown("alice").named("offline") }
                At(.seconds(22)) { OpenChat("alice", "alice+bob") }
                At(.seconds(24)) { OpenChat("alice", "alice+bob") }
                At(.seconds(26)) { OpenChat("alice", "alice+bob") }
                At(.seconds(28)) { OpenChat("alice", "alice+bob") }
                At(.seconds(30)) { OpenChat("alice", "alice+bob") }
                At(.seconds(32)) { OpenChat("alice", "alice+bob") }
                At(.seconds(34)) { OpenChat("alice", "alice+bob") }
                At(.seconds(36)) { OpenChat("alice", "alice+bob") }
                At(.seconds(45)) { LinkUp("alice") }
            }
            Expect {
                Invariants(.all)
                Eventually(within: .minutes(3), .readUpToNewest(client: "alice", chat: "alice+bob"))
                MetricBound("requests", client: "alice", opcode: .chatMark, window: MetricWindow(from: "offline"), atMost: 1.0)
            }
        },
        Scenario("catch-up-race-on-login", summary: "a live message races the catch-up: posted the instant the server answers the reconnect LOGIN", seeds: [421, 422, 423]) {
            Server(history: ["alice+bob": 50])
            Client("alice", profile: .threeG, parameters: ["historyPageSize": 40])
            Client("bob", profile: .fourG)
            Timeline {
                At(.seconds(5)) { OpenChat("alice", "alice+bob") }
                At(.seconds(8)) { CloseChat("alice", "alice+bob") }
                At(.seconds(10)) { LinkDown("alice", .withReset) }
                At(.seconds(12)) { Send(from: "bob", text: "away 0", in: "alice+bob") }
                At(.seconds(13)) { Send(from: "bob", text: "away 1", in: "alice+bob") }
                At(.seconds(14)) { Send(from: "bob", text: "away 2", in: "alice+bob") }
                At(.seconds(15)) { Send(from: "bob", text: "away 3", in: "alice+bob") }
                At(.seconds(16)) { Send(from: "bob", text: "away 4", in: "alice+bob") }
                At(.seconds(17)) { Send(from: "bob", text: "away 5", in: "alice+bob") }
                At(.seconds(18)) { Send(from: "bob", text: "away 6", in: "alice+bob") }
                At(.seconds(19)) { Send(from: "bob", text: "away 7", in: "alice+bob") }
                At(.seconds(20)) { Send(from: "bob", text: "away 8", in: "alice+bob") }
                At(.seconds(21)) { Send(from: "bob", text: "away 9", in: "alice+bob") }
                At(.seconds(22)) { Send(from: "bob", text: "away 10", in: "alice+bob") }
                At(.seconds(23)) { Send(from: "bob", text: "away 11", in: "alice+bob") }
                At(.seconds(24)) { Send(from: "bob", text: "away 12", in: "alice+bob") }
                At(.seconds(25)) { Send(from: "bob", text: "away 13", in: "alice+bob") }
                At(.seconds(26)) { Send(from: "bob", text: "away 14", in: "alice+bob") }
                At(.seconds(27)) { Send(from: "bob", text: "away 15", in: "alice+bob") }
                At(.seconds(28)) { Send(from: "bob", text: "away 16", in: "alice+bob") }
                At(.seconds(29)) { Send(from: "bob", text: "away 17", in: "alice+bob") }
                At(.seconds(30)) { Send(from: "bob", text: "away 18", in: "alice+bob") }
                At(.seconds(31)) { Send(from: "bob", text: "away 19", in: "alice+bob") }
                At(.seconds(32)) { Send(from: "bob", text: "away 20", in: "alice+bob") }
                At(.seconds(33)) { Send(from: "bob", text: "away 21", in: "alice+bob") }
                At(.seconds(34)) { Send(from: "bob", text: "away 22", in: "alice+bob") }
                At(.seconds(35)) { Send(from: "bob", text: "away 23", in: "alice+bob") }
                At(.seconds(36)) { Send(from: "bob", text: "away 24", in: "alice+bob") }
                At(.seconds(37)) { Send(from: "bob", text: "away 25", in: "alice+bob") }
                At(.seconds(38)) { Send(from: "bob", text: "away 26", in: "alice+bob") }
                At(.seconds(39)) { Send(from: "bob", text: "away 27", in: "alice+bob") }
                At(.seconds(40)) { Send(from: "bob", text: "away 28", in: "alice+bob") }
                At(.seconds(41)) { Send(from: "bob", text: "away 29", in: "alice+bob") }
                At(.seconds(42)) { Send(from: "bob", text: "away 30", in: "alice+bob") }
                At(.seconds(43)) { Send(from: "bob", text: "away 31", in: "alice+bob") }
                At(.seconds(44)) { Send(from: "bob", text: "away 32", in: "alice+bob") }
                At(.seconds(45)) { Send(from: "bob", text: "away 33", in: "alice+bob") }
                At(.seconds(46)) { Send(from: "bob", text: "away 34", in: "alice+bob") }
                At(.seconds(47)) { Send(from: "bob", text: "away 35", in: "alice+bob") }
                At(.seconds(48)) { Send(from: "bob", text: "away 36", in: "alice+bob") }
                At(.seconds(49)) { Send(from: "bob", text: "away 37", in: "alice+bob") }
                At(.seconds(50)) { Send(from: "bob", text: "away 38", in: "alice+bob") }
                At(.seconds(51)) { Send(from: "bob", text: "away 39", in: "alice+bob") }
                At(.seconds(52)) { Send(from: "bob", text: "away 40", in: "alice+bob") }
                At(.seconds(53)) { Send(from: "bob", text: "away 41", in: "alice+bob") }
                At(.seconds(54)) { Send(from: "bob", text: "away 42", in: "alice+bob") }
                At(.seconds(55)) { Send(from: "bob", text: "away 43", in: "alice+bob") }
                At(.seconds(56)) { Send(from: "bob", text: "away 44", in: "alice+bob") }
                At(.seconds(57)) { Send(from: "bob", text: "away 45", in: "alice+bob") }
                At(.seconds(58)) { Send(from: "bob", text: "away 46", in: "alice+bob") }
                At(.seconds(59)) { Send(from: "bob", text: "away 47", in: "alice+bob") }
                At(.minutes(1)) { Send(from: "bob", text: "away 48", in: "alice+bob") }
                At(.seconds(61)) { Send(from: "bob", text: "away 49", in: "alice+bob") }
                At(.seconds(62)) { Send(from: "bob", text: "away 50", in: "alice+bob") }
                At(.seconds(63)) { Send(from: "bob", text: "away 51", in: "alice+bob") }
                At(.seconds(64)) { Send(from: "bob", text: "away 52", in: "alice+bob") }
                At(.seconds(65)) { Send(from: "bob", text: "away 53", in: "alice+bob") }
                At(.seconds(66)) { Send(from: "bob", text: "away 54", in: "alice+bob") }
                At(.seconds(67)) { Send(from: "bob", text: "away 55", in: "alice+bob") }
                At(.seconds(68)) { Send(from: "bob", text: "away 56", in: "alice+bob") }
                At(.seconds(69)) { Send(from: "bob", text: "away 57", in: "alice+bob") }
                At(.seconds(70)) { Send(from: "bob", text: "away 58", in: "alice+bob") }
                At(.seconds(71)) { Send(from: "bob", text: "away 59", in: "alice+bob") }
                At(.seconds(80)) { LinkUp("alice") }
                When(.server(answers: .login, to: "alice").nth(2)) { PostFromOtherDevice("bob", text: "live", in: "alice+bob").named("live") }
                At(.seconds(140)) { OpenChat("alice", "alice+bob") }
                At(.seconds(150)) { ScrollUp("alice", in: "alice+bob", messages: 200) }
            }
            Expect {
                Invariants(.all)
                Eventually(within: .seconds(30), after: "live", .serverMessageCount(chat: "alice+bob", count: 111))
                Eventually(within: .minutes(5), .historyComplete(client: "alice", chat: "alice+bob"))
            }
        },
    ]
}
