import Foundation
import SyncSim
import SyncTrace

/// `syncsim explore`: runs generated scenarios (workload and faults drawn from a seed), shrinks what fails into
/// catalog scenarios, groups failures by signature and reports what the search covered.
struct ExploreCommand {
    static let spec = CommandSpec(
        name: "explore",
        summary: "search for failures with generated workloads and faults; shrink them into catalog scenarios",
        help: """
            usage: syncsim explore (--runs N | --budget DURATION) [--seed-base B] [--jobs N] [--mutant NAME]
                                   [--param NAME=VALUE ...] [--swarm | --no-swarm] [--stop-on-failure]
                                   [--shrink-runs N] [--max-shrinks N] [--save DIR] [--json] [--shard i/n]
                                   [--link-profiles FILE] [--profiles P1,P2,...]

            Run i uses seed B+i: the seed draws a scenario (2 to 12 clients on the catalog's link profiles,
            one-to-one and group chats, seeded history, a timeline of user actions and faults) and is its run seed.
            With swarm testing (the default) each run switches whole action and fault kinds on or off and gives
            the others random intensities. Every fault ends before a quiet tail in which the engine must converge:
            safety invariants are checked after every event, liveness invariants (C6, T5, V1) after the tail.

            Every failure prints its seed, the broken check and the command that repeats it, is shrunk to a small
            scenario printed as DSL code, and is grouped with others by signature: the check and the kinds of steps
            left after shrinking; a failure not shrunk (past --max-shrinks) by its check alone, "T2 (not shrunk)".
            The summary names the seeds run, virtual time, events, and how often each kind was on, each DSL
            action ran and each invariant was checked.

            options:
              --runs N             run N generated scenarios
              --budget DURATION    start runs until DURATION of wall-clock time has passed (20s, 2m, 10min,
                                   1h; shrinking failures comes after); the summary names the runs done, so
                                   they can be repeated with --runs
              --seed-base B        seed of the first run (default: taken from the wall clock and printed)
              --jobs N             run up to N runs in parallel (default 1); the output does not change
              --mutant NAME        run every client with this engine mutant (`syncsim list --mutants`)
              --param NAME=VALUE   give every client this engine parameter (repeatable, one value each; as
                                   in `sweep`). Given, even at its default, it replaces the values the
                                   generator draws (seq spaces, page sizes) and turns off the probes that
                                   set it (task retry values), so the workload differs (docs/explore.md);
                                   contradictory values (initialSeq >= seqModulus, a retry or backoff
                                   base above its cap) are refused
              --link-profiles FILE read more link profiles (network cells) from a JSON file (repeatable); clients start on
                                   and hand over to them as to the catalog's (docs/models.md, "Link profiles
                                   of your own")
              --profiles P,...     the profiles clients start on and hand over to (default: the catalog's,
                                   offline aside, and those of --link-profiles); handovers still go offline
              --swarm              switch kinds on and off per run (the default)
              --no-swarm           every kind on in every run, at a middle intensity
              --stop-on-failure    stop at the first failed run (runs after it are not reported)
              --shrink-runs N      runs the shrinker may spend per failure (default 150; 0: do not shrink)
              --max-shrinks N      shrink at most N failures, the first ones (default 5)
              --save DIR           write each shrunk failure as a Swift file for Scenarios/ into DIR
                                   (ExploreSEED.swift; one of that name holding another scenario is kept,
                                   and ExploreSEED-2.swift, property exploreSEED_2, is written beside it)
              --json               print one JSON document instead of the human report
              --shard i/n          run only shard i of n (1-based: 1/4 ... 4/4): run k (seed B+k) goes to shard
                                   k % n + 1, so the n shards of --runs N run every seed once, with the verdicts of
                                   the unsharded search; with --budget a shard takes its seeds in order

            exit codes: 0 no failure found, 1 a run failed a check, 2 a usage or input error

            example: syncsim explore --budget 2m --mutant resend-new-cid --jobs 2
            """,
        run: { list, console in
            let command = try ExploreCommand(parsing: &list)
            return try command.execute(
                console: &console,
                // driver: wall clock allowed; it only picks the seed base, which the summary prints.
                defaultSeedBase: { UInt64(Date().timeIntervalSince1970 * 1_000) },
                // driver: wall clock allowed; it only decides when a --budget search stops taking new runs.
                clock: { ContinuousClock.now }
            )
        }
    )

