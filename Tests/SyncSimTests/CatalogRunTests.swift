import Scenarios
import Testing
@testable import SyncSim

/// Runs the whole catalog in the world with its pinned seeds, and the mutation table.
@Suite struct CatalogRunTests {
    @Test("every catalog scenario passes with its pinned seeds", arguments: Catalog.all.map(\.name))
    func pinnedSeedsPass(name: String) throws {
        let scenario = try #require(Catalog.scenario(named: name))
        for seed in scenario.seeds {
            let result = WorldExecutor().run(scenario, seed: seed, options: RunOptions())
            #expect(result.violations.map(\.description) == [], "\(result.reproduceCommand)")
        }
    }

    /// (mutant, scenario) pairs of `MutantCatalog`, as "mutant scenario" strings.
    static let mutantPairs: [String] = MutantCatalog.expectations.flatMap { row in
        row.scenarios.map { "\(row.mutant) \($0)" }
    }

    @Test("each scenario of the mutant table catches its mutant on one of its pinned seeds", arguments: mutantPairs)
    func mutantIsCaught(pair: String) throws {
        let parts = pair.split(separator: " ").map(String.init)
        let scenario = try #require(Catalog.scenario(named: parts[1]))
        let caught = scenario.seeds.contains { seed in
            WorldExecutor().run(scenario, seed: seed, options: RunOptions(mutant: parts[0])).verdict == .fail
        }
        #expect(caught, "syncsim run \(parts[1]) --mutant \(parts[0])")
    }
}
