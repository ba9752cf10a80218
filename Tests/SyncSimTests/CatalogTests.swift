import Scenarios
import Testing
@testable import SyncSim

@Suite struct CatalogTests {
    @Test("the catalog has at least 20 scenarios with unique names and summaries")
    func shape() {
        #expect(Catalog.all.count >= 20)
        #expect(Set(Catalog.all.map(\.name)).count == Catalog.all.count)
        #expect(Catalog.all.allSatisfy { !$0.summary.isEmpty && !$0.seeds.isEmpty })
    }

    @Test("every catalog scenario is valid", arguments: Catalog.all.map(\.name))
    func valid(name: String) throws {
        let scenario = try #require(Catalog.scenario(named: name))
        #expect(scenario.problems().map(\.description) == [])
    }

    @Test("the mutant table names known mutants and catalog scenarios")
    func mutantTable() {
        let names = Set(Catalog.all.map(\.name))
        #expect(MutantCatalog.expectations.map(\.mutant) == Mutant.all.map(\.name))
        for row in MutantCatalog.expectations {
            #expect(!row.scenarios.isEmpty, "\(row.mutant)")
            #expect(row.scenarios.allSatisfy(names.contains), "\(row.mutant)")
        }
    }
}
