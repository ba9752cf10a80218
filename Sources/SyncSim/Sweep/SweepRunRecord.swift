/// What one run of a sweep produced, as written to and read back from the JSON lines.
public struct SweepRunRecord: Hashable, Sendable {
    /// The run's index in the whole sweep.
    public var index: Int
    /// The combination it ran.
    public var combination: SweepCombination
    /// Its seed.
    public var seed: UInt64
    /// Pass when every check held.
    public var verdict: Verdict
    /// The trace digest, 16 hex digits.
    public var digest: String
    /// Broken checks, as one line each.
    public var violations: [String]
    /// Metrics as the executor reported them, in its order.
    public var metrics: [Metric]

    /// A record from its fields (as read back from JSON lines).
    public init(
        index: Int,
        combination: SweepCombination,
        seed: UInt64,
        verdict: Verdict,
        digest: String,
        violations: [String],
        metrics: [Metric]
    ) {
        self.index = index
        self.combination = combination
        self.seed = seed
        self.verdict = verdict
        self.digest = digest
        self.violations = violations
        self.metrics = metrics
    }

    /// The record of `run`, from the executor's result.
    public init(run: SweepSpec.Run, result: RunResult) {
        self.init(
            index: run.index,
            combination: run.combination,
            seed: run.seed,
            verdict: result.verdict,
            digest: result.digestHex,
            violations: result.violations.map(\.description),
            metrics: result.metrics
        )
    }

    /// The value of metric `name`, or nil when the run did not report it (or reported a non-finite value).
    public func value(of name: String) -> Double? {
        guard let value = metrics.first(where: { $0.name == name })?.value, value.isFinite else { return nil }
        return value
    }

    /// The run of the sweep this record holds (for `SweepSpec.reproduceCommand(_:)`).
    public var run: SweepSpec.Run { SweepSpec.Run(index: index, combination: combination, seed: seed) }
}
