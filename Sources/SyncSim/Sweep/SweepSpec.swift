/// What a sweep runs: a scenario over a grid of parameter values × link profiles, each with the same seeds.
///
/// Run `r` is combination `r / seedCount` with seed `seeds[r % seedCount]`, so every combination sees the same
/// seeds (common random numbers: a parameter change, not a different draw, explains a difference).
/// Combinations go profile by profile, then through the axes in the order given, the first axis slowest.
public struct SweepSpec: Hashable, Sendable {
    /// The scenario's name in the catalog.
    public var scenario: String
    /// The varied parameters, in the order given.
    public var axes: [SweepAxis]
    /// The link profiles, in the order given.
    public var profiles: [ProfileName]
    /// Seeds per combination.
    public var seedCount: Int
    /// The first seed; seeds are `seedBase, seedBase + 1, ...`.
    public var seedBase: UInt64
    /// The clients that get the parameters; empty for every client. Profiles apply to every client.
    public var clients: [String]
    /// The metric whose median picks the best combination per profile (lower is better).
    public var objective: String
    /// The profile the clients in `clients` run on in every combination (`sweep --client NAME --profile P`), or nil:
    /// then every client runs on the combination's profile. The other clients always do.
    public var clientProfile: ProfileName?
    /// Link profiles of the user's own (`sweep --link-profiles FILE`), which `profiles` and `clientProfile` may name
    /// beside the catalog's; each combination's scenario gets them as profiles of its own.
    public var linkProfiles: [LinkProfile] = []
    /// The file `linkProfiles` came from, for the reproduce command; nil when there are none. Shards merge whatever
    /// path each was given the file by: `linkProfilesDigest` says whether they ran the same cells.
    public var linkProfileFile: String?
    /// FNV-1a 64 (hex) over the DSL printout of the `linkProfiles` the sweep names, in name order; nil when it names
    /// none. Set with `linkProfiles` by `useLinkProfiles(_:from:)`; read back from a shard's header by merge.
    public var linkProfilesDigest: String?

    /// Gives the sweep the link profiles of `file`, and their digest.
    public mutating func useLinkProfiles(_ profiles: [LinkProfile], from file: String) {
        linkProfiles = profiles
        linkProfileFile = file
        let named = Set((self.profiles + (clientProfile.map { [$0] } ?? [])).map(\.rawValue))
        let used = profiles.filter { named.contains($0.name) }.sorted { $0.name < $1.name }
        linkProfilesDigest = used.isEmpty ? nil
            : FNV1a64.digestHex(ofBytes: Array(used.flatMap(DSLLiteral.linkProfile).joined(separator: "\n").utf8))
    }

    /// The first field in which `other` describes another sweep (`"profiles"`, `"the link profiles' figures"`), or
    /// nil when both run the same runs; the link profile file's path does not count.
    public func firstDifference(from other: SweepSpec) -> String? {
        if scenario != other.scenario { return "scenario" }
        if axes != other.axes { return "parameters" }
        if profiles != other.profiles { return "profiles" }
        if seedCount != other.seedCount { return "seeds" }
        if seedBase != other.seedBase { return "seedBase" }
        if clients != other.clients { return "clients" }
        if clientProfile != other.clientProfile { return "clientProfile" }
        if linkProfilesDigest != other.linkProfilesDigest { return "the link profiles' figures (linkProfilesDigest)" }
        if objective != other.objective { return "objective" }
        return nil
    }

    /// A validated sweep.
    /// - Throws: `SweepError` for no profiles, an unknown profile, a parameter given twice, no seeds, seeds past
    ///   `UInt64.max`, or an unknown objective metric.
    public init(
        scenario: String,
        axes: [SweepAxis],
        profiles: [ProfileName],
        seedCount: Int,
        seedBase: UInt64 = 1,
        clients: [String] = [],
        objective: String = SweepMetric.chatOpenMilliseconds.name
    ) throws {
        var names: [String] = []
        for axis in axes {
            if names.contains(axis.parameter.name) {
                throw SweepError.invalid("parameter \(axis.parameter.name) given twice; list its values in one --param")
            }
            names.append(axis.parameter.name)
        }
        guard !profiles.isEmpty else { throw SweepError.invalid("--profiles: give at least one profile") }
        var seen: [ProfileName] = []
        for profile in profiles {
            if seen.contains(profile) { throw SweepError.invalid("--profiles: '\(profile)' given twice") }
            seen.append(profile)
        }
        guard seedCount >= 1 else { throw SweepError.invalid("--seeds: give at least one seed") }
        guard UInt64.max - seedBase >= UInt64(seedCount - 1) else {
            throw SweepError.invalid("--seed-base \(seedBase): the seeds would pass \(UInt64.max)")
        }
        guard SweepMetric.all.contains(where: { $0.name == objective }) else {
            throw SweepError.invalid(
                "unknown objective metric '\(objective)'; metrics: "
                    + SweepMetric.all.map(\.name).joined(separator: ", ")
            )
        }
        self.scenario = scenario
        self.axes = axes
        self.profiles = profiles
        self.seedCount = seedCount
        self.seedBase = seedBase
        self.clients = clients
        self.objective = objective
    }

