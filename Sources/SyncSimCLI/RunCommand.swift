import Foundation
import Scenarios
import SyncSim
import SyncTrace

/// `syncsim run`: runs catalog scenarios over seeds, checks their expectations, reports and exits 0, 1 or 2.
struct RunCommand {
    /// The executor the CLI runs scenarios with.
    ///
    /// `WorldExecutor`: every run simulates the scenario in a fresh `World`.
    static let defaultExecutor: any ScenarioExecutor = WorldExecutor()

    static let spec = CommandSpec(
        name: "run",
        summary: "run catalog scenarios over seeds and check the invariants",
        help: """
            usage: syncsim run [NAME|PATTERN...] [--grep TEXT] [--tag NAME] [--shard i/n]
                               [--seed N | --seeds A..B] [--random K [--random-base B]] [--mutant NAME]
                               [--junit FILE] [--json] [--trace FILE] [--check-determinism] [--jobs N] [--shrink]
                               [--shrink-out FILE] [--trace-window N] [--pcap FILE] [--store-dir DIR]

            Runs the selected catalog scenarios (all when none is named; `syncsim list` shows them), each with its
            pinned seeds, or with the seeds given. Every run prints its seed and trace digest; every failure
            prints the command that reproduces it.

            selection:
            \(ScenarioSelection.helpLines)
              \(ShardOption.helpLine);
                                   the items are the runs (scenario × seed) in the order an unsharded run prints
                                   them, so shards 1/n ... n/n together give the unsharded verdicts

            options:
              --seed N             run with seed N instead of the pinned seeds
              --seeds A..B         run with every seed from A to B inclusive (A <= B)
              --random K           add K random seeds per scenario, derived from the random base
              --random-base B      base of the random seeds (default: taken from the wall clock and printed in
                                   the summary, so the run can be repeated with --random-base)
              --mutant NAME        run every client with this engine mutant (`syncsim list --mutants`)
              --junit FILE         also write JUnit XML to FILE (one testcase per scenario and seed)
              --json               print one JSON object per run instead of the human lines; summary on stderr
              --trace FILE         write every run's trace records to FILE
              --store-dir DIR      keep each client's SQLite database as a file in DIR (created if missing; its parent
                                   must exist), named SCENARIO-seedSEED-CLIENT.sqlite; default: in memory
              --check-determinism  run each seed twice and fail when the trace digests differ
              --jobs N             run up to N runs in parallel (default 1); output order does not change
              --shrink             reduce each failing run to a smaller scenario that still fails the same
                                   way (same check, client, chat and kind of finding), and print it as a
                                   catalog entry (`extension Catalog { static let ... }`) that compiles as is
              --shrink-out FILE    with --shrink: also write the reduced scenarios to FILE (a Swift file for
                                   Scenarios/; add each to Catalog.all and rebuild)
              --trace-window N     show the last N trace records up to each failure's instant (default 30)
              --pcap FILE          write the run's packets as pcapng (one run only: one scenario, one seed):
                                   one interface per client access link, IPv4/TCP from 198.18.0.0/15,
                                   segments as they crossed the link, retransmissions included, timestamps
                                   from virtual time (0 = Unix time 1700000000)

            Random seeds: seed i of scenario S is output i of the SimCore stream "random-seeds/S" under run
            seed B (RunPlan.randomSeeds), so `--random K --random-base B` repeats the same runs anywhere.

            exit codes: 0 every check held, 1 a check failed, 2 a usage or input error

            examples: syncsim run reconnect-during-send --seeds 1..20 --jobs 2
                      syncsim run 'photo-*' --tag sending --shard 2/4 --junit shard-2.xml
            """,
        run: { list, console in
            let command = try RunCommand(parsing: &list, catalog: Catalog.all)
            return try command.execute(
                console: &console,
                executor: defaultExecutor,
                // driver: wall clock allowed; it only picks the random seeds' base, and every run prints its seed.
                defaultRandomBase: { UInt64(Date().timeIntervalSince1970 * 1_000) }
            )
        }
    )

    var scenarios: [Scenario]
    var seeds: RunPlan.SeedSelection = .pinned
    var randomCount = 0
    var randomBase: UInt64?
    var mutant: String?
    var junitPath: String?
    var storeDirectory: String?
    var printsJSON = false
    var tracePath: String?
    var checksDeterminism = false
    var jobs = 1
    var shrinks = false
    var shrinkOutPath: String?
    var traceWindow = Violation.traceTailLength
    var pcapPath: String?
    var shard: SweepShard?
    /// How a run's reproduce command is spelled, given the program (`syncsim`): `run NAME --seed N` by default;
    /// `replay CAPTURE --run` spells its own command, since its scenario is in no catalog.
    var reproduce: (RunResult, String) -> String = { $0.reproduceCommand(program: $1) }