    var runCount: Int?
    var budget: Duration?
    var seedBase: UInt64?
    var jobs = 1
    var mutant: String?
    var parameters: ParameterSet = [:]
    var usesSwarm = true
    var stopsOnFailure = false
    var shrinkRuns = 150
    var maxShrinks = 5
    var saveDirectory: String?
    var printsJSON = false
    var shard: SweepShard?
    /// The `--link-profiles` files, and their profiles.
    var linkProfileFiles: [String] = []
    var ownProfiles: [LinkProfile] = []
    /// The profiles of `--profiles`, as written; nil when not given.
    var profileNames: [String]?
    /// The profiles clients start on and hand over to; nil for the generator's own (the catalog's).
    var startProfiles: [LinkProfile]?

    /// Parses the options.
    /// - Throws: `UsageError` for a malformed or unknown option, both or neither of --runs and --budget, an unknown
    ///   mutant or parameter.
    init(parsing list: inout ArgumentList) throws {
        runCount = try list.int("--runs", in: 1...10_000_000)
        budget = try list.value(of: "--budget").map(Self.budget)
        seedBase = try list.value(of: "--seed-base").map { try RunCommand.seed($0, option: "--seed-base") }
        jobs = try list.int("--jobs", in: 1...256) ?? 1
        mutant = try list.value(of: "--mutant")
        if let mutant, Mutant.named(mutant) == nil {
            throw UsageError(Suggestion.unknown("mutant", mutant, among: Mutant.all.map(\.name), listedAs: "mutants"))
        }
        for text in try list.values(of: "--param") {
            guard text.contains("=") else {
                throw UsageError("--param '\(text)': expected NAME=VALUE (e.g. historyPageSize=10)")
            }
            let axis = try UsageError.fromSweepOptions { try SweepAxis(parsing: text) }
            guard axis.values.count == 1 else {
                throw UsageError("--param \(text): give one value (explore runs one configuration)")
            }
            // As `sweep` does: a second value would silently replace the first.
            guard parameters[axis.parameter.name] == nil else {
                throw UsageError("parameter \(axis.parameter.name) given twice; explore takes one value each")
            }
            parameters[axis.parameter.name] = axis.values[0]
        }
        let swarm = list.flag("--swarm")
        let noSwarm = list.flag("--no-swarm")
        if swarm && noSwarm { throw UsageError("give either --swarm or --no-swarm, not both") }
        usesSwarm = !noSwarm
        stopsOnFailure = list.flag("--stop-on-failure")
        shrinkRuns = try list.int("--shrink-runs", in: 0...100_000) ?? 150
        maxShrinks = try list.int("--max-shrinks", in: 0...10_000) ?? 5
        saveDirectory = try list.value(of: "--save")
        printsJSON = list.flag("--json")
        shard = try ShardOption.parse(&list)
        if let files = try LinkProfileOption.parse(&list) {
            linkProfileFiles = files.paths
            ownProfiles = files.profiles
        }
        profileNames = try list.value(of: "--profiles").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        try list.finish()
        // Checks between options come after every option was read, so a typo or a malformed value is named first.
        guard (runCount == nil) != (budget == nil) else {
            throw UsageError("give either --runs N or --budget DURATION")
        }
        // Against the defaults: the generator's own draws (a small seq space) are consistent, and --param replaces them.
        try UsageError.fromSweepOptions { try SweepParameter.requireConsistent(parameters) }
        if let seedBase, let runCount { try Self.requireSeeds(base: seedBase, runs: runCount) }
        startProfiles = try Self.startProfiles(names: profileNames, own: ownProfiles)
    }

