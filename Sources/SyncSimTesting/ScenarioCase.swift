@_exported import Scenarios
@_exported import SyncSim
import Testing

/// One scenario with one seed, as a Swift Testing argument: `@Test(arguments: Catalog.all.seedCases)`.
///
/// ```swift
/// import SyncSimTesting
/// import Testing
///
/// @Test(arguments: Catalog.all.seedCases)
/// func scenario(_ c: ScenarioCase) { c.expectPasses() }
/// ```
/// A failed check is recorded as a Swift Testing issue naming the check, the seed, the step that ran last, the trace
/// tail and the command that reproduces the run.
public struct ScenarioCase: Sendable, CustomStringConvertible, CustomTestStringConvertible {
    /// The scenario to run.
    public var scenario: Scenario
    /// The seed of the run.
    public var seed: UInt64
    /// The engine mutant every client runs, or nil for the reference engine (`syncsim list --mutants`).
    public var mutant: String?

    /// The case of `scenario` with `seed`, optionally with every client running `mutant`.
    public init(_ scenario: Scenario, seed: UInt64, mutant: String? = nil) {
        self.scenario = scenario
        self.seed = seed
        self.mutant = mutant
    }

    /// `NAME seed N`, as Swift Testing shows the argument.
    public var description: String { "\(scenario.name) seed \(seed)" + (mutant.map { " mutant \($0)" } ?? "") }

    /// The same as `description`.
    public var testDescription: String { description }

    /// Runs the case in a fresh world with every check (`WorldExecutor`) and returns the result; records nothing.
    public func run() -> RunResult {
        let prepared = mutant.map { scenario.withMutant($0) } ?? scenario
        return WorldExecutor().run(prepared, seed: seed, options: RunOptions(mutant: mutant))
    }

    /// Runs the case and records one Swift Testing issue per violated check; returns the result.
    /// - Parameter sourceLocation: where the issues point (the caller's line by default).
    @discardableResult
    public func expectPasses(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> RunResult {
        let result = run()
        for message in Self.failureMessages(result) {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
        return result
    }

    /// One message per violation of `result`: the check and what differed, the seed, the step that ran last, the
    /// trace tail and the reproduce command. Empty for a passing run.
    public static func failureMessages(_ result: RunResult) -> [String] {
        result.violations.map { violation in
            var lines = ["\(result.scenario) seed \(result.seed) failed: \(violation)"]
            if let step = violation.lastStep { lines.append("last step: \(step)") }
            if !violation.traceTail.isEmpty {
                lines.append("trace tail (\(violation.traceTail.count) records):")
                lines += violation.traceTail.map { "  | \($0)" }
            }
            lines.append("digest \(result.digestHex)")
            lines.append("reproduce: \(result.reproduceCommand)")
            return lines.joined(separator: "\n")
        }
    }
}

extension Sequence where Element == Scenario {
    /// Every (scenario, pinned seed) pair, scenario by scenario, as Swift Testing arguments.
    public var seedCases: [ScenarioCase] {
        flatMap { scenario in scenario.seeds.map { ScenarioCase(scenario, seed: $0) } }
    }

    /// The (scenario, seed) pairs for `seeds` instead of the pinned seeds.
    public func seedCases(seeds: some Sequence<UInt64>) -> [ScenarioCase] {
        let seeds = Array(seeds)
        return flatMap { scenario in seeds.map { ScenarioCase(scenario, seed: $0) } }
    }
}

/// Runs `scenario` with each of its pinned seeds (or `seeds`) and records a Swift Testing issue per violated check:
/// the one-line form, `@Test func sends() { expectScenarioPasses(Catalog.reconnectDuringSend) }`.
/// - Returns: the results, one per seed.
@discardableResult
public func expectScenarioPasses(
    _ scenario: Scenario,
    seeds: [UInt64]? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> [RunResult] {
    (seeds ?? scenario.seeds).map { ScenarioCase(scenario, seed: $0).expectPasses(sourceLocation: sourceLocation) }
}