    /// Parses the options and names.
    /// - Throws: `UsageError` for a malformed or unknown option, an empty seed range, an unknown scenario or mutant.
    init(parsing list: inout ArgumentList, catalog: [Scenario]) throws {
        try self.init(parsing: &list, catalog: { catalog })
    }

    /// Parses the options and names, then asks `catalog` for the scenarios to choose from: once every option was
    /// read and checked, so an unknown option is named before `catalog` does any work (`replay --run` reads a
    /// capture there).
    /// - Throws: `UsageError` as `init(parsing:catalog:)` does, or what `catalog` throws.
    init(parsing list: inout ArgumentList, catalog makeCatalog: () throws -> [Scenario]) throws {
        let seed = try list.value(of: "--seed").map { try Self.seed($0, option: "--seed") }
        let range = try list.value(of: "--seeds").map(Self.seedRange)
        if let seed { seeds = .explicit([seed]) }
        if let range { seeds = .explicit(range) }
        randomCount = try list.int("--random", in: 1...100_000) ?? 0
        randomBase = try list.value(of: "--random-base").map { try Self.seed($0, option: "--random-base") }
        mutant = try list.value(of: "--mutant")
        if let mutant, Mutant.named(mutant) == nil {
            throw UsageError(Suggestion.unknown("mutant", mutant, among: Mutant.all.map(\.name), listedAs: "mutants"))
        }
        junitPath = try list.value(of: "--junit")
        tracePath = try list.value(of: "--trace")
        // Trailing slashes trimmed: the store files are named `DIR/SCENARIO-seedN-CLIENT.sqlite` in messages.
        storeDirectory = try list.value(of: "--store-dir").map(OutputFile.trimmingTrailingSlashes)
        printsJSON = list.flag("--json")
        checksDeterminism = list.flag("--check-determinism")
        shrinks = list.flag("--shrink")
        shrinkOutPath = try list.value(of: "--shrink-out")
        traceWindow = try list.int("--trace-window", in: 1...100_000) ?? Violation.traceTailLength
        pcapPath = try list.value(of: "--pcap")
        jobs = try list.int("--jobs", in: 1...256) ?? 1
        shard = try ShardOption.parse(&list)
        var selection = try ScenarioSelection(parsing: &list)
        selection.patterns = list.positionals()
        try list.finish()
        // Checks between options come after every option was read, so a typo or a malformed value is named first.
        if seed != nil && range != nil { throw UsageError("give either --seed or --seeds, not both") }
        if randomBase != nil && randomCount == 0 { throw UsageError("--random-base needs --random K") }
        if shrinkOutPath != nil && !shrinks { throw UsageError("--shrink-out needs --shrink") }
        if shard != nil && randomCount > 0 && randomBase == nil {
            throw UsageError("--shard with --random needs --random-base B, so that every shard draws the same seeds")
        }
        let catalog = try makeCatalog()
        try CatalogCheck.requireUniqueNames(catalog)
        scenarios = try selection.scenarios(from: catalog)
    }

    static func seed(_ text: String, option: String) throws -> UInt64 {
        guard let value = UInt64(text) else {
            throw UsageError("option \(option): expected an integer in 0...\(UInt64.max), got '\(text)'")
        }
        return value
    }

    /// Refuses, before any run, a file in the store directory that a run would replace but that is not a SyncSim
    /// client database (the world would refuse it mid-run, and a foreign file must never be overwritten).
    /// - Throws: `ClientDatabaseError` naming the file.
    static func checkStoreFiles(of jobs: [RunPlan.Job], in directory: String) throws {
        for job in jobs {
            for client in job.scenario.clients {
                let path = World.storeFilePath(
                    directory: directory, scenario: job.scenario.name, seed: job.seed, client: client.name)
                if FileManager.default.fileExists(atPath: path) { _ = try ClientDatabase.open(path: path) }
            }
        }
    }

    /// Parses `A..B` (or `A...B`), inclusive, A <= B, at most a million seeds.
    static func seedRange(_ text: String) throws -> [UInt64] {
        let separator = text.contains("...") ? "..." : ".."
        let parts = text.components(separatedBy: separator)
        guard parts.count == 2, let low = UInt64(parts[0]), let high = UInt64(parts[1]) else {
            throw UsageError("option --seeds: expected a range A..B of non-negative integers, got '\(text)'")
        }
        guard low <= high else {
            throw UsageError("option --seeds: range \(text) is empty; write the smaller seed first (\(high)..\(low))")
        }
        guard high - low < 1_000_000 else {
            throw UsageError("option --seeds: range \(text) has more than 1000000 seeds")
        }
        return Array(low...high)
    }