    /// The profiles clients start on: those `names` names (among `own` and the catalog's), or, without names,
    /// the catalog's (offline aside) and `own`; nil when neither option was given (the generator's default).
    /// - Throws: `UsageError` for an unknown or repeated name, offline, or a profile explore cannot judge the engine
    ///   on (`ExploreGenerator.reasonToRefuse`: random outages, a link too slow, too lossy or too delayed).
    static func startProfiles(names: [String]?, own: [LinkProfile]) throws -> [LinkProfile]? {
        var chosen: [LinkProfile]
        if let names {
            chosen = []
            for name in names {
                guard let profile = LinkProfile.named(name, among: own), profile.name != LinkProfile.datacenter.name
                else {
                    throw UsageError("--profiles: " + Suggestion.unknown(
                        "profile", name, among: (LinkProfile.catalog + own).map(\.name), listedAs: "profiles"))
                }
                guard !chosen.contains(where: { $0.name == profile.name }) else {
                    throw UsageError("--profiles: '\(profile.name)' given twice")
                }
                guard profile.name != LinkProfile.offline.name else {
                    throw UsageError("--profiles: clients cannot start offline (handovers still go offline)")
                }
                chosen.append(profile)
            }
        } else if own.isEmpty {
            return nil
        } else {
            chosen = LinkProfile.catalog.filter { $0.name != LinkProfile.offline.name } + own
        }
        for profile in chosen {
            if let reason = ExploreGenerator.reasonToRefuse(profile) {
                throw UsageError(
                    "profile '\(profile.name)': \(reason); explore checks that the engine converges after its faults, "
                        + "which no engine can on this link (sweep and scenarios take it; docs/models.md)")
            }
        }
        return chosen
    }

    /// The largest seed: a search stops there, it never wraps around to 0.
    static let lastSeed = UInt64.max

    /// - Throws: `UsageError` when the seeds `base ..< base + runs` would pass `lastSeed`, naming the largest
    ///   `--runs` that fits.
    static func requireSeeds(base: UInt64, runs: Int) throws {
        let room = lastSeed - base
        guard room < UInt64(runs - 1) else { return }
        throw UsageError(
            "--seed-base \(base) --runs \(runs): the seeds would pass \(lastSeed), the largest seed; "
                + "give --runs \(room + 1) or fewer, or a smaller --seed-base")
    }

    /// How many runs this command (its shard) can make from `base` before its next seed would pass `lastSeed`;
    /// `Int.max` when that is more than can be counted.
    func runsBeforeLastSeed(base: UInt64) -> Int {
        let lastIndex = Self.lastSeed - base
        let offset = UInt64(shard?.index ?? 0)
        let step = UInt64(shard?.count ?? 1)
        guard offset <= lastIndex else { return 0 }
        let further = (lastIndex - offset) / step
        return further >= UInt64(Int.max) ? Int.max : Int(further) + 1
    }

    /// Parses a wall-clock budget: `20s`, `90s`, `2m`, `10min`, `1h`, or whole seconds (`90`).
    static func budget(_ text: String) throws -> Duration {
        .nanoseconds(try wallClockDuration(text, option: "--budget").nanoseconds)
    }

    /// Parses a wall-clock duration given to `option`: whole seconds (`90`) or a number with its unit (`20s`, `2m`,
    /// `10min`, `1h`, `500ms`), positive and at most `limit`.
    /// - Throws: `UsageError` naming the option and the text.
    static func wallClockDuration(_ text: String, option: String, limit: SimDuration? = nil) throws -> SimDuration {
        let value: SimDuration? = if let seconds = Int64(text), seconds > 0, seconds <= Int64.max / 1_000_000_000 {
            .seconds(seconds)
        } else if let parsed = SweepParameter.duration(text), parsed > .zero {
            parsed
        } else {
            nil
        }
        guard let value else {
            throw UsageError("option \(option): expected a positive duration such as 90, 20s, 2m or 1h, got '\(text)'")
        }
        if let limit, value > limit {
            throw UsageError("option \(option): at most \(limit.nanoseconds / 1_000_000_000) s, got '\(text)'")
        }
        return value
    }

    /// The runner this command's options describe.
    var runner: ExploreRunner {
        ExploreRunner(
            generator: ExploreGenerator(
                usesSwarm: usesSwarm, clientParameters: parameters, linkProfiles: startProfiles),
            mutant: mutant)
    }

    /// The command that repeats the run of `seed` alone, spelled with `program` (`Console.program`, as `run`'s
    /// reproduce lines).
    func reproduceCommand(seed: UInt64, program: String = "syncsim") -> String {
        repeatCommand(seedBase: seed, runs: 1, shard: nil, program: program)
    }

