/// The executor that simulates: builds a `World` per run and runs the scenario in it.
///
/// `syncsim run` and `sweep` reject invalid scenarios (`Scenario.problems()`) before any run; a scenario the world
/// still cannot build (for example a foreign database file under `--store-dir`) fails its run with one violation
/// saying why.
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
