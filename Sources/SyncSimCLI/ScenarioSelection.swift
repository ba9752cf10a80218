import SyncSim

/// Which catalog scenarios a command runs: names or name patterns (`'gprs-*'`), `--grep TEXT` over name and
/// summary, and `--tag NAME` over the tags declared in the DSL. `run` uses it; `list` takes the same options.
struct ScenarioSelection {
    /// Names or patterns as given (`*` any run of characters, `?` one character); empty selects the catalog.
    var patterns: [String] = []
    /// Texts that name or summary must contain (case-insensitive; every one given).
    var grep: [String] = []
    /// Tags a scenario must carry (every one given).
    var tags: [String] = []

    /// Usage fragment for a command's first help line.
    static let usage = "[NAME|PATTERN...] [--grep TEXT] [--tag NAME]"

    /// Help lines for the options block.
    static let helpLines = """
          NAME or PATTERN      a scenario name, or a pattern with * and ? ('gprs-*', '*-restart'); quote patterns
                               so the shell leaves them alone
          --grep TEXT          only scenarios whose name or summary contains TEXT (case-insensitive; repeatable,
                               every TEXT must match)
          --tag NAME           only scenarios tagged NAME in the DSL (repeatable, every tag must match;
                               `syncsim list` shows the tags)
        """

    /// Removes `--grep` and `--tag` from `list`; the caller sets `patterns` from the positionals afterwards.
    /// - Throws: `UsageError` when an option has no value.
    init(parsing list: inout ArgumentList) throws {
        grep = try list.values(of: "--grep")
        tags = try list.values(of: "--tag")
    }

    /// An empty selection: the whole catalog.
    init() {}

    /// The scenarios selected from `catalog`: the patterns' matches in the order given (each pattern's in catalog
    /// order, each scenario once), or the catalog when no pattern was given; then filtered by `--grep` and `--tag`.
    /// - Throws: `UsageError` for an unknown name, a pattern or tag that matches no scenario, or an empty result.
    func scenarios(from catalog: [Scenario]) throws -> [Scenario] {
        var chosen: [Scenario] = []
        if patterns.isEmpty {
            chosen = catalog
        } else {
            for pattern in patterns {
                let matches: [Scenario]
                if Self.isPattern(pattern) {
                    matches = catalog.filter { Self.matches($0.name, pattern: pattern) }
                    guard !matches.isEmpty else {
                        throw UsageError("no scenario matches pattern '\(pattern)'; 'syncsim list' shows the catalog")
                    }
                } else {
                    guard let scenario = catalog.first(where: { $0.name == pattern }) else {
                        throw UsageError("unknown scenario '\(pattern)'"
                            + Suggestion.clause(for: pattern, among: catalog.map(\.name))
                            + "; 'syncsim list' shows the catalog")
                    }
                    matches = [scenario]
                }
                for scenario in matches where !chosen.contains(where: { $0.name == scenario.name }) {
                    chosen.append(scenario)
                }
            }
        }
        let known = Set(catalog.flatMap { $0.tags.map(\.name) })
        for tag in tags where !known.contains(tag) {
            let sorted = known.sorted()
            let list = sorted.joined(separator: ", ")
            throw UsageError("--tag \(tag): no catalog scenario has this tag" + Suggestion.clause(for: tag, among: sorted)
                             + "; tags: \(list.isEmpty ? "(none)" : list)")
        }
        let filtered = chosen.filter { scenario in
            let haystack = (scenario.name + "\n" + scenario.summary).lowercased()
            return grep.allSatisfy { haystack.contains($0.lowercased()) }
                && tags.allSatisfy { tag in scenario.tags.contains { $0.name == tag } }
        }
        if filtered.isEmpty {
            var parts = grep.map { "--grep '\($0)'" } + tags.map { "--tag \($0)" }
            if !patterns.isEmpty { parts.insert(patterns.joined(separator: " "), at: 0) }
            throw UsageError("no scenario matches \(parts.joined(separator: " ")); 'syncsim list' shows the catalog")
        }
        return filtered
    }

    /// Whether `text` holds a wildcard (`*` or `?`).
    static func isPattern(_ text: String) -> Bool { text.contains("*") || text.contains("?") }

    /// Whether `name` matches the whole of `pattern`: `*` any run of characters (also none), `?` exactly one.
    static func matches(_ name: String, pattern: String) -> Bool {
        let name = Array(name)
        let pattern = Array(pattern)
        // Iterative wildcard matching with one backtrack point (the last `*`), linear in practice.
        var nameIndex = 0
        var patternIndex = 0
        var star: (pattern: Int, name: Int)?
        while nameIndex < name.count {
            if patternIndex < pattern.count, pattern[patternIndex] == "?" || pattern[patternIndex] == name[nameIndex] {
                nameIndex += 1
                patternIndex += 1
            } else if patternIndex < pattern.count, pattern[patternIndex] == "*" {
                star = (patternIndex, nameIndex)
                patternIndex += 1
            } else if let last = star {
                patternIndex = last.pattern + 1
                nameIndex = last.name + 1
                star = (last.pattern, last.name + 1)
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == "*" { patternIndex += 1 }
        return patternIndex == pattern.count
    }
}
