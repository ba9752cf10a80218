import Testing
@testable import SyncSim

@Suite struct SweepSpecTests {
    @Test("durations parse exactly with a unit", arguments: [
        ("500ms", SimDuration.milliseconds(500)), ("20s", .seconds(20)), ("1.5s", .milliseconds(1_500)),
        ("2min", .minutes(2)), ("1h", .hours(1)), ("250us", .microseconds(250)), ("10ns", .nanoseconds(10)),
        ("0.25ms", .microseconds(250)), ("2m", .minutes(2)), ("1.5m", .seconds(90)),
    ])
    func durations(text: String, expected: SimDuration) {
        #expect(SweepParameter.duration(text) == expected)
    }

    @Test("malformed durations are rejected", arguments: ["20", "s", "1.2.3s", "-1s", "1.s", ".5s", "1e3ms", "5 s",
                                                           "0.5ns", "99999999999999999999h"])
    func badDurations(text: String) {
        #expect(SweepParameter.duration(text) == nil)
    }

    @Test("--param parses values in order, typed by the parameter")
    func axis() throws {
        let pages = try SweepAxis(parsing: "historyPageSize=10,30,50")
        #expect(pages.values == [10, 30, 50])
        let timeouts = try SweepAxis(parsing: "requestTimeout=500ms,20s")
        #expect(timeouts.values == [.duration(.milliseconds(500)), .duration(.seconds(20))])
        #expect(try SweepAxis(parsing: "backoffJitter=0,0.5").values == [.double(0), .double(0.5)])
    }

    @Test("invalid --param texts fail with a message naming the problem and what is valid", arguments: [
        ("pageSize=10", "unknown parameter 'pageSize'; valid parameters: historyPageSize, prefetchDistance"),
        ("historyPageSize=0", "parameter historyPageSize: expected an integer in 1...500 (messages), got '0'"),
        ("historyPageSize=10,,20", "got ''"),
        ("historyPageSize=10,10", "value '10' given twice"),
        ("requestTimeout=20", "expected a duration in 100ms...600s with a unit"),
        ("historyPageSize", "expected NAME=V1,V2,..."),
        ("backoffJitter=1.5", "expected a number in 0.0...1.0"),
    ])
    func badAxis(text: String, message: String) {
        #expect {
            try SweepAxis(parsing: text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("shards parse as 1-based i/n and reject the rest", arguments: ["0/4", "5/4", "1/0", "-1/2", "a/2", "1", "1/2/3"])
    func badShards(text: String) {
        #expect(throws: SweepError.self) { try SweepShard(parsing: text) }
    }

    @Test("shard 0/n is refused with a message saying shards count from 1")
    func zeroShard() {
        #expect {
            try SweepShard(parsing: "0/4")
        } throws: { error in
            "\(error)".contains("shards count from 1") && "\(error)".contains("expected 1...4")
        }
        #expect(throws: Never.self) { try SweepShard(parsing: "4/4") }
        #expect((try? SweepShard(parsing: "2/4"))?.description == "2/4")
        #expect((try? SweepShard(parsing: "2/4"))?.index == 1)
    }

    @Test("shards partition the runs round-robin, and together cover each run once")
    func shards() throws {
        let spec = try SweepSpec(
            scenario: "s", axes: [SweepAxis(parsing: "historyPageSize=10,20,30")], profiles: [.edge, .threeG],
            seedCount: 5, seedBase: 100
        )
        #expect(spec.runCount == 30)
        var covered: [Int] = []
        for index in 0..<4 {
            let runs = spec.runs(in: try SweepShard(parsing: "\(index + 1)/4"))
            #expect(runs.allSatisfy { $0.index % 4 == index })
            covered += runs.map(\.index)
        }
        #expect(covered.sorted() == Array(0..<30))
    }

    @Test("combinations go profile by profile, first axis slowest; every combination gets the same seeds")
    func grid() throws {
        let spec = try SweepSpec(
            scenario: "s",
            axes: [SweepAxis(parsing: "historyPageSize=10,20"), SweepAxis(parsing: "prefetchDistance=0,5")],
            profiles: [.edge, .threeG], seedCount: 3, seedBase: 7
        )
        let labels = spec.combinations.map { "\($0.profile) \(spec.label(of: $0))" }
        #expect(labels == [
            "EDGE historyPageSize=10 prefetchDistance=0", "EDGE historyPageSize=10 prefetchDistance=5",
            "EDGE historyPageSize=20 prefetchDistance=0", "EDGE historyPageSize=20 prefetchDistance=5",
            "3G historyPageSize=10 prefetchDistance=0", "3G historyPageSize=10 prefetchDistance=5",
            "3G historyPageSize=20 prefetchDistance=0", "3G historyPageSize=20 prefetchDistance=5",
        ])
        let runs = spec.runs()
        for combination in spec.combinations {
            #expect(runs.filter { $0.combination == combination }.map(\.seed) == [7, 8, 9])
        }
    }

    @Test("a combination sets the profile on every client and the parameters on the chosen clients")
    func apply() throws {
        let spec = try SweepSpec(
            scenario: sweepTestScenario.name,
            axes: [SweepAxis(parsing: "historyPageSize=50"), SweepAxis(parsing: "compressionThresholdBytes=0")],
            profiles: [.gprs], seedCount: 1, clients: ["alice"]
        )
        let scenario = spec.scenario(sweepTestScenario, applying: spec.combinations[0])
        #expect(scenario.clients.map(\.profile) == [.gprs, .gprs])
        #expect(scenario.clients[0].parameters.description == "historyPageSize=50,compressionThresholdBytes=0")
        #expect(scenario.clients[1].parameters.isEmpty)
        #expect(scenario.server.parameters.description == "compressionThresholdBytes=0")
    }

    @Test("invalid sweeps fail with clear messages")
    func invalid() throws {
        let axis = try SweepAxis(parsing: "historyPageSize=10")
        #expect(throws: SweepError.self) {
            try SweepSpec(scenario: "s", axes: [axis, axis], profiles: [.edge], seedCount: 1)
        }
        #expect(throws: SweepError.self) { try SweepSpec(scenario: "s", axes: [axis], profiles: [], seedCount: 1) }
        #expect(throws: SweepError.self) {
            try SweepSpec(scenario: "s", axes: [axis], profiles: [.edge], seedCount: 2, seedBase: .max)
        }
        #expect(throws: SweepError.self) {
            try SweepSpec(scenario: "s", axes: [axis], profiles: [.edge], seedCount: 1, objective: "speed")
        }
        #expect(throws: SweepError.self) { try SweepSpec.profile(named: "5G") }
        #expect(try SweepSpec.profile(named: "edge") == .edge)
        let spec = try SweepSpec(scenario: "s", axes: [axis], profiles: [.edge], seedCount: 1, clients: ["carol"])
        #expect {
            try spec.validate(against: sweepTestScenario)
        } throws: { error in
            "\(error)" == "--client 'carol' is not in scenario open-and-scroll; clients: alice, bob"
        }
    }
}
