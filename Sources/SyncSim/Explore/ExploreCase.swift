/// One scenario the explorer generated from a seed, with what it was built from.
///
/// The timeline has two parts: an active phase `[0, quietTailStart)` with user actions and faults, in which every
/// fault also ends (links come back up, clogs release, apps return to the foreground, the LOGIN cap is lifted, the
/// send-error period ends; only a lagging read replica, `historyEditLag`, lasts, which no check forbids); and a quiet
/// tail `[quietTailStart, runLength]` with no step at all, in which the engine must converge. The
/// liveness invariants (C6, T5, V1) are end-of-run checks, so they judge the state after the tail; the safety
/// invariants hold after every event. Count-based faults (`LoseResponses`, `ErrorReplies`, at most 3 each) may
/// still be consumed by the engine's own retries inside the tail.
public struct ExploreCase: Sendable {
    /// The seed: it drew the scenario, and the run uses it as its run seed.
    public var seed: UInt64
    /// The generated scenario, valid (`problems()` is empty), named `explore-<seed>`, seeds `[seed]`.
    public var scenario: Scenario
    /// The kinds swarm testing switched on for this run, in `ExploreKind` order.
    public var enabledKinds: [ExploreKind]
    /// Where the quiet tail starts: no step runs at or after it, and every fault has ended by then.
    public var quietTailStart: SimDuration
    /// Whether the run checks liveness: false only for a login-storm run, where no LOGIN ever succeeds. (A run
    /// with `CapLogin` checks C6 and T5 but not V1: a capped LOGIN loses chats by design of the protocol.)
    public var checksLiveness: Bool

    /// Creates a generated case; `ExploreGenerator.generate(seed:)` is the usual way to get one.
    public init(
        seed: UInt64,
        scenario: Scenario,
        enabledKinds: [ExploreKind],
        quietTailStart: SimDuration,
        checksLiveness: Bool
    ) {
        self.seed = seed
        self.scenario = scenario
        self.enabledKinds = enabledKinds
        self.quietTailStart = quietTailStart
        self.checksLiveness = checksLiveness
    }
}
