/// Runs a sweep's runs one after another on the calling thread (the CLI runs them in parallel itself).
public struct SweepRunner: Sendable {
    /// The sweep.
    public var spec: SweepSpec
    /// The scenario the sweep varies (validated by the caller).
    public var base: Scenario
    /// The executor.
    public var executor: any ScenarioExecutor

    /// A runner of `spec` over `base` with `executor`.
    public init(spec: SweepSpec, base: Scenario, executor: any ScenarioExecutor) {
        self.spec = spec
        self.base = base
        self.executor = executor
    }

    /// Runs one run of the sweep.
    public func record(of run: SweepSpec.Run) -> SweepRunRecord {
        let scenario = spec.scenario(base, applying: run.combination)
        return SweepRunRecord(run: run, result: executor.run(scenario, seed: run.seed, options: RunOptions()))
    }

    /// Runs every run of `shard`, in run order.
    public func records(in shard: SweepShard = .whole) -> [SweepRunRecord] {
        spec.runs(in: shard).map(record(of:))
    }
}