    /// Resolves a profile name as written on the command line, ignoring case (`edge` -> `EDGE`): a catalog profile
    /// (`LinkProfile.catalog`) or one of `extra` (the names of `--link-profiles` and of the scenario's own).
    /// - Throws: `SweepError` listing the known profiles.
    public static func profile(named text: String, among extra: [String] = []) throws -> ProfileName {
        let names = LinkProfile.catalog.map(\.name) + extra
        guard let known = names.first(where: { $0.lowercased() == text.lowercased() }) else {
            throw SweepError.invalid(Suggestion.unknown("profile", text, among: names, listedAs: "profiles")
                                     + " (cells of your own: --link-profiles FILE)")
        }
        return ProfileName(rawValue: known)
    }

    /// The seeds every combination runs with, in order.
    public var seeds: [UInt64] { (0..<seedCount).map { seedBase + UInt64($0) } }

    /// The grid, in sweep order.
    public var combinations: [SweepCombination] {
        var grid: [[ParameterValue]] = [[]]
        for axis in axes {
            grid = grid.flatMap { prefix in axis.values.map { prefix + [$0] } }
        }
        var result: [SweepCombination] = []
        for profile in profiles {
            for values in grid {
                result.append(SweepCombination(index: result.count, profile: profile, values: values))
            }
        }
        return result
    }

    /// How many runs the whole sweep has: combinations × seeds.
    public var runCount: Int { combinations.count * seedCount }

    /// One run of the sweep.
    public struct Run: Hashable, Sendable {
        /// The run's index in the whole sweep.
        public var index: Int
        /// The combination it runs.
        public var combination: SweepCombination
        /// Its seed.
        public var seed: UInt64
    }

    /// The runs of `shard`, in run order.
    public func runs(in shard: SweepShard = .whole) -> [Run] {
        let grid = combinations
        return (0..<(grid.count * seedCount)).filter { shard.contains(runIndex: $0) }.map { index in
            Run(index: index, combination: grid[index / seedCount], seed: seedBase + UInt64(index % seedCount))
        }
    }

    /// Checks the client names against the scenario, and every combination's values against each other and
    /// against the parameters of the clients that get them (`SweepParameter.requireConsistent`).
    /// - Throws: `SweepError` naming an unknown client and listing the scenario's clients, or naming two
    ///   parameters whose values contradict each other.
    public func validate(against base: Scenario) throws {
        let names = base.clients.map(\.name)
        for client in clients where !names.contains(client) {
            throw SweepError.invalid(
                "--client '\(client)' is not in scenario \(base.name); clients: \(names.joined(separator: ", "))"
            )
        }
        guard !axes.isEmpty else { return }
        let targets = base.clients.filter { clients.isEmpty || clients.contains($0.name) }
        for combination in combinations {
            var given: ParameterSet = [:]
            for (axis, value) in zip(axes, combination.values) { given[axis.parameter.name] = value }
            if targets.isEmpty { try SweepParameter.requireConsistent(given) }
            for client in targets {
                try SweepParameter.requireConsistent(given) { name in
                    client.parameters[name].map { ($0, "scenario client '\(client.name)'") }
                }
            }
        }
    }

    /// `base` with the combination applied: `linkProfiles` added to its own, every client on its profile, the chosen clients (all when `clients`
    /// is empty) with the axis values as parameters, and the server with those that apply to it.
    public func scenario(_ base: Scenario, applying combination: SweepCombination) -> Scenario {
        var copy = base
        for profile in linkProfiles where copy.linkProfiles.allSatisfy({ $0.name != profile.name }) {
            copy.linkProfiles.append(profile)
        }
        for index in copy.clients.indices {
            copy.clients[index].profile = combination.profile
            guard clients.isEmpty || clients.contains(copy.clients[index].name) else { continue }
            if let clientProfile { copy.clients[index].profile = clientProfile }
            for (axis, value) in zip(axes, combination.values) {
                copy.clients[index].parameters[axis.parameter.name] = value
            }
        }
        for (axis, value) in zip(axes, combination.values) where axis.parameter.appliesToServer {
            copy.server.parameters[axis.parameter.name] = value
        }
        return copy
    }

    /// `name=value` pairs of the combination's axis values, or `defaults` when there are no axes.
    public func label(of combination: SweepCombination) -> String {
        guard !axes.isEmpty else { return "defaults" }
        return zip(axes, combination.values).map { "\($0.parameter.name)=\($1)" }.joined(separator: " ")
    }

    /// The command that repeats one run of the sweep: the combination's values, its profile and its seed.
    /// - Parameter program: the command as typed (`syncsim`, or `.build/release/syncsim` from a checkout).
    public func reproduceCommand(_ run: Run, program: String = "syncsim") -> String {
        var parts = ["\(program) sweep", scenario]
        if let linkProfileFile { parts.append("--link-profiles \(linkProfileFile)") }
        for (axis, value) in zip(axes, run.combination.values) {
            parts.append("--param \(axis.parameter.name)=\(value)")
        }
        parts.append("--profiles \(run.combination.profile)")
        parts.append("--seeds 1 --seed-base \(run.seed)")
        for client in clients { parts.append("--client \(client)") }
        if let clientProfile { parts.append("--profile \(clientProfile)") }
        return parts.joined(separator: " ")
    }
}