    /// What one job produced: its result (with a determinism violation added when asked and digests differed).
    private struct JobOutcome: Sendable {
        var result: RunResult
    }

    /// Runs the plan and prints the reports.
    /// - Returns: 0 when every check held, 1 when one failed, 2 for an invalid scenario or an unwritable file.
    func execute(
        console: inout Console,
        executor: any ScenarioExecutor,
        defaultRandomBase: () -> UInt64
    ) throws -> Int32 {
        var invalid = false
        for scenario in scenarios {
            for problem in scenario.problems() {
                console.err("syncsim run: \(problem)")
                invalid = true
            }
        }
        if invalid { return ExitCode.usage }
        try OutputFile.prepare([junitPath, tracePath, pcapPath])
        if let shrinkOutPath { try OutputFile.requirePlace(shrinkOutPath) }
        if let storeDirectory { try OutputFile.prepareDirectory(storeDirectory) }
        let base = randomCount > 0 ? (randomBase ?? defaultRandomBase()) : 0
        let prepared = scenarios.map { scenario in mutant.map { scenario.withMutant($0) } ?? scenario }
        let plan = RunPlan(scenarios: prepared, seeds: seeds, randomCount: randomCount, randomBase: base)
        let jobs = shard?.slice(plan.jobs) ?? plan.jobs
        let options = RunOptions(mutant: mutant, recordsTrace: tracePath != nil, storeDirectory: storeDirectory,
                                 traceWindow: traceWindow)
        let checksDeterminism = self.checksDeterminism
        if let storeDirectory { try Self.checkStoreFiles(of: jobs, in: storeDirectory) }
        if let pcapPath {
            guard jobs.count == 1 else {
                throw UsageError("--pcap writes one run: name one scenario and one seed (this plan has \(jobs.count))")
            }
            let result = try Self.runCapturing(jobs[0], options: options, to: pcapPath)
            print(result, to: console)
            try writeFiles([result], program: console.program)
            printSummary([result], randomBase: base, console: console)
            return result.verdict == .fail ? ExitCode.checkFailed : ExitCode.success
        }

        var results: [RunResult?] = Array(repeating: nil, count: jobs.count)
        var nextToPrint = 0
        var progress = Progress(total: jobs.count, console: console)
        let output = console
        Parallel.run(
            count: jobs.count,
            jobs: self.jobs,
            work: { index in
                let job = jobs[index]
                return Self.runJob(job, executor: executor, options: options, checksDeterminism: checksDeterminism)
            },
            completed: { index, result in
                results[index] = result
                progress.record(failed: result.verdict == .fail, console: output)
                guard results[nextToPrint] != nil else { return }
                progress.clear(console: output)
                while nextToPrint < results.count, let ready = results[nextToPrint] {
                    print(ready, to: output)
                    nextToPrint += 1
                }
                progress.draw(console: output)
            }
        )
        progress.clear(console: console)
        let finished = results.compactMap { $0 }

        if shrinks { shrink(finished, plan: plan, executor: executor, options: options, console: console) }
        let hasFailed = finished.contains { $0.verdict == .fail }
        do {
            try writeFiles(finished, program: console.program)
        } catch {
            // A report file that broke after the runs must not hide a failed check: exit 1 then, 2 otherwise.
            console.err("syncsim run: \(error)")
            printSummary(finished, randomBase: base, console: console)
            return hasFailed ? ExitCode.checkFailed : ExitCode.usage
        }
        printSummary(finished, randomBase: base, console: console)
        return hasFailed ? ExitCode.checkFailed : ExitCode.success
    }

    private static func runJob(
        _ job: RunPlan.Job,
        executor: any ScenarioExecutor,
        options: RunOptions,
        checksDeterminism: Bool
    ) -> RunResult {
        var result = executor.run(job.scenario, seed: job.seed, options: options)
        if checksDeterminism {
            let again = executor.run(job.scenario, seed: job.seed, options: options)
            if again.digest != result.digest {
                result.violations.append(
                    Violation(
                        check: .determinism,
                        time: .start,
                        expected: "the same trace digest in both runs (first \(result.digestHex))",
                        found: "second run's digest \(again.digestHex)"
                    )
                )
            }
        }
        return result
    }

