/// Runs one scenario with one seed and reports what happened: the seam where the simulated world plugs in.
///
/// An executor must be deterministic: the same scenario, seed and options give the same `RunResult`, digest
/// included. Each call runs single-threaded; the CLI may call one executor from several threads at once for
/// independent runs, hence `Sendable`.
public protocol ScenarioExecutor: Sendable {
    /// Runs `scenario` (already validated) with `seed`.
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult
}

/// How to run: the knobs of `syncsim run` that reach the executor.
public struct RunOptions: Hashable, Sendable {
    /// The mutant forced on every client (already applied to the scenario's clients), for reports; nil for none.
    public var mutant: String?
    /// Whether the result should carry the whole trace (for `--trace FILE`).
    public var recordsTrace: Bool
    /// A directory (existing) where each client's SQLite database is kept as a file for inspection, named
    /// `<scenario>-seed<seed>-<client>.sqlite`; nil keeps databases in memory (the default: ten thousand clients
    /// need no file descriptors).
    public var storeDirectory: String?
    /// How many trace records a violation shows, up to its instant (`--trace-window`); 30 by default.
    public var traceWindow: Int

    /// Creates run options; the defaults force no mutant, record no trace, keep databases in memory and show 30
    /// trace records per violation.
    public init(
        mutant: String? = nil, recordsTrace: Bool = false, storeDirectory: String? = nil,
        traceWindow: Int = Violation.traceTailLength
    ) {
        self.mutant = mutant
        self.recordsTrace = recordsTrace
        self.storeDirectory = storeDirectory
        self.traceWindow = traceWindow
    }
}
