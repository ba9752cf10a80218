import Testing
@testable import SyncSim

@Suite struct ScenarioTests {
    static let sample = Scenario("sample", summary: "a sample", seeds: [1, 2]) {
        Server(parameters: ["historyPageSize": 30], history: ["alice+bob": 10])
        Client("alice", profile: .edge, parameters: ["requestTimeout": .duration(.seconds(20))])
        Client("bob", profile: "LTE-M", mutant: "resend-new-cid")
        Chat("team", members: ["alice", "bob"])
        Timeline {
            At(.seconds(1)) { Send(from: "alice", text: "hi", in: "alice+bob").named("hello") }
            After(.milliseconds(300)) { LinkDown("alice", for: .seconds(8)) }
            After(.seconds(2), step: "hello") {
                OpenChat("bob", "team")
                ScrollUp("bob", in: "team", messages: 40)
            }
        }
        Expect {
            Invariants(.T2, .C1)
            Eventually(within: .minutes(2), .serverMessageCount(chat: "alice+bob", count: 1))
            MetricBound("reconnects", atMost: 3)
        }
    }

    @Test("the builder collects topology, steps and expectations as plain values")
    func buildsValues() {
        let scenario = Self.sample
        #expect(scenario.name == "sample")
        #expect(scenario.seeds == [1, 2])
        #expect(scenario.server.parameters["historyPageSize"] == .int(30))
        #expect(scenario.server.history == [ChatHistorySeed(chat: "alice+bob", messages: 10)])
        #expect(scenario.clients.map(\.name) == ["alice", "bob"])
        #expect(scenario.clients[0].profile == .edge)
        #expect(scenario.clients[1].profile.rawValue == "LTE-M")
        #expect(scenario.clients[1].mutant == "resend-new-cid")
        #expect(scenario.clients[0].parameters["requestTimeout"] == .duration(.seconds(20)))
        #expect(scenario.chats.map(\.name) == ["team"])
        #expect(scenario.chats.map(\.members) == [["alice", "bob"]])
        #expect(scenario.steps.map(\.action) == [
            .sendText(client: "alice", chat: "alice+bob", text: "hi"),
            .outage(client: "alice", duration: .seconds(8), mode: .silently),
            .openChat(client: "bob", chat: "team"),
            .scroll(client: "bob", chat: "team", direction: .up, messages: 40),
        ])
        #expect(scenario.steps.map(\.timing) == [
            .at(.seconds(1)), .afterPrevious(.milliseconds(300)), .after(.seconds(2), step: "hello"),
            .afterPrevious(.zero),
        ])
        #expect(scenario.steps[0].label == "hello")
        #expect(scenario.expectations.invariants == [.C1, .T2])
        #expect(scenario.checkedInvariants == [.C1, .T2])
        #expect(scenario.expectations.eventually.count == 1)
        #expect(scenario.expectations.metricBounds.map(\.description) == ["reconnects <= 3.0"])
        // The sample's structure is consistent; only the names the world does not know are problems.
        let problems = scenario.problems().map(\.description)
        #expect(problems.count == 2)
        #expect(problems.contains { $0.contains("client 'bob': unknown link profile 'LTE-M'") })
        #expect(problems.contains { $0.contains("server: unknown parameter 'historyPageSize'") })
    }

    @Test("every step keeps the file and line of its DSL call")
    func keepsSourceLocations() {
        let scenario = Self.sample
        #expect(scenario.steps.allSatisfy { $0.location.fileID == "SyncSimTests/ScenarioTests.swift" })
        let lines = scenario.steps.map(\.location.line)
        #expect(lines[1] == lines[0] + 1)
        #expect(lines[3] == lines[2] + 1)
        #expect(scenario.location.fileID == "SyncSimTests/ScenarioTests.swift")
    }

    @Test("schedule resolves After steps and orders by time, then position")
    func schedule() throws {
        let scheduled = try Self.sample.schedule()
        #expect(scheduled.map(\.time.nanosecondsSinceStart) == [
            1_000_000_000, 1_300_000_000, 3_000_000_000, 3_000_000_000,
        ])
        #expect(scheduled.map(\.index) == [0, 1, 2, 3])
        let absolute = try Self.sample.withAbsoluteTiming()
        #expect(absolute.steps.map(\.timing) == [
            .at(.seconds(1)), .at(.milliseconds(1_300)), .at(.seconds(3)), .at(.seconds(3)),
        ])
    }

    @Test("chat members come from a declaration or from the name")
    func members() {
        #expect(Self.sample.members(of: "team") == ["alice", "bob"])
        #expect(Self.sample.members(of: "alice+bob+carol") == ["alice", "bob", "carol"])
        #expect(Self.sample.chatNames == ["team", "alice+bob"])
    }

    @Test("the chat directory resolves names and members as the scenario does, the first declaration winning")
    func chatDirectory() {
        var scenario = Self.sample
        scenario.chats.append(ChatSpec(name: "team", members: ["bob"]))
        scenario.chats.append(ChatSpec(name: "pair", members: ["bob", "alice", "bob"]))
        let directory = scenario.chatDirectory()
        #expect(directory.names == scenario.chatNames)
        #expect(directory.names == ["team", "pair", "alice+bob"])
        for name in directory.names + ["alice+bob+carol", "nobody"] {
            #expect(directory.members(of: name) == scenario.members(of: name), "\(name)")
        }
        #expect(directory.members(of: "team") == ["alice", "bob"])
    }

    @Test("no Invariants line means every invariant is checked")
    func defaultInvariants() {
        let scenario = Scenario("bare", summary: "s", seeds: [1]) { Client("a", profile: .wifi) }
        #expect(scenario.checkedInvariants == InvariantID.allCases)
        #expect(scenario.server == ServerSpec())
    }

    @Test("loops and conditions work in every builder")
    func loopsAndConditions() {
        let includeBob = false
        let scenario = Scenario("loops", summary: "s", seeds: [1]) {
            for name in ["a", "b", "c"] { Client(name, profile: .threeG) }
            if includeBob { Client("bob", profile: .wifi) }
            Timeline {
                for index in 0..<4 { At(.seconds(index)) { Send(from: "a", text: "\(index)", in: "a+b") } }
            }
        }
        #expect(scenario.clients.map(\.name) == ["a", "b", "c"])
        #expect(scenario.steps.count == 4)
    }

    @Test("validation names the scenario, the line and the problem")
    func validation() {
        let scenario = Scenario("broken", summary: "s", seeds: []) {
            Client("alice", profile: .edge)
            Client("alice", profile: .edge)
            Timeline {
                At(.seconds(1)) { Send(from: "carol", text: "x", in: "alice+carol") }
                After(.seconds(1), step: "missing") { LossBurst("alice", for: .seconds(1), lossRate: 1.5) }
            }
        }
        let problems = scenario.problems().map(\.description)
        #expect(problems.contains { $0.contains("needs at least one pinned seed") })
        #expect(problems.contains { $0.contains("client 'alice' declared twice") })
        #expect(problems.contains { $0.contains("client 'carol' is not in the topology") })
        #expect(problems.contains { $0.contains("probability 1.5 is outside 0...1") })
        #expect(problems.contains { $0.contains("no earlier step is labelled 'missing'") })
        #expect(problems.allSatisfy { $0.hasPrefix("SyncSimTests/ScenarioTests.swift:") })
        #expect(problems.allSatisfy { $0.contains("scenario 'broken'") })
    }

    // Found by fuzz-dsl (Fuzz/Regressions/fuzz-dsl/schedule-overflow): a step at the largest duration followed by
    // an After trapped on Int64 overflow inside validation instead of reporting the scenario.
    @Test("times and durations past a year are problems, and a timeline that would overflow virtual time is reported")
    func durationBounds() {
        let scenario = Scenario("far", summary: "s", seeds: [1], runLength: .nanoseconds(Int64.max)) {
            Client("alice", profile: .edge)
            Timeline {
                At(.nanoseconds(Int64.max)) { Background("alice") }
                After(.seconds(1)) { LossBurst("alice", for: .hours(24 * 366), lossRate: 0.5) }
            }
        }
        let problems = scenario.problems().map(\.description)
        #expect(problems.contains { $0.contains("run length 9223372036854775807ns is longer than the longest") })
        #expect(problems.contains { $0.contains("step time 9223372036854775807ns is longer than the longest") })
        #expect(problems.contains {
            $0.contains("duration 31622400s is longer than the longest scenario duration (31536000s)")
        })
        #expect(problems.contains { $0.contains("step would start more than 31536000s after the run's start") })
        #expect(problems.allSatisfy { $0.contains("scenario 'far'") })
        let fits = Scenario("near", summary: "s", seeds: [1]) {
            Client("alice", profile: .edge)
            Timeline { At(.hours(24 * 365)) { Background("alice") } }
        }
        #expect(fits.problems().isEmpty)
    }

    @Test("a seeded history, a photo or a photo count past its bound is a problem, not an allocation (fuzz-dsl)")
    func sizeBounds() {
        let scenario = Scenario("huge", summary: "s", seeds: [1]) {
            Server(history: ["alice+bob": Int.max / 2])
            Client("alice", profile: .edge)
            Client("bob", profile: .edge)
            Timeline {
                At(.seconds(1)) { SendPhoto(from: "alice", bytes: Int.max, in: "alice+bob") }
                At(.seconds(2)) { SendPhotos(from: "alice", count: 1_000, bytes: 10, caption: "c", in: "alice+bob") }
            }
        }
        let problems = scenario.problems().map(\.description)
        #expect(problems.contains { $0.contains("history for 'alice+bob' has 4611686018427387903 messages; at most 1000000") })
        #expect(problems.contains { $0.contains("a photo of 9223372036854775807 bytes; at most 104857600") })
        #expect(problems.contains { $0.contains("1000 photos in one message; at most 100") })
    }

    @Test("client parameters out of range (a page of 0, a NaN backoff factor, jitter above 1) are problems")
    func clientParameterRanges() {
        let scenario = Scenario("ranges", summary: "s", seeds: [1]) {
            Client("alice", profile: .edge, parameters: ["historyPageSize": 0])
            Client("bob", profile: .edge, parameters: ["backoffFactor": .double(.nan)])
            Client("carol", profile: .edge, parameters: ["backoffJitter": 1.5])
        }
        let problems = scenario.problems().map(\.description)
        #expect(problems.contains { $0.contains("historyPageSize") && $0.contains("an integer >= 1") })
        #expect(problems.contains { $0.contains("backoffFactor") && $0.contains("a number in 1.0...1000.0") })
        #expect(problems.contains { $0.contains("backoffJitter") && $0.contains("a number in 0.0...1.0") })
    }

    @Test("durations shorter than sweep takes (a zero ping interval hung the run at one instant) are problems")
    func durationFloors() {
        let scenario = Scenario("floors", summary: "s", seeds: [1]) {
            Client("alice", profile: .edge, parameters: ["pingInterval": .duration(.zero)])
            Client("bob", profile: .edge, parameters: ["requestTimeout": .duration(.zero)])
            Client("carol", profile: .edge, parameters: ["taskRetryBase": .duration(.milliseconds(-5))])
            Client("dave", profile: .edge, parameters: ["photoProcessingTime": .duration(.zero),
                                                        "loginChatsCount": 0])
        }
        let problems = scenario.problems().map(\.description)
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.contains("pingInterval") && $0.contains("a duration of at least 1s") })
        #expect(problems.contains { $0.contains("requestTimeout") && $0.contains("a duration of at least \(SimDuration.milliseconds(100))") })
        #expect(problems.contains { $0.contains("taskRetryBase") && $0.contains("a duration of at least \(SimDuration.milliseconds(10))") })
    }

    @Test("validation names unknown parameters, bad values, unknown profiles and mutants with what is valid")
    func parameterValidation() {
        let scenario = Scenario("typos", summary: "s", seeds: [1]) {
            Server(parameters: ["processingDelays": .duration(.seconds(1))])
            Client("alice", profile: .edge, parameters: ["historyPagesize": .int(10)])
            Client("bob", profile: "LTE-X")
            Client("carol", profile: .edge, parameters: ["pongTimeout": .int(5)])
            Client("dave", profile: .edge, mutant: "no-such-mutant")
        }
        let problems = scenario.problems().map(\.description)
        #expect(problems.count == 5)
        #expect(problems.contains {
            $0.hasPrefix("SyncSimTests/ScenarioTests.swift:")
                && $0.contains("scenario 'typos': client 'alice': unknown parameter 'historyPagesize' (valid: backoff")
        })
        #expect(problems.contains { $0.contains("client 'bob': unknown link profile 'LTE-X'; profiles: ") })
        #expect(problems.contains { $0.contains("client 'carol': parameter 'pongTimeout' expects a duration") })
        #expect(problems.contains { $0.contains("client 'dave': unknown mutant 'no-such-mutant' (valid: ") })
        #expect(problems.contains { $0.contains("server: unknown parameter 'processingDelays' (valid: ") })
    }

    @Test("withMutant puts the mutant on every client")
    func mutant() {
        let mutated = Self.sample.withMutant("parallel-sends")
        #expect(mutated.clients.allSatisfy { $0.mutant == "parallel-sends" })
    }
}

