import SyncSimTesting
import Testing

/// The entry point a user's package gets: catalog scenarios as Swift Testing arguments.
@Suite struct ScenarioCaseTests {
    @Test("seedCases lists every scenario with each pinned seed, named NAME seed N")
    func seedCases() {
        let cases = Catalog.all.seedCases
        #expect(cases.count == Catalog.all.reduce(0) { $0 + $1.seeds.count })
        #expect(cases.first?.testDescription == "\(Catalog.all[0].name) seed \(Catalog.all[0].seeds[0])")
        #expect([Catalog.reconnectDuringSend].seedCases(seeds: 7...8).map(\.seed) == [7, 8])
    }

    @Test("two catalog scenarios pass as Swift Testing arguments",
          arguments: [Catalog.reconnectDuringSend, Catalog.serverRestart].seedCases(seeds: [1]))
    func catalogCase(_ c: ScenarioCase) {
        #expect(c.expectPasses().verdict == .pass)
    }

    @Test("the one-line helper runs every pinned seed")
    func oneLine() {
        #expect(expectScenarioPasses(Catalog.serverRestart).count == Catalog.serverRestart.seeds.count)
    }

    /// A mutant and a scenario of the mutant table with a pinned seed on which the scenario catches it.
    static func caughtCase() -> ScenarioCase? {
        for row in MutantCatalog.expectations {
            for name in row.scenarios {
                guard let scenario = Catalog.scenario(named: name) else { continue }
                for seed in scenario.seeds where ScenarioCase(scenario, seed: seed, mutant: row.mutant).run().verdict == .fail {
                    return ScenarioCase(scenario, seed: seed, mutant: row.mutant)
                }
            }
        }
        return nil
    }

    @Test("a failed check is a Swift Testing issue with the check, the seed, the trace tail and the reproduce command")
    func failureIssue() throws {
        let failing = try #require(Self.caughtCase())
        let result = failing.run()
        let messages = ScenarioCase.failureMessages(result)
        #expect(messages.count == result.violations.count)
        let first = try #require(messages.first)
        #expect(first.hasPrefix("\(failing.scenario.name) seed \(failing.seed) failed: \(result.violations[0].check) "))
        #expect(first.contains("\nreproduce: syncsim run \(failing.scenario.name) --seed \(failing.seed) --mutant "))
        if !result.violations[0].traceTail.isEmpty { #expect(first.contains("\ntrace tail (")) }
        withKnownIssue {
            failing.expectPasses()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("reproduce: syncsim run \(failing.scenario.name)") }
        }
    }
}
