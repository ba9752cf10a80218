import SimCore
/// The outcome of one run of a scenario with one seed.
public struct RunResult: Hashable, Sendable {
    /// The scenario's name.
    public var scenario: String
    /// The run's seed.
    public var seed: UInt64
    /// The mutant forced on every client with `--mutant`, or nil.
    public var mutant: String?
    /// Hash over the run's canonical trace: same scenario and seed, same digest, on any machine.
    public var digest: UInt64
    /// Broken checks, in the order they were found. Empty means the run passed.
    public var violations: [Violation]
    /// Metrics the world measured, in the world's fixed order.
    public var metrics: [Metric]
    /// The run's trace records, when `RunOptions.recordsTrace` asked for them; otherwise empty.
    public var trace: [String]

    /// Creates a result; `digest` is the hash of the run's canonical trace.
    public init(
        scenario: String,
        seed: UInt64,
        mutant: String? = nil,
        digest: UInt64,
        violations: [Violation] = [],
        metrics: [Metric] = [],
        trace: [String] = []
    ) {
        self.scenario = scenario
        self.seed = seed
        self.mutant = mutant
        self.digest = digest
        self.violations = violations
        self.metrics = metrics
        self.trace = trace
    }

    /// Pass when no check broke.
    public var verdict: Verdict { violations.isEmpty ? .pass : .fail }

    /// The digest as 16 lower-case hex digits.
    public var digestHex: String { Self.hex(digest) }

    /// The command that repeats this run: `syncsim run NAME --seed N [--mutant M]`.
    public var reproduceCommand: String { reproduceCommand(program: "syncsim") }

    /// The command that repeats this run with `program` as the command (`.build/release/syncsim` from a checkout).
    public func reproduceCommand(program: String) -> String {
        "\(program) run \(scenario) --seed \(seed)" + (mutant.map { " --mutant \($0)" } ?? "")
    }

    /// `value` as 16 lower-case hex digits, zero-padded (`FNV1a64.hex`).
    public static func hex(_ value: UInt64) -> String { FNV1a64.hex(value) }
}

/// Whether a run held every check.
public enum Verdict: String, Hashable, Sendable {
    /// Every check held.
    case pass
    /// At least one check broke.
    case fail
}

/// One measured value of a run (`reconnects`, `bytesUpOnAir`, `sendToAckMilliseconds`; the names: `SweepMetric.all`).
public struct Metric: Hashable, Sendable {
    /// The name.
    public var name: String
    /// The measured value: a count, or in the unit its name states (`...Milliseconds`, `bytes...`).
    public var value: Double

    /// Creates metric `name` with `value`.
    public init(_ name: String, _ value: Double) {
        self.name = name
        self.value = value
    }
}
