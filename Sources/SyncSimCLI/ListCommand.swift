import Scenarios
import SyncSim

/// `syncsim list`: the catalog's scenarios with their one-line summaries, or the engine mutants.
enum ListCommand {
    static let spec = CommandSpec(
        name: "list",
        summary: "list the catalog's scenarios (or, with --mutants, the engine mutants)",
        help: """
            usage: syncsim list [NAME|PATTERN...] [--grep TEXT] [--tag NAME] [--shard i/n] [--json]
                   syncsim list --mutants [--json]

            Prints each catalog scenario's name, pinned seeds, tags and one-line summary, in catalog order.
            Takes the selection options of `syncsim run`, so it shows what that run would run.
            With --mutants, prints each engine mutant, what it breaks, and the scenarios expected to catch it.

            options:
            \(ScenarioSelection.helpLines)
              \(ShardOption.helpLine);
                                   the items are the runs (scenario × pinned seed) as in `syncsim run --shard`:
                                   each scenario is listed with the seeds of its runs in the shard
              --json               print a JSON array, one scenario per line: name, seeds, tags, summary and
                                   source location (file as #fileID gives it, 1-based line); with --mutants,
                                   one mutant per line: name, summary, caughtBy (scenario names)

            examples: syncsim list --tag slow
                      syncsim list --json | jq -r '.[].name'
            """,
        run: { list, console in try run(&list, console: console, catalog: Catalog.all) }
    )

    /// Parses the options and prints the list.
    /// - Throws: `UsageError` for an unknown option, `CatalogError` when two scenarios share a name.
    static func run(_ list: inout ArgumentList, console: Console, catalog: [Scenario]) throws -> Int32 {
        let showsMutants = list.flag("--mutants")
        let printsJSON = list.flag("--json")
        let shard = try ShardOption.parse(&list)
        var selection = try ScenarioSelection(parsing: &list)
        selection.patterns = list.positionals()
        try list.finish()
        try CatalogCheck.requireUniqueNames(catalog)
        if showsMutants {
            guard selection.patterns.isEmpty, selection.grep.isEmpty, selection.tags.isEmpty, shard == nil else {
                throw UsageError("--mutants lists the engine mutants; it takes no scenario selection "
                    + "(NAME, PATTERN, --grep, --tag, --shard)")
            }
            (printsJSON ? mutantJSONLines() : lines(mutants: true, catalog: catalog)).forEach(console.out)
            return ExitCode.success
        }
        var chosen = try selection.scenarios(from: catalog)
        if let shard { chosen = sliced(chosen, shard: shard) }
        (printsJSON ? jsonLines(chosen) : lines(mutants: false, catalog: chosen)).forEach(console.out)
        return ExitCode.success
    }

    /// The scenarios with the pinned seeds `syncsim run --shard` would run in `shard`: the runs (scenario × seed,
    /// in run order) are dealt as `run` deals them, and a scenario without a run in the shard is left out.
    static func sliced(_ scenarios: [Scenario], shard: SweepShard) -> [Scenario] {
        let jobs = shard.slice(RunPlan(scenarios: scenarios, seeds: .pinned).jobs)
        return scenarios.compactMap { scenario in
            var kept = scenario
            kept.seeds = jobs.filter { $0.scenario.name == scenario.name }.map(\.seed)
            return kept.seeds.isEmpty ? nil : kept
        }
    }

    /// A JSON array, one mutant object per line: `name`, `summary`, `caughtBy` (the catalog scenarios expected to
    /// catch it, as `list --mutants` prints them).
    static func mutantJSONLines() -> [String] {
        let objects = Mutant.all.map { mutant in
            let catchers = MutantCatalog.scenarios(catching: mutant.name)
            return "{\"name\":\(JSONText.string(mutant.name)),\"summary\":\(JSONText.string(mutant.summary)),"
                + "\"caughtBy\":[\(catchers.map(JSONText.string).joined(separator: ","))]}"
        }
        guard !objects.isEmpty else { return ["[]"] }
        return objects.enumerated().map { index, object in
            (index == 0 ? "[" : " ") + object + (index == objects.count - 1 ? "]" : ",")
        }
    }

    /// A JSON array, one scenario object per line: `name`, `seeds`, `tags`, `summary`, `file`, `line`.
    static func jsonLines(_ catalog: [Scenario]) -> [String] {
        let objects = catalog.map { scenario in
            "{\"name\":\(JSONText.string(scenario.name)),"
                + "\"seeds\":[\(scenario.seeds.map(String.init).joined(separator: ","))],"
                + "\"tags\":[\(scenario.tags.map { JSONText.string($0.name) }.joined(separator: ","))],"
                + "\"summary\":\(JSONText.string(scenario.summary)),"
                + "\"file\":\(JSONText.string(scenario.location.fileID)),\"line\":\(scenario.location.line)}"
        }
        guard !objects.isEmpty else { return ["[]"] }
        return objects.enumerated().map { index, object in
            (index == 0 ? "[" : " ") + object + (index == objects.count - 1 ? "]" : ",")
        }
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
        let tagColumns = catalog.map { $0.tags.isEmpty ? "" : "[" + $0.tags.map(\.name).joined(separator: ",") + "]" }
        let tagWidth = (tagColumns.map(\.count).max() ?? 0) + 2
        return zip(catalog, zip(seedColumns, tagColumns)).map { scenario, columns in
            scenario.name.padding(toLength: width, withPad: " ", startingAt: 0)
                + columns.0.padding(toLength: seedWidth, withPad: " ", startingAt: 0)
                + columns.1.padding(toLength: tagWidth, withPad: " ", startingAt: 0) + scenario.summary
        }
    }
}
