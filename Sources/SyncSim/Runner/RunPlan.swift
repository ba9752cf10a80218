/// The runs `syncsim run` performs, in the order results are reported: scenario by scenario, each with its seeds.
public struct RunPlan: Sendable {
    /// One run of the plan.
    public struct Job: Sendable {
        /// The scenario to run (with `--mutant` applied).
        public var scenario: Scenario
        /// The run's seed.
        public var seed: UInt64
    }

    /// Which seeds each scenario runs with, before random ones are added.
    public enum SeedSelection: Hashable, Sendable {
        /// Each scenario's pinned seeds.
        case pinned
        /// These seeds for every scenario, in order.
        case explicit([UInt64])
    }

    /// The runs, in report order.
    public private(set) var jobs: [Job]

    /// Plans the runs.
    /// - Parameters:
    ///   - scenarios: the scenarios, in report order.
    ///   - seeds: the pinned or explicit seeds.
    ///   - randomCount: how many random seeds to add per scenario (see `randomSeeds(base:scenario:count:)`).
    ///   - randomBase: the base those random seeds derive from.
    /// A seed that comes up twice for one scenario runs once, at its first place.
    public init(scenarios: [Scenario], seeds: SeedSelection, randomCount: Int = 0, randomBase: UInt64 = 0) {
        jobs = []
        for scenario in scenarios {
            var chosen: [UInt64] = switch seeds {
            case .pinned: scenario.seeds
            case .explicit(let list): list
            }
            chosen += Self.randomSeeds(base: randomBase, scenario: scenario.name, count: randomCount)
            var seen: Set<UInt64> = []
            for seed in chosen where seen.insert(seed).inserted {
                jobs.append(Job(scenario: scenario, seed: seed))
            }
        }
    }

    /// The random seeds of `--random K --random-base B` for one scenario.
    ///
    /// Derivation: the SimCore stream named `"random-seeds/<scenario>"` of run seed `base`
    /// (`RandomStreams(runSeed: base).stream(...)`, xoshiro256** seeded through SplitMix64 and FNV-1a), first
    /// `count` outputs. So a scenario's random seeds depend only on (base, name), not on which other scenarios run.
    public static func randomSeeds(base: UInt64, scenario: String, count: Int) -> [UInt64] {
        var generator = RandomStreams(runSeed: base).stream("random-seeds/" + scenario)
        return (0..<max(0, count)).map { _ in generator.next() }
    }
}