    /// The command that repeats `runs` runs from `seedBase` with this command's options (and this shard of them),
    /// spelled with `program`.
    func repeatCommand(seedBase: UInt64, runs: Int, shard: SweepShard?, program: String = "syncsim") -> String {
        var parts = ["\(program) explore --seed-base \(seedBase) --runs \(runs)"]
        if let mutant { parts.append("--mutant \(mutant)") }
        for entry in parameters.entries { parts.append("--param \(entry.key)=\(entry.value)") }
        if !usesSwarm { parts.append("--no-swarm") }
        for file in linkProfileFiles { parts.append("--link-profiles \(file)") }
        if let profileNames { parts.append("--profiles \(profileNames.joined(separator: ","))") }
        if let shard { parts.append("--shard \(shard)") }
        return parts.joined(separator: " ")
    }

    /// The run index (seed minus seed base) of this command's `position`-th run: with `--shard i/n`, the
    /// `position`-th index k with `k % n + 1 == i`.
    func runIndex(_ position: Int) -> Int {
        guard let shard else { return position }
        return position * shard.count + shard.index
    }

    /// How many runs this command makes: all of `--runs N`, or with a shard the indices in `0..<N` it holds; nil
    /// for a budget.
    var plannedRuns: Int? {
        guard let runCount else { return nil }
        guard let shard else { return runCount }
        return (0..<runCount).count { shard.contains(runIndex: $0) }
    }

    /// The `--runs` value that makes this command's shard repeat its first `done` runs: the run count up to and
    /// including its last run index (`done` without a shard).
    func runsCovering(_ done: Int) -> Int {
        guard shard != nil else { return done }
        return done == 0 ? 1 : runIndex(done - 1) + 1
    }

