import Scenarios
import SyncSim
import Testing

/// The hand-written field sequences kept out of the catalog (`Catalog.fieldSequences16Tried`, `fieldSequences17Tried`,
/// `fieldSequences18Tried`, `fieldSequences36Tried`, `fieldSequences37Tried`, `fieldSequences38Tried`, `fieldSequences38ETried`, `fieldSequences39Tried`; docs/explore.md): they stay valid scenarios a user can add to `Catalog.all` and run, with
/// names of their own.
@Suite struct FieldSequencesTriedTests {
    static let tried = Catalog.fieldSequences16Tried + Catalog.fieldSequences17Tried + Catalog.fieldSequences18Tried
        + Catalog.fieldSequences36Tried + Catalog.fieldSequences37Tried + Catalog.fieldSequences38Tried
        + Catalog.fieldSequences38ETried + Catalog.fieldSequences39Tried

    @Test("every tried sequence validates: its clients, chats, profiles, parameters and moments are known")
    func valid() {
        #expect(Catalog.fieldSequences18Tried.count == 22)
        #expect(Catalog.fieldSequences36Tried.count == 18)
        #expect(Catalog.fieldSequences37Tried.count == 42)
        #expect(Catalog.fieldSequences38Tried.count == 29)
        #expect(Catalog.fieldSequences38ETried.count == 37)
        #expect(Catalog.fieldSequences39Tried.count == 46)
        for scenario in Self.tried {
            let problems = scenario.problems().map(\.description)
            #expect(problems.isEmpty, "\(scenario.name): \(problems)")
        }
    }

    @Test("tried names are unique and none is a catalog scenario's")
    func names() {
        let names = Self.tried.map(\.name)
        #expect(Set(names).count == names.count)
        let catalog = Set(Catalog.all.map(\.name))
        #expect(names.filter(catalog.contains).isEmpty)
    }
}