    /// Runs one job in a `World` with its capture on and writes the capture to `path`.
    private static func runCapturing(_ job: RunPlan.Job, options: RunOptions, to path: String) throws -> RunResult {
        let world: World
        do {
            world = try World(scenario: job.scenario, seed: job.seed, options: options)
        } catch {
            throw UsageError("\(job.scenario.name): \(error)")
        }
        world.startCapture()
        let result = world.run()
        do {
            try Data(world.capture?.bytes ?? []).write(to: URL(fileURLWithPath: path))
        } catch {
            throw OutputFileError(path: path, reason: error.localizedDescription)
        }
        return result
    }

    private func print(_ result: RunResult, to console: Console) {
        if printsJSON {
            console.out(Report.jsonLine(for: result, reproduce: reproduce(result, console.program)))
        } else {
            Report.humanLines(for: result, reproduce: reproduce(result, console.program)).forEach(console.out)
        }
    }

    private func shrink(
        _ results: [RunResult],
        plan: RunPlan,
        executor: any ScenarioExecutor,
        options: RunOptions,
        console: Console
    ) {
        let say: (String) -> Void = printsJSON ? console.err : console.out
        let shrinker = Shrinker(executor: executor, options: RunOptions(mutant: options.mutant))
        var written: [String] = []
        for result in results where result.verdict == .fail {
            guard let failure = result.violations.first(where: { $0.check != .determinism }) else {
                say("shrink: \(result.scenario) seed \(result.seed) failed only determinism; nothing to shrink")
                continue
            }
            // The scenario as written: the shrinker forces the mutant itself and leaves it out of the DSL it prints.
            guard let original = scenarios.first(where: { $0.name == result.scenario }) else { continue }
            let target = FailureSignature(failure)
            guard let outcome = shrinker.shrink(original, seed: result.seed, violation: failure) else {
                say("shrink: \(result.scenario) seed \(result.seed) did not fail \(target) again; nothing to shrink")
                continue
            }
            let reduced = outcome.scenario
            say(
                "shrunk \(result.scenario) seed \(result.seed) in \(counted(outcome.runs, "run")), still failing "
                    + "\(target): \(original.steps.count) -> \(counted(reduced.steps.count, "step")), "
                    + "\(original.clients.count) -> \(counted(reduced.clients.count, "client"))"
            )
            let reproduce = RunResult(scenario: reduced.name, seed: result.seed, mutant: mutant, digest: 0)
                .reproduceCommand
            let mutantNote = mutant.map { " with --mutant \($0)" } ?? ""
            let entry = "// fails \(target)\(mutantNote) (once in Catalog.all: \(reproduce))\n"
                + reduced.catalogSource()
            say(entry)
            written.append(entry)
        }
        if let shrinkOutPath, !written.isEmpty {
            do {
                try Self.write("import SyncSim\n\n" + written.joined(separator: "\n"), to: shrinkOutPath)
                say("shrink: wrote \(written.count) scenario(s) to \(shrinkOutPath)")
            } catch {
                console.err("shrink: \(error)")
            }
        }
    }

    private func writeFiles(_ results: [RunResult], program: String) throws {
        if let junitPath {
            try Self.write(Report.junitXML(for: results, reproduce: { reproduce($0, program) }), to: junitPath)
        }
        if let tracePath {
            var text = ""
            for result in results {
                text += "# \(result.scenario) seed \(result.seed) digest \(result.digestHex)\n"
                for record in result.trace { text += record + "\n" }
            }
            try Self.write(text, to: tracePath)
        }
    }

    static func write(_ text: String, to path: String) throws { try OutputFile.write(text, to: path) }

    private func printSummary(_ results: [RunResult], randomBase: UInt64, console: Console) {
        let failed = results.filter { $0.verdict == .fail }
        var scenarioNames: [String] = []
        for result in results where !scenarioNames.contains(result.scenario) { scenarioNames.append(result.scenario) }
        // CI tooling reads the "N passed, N failed" part as a test-runner summary: only the nouns before it agree.
        var line = "\(counted(results.count, "run")) of \(counted(scenarioNames.count, "scenario")): "
            + "\(results.count - failed.count) passed, \(failed.count) failed"
        if randomCount > 0 { line += "; random seeds from --random \(randomCount) --random-base \(randomBase)" }
        if let mutant { line += "; mutant \(mutant)" }
        if let shard { line += "; shard \(shard)" }
        let say: (String) -> Void = printsJSON ? console.err : console.out
        say(line)
        if checksDeterminism {
            let differing = results.filter { $0.violations.contains { $0.check == .determinism } }.count
            say(
                "determinism: \(counted(results.count, "run")) repeated, "
                    + (differing == 0 ? "all digests equal" : "\(differing) with different digests")
            )
        }
        if !failed.isEmpty {
            say("reproduce:")
            failed.forEach { say("  \(reproduce($0, console.program))") }
        }
    }
}