    /// Runs the search and prints the report.
    /// - Parameters:
    ///   - defaultSeedBase: the seed base when --seed-base is not given (the CLI reads the wall clock).
    ///   - clock: the wall clock a --budget search checks between batches of runs.
    /// - Returns: 0 when no run failed, 1 when one did.
    /// - Throws: an error for a --save directory that cannot be made or written.
    func execute(
        console: inout Console,
        defaultSeedBase: () -> UInt64,
        clock: () -> ContinuousClock.Instant
    ) throws -> Int32 {
        if let saveDirectory { try OutputFile.prepareDirectory(saveDirectory) }
        // On stderr: the report and its digest stay the same with or without the notice.
        for profile in startProfiles ?? [] {
            let directions = [("uplink", profile.uplink.loss), ("downlink", profile.downlink.loss)]
                .map { (name: $0.0, loss: $0.1, allowance: ExploreGenerator.lossBurstAllowance($0.1)) }
            guard let longest = directions.max(by: { $0.allowance < $1.allowance }),
                  longest.allowance >= .minutes(1) else { continue }
            console.err("explore: profile '\(profile.name)' loses packets in long bursts (\(longest.name) "
                + "\(longest.loss)); each run's quiet tail waits up to \(longest.allowance) more for one to pass "
                + "(docs/models.md)")
        }
        let base = seedBase ?? defaultSeedBase()
        if let runCount { try Self.requireSeeds(base: base, runs: runCount) }
        let seedLimit = runsBeforeLastSeed(base: base)
        if seedLimit == 0, let shard {
            throw UsageError("--seed-base \(base) --shard \(shard): the shard's first seed would pass "
                + "\(Self.lastSeed), the largest seed; give a smaller --seed-base")
        }
        var reachedLastSeed = false
        let runner = self.runner
        let started = clock()
        var outcomes: [ExploreOutcome] = []
        let planned = plannedRuns
        var progress = Progress(total: planned ?? 0, console: console)
        var firstFailureWall: Duration?
        // Batches keep every worker busy; a budget is checked between them, so the runs done are always a prefix
        // of the seeds, whatever the job count.
        let batchSize = planned ?? max(4, jobs * 4)
        searching: while true {
            let done = outcomes.count
            let wanted = planned.map { $0 - done } ?? batchSize
            if wanted <= 0 { break }
            if let budget, clock() - started >= budget { break }
            // A budget search takes seeds in order until its time is up or the next seed would pass the last.
            let count = min(wanted, seedLimit - done)
            if count <= 0 {
                reachedLastSeed = true
                break
            }
            var batch = [ExploreOutcome?](repeating: nil, count: count)
            Parallel.run(
                count: count,
                jobs: jobs,
                work: { index in runner.run(seed: base + UInt64(runIndex(done + index))) },
                completed: { index, outcome in
                    batch[index] = outcome
                    progress.record(failed: outcome.hasFailed, console: console)
                }
            )
            for outcome in batch.compactMap({ $0 }) {
                outcomes.append(outcome)
                if outcome.hasFailed, firstFailureWall == nil { firstFailureWall = clock() - started }
                if stopsOnFailure && outcome.hasFailed { break searching }
            }
            if runCount != nil { break }
        }
        progress.clear(console: console)
        let wall = clock() - started
        if reachedLastSeed, !outcomes.isEmpty {
            let last = base + UInt64(runIndex(outcomes.count - 1))
            let reason = last == Self.lastSeed
                ? "it is the largest seed" : "the shard's next seed would pass \(Self.lastSeed), the largest seed"
            console.err("explore: stopped at seed \(last) before the budget was spent: \(reason) (seeds do not "
                + "wrap around to 0); give a smaller --seed-base to search further")
        }

        let failedOutcomes = outcomes.filter(\.hasFailed)
        let failures = shrink(failedOutcomes)
        var coverage = ExploreCoverage()
        outcomes.forEach { coverage.add($0) }
        var saved: [String?] = Array(repeating: nil, count: failures.count)
        if let saveDirectory {
            for (index, failure) in failures.enumerated() {
                saved[index] = try Self.save(failure, mutant: mutant, in: saveDirectory)
            }
        }
        let report = ExploreReport(
            command: self, seedBase: base, outcomes: outcomes, failures: failures, saved: saved, coverage: coverage,
            program: console.program)
        if printsJSON {
            console.out(report.json())
        } else {
            report.humanLines().forEach(console.out)
        }
        // Wall-clock figures vary from run to run: standard error only, so standard output stays repeatable.
        var timing = "wall time \(Self.seconds(wall)) s for \(counted(outcomes.count, "run"))"
        if let firstFailureWall { timing += "; first failure after \(Self.seconds(firstFailureWall)) s" }
        console.err(timing)
        return failures.isEmpty ? ExitCode.success : ExitCode.checkFailed
    }

    /// Shrinks the first `maxShrinks` failures (in parallel, up to `jobs`); the others are recorded unshrunk.
    func shrink(_ failed: [ExploreOutcome]) -> [ExploreFailure] {
        var failures = [ExploreFailure?](repeating: nil, count: failed.count)
        let mutant = self.mutant
        let shrinkRuns = self.shrinkRuns
        let maxShrinks = self.maxShrinks
        Parallel.run(
            count: failed.count,
            jobs: jobs,
            work: { index in
                ExploreFailure.shrinking(failed[index], mutant: mutant, maxRuns: index < maxShrinks ? shrinkRuns : 0)
            },
            completed: { index, failure in failures[index] = failure }
        )
        return failures.compactMap { $0 }
    }

    /// Writes `failure`'s catalog file into `directory` (`--save`) and returns its path; nil when it was not shrunk.
    /// A file of the same name that holds another scenario (an earlier search with other parameters or another
    /// mutant, same seed) is kept: the next free variant is written instead (`Explore7-2.swift`, property
    /// `explore7_2`). A file that already holds the same text is reused.
    /// - Throws: `OutputFileError` naming the file that could not be read or written.
    static func save(_ failure: ExploreFailure, mutant: String?, in directory: String) throws -> String? {
        for variant in 1... {
            guard let source = failure.catalogFileSource(mutant: mutant, variant: variant) else { return nil }
            let path = OutputFile.path(in: directory, file: failure.catalogFileName(variant: variant))
            guard FileManager.default.fileExists(atPath: path) else {
                try OutputFile.write(source, to: path)
                return path
            }
            if let existing = FileManager.default.contents(atPath: path), existing == Data(source.utf8) { return path }
        }
        return nil
    }

    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        return String(format: "%.1f", value)
    }
}
