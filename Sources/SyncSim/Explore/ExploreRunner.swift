/// Runs generated scenarios: one seed, one generated case, one simulated run.
///
/// Each run is single-threaded and deterministic (the world's rules); the CLI may call one runner from several
/// threads for different seeds.
public struct ExploreRunner: Sendable {
    /// Draws the scenarios.
    public var generator: ExploreGenerator
    /// The engine mutant every client runs, or nil for the reference engine.
    public var mutant: String?

    /// A runner drawing scenarios with `generator`, running them with `mutant` forced on every client (nil: none).
    public init(generator: ExploreGenerator = ExploreGenerator(), mutant: String? = nil) {
        self.generator = generator
        self.mutant = mutant
    }

    /// Generates the case of `seed` and runs it with `seed` as its run seed.
    ///
    /// With a mutant, a failed run is run again with the reference engine, and only violations of checks the
    /// reference run holds are kept: a check the reference engine breaks too is its defect, not the mutant's.
    public func run(seed: UInt64) -> ExploreOutcome {
        var outcome = run(seed: seed, mutant: mutant)
        guard mutant != nil, outcome.hasFailed else { return outcome }
        let reference = run(seed: seed, mutant: nil).result
        let before = outcome.result.violations.count
        outcome.result.violations.removeAll { violation in reference.violations.contains { $0.check == violation.check } }
        outcome.referenceAlsoFailed = outcome.result.violations.count < before
        return outcome
    }

    private func run(seed: UInt64, mutant: String?) -> ExploreOutcome {
        let generated = generator.generate(seed: seed)
        let options = RunOptions(mutant: mutant)
        let result: RunResult
        var simulated = SimDuration.zero
        var events = 0
        do {
            let world = try World(scenario: generated.scenario, seed: seed, options: options)
            result = world.run()
            simulated = world.now.sinceStart
            events = world.network.eventsRun
        } catch {
            // Generated scenarios are valid by construction (a test checks it); this is the world's own refusal.
            result = WorldExecutor().run(generated.scenario, seed: seed, options: options)
        }
        return ExploreOutcome(exploreCase: generated, result: result, simulated: simulated, events: events)
    }
}

/// What one explore run did: the generated case, its result, the virtual time it lasted and the events it ran.
public struct ExploreOutcome: Sendable {
    /// The generated case.
    public var exploreCase: ExploreCase
    /// The run's result.
    public var result: RunResult
    /// Virtual time from the start to the run's end (quiescence or the run length).
    public var simulated: SimDuration
    /// Kernel events the run processed.
    public var events: Int
    /// With a mutant: whether the reference engine broke some of the same checks on this seed (those violations
    /// were dropped from `result`).
    public var referenceAlsoFailed = false

    /// Creates an outcome of `exploreCase`'s run.
    public init(exploreCase: ExploreCase, result: RunResult, simulated: SimDuration, events: Int) {
        self.exploreCase = exploreCase
        self.result = result
        self.simulated = simulated
        self.events = events
    }

    /// The seed.
    public var seed: UInt64 { exploreCase.seed }

    /// Whether a check broke.
    public var hasFailed: Bool { result.verdict == .fail }
}

/// What a set of explore runs covered: how many runs, how much virtual time and how many events, how often each
/// kind was switched on, how often each DSL action ran, and how often each invariant was checked and broken.
public struct ExploreCoverage: Hashable, Sendable {
    /// Runs counted.
    public private(set) var runs = 0
    /// Runs with a broken check.
    public private(set) var failedRuns = 0
    /// Virtual time over every run.
    public private(set) var simulated = SimDuration.zero
    /// Kernel events over every run.
    public private(set) var events = 0
    /// Runs in which each kind was switched on, in `ExploreKind` order.
    public private(set) var kindRuns: [ExploreKind: Int] = [:]
    /// Timeline steps by DSL name (`Send`, `LinkDown`) over every run.
    public private(set) var stepCounts: [String: Int] = [:]
    /// Runs that checked each invariant.
    public private(set) var invariantRuns: [InvariantID: Int] = [:]
    /// Runs that broke each invariant.
    public private(set) var invariantFailures: [InvariantID: Int] = [:]

    /// Empty coverage.
    public init() {}

    /// Adds one run.
    public mutating func add(_ outcome: ExploreOutcome) {
        runs += 1
        if outcome.hasFailed { failedRuns += 1 }
        simulated += outcome.simulated
        events += outcome.events
        for kind in outcome.exploreCase.enabledKinds { kindRuns[kind, default: 0] += 1 }
        for step in outcome.exploreCase.scenario.steps { stepCounts[step.action.dslName, default: 0] += 1 }
        for invariant in outcome.exploreCase.scenario.checkedInvariants { invariantRuns[invariant, default: 0] += 1 }
        var broken: Set<InvariantID> = []
        for violation in outcome.result.violations { if let id = violation.invariant { broken.insert(id) } }
        for invariant in broken { invariantFailures[invariant, default: 0] += 1 }
    }

    /// Step counts sorted by DSL name.
    public var sortedStepCounts: [(name: String, count: Int)] {
        stepCounts.keys.sorted().map { ($0, stepCounts[$0]!) }
    }
}