@Suite struct ScenarioLinkProfileTests {
    static let cell = LinkProfile(
        name: "LTE-M", source: "assumption",
        uplink: .init(rateBitsPerSecond: 375_000, oneWayDelay: .milliseconds(150)),
        downlink: .init(rateBitsPerSecond: 1_000_000, oneWayDelay: .milliseconds(150), loss: .bernoulli(probability: 0.01)))

    @Test("a client and a handover may name a profile of the scenario's own; the world runs it")
    func ownProfile() throws {
        let scenario = Scenario("own-cell", summary: "s", seeds: [1]) {
            Self.cell
            Client("alice", profile: "lte-m")
            Client("bob", profile: .edge)
            Timeline {
                At(.seconds(1)) { Send(from: "alice", text: "hi", in: "alice+bob") }
                At(.seconds(5)) { Handover("bob", to: "LTE-M") }
            }
        }
        #expect(scenario.linkProfiles == [Self.cell])
        #expect(scenario.problems().isEmpty)
        #expect(scenario.linkProfile(named: "LTE-M") == Self.cell)
        #expect(scenario.linkProfile(named: "edge") == .edge)
        let world = try World(scenario: scenario, seed: 1)
        #expect(world.scenario.linkProfiles == [Self.cell])
    }

    @Test("unknown profiles, a catalog name taken, a profile given twice and bad figures are problems")
    func problems() {
        var broken = Self.cell
        broken.name = "EDGE"
        var lossy = Self.cell
        lossy.name = "lossy"
        lossy.uplink.loss = .bernoulli(probability: 2)
        let scenario = Scenario("bad-cells", summary: "s", seeds: [1]) {
            Self.cell
            Self.cell
            broken
            lossy
            Client("alice", profile: "LTE-N")
            Client("bob", profile: .edge)
            Timeline { At(.seconds(5)) { Handover("bob", to: "5G") } }
        }
        let texts = scenario.problems().map(\.description)
        #expect(texts.contains { $0.contains("client 'alice': unknown link profile 'LTE-N'; profiles: 2G-rural,")
            && $0.contains("offline, LTE-M") })
        #expect(texts.contains { $0.contains("Handover: unknown link profile '5G'") })
        #expect(texts.contains { $0.contains("link profile 'LTE-M' declared twice") })
        #expect(texts.contains { $0.contains("link profile 'EDGE' has the name of the catalog's 'EDGE'") })
        #expect(texts.contains { $0.contains("link profile 'lossy': uplink: loss probability 2.0 is not in 0...1") })
    }

    @Test("the DSL printer writes a profile of the scenario's own with the figures that differ from the defaults")
    func printed() {
        let scenario = Scenario("own-cell", summary: "s", seeds: [1]) {
            Self.cell
            Client("alice", profile: "LTE-M")
            Client("bob", profile: .edge)
        }
        let source = scenario.dslSource()
        #expect(source.contains("""
                LinkProfile(
                    name: "LTE-M", source: "assumption",
                    uplink: .init(rateBitsPerSecond: 375_000, oneWayDelay: .milliseconds(150)),
                    downlink: .init(rateBitsPerSecond: 1_000_000, oneWayDelay: .milliseconds(150), \
            loss: .bernoulli(probability: 0.01))
                )
            """))
        #expect(source.contains("Client(\"alice\", profile: \"LTE-M\")"))
    }

    @Test("a run does not end as quiescent while the open chat waits on a retry timer for its refused first page")
    func quiescenceWaitsForEngineRetries() throws {
        // The open's page is refused three times; nothing else happens. The run used to end at the first whole
        // second with nothing in flight, the chat never shown and its retry timer armed (round 37's storm sequences
        // needed a late step to keep running); now it goes on until the retried page shows the chat.
        let scenario = Scenario("open-behind-refused-pages", summary: "s", seeds: [1], runLength: .minutes(10)) {
            Server(history: ["alice+bob": 30])
            Client("alice", profile: .threeG)
            Client("bob", profile: .threeG)
            Timeline {
                At(.seconds(1)) { ErrorReplies(to: .chatHistory, count: 3, of: "alice") }
                At(.seconds(2)) { OpenChat("alice", "alice+bob") }
            }
        }
        let world = try World(scenario: scenario, seed: 1)
        let result = world.run()
        #expect(result.violations.isEmpty, "\(result.violations)")
        #expect(world.cachedMessages(of: "alice", in: "alice+bob").count == 30)
        #expect(!world.screen(of: "alice").visibleMessageIds.isEmpty)
        #expect(world.now < .start + .minutes(10), "ended at quiescence, not at runLength: \(world.now)")
    }
}
