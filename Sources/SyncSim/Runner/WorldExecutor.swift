/// The executor that simulates: builds a `World` per run and runs the scenario in it.
///
/// A scenario the world cannot build (an unknown parameter, profile or mutant name) fails its run with one
/// violation saying why, naming the valid choices.
public struct WorldExecutor: ScenarioExecutor {
    /// An executor running the reference engine (or each run's mutant) with every check after every event.
    public init() {}

    /// Runs `scenario` with `seed` in a fresh world.
    public func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        do {
            return try World(scenario: scenario, seed: seed, options: options).run()
        } catch {
            return RunResult(
                scenario: scenario.name, seed: seed, mutant: options.mutant, digest: 0,
                violations: [Violation(
                    check: .eventually("the world can be built"), time: .start,
                    expected: "a scenario the world can run (\(scenario.location))", found: "\(error)")])
        }
    }
}
