import Testing
@testable import SyncSim

@Suite struct RunPlanTests {
    static let scenarios = [
        Scenario("one", summary: "s", seeds: [5, 6]) {},
        Scenario("two", summary: "s", seeds: [7]) {},
    ]

    @Test("pinned seeds run scenario by scenario, in order")
    func pinned() {
        let plan = RunPlan(scenarios: Self.scenarios, seeds: .pinned)
        #expect(plan.jobs.map { "\($0.scenario.name)/\($0.seed)" } == ["one/5", "one/6", "two/7"])
    }

    @Test("explicit seeds replace pinned ones; duplicates run once")
    func explicit() {
        let plan = RunPlan(scenarios: Self.scenarios, seeds: .explicit([1, 2, 1]))
        #expect(plan.jobs.map { "\($0.scenario.name)/\($0.seed)" } == ["one/1", "one/2", "two/1", "two/2"])
    }

    @Test("random seeds depend only on the base and the scenario name")
    func randomSeeds() {
        let first = RunPlan.randomSeeds(base: 42, scenario: "one", count: 3)
        #expect(first == RunPlan.randomSeeds(base: 42, scenario: "one", count: 3))
        #expect(Array(RunPlan.randomSeeds(base: 42, scenario: "one", count: 5).prefix(3)) == first)
        #expect(first != RunPlan.randomSeeds(base: 43, scenario: "one", count: 3))
        #expect(first != RunPlan.randomSeeds(base: 42, scenario: "two", count: 3))
        let plan = RunPlan(scenarios: Self.scenarios, seeds: .pinned, randomCount: 3, randomBase: 42)
        #expect(plan.jobs.filter { $0.scenario.name == "one" }.map(\.seed) == [5, 6] + first)
    }
}
