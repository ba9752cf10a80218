import SyncSim

/// A stand-in for the world in sweep tests: metrics follow simple formulas of the parameters, the profile and the
/// seed, so the sweep machinery can be tested for what a real world would show (a larger page size needs fewer
/// CHAT_HISTORY requests to reach the start of 200 messages).
///
/// Per run, from the first client: `chatHistoryRequests = ceil(200 / historyPageSize)`; `chatOpenMilliseconds =
/// latency + 4·historyPageSize + noise`; `scrollWaitMilliseconds = chatHistoryRequests · latency + noise`, latency
/// 880 ms on EDGE, 200 ms otherwise, noise uniform in [0, 100) from the seed. Seed 13 reports no chat open time.
struct SweepTestExecutor: ScenarioExecutor {
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        let client = scenario.clients[0]
        let pageSize = client.parameters["historyPageSize"]?.intValue ?? 30
        let latency = client.profile == .edge ? 880.0 : 200.0
        var generator = SeededGenerator(seed: seed)
        let noise = generator.nextUnitInterval() * 100
        let requests = (200 + pageSize - 1) / pageSize
        var hash = FNV1a()
        hash.add(scenario.name + " " + client.profile.rawValue + " " + client.parameters.description)
        withUnsafeBytes(of: seed.littleEndian) { hash.add(bytes: $0) }
        var metrics = [
            Metric("scrollWaitMilliseconds", Double(requests) * latency + noise),
            Metric("chatHistoryRequests", Double(requests)),
            Metric("requests", Double(requests + 3)),
        ]
        if seed != 13 { metrics.insert(Metric("chatOpenMilliseconds", latency + 4 * Double(pageSize) + noise), at: 0) }
        return RunResult(scenario: scenario.name, seed: seed, digest: hash.value, metrics: metrics)
    }
}

/// A two-client scenario for sweep tests.
let sweepTestScenario = Scenario("open-and-scroll", summary: "sweep test scenario", seeds: [1]) {
    Server(history: ["alice+bob": 200])
    Client("alice", profile: .threeG)
    Client("bob", profile: .fourG)
    Timeline {
        At(.seconds(1)) { OpenChat("alice", "alice+bob") }
        At(.seconds(2)) { ScrollUp("alice", in: "alice+bob", messages: 500) }
    }
}

/// A sweep of `sweepTestScenario` run with `SweepTestExecutor`, objective `scrollWaitMilliseconds`, seeds from 10.
func makeSweepReport(
    _ params: [String] = ["historyPageSize=10,20,50,100"],
    profiles: [ProfileName] = [.edge, .threeG],
    seeds: Int = 8
) throws -> SweepReport {
    let spec = try SweepSpec(
        scenario: sweepTestScenario.name, axes: params.map(SweepAxis.init(parsing:)), profiles: profiles,
        seedCount: seeds, seedBase: 10, objective: "scrollWaitMilliseconds"
    )
    let records = SweepRunner(spec: spec, base: sweepTestScenario, executor: SweepTestExecutor()).records()
    return try SweepReport(spec: spec, records: records)
}
