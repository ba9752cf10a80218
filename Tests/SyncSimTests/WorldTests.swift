import Foundation
import Scenarios
import Testing
@testable import SyncSim

@Suite struct WorldTests {
    /// Alice and Bob on EDGE: Alice sends while Bob reads the chat; both end with the server's history.
    static let twoOnEdge = Scenario("two-on-edge", summary: "two EDGE phones, one sends, one reads", seeds: [1]) {
        Server(history: ["alice+bob": 40])
        Client("alice", profile: .edge)
        Client("bob", profile: .edge)
        Timeline {
            At(.seconds(2)) { OpenChat("bob", "alice+bob") }
            for index in 0..<5 {
                At(.seconds(3) + .seconds(index)) { Send(from: "alice", text: "m\(index)", in: "alice+bob") }
            }
            At(.seconds(20)) { ScrollUp("bob", in: "alice+bob", messages: 100) }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(2), .serverMessageCount(chat: "alice+bob", count: 45))
            Eventually(within: .minutes(3), .converged)
        }
    }

    @Test("two clients on EDGE: one sends while the other reads; both converge to the server's history")
    func twoClientsConverge() throws {
        let world = try World(scenario: Self.twoOnEdge, seed: 1)
        let result = world.run()
        #expect(result.violations.map(\.description) == [])
        let server = world.serverMessages(in: "alice+bob")
        #expect(server.count == 45)
        #expect(server.suffix(5).map(\.text) == ["m0", "m1", "m2", "m3", "m4"])
        #expect(world.hasConverged)
        #expect(world.cachedMessages(of: "bob", in: "alice+bob").map(\.id) == server.map(\.id))
        #expect(world.chunkCount(of: "bob", in: "alice+bob") == 1)
        #expect(world.pendingTaskCount(of: "alice") == 0)
        let metrics = Dictionary(uniqueKeysWithValues: result.metrics.map { ($0.name, $0.value) })
        #expect(metrics["acknowledgedSends"] == 5)
        #expect((metrics["bytesUpOnSockets"] ?? 0) > 0)
        #expect((metrics["bytesDownOnAir"] ?? 0) > (metrics["bytesDownOnSockets"] ?? 0))
        #expect((metrics["chatHistoryRequests"] ?? 0) >= 2)
        // One list of names: the world reports SweepMetric.all, in its order, and nothing else.
        #expect(result.metrics.map(\.name) == SweepMetric.all.map(\.name))
    }

    @Test("a run's progress observer hears each simulated second in order and changes nothing: the same digest")
    func progressObserver() throws {
        let plain = try World(scenario: Self.twoOnEdge, seed: 1).run()
        let world = try World(scenario: Self.twoOnEdge, seed: 1)
        var heard: [Int64] = []
        let observed = world.run { heard.append($0.nanosecondsSinceStart) }
        #expect(observed.digest == plain.digest && observed.violations.isEmpty)
        #expect(!heard.isEmpty && heard == heard.indices.map { Int64($0 + 1) * 1_000_000_000 })
        #expect(heard.last == world.now.nanosecondsSinceStart)
    }

    @Test("texts and a photo queued offline survive an app restart and are sent in order")
    func restartWithPendingTasks() throws {
        let scenario = Scenario("restart", summary: "restart with pending tasks", seeds: [5]) {
            Client("alice", profile: .threeG)
            Client("bob", profile: .threeG)
            Timeline {
                At(.seconds(2)) { LinkDown("alice") }
                At(.seconds(3)) { Send(from: "alice", text: "a", in: "alice+bob") }
                At(.seconds(4)) { SendPhoto(from: "alice", bytes: 30_000, caption: "b", in: "alice+bob") }
                At(.seconds(5)) { Send(from: "alice", text: "c", in: "alice+bob") }
                At(.seconds(8)) { RestartApp("alice") }
                At(.seconds(9)) { CrashApp("alice") }
                At(.seconds(20)) { LinkUp("alice") }
            }
            Expect {
                Eventually(within: .minutes(3), .serverTexts(chat: "alice+bob", texts: ["a", "b", "c"]))
                Eventually(within: .minutes(3), .queueDrained(client: "alice"))
            }
        }
        let world = try World(scenario: scenario, seed: 5)
        let result = world.run()
        #expect(result.violations.map(\.description) == [])
        #expect(world.clientMetrics("alice")?.count == 3, "three app launches")
        #expect(world.server.cdn.uploads.count == 1)
    }

    /// Until session 43 the client's database stored a text up to its first NUL: after a restart the reader's cache
    /// held "a" where the server held "a\u{0}b", and C3 (cached equals the server's) failed.
    @Test("a message whose text holds a NUL is cached whole across an app restart, sender's and reader's")
    func nulTextSurvivesRestart() throws {
        let text = "a\u{0}b"
        let scenario = Scenario("nul-text", summary: "a text with a NUL, then restarts", seeds: [3]) {
            Client("alice", profile: .threeG)
            Client("bob", profile: .threeG)
            Timeline {
                At(.seconds(2)) { OpenChat("bob", "alice+bob") }
                At(.seconds(3)) { Send(from: "alice", text: text, in: "alice+bob") }
                At(.seconds(10)) { RestartApp("alice") }
                At(.seconds(11)) { RestartApp("bob") }
            }
            Expect {
                Invariants(.all)
                Eventually(within: .minutes(1), .serverTexts(chat: "alice+bob", texts: [text]))
            }
        }
        let world = try World(scenario: scenario, seed: 3)
        let result = world.run()
        #expect(result.violations.map(\.description) == [])
        #expect(world.serverMessages(in: "alice+bob").map(\.text) == [text])
        for client in ["alice", "bob"] {
            #expect(world.cachedMessages(of: client, in: "alice+bob").map(\.text) == [text], "\(client)")
        }
    }

    @Test("the same seed gives the same digest twice in one process; another seed gives another")
    func determinism() throws {
        let scenario = Catalog.reconnectDuringSend
        let first = try World(scenario: scenario, seed: 7).run()
        let second = try World(scenario: scenario, seed: 7).run()
        let other = try World(scenario: scenario, seed: 8).run()
        #expect(first.digest == second.digest)
        #expect(first.metrics == second.metrics)
        #expect(first.digest != other.digest)
    }

    @Test("--store-dir keeps each client's database as a file and changes nothing in the run")
    func storeDirectoryKeepsFiles() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncsim-store-\(getpid())").path
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let inMemory = WorldExecutor().run(Self.twoOnEdge, seed: 1, options: RunOptions())
        let onDisk = WorldExecutor().run(Self.twoOnEdge, seed: 1, options: RunOptions(storeDirectory: directory))
        #expect(onDisk.violations.map(\.description) == [])
        #expect(onDisk.digest == inMemory.digest)
        for client in ["alice", "bob"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/two-on-edge-seed1-\(client).sqlite"))
        }
        // A second run replaces its own files; a foreign file in their place is refused, never deleted.
        let again = WorldExecutor().run(Self.twoOnEdge, seed: 1, options: RunOptions(storeDirectory: directory))
        #expect(again.digest == inMemory.digest)
        let foreign = directory + "/two-on-edge-seed1-bob.sqlite"
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: foreign))
        let refused = WorldExecutor().run(Self.twoOnEdge, seed: 1, options: RunOptions(storeDirectory: directory))
        #expect(refused.violations.first?.description.contains("not an SQLite database") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: foreign)) == Data("not a database".utf8))
    }

    @Test("CapLogin caps how many changed chats one LOGIN lists", arguments: [nil, 1] as [Int?])
    func capLogin(cap: Int?) throws {
        let scenario = Scenario("cap-login", summary: "two chats, LOGIN capped", seeds: [1], runLength: .seconds(5)) {
            Server(history: ["alice+bob": 5, "alice+carol": 5])
            Client("alice", profile: .fourG)
            Client("bob", profile: .fourG)
            Client("carol", profile: .fourG)
            Timeline {
                if let cap { At(.milliseconds(1)) { CapLogin(chats: cap) } }
            }
        }
        let world = try World(scenario: scenario, seed: 1)
        _ = world.run()
        #expect(world.clientView("alice")?.chatList.count == (cap ?? 2))
    }

    @Test("an unknown client parameter is an error naming the valid ones")
    func unknownParameter() {
        let scenario = Scenario("bad", summary: "bad parameter", seeds: [1]) {
            Client("alice", profile: .edge, parameters: ["pageSize": 30])
        }
        #expect {
            _ = try World(scenario: scenario, seed: 1)
        } throws: { error in
            let text = "\(error)"
            return text.contains("'pageSize'") && text.contains("historyPageSize") && text.contains("initialSeq")
        }
        let result = WorldExecutor().run(scenario, seed: 1, options: RunOptions())
        #expect(result.verdict == .fail)
    }

    @Test("a mutant is caught with the violating step, its source line and the trace tail")
    func mutantReport() throws {
        let result = WorldExecutor().run(
            Catalog.responseLostAfterStore, seed: 331, options: RunOptions(mutant: "resend-new-cid"))
        let violation = try #require(result.violations.first)
        #expect(violation.invariant == .T2)
        #expect(violation.lastStep?.location.description.hasPrefix("Scenarios/FieldBugScenarios.swift:") == true)
        #expect(violation.traceTail.count == Violation.traceTailLength)
        #expect(result.reproduceCommand == "syncsim run response-lost-after-store --seed 331 --mutant resend-new-cid")
    }

    @Test("a backgrounded app is suspended: pushes wait for the next LOGIN, and it converges after foreground")
    func background() throws {
        let scenario = Scenario("bg", summary: "background", seeds: [3]) {
            Client("alice", profile: .fourG)
            Client("bob", profile: .fourG)
            Timeline {
                At(.seconds(2)) { Background("alice") }
                At(.seconds(20)) { Send(from: "bob", text: "while suspended", in: "alice+bob") }
                At(.seconds(40)) { Foreground("alice") }
            }
            Expect {
                Eventually(within: .minutes(1), .converged)
            }
        }
        let world = try World(scenario: scenario, seed: 3)
        world.stopsWhenQuiescent = false
        world.runLength = .seconds(30)
        _ = world.run()
        #expect(!world.isLoggedIn("alice"), "suspended at 30 s")
        let later = try World(scenario: scenario, seed: 3).run()
        #expect(later.violations.map(\.description) == [])
    }

    @Test("sampled checks run the same simulation: same digest and metrics as checking every event")
    func sampledChecks() throws {
        let scenario = Catalog.serverRestart
        let every = try World(scenario: scenario, seed: 201).run()
        let sampled = try World(scenario: scenario, seed: 201, checkSampling: 10).run()
        #expect(every.violations.isEmpty && sampled.violations.isEmpty)
        #expect(sampled.digest == every.digest)
        #expect(sampled.metrics == every.metrics)
    }
}
