import SyncSim

/// Checks on the scenario catalog that every command reading it makes before it does anything else.
enum CatalogCheck {
    /// Throws when two scenarios share a name, since `syncsim run NAME` could then repeat the wrong one.
    /// - Throws: `CatalogError` naming the first duplicated name and the source locations of every scenario with it.
    static func requireUniqueNames(_ catalog: [Scenario]) throws {
        var seen: [String] = []
        for scenario in catalog where !seen.contains(scenario.name) {
            seen.append(scenario.name)
            let twins = catalog.filter { $0.name == scenario.name }
            guard twins.count > 1 else { continue }
            throw CatalogError(
                description: "the catalog has \(twins.count) scenarios named '\(scenario.name)': "
                    + twins.map(\.location.description).joined(separator: " and ")
                    + "; scenario names must be unique"
            )
        }
    }
}

/// The catalog is not usable as is (two scenarios share a name); an input error, exit code 2.
struct CatalogError: Error, Hashable, CustomStringConvertible {
    var description: String
}
