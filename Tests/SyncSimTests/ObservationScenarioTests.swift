import Foundation
import Scenarios
import Testing
@testable import SyncSim

/// The observation scenarios (`Catalog.observationScenarios`): each states its bug class with the public DSL and
/// either passes or fails only the check it states (the reference engine's defects of issue 12).
@Suite struct ObservationScenarioTests {
    /// The check each scenario states, as its `CheckID` description prefix.
    static let statedChecks: [String: String] = [
        "echo-stays-on-screen": "always: alice shows \"on screen\" in open alice+bob",
        "read-marks-coalesced": "metric: requests[alice CHAT_MARK from step 'offline'] <= 1.0",
        "catch-up-race-on-login": "",
    ]

    static let names = Catalog.observationScenarios.map(\.name)

    @Test("every observation scenario is valid and names its stated check", arguments: names)
    func valid(name: String) throws {
        let scenario = try #require(Catalog.observationScenarios.first { $0.name == name })
        #expect(scenario.problems().map(\.description) == [])
        #expect(Self.statedChecks[scenario.name] != nil)
    }

    @Test("each fails, if at all, only the check it states", arguments: names)
    func failsOnlyItsCheck(name: String) throws {
        let scenario = try #require(Catalog.observationScenarios.first { $0.name == name })
        let stated = try #require(Self.statedChecks[scenario.name])
        for seed in scenario.seeds {
            let result = WorldExecutor().run(scenario, seed: seed, options: RunOptions())
            let others = result.violations.filter { stated.isEmpty || $0.check.description != stated }
            #expect(others.map(\.description) == [], "\(scenario.name) seed \(seed)")
            if ProcessInfo.processInfo.environment["SYNCSIM_SHOW_OBSERVATIONS"] == "1" {
                print("OBSERVATION \(scenario.name) seed \(seed): \(result.violations.map(\.description))")
            }
        }
    }

    @Test("the catch-up race fires its When step at alice's second LOGIN answer")
    func catchUpFires() {
        let scenario = Catalog.catchUpRaceOnLogin
        let result = WorldExecutor().run(scenario, seed: scenario.seeds[0], options: RunOptions(recordsTrace: true))
        let fired = result.trace.filter { $0.contains("step when PostFromOtherDevice") }
        #expect(fired.count == 1)
        let answers = result.trace.filter { $0.contains("server tx LOGIN response") }
        #expect(answers.count >= 2)
    }
}
