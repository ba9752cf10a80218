import Scenarios
import SyncSim

/// `syncsim list`: the catalog's scenarios with their one-line summaries, or the engine mutants.
enum ListCommand {
    static let spec = CommandSpec(
        name: "list",
        summary: "list the catalog's scenarios (or, with --mutants, the engine mutants)",
        help: """
            usage: syncsim list [--mutants]

            Prints each catalog scenario's name, pinned seeds and one-line summary, in catalog order.
            With --mutants, prints each engine mutant, what it breaks, and the scenarios expected to catch it.

            example: syncsim list
            """,
        run: { list, console in try run(&list, console: console, catalog: Catalog.all) }
    )

    /// Parses the options and prints the list.
    /// - Throws: `UsageError` for an unknown option, `CatalogError` when two scenarios share a name.
    static func run(_ list: inout ArgumentList, console: Console, catalog: [Scenario]) throws -> Int32 {
        let showsMutants = list.flag("--mutants")
        try list.finish()
        try CatalogCheck.requireUniqueNames(catalog)
        lines(mutants: showsMutants, catalog: catalog).forEach(console.out)
        return ExitCode.success
    }

    static func lines(mutants showsMutants: Bool, catalog: [Scenario]) -> [String] {
        if showsMutants {
            let width = (Mutant.all.map(\.name.count).max() ?? 0) + 2
            return Mutant.all.flatMap { mutant -> [String] in
                let catchers = MutantCatalog.scenarios(catching: mutant.name)
                return [
                    mutant.name.padding(toLength: width, withPad: " ", startingAt: 0) + mutant.summary,
                    String(repeating: " ", count: width) + "caught by: "
                        + (catchers.isEmpty ? "(none yet)" : catchers.joined(separator: ", ")),
                ]
            }
        }
        let width = (catalog.map(\.name.count).max() ?? 0) + 2
        let seedColumns = catalog.map { "seeds " + $0.seeds.map(String.init).joined(separator: ",") }
        let seedWidth = (seedColumns.map(\.count).max() ?? 0) + 2
        return zip(catalog, seedColumns).map { scenario, seeds in
            scenario.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + seeds.padding(toLength: seedWidth, withPad: " ", startingAt: 0) + scenario.summary
        }
    }
}
