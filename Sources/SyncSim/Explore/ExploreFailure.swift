/// A failed explore run, shrunk: the check it broke, the reduced scenario, and the signature failures group by.
public struct ExploreFailure: Sendable {
    /// The failed run.
    public var outcome: ExploreOutcome
    /// The check shrinking kept failing: the run's first violation's.
    public var check: CheckID
    /// The reduced scenario (named `explore-<seed>`, summary naming the check), or nil when shrinking was not
    /// attempted or the check did not fail again.
    public var shrunk: Scenario?
    /// Runs shrinking spent.
    public var shrinkRuns: Int

    /// Creates a failure record of `outcome`, which broke `check`, with its reduced scenario when there is one.
    public init(outcome: ExploreOutcome, check: CheckID, shrunk: Scenario?, shrinkRuns: Int) {
        self.outcome = outcome
        self.check = check
        self.shrunk = shrunk
        self.shrinkRuns = shrinkRuns
    }

    /// Shrinks the failed `outcome` with the existing `Shrinker`, at most `maxRuns` runs.
    /// - Parameters:
    ///   - outcome: a failed run (`hasFailed`).
    ///   - mutant: the mutant the run forced on every client (the shrinker forces it too, and keeps it out of the
    ///     scenario it returns), or nil.
    ///   - maxRuns: the shrinker's run budget; 0 records the failure without shrinking.
    public static func shrinking(_ outcome: ExploreOutcome, mutant: String?, maxRuns: Int) -> ExploreFailure {
        let first = outcome.result.violations.first { $0.check != .determinism } ?? outcome.result.violations[0]
        guard maxRuns > 0 else { return ExploreFailure(outcome: outcome, check: first.check, shrunk: nil, shrinkRuns: 0) }
        // A generated scenario heals every fault before its quiet tail; candidates must too (`HealedOnlyExecutor`).
        let shrinker = Shrinker(
            executor: HealedOnlyExecutor(WorldExecutor()), options: RunOptions(mutant: mutant), maxRuns: maxRuns)
        guard var reduced = shrinker.shrink(outcome.exploreCase.scenario, seed: outcome.seed, target: first.check)
        else {
            return ExploreFailure(outcome: outcome, check: first.check, shrunk: nil, shrinkRuns: maxRuns)
        }
        reduced.scenario.name = "explore-\(outcome.seed)"
        reduced.scenario.tags = ["explore"]
        let engine = mutant.map { "mutant \($0)" } ?? "the reference engine"
        reduced.scenario.summary = "found by syncsim explore (seed \(outcome.seed)): \(engine) breaks \(first.check)"
        return ExploreFailure(outcome: outcome, check: first.check, shrunk: reduced.scenario, shrinkRuns: reduced.runs)
    }

    /// The DSL names of the kinds of steps left after shrinking (all of the run's steps when not shrunk), sorted.
    public var stepKinds: [String] {
        let steps = (shrunk ?? outcome.exploreCase.scenario).steps
        return Set(steps.map(\.action.dslName)).sorted()
    }

    /// What distinct failures group by: the check, and the kinds of steps left after shrinking
    /// (`T2 [LoseResponses, Send]`). A failure that was not shrunk (past `--max-shrinks`, or shrinking did not
    /// fail the check again) groups by its check alone (`T2 (not shrunk)`): the kinds of all of its run's steps
    /// would make nearly every such failure a signature of its own.
    public var signature: String {
        guard shrunk != nil else { return "\(check) (not shrunk)" }
        return "\(check) [\(stepKinds.joined(separator: ", "))]"
    }

    /// The Swift property name the catalog file uses: `explore<seed>`.
    public var propertyName: String { propertyName(variant: 1) }

    /// The property name of the `variant`th file saved for this seed: `explore<seed>`, then `explore<seed>_2`, ...
    public func propertyName(variant: Int) -> String {
        variant > 1 ? "explore\(outcome.seed)_\(variant)" : "explore\(outcome.seed)"
    }

    /// The file name `--save` writes the `variant`th scenario of this seed to: `Explore<seed>.swift`, then
    /// `Explore<seed>-2.swift`, ... (a directory kept from an earlier search, with other parameters or another
    /// mutant, can hold a different scenario of the same seed: it is kept, not overwritten).
    public func catalogFileName(variant: Int) -> String {
        variant > 1 ? "Explore\(outcome.seed)-\(variant).swift" : "Explore\(outcome.seed).swift"
    }

    /// A ready Swift file for the catalog folder: an `extension Catalog` with the reduced scenario as a `static let`
    /// (add the property to `Catalog.all`; with a mutant, to `MutantCatalog` too). Nil when not shrunk.
    /// - Parameter variant: 1 for the first file of this seed; n > 1 names the property `explore<seed>_<n>` and the
    ///   scenario `explore-<seed>-<n>`, so that both files can join the catalog (names there are unique). The pinned
    ///   seed reproduces the same failure under either name.
    public func catalogFileSource(mutant: String?, variant: Int = 1) -> String? {
        guard var shrunk else { return nil }
        if variant > 1 { shrunk.name += "-\(variant)" }
        let propertyName = propertyName(variant: variant)
        let engine = mutant.map { "Mutant `\($0)`" } ?? "The reference engine"
        let list = mutant == nil ? "`Catalog.all`" : "`Catalog.all` and `MutantCatalog` (under \(mutant!))"
        return """
            import SyncSim

            // Found by `syncsim explore`, shrunk from the generated scenario of seed \(outcome.seed); add
            // `\(propertyName)` to \(list).

            extension Catalog {
                /// \(engine) breaks \(check) here: \(Self.oneLine(outcome.result.violations.first?.description ?? ""))
                public static let \(propertyName) = \(shrunk.dslSource(indent: 4).drop { $0 == " " })
            }

            """
    }

    /// `text` cut to 200 characters on one line, for a doc comment.
    static func oneLine(_ text: String) -> String {
        let flat = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ")
        return flat.count > 200 ? String(flat.prefix(197)) + "..." : flat
    }
}
