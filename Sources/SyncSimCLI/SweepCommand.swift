import Foundation
import Scenarios
import SyncSim
import SyncTrace

/// `syncsim sweep`: runs a scenario over a grid of parameters × profiles × seeds and reports metric percentiles.
struct SweepCommand {
    static let spec = CommandSpec(
        name: "sweep",
        summary: "run a scenario over a grid of parameters × profiles × seeds and report metric percentiles",
        help: """
            usage: syncsim sweep SCENARIO --profiles P1,P2,... --seeds K [--param NAME=V1,V2,... ...]
                                 [--seed-base N] [--client NAME ... [--profile P]] [--objective METRIC]
                                 [--metric NAME ...] [--all-metrics] [--jobs N] [--csv FILE] [--json FILE]
                                 [--svg FILE] [--svg-metric METRIC] [--shard i/n] [--link-profiles FILE]

            Runs SCENARIO once per combination of the parameters' values and the profiles, each with the same seeds
            N, N+1, ..., N+K-1 (common random numbers), and prints per combination and metric the p50 with a 95%
            bootstrap confidence interval, p90, p99 and mean; * marks the best combination per profile (lowest p50
            of the objective metric).

            options:
              --param NAME=V,...   a parameter and its values; repeat for a grid (none: the profiles alone).
                                   Durations take a unit: 500ms, 20s
              --profiles P,...     link profiles every client runs on: \(profileList),
                                   or one of --link-profiles
              --seeds K            seeds per combination
              --seed-base N        the first seed (default 1)
              --client NAME        give the parameters only to this client (repeatable; default every client)
              --profile P          with --client: the named clients run on link profile P in every combination,
                                   the others on each --profiles value (e.g. a 4G peer of an EDGE user)
              --objective METRIC   the metric that picks the best combination (default chatOpenMilliseconds)
              --metric NAME        print only this metric's block (repeatable; default every metric that is not 0
                                   in every run; the files always hold every metric)
              --all-metrics        print every metric's block, also those that are 0 in every run
              --jobs N             run up to N runs in parallel (default 1); results do not change
              --csv FILE           write one CSV row per combination and metric
              --json FILE          write JSON lines: a header, one line per run, one per combination
              --svg FILE           write a chart: a panel per profile, the first parameter on the x axis
              --svg-metric METRIC  the metric the chart shows (default the objective)
              --link-profiles FILE read more link profiles (network cells) from a JSON file (repeatable), for --profiles and
                                   --profile to name (docs/models.md, "Link profiles of your own")
              --shard i/n          run only shard i of n (1-based: 1/4 ... 4/4; run k goes to shard k % n + 1), and
                                   write the header and those runs as JSON lines (to --json FILE, else standard
                                   output); combine the shards with merge

            parameters:
            \(table(SweepParameter.all.map { ($0.name, "\($0.expectation), default \($0.defaultValue)") }))
            values that contradict each other are refused (exit 2), in every combination; a value not given is
            taken from the scenario's client, else its default:
              \(SweepParameter.orderings.map {
                "\($0.lower) \($0.isStrict ? "<" : "<=") \($0.upper)" }.joined(separator: ", "))

            metrics (what the world reports per run; one table block each):
            \(table(SweepMetric.all.map { ($0.name, $0.summary) }))

            exit codes: 0 every run held its checks, 1 a run failed a check (the failed runs are listed, with the
            command that repeats the first), 2 a usage or input error

            example: syncsim sweep open-and-scroll-to-start --param historyPageSize=10,20,30,50,100 \\
                       --profiles EDGE,3G --seeds 20 --jobs 2 --svg sweep.svg
            """,
        run: { list, console in
            let command = try SweepCommand(parsing: &list, catalog: Catalog.all)
            return try command.execute(console: &console, executor: RunCommand.defaultExecutor)
        }
    )

    private static let profileList = LinkProfile.catalog.map(\.name).joined(separator: ", ")

    /// Help lines `  name   text`, names padded to one column.
    private static func table(_ rows: [(String, String)]) -> String {
        rows.map { "  " + $0.0.padding(toLength: 28, withPad: " ", startingAt: 0) + $0.1 }.joined(separator: "\n")
    }

    var base: Scenario
    var sweep: SweepSpec
    var shard: SweepShard?
    var jobs = 1
    var csvPath: String?
    var jsonPath: String?
    var svgPath: String?
    var svgMetric: String?
    var tableMetrics = TableMetrics()

    /// Which metric blocks the table prints: `--metric NAME` (repeatable) and `--all-metrics`; `sweep` and `merge`.
    struct TableMetrics {
        /// The metrics named by `--metric`; empty for every metric.
        var names: [String] = []
        /// Whether `--all-metrics` was given (show metrics that are 0 in every run).
        var showsAll = false

        /// Removes `--metric` and `--all-metrics` from `list`; `requireConsistent()` checks them together once
        /// every option was read.
        /// - Throws: `UsageError` for an unknown metric.
        init(parsing list: inout ArgumentList) throws {
            names = try list.values(of: "--metric")
            showsAll = list.flag("--all-metrics")
            for name in names where !SweepMetric.all.contains(where: { $0.name == name }) {
                throw UsageError(
                    "--metric: unknown metric '\(name)'; metrics: \(SweepMetric.all.map(\.name).joined(separator: ", "))"
                )
            }
        }

        /// Every metric that is not 0 in every run.
        init() {}

        /// - Throws: `UsageError` when both `--metric` and `--all-metrics` were given.
        func requireConsistent() throws {
            if showsAll && !names.isEmpty { throw UsageError("give --metric NAME or --all-metrics, not both") }
        }
    }

    /// Parses the options.
    /// - Throws: `UsageError` for an unknown scenario, parameter, profile, client or metric, a value out of range,
    ///   a malformed shard, or a missing required option (the sweep types' `SweepError`s become usage errors).
    init(parsing list: inout ArgumentList, catalog: [Scenario]) throws {
        try CatalogCheck.requireUniqueNames(catalog)
        let axes = try UsageError.fromSweepOptions { try list.values(of: "--param").map(SweepAxis.init(parsing:)) }
        let ownProfiles = try LinkProfileOption.parse(&list)
        // Resolved once the scenario is known: its own link profiles may be named too.
        let profilesText = try list.value(of: "--profiles")
        let seedCount = try list.int("--seeds", in: 1...1_000_000)
        let seedBase = try list.value(of: "--seed-base").map { try RunCommand.seed($0, option: "--seed-base") } ?? 1
        let clients = try list.values(of: "--client")
        let clientProfileText = try list.value(of: "--profile")
        let objective = try list.value(of: "--objective") ?? SweepMetric.chatOpenMilliseconds.name
        shard = try ShardOption.parse(&list)
        jobs = try list.int("--jobs", in: 1...256) ?? 1
        csvPath = try list.value(of: "--csv")
        jsonPath = try list.value(of: "--json")
        svgPath = try list.value(of: "--svg")
        svgMetric = try list.value(of: "--svg-metric")
        tableMetrics = try TableMetrics(parsing: &list)
        let names = list.positionals()
        try list.finish()
        // Checks between options come after every option was read, so a typo or a malformed value is named first.
        try tableMetrics.requireConsistent()
        // The scenario first: a misspelt name is the first thing to fix, whatever else is missing.
        guard names.count == 1, let name = names.first else {
            throw UsageError("expected one scenario name, got \(names.count); 'syncsim list' shows the catalog")
        }
        guard let scenario = catalog.first(where: { $0.name == name }) else {
            // One scenario is swept: a pattern (`run` and `list` take them) selects none here.
            let pattern = name.contains("*") || name.contains("?")
                ? " (sweep takes one scenario's name, not a pattern: 'syncsim list \(name)' shows the names it matches)"
                : Suggestion.clause(for: name, among: catalog.map(\.name))
            throw UsageError("unknown scenario '\(name)'" + pattern + "; 'syncsim list' shows the catalog")
        }
        guard let profilesText else {
            throw UsageError("--profiles P1,P2,... is required (e.g. --profiles EDGE,3G)")
        }
        let fileProfiles = ownProfiles?.profiles ?? []
        for profile in fileProfiles {
            if let declared = scenario.linkProfiles.first(where: { $0.name.lowercased() == profile.name.lowercased() }) {
                throw UsageError("--link-profiles \(ownProfiles?.path ?? ""): '\(profile.name)' is also a link profile of "
                                 + "scenario \(name) ('\(declared.name)'); rename one of them")
            }
        }
        let extraNames = scenario.linkProfiles.map(\.name) + fileProfiles.map(\.name)
        let profiles = try UsageError.fromSweepOptions {
            try profilesText.split(separator: ",", omittingEmptySubsequences: false)
                .map { try SweepSpec.profile(named: String($0), among: extraNames) }
        }
        let clientProfile = try UsageError.fromSweepOptions {
            try clientProfileText.map { try SweepSpec.profile(named: $0, among: extraNames) }
        }
        guard let seedCount else { throw UsageError("--seeds K is required (seeds per combination)") }
        if clientProfile != nil && clients.isEmpty {
            throw UsageError("--profile P sets the profile of the clients named by --client NAME; give --client too")
        }
        if shard != nil && (csvPath != nil || svgPath != nil) {
            throw UsageError("--shard writes JSON lines only; make the CSV and SVG with 'syncsim merge'")
        }
        if let svgMetric, svgPath == nil { throw UsageError("--svg-metric \(svgMetric) needs --svg FILE") }
        try Self.validateChartMetric(svgMetric)
        base = scenario
        var sweep = try UsageError.fromSweepOptions {
            try SweepSpec(
                scenario: name, axes: axes, profiles: profiles, seedCount: seedCount, seedBase: seedBase,
                clients: clients, objective: objective
            )
        }
        sweep.clientProfile = clientProfile
        if let ownProfiles { sweep.useLinkProfiles(ownProfiles.profiles, from: ownProfiles.path) }
        try UsageError.fromSweepOptions { try sweep.validate(against: scenario) }
        self.sweep = sweep
    }

    /// Runs the sweep (or its shard) and writes the reports.
    /// - Returns: 0; 1 when a run failed a check (the reports are written all the same); 2 for an invalid scenario.
    /// - Throws: `UsageError` or `SweepError` for an unwritable file.
    func execute(console: inout Console, executor: any ScenarioExecutor) throws -> Int32 {
        let problems = base.problems()
        guard problems.isEmpty else {
            problems.forEach { console.err("syncsim sweep: \($0)") }
            return ExitCode.usage
        }
        try OutputFile.prepare([csvPath, jsonPath, svgPath])
        let runner = SweepRunner(spec: sweep, base: base, executor: executor)
        let runs = sweep.runs(in: shard ?? .whole)
        let records = Self.run(runs, runner: runner, jobs: jobs, console: console)
        if let shard {
            let text = SweepJSONLines.shardDocument(spec: sweep, shard: shard, records: records)
            let hasFailed = records.contains { $0.verdict == .fail }
            do {
                if let jsonPath {
                    try RunCommand.write(text, to: jsonPath)
                } else {
                    console.out(String(text.dropLast()))
                }
            } catch {
                console.err("syncsim sweep: \(error)")
                Self.failureLines(records, spec: sweep, program: console.program).forEach(console.err)
                return hasFailed ? ExitCode.checkFailed : ExitCode.usage
            }
            console.err("shard \(shard): \(records.count) of \(counted(sweep.runCount, "run")) written")
            // Standard output may carry the JSON lines, so a shard names its failed runs on standard error.
            Self.failureLines(records, spec: sweep, program: console.program).forEach(console.err)
            return hasFailed ? ExitCode.checkFailed : ExitCode.success
        }
        let report = try SweepReport(spec: sweep, records: records)
        return try Self.writeReports(
            report, csv: csvPath, json: jsonPath, svg: svgPath, svgMetric: svgMetric, tableMetrics: tableMetrics,
            console: console
        )
    }

    /// Throws unless `metric` is nil or one of the world's metrics (`SweepMetric.all`).
    /// - Throws: `UsageError` listing the metrics.
    static func validateChartMetric(_ metric: String?) throws {
        guard let metric, !SweepMetric.all.contains(where: { $0.name == metric }) else { return }
        throw UsageError(
            "--svg-metric: unknown metric '\(metric)'; metrics: \(SweepMetric.all.map(\.name).joined(separator: ", "))"
        )
    }

    /// How many failed runs `failureLines` names one by one.
    static let listedFailures = 5

    /// Lines naming the runs that failed a check (the first `listedFailures` with their first violation) and the
    /// command that repeats the first; empty when every run held its checks.
    static func failureLines(_ records: [SweepRunRecord], spec: SweepSpec, program: String = "syncsim") -> [String] {
        let failed = records.filter { $0.verdict == .fail }
        guard let first = failed.first else { return [] }
        var lines = ["\(failed.count) of \(counted(records.count, "run")) failed a check:"]
        for record in failed.prefix(listedFailures) {
            lines.append(
                "  FAIL run \(record.index)  \(record.combination.profile) \(spec.label(of: record.combination))  "
                    + "seed \(record.seed): \(record.violations.first ?? "a check failed")"
            )
        }
        if failed.count > listedFailures { lines.append("  ... and \(failed.count - listedFailures) more") }
        lines.append("reproduce: \(spec.reproduceCommand(first.run, program: program))")
        return lines
    }

    /// Runs `runs` on up to `jobs` threads with a progress line on a terminal; records come back in run order.
    static func run(_ runs: [SweepSpec.Run], runner: SweepRunner, jobs: Int, console: Console) -> [SweepRunRecord] {
        var records = [SweepRunRecord?](repeating: nil, count: runs.count)
        var progress = Progress(total: runs.count, console: console)
        Parallel.run(
            count: runs.count,
            jobs: jobs,
            work: { index in runner.record(of: runs[index]) },
            completed: { index, record in
                records[index] = record
                progress.record(failed: record.verdict == .fail, console: console)
            }
        )
        progress.clear(console: console)
        return records.compactMap { $0 }
    }

    /// Prints the table and the failed runs, and writes the files `sweep` and `merge` share.
    /// - Returns: 0 when every run held its checks, 1 when one failed.
    /// - Throws: `SweepError` for an unknown chart metric, an error for an unwritable file.
    static func writeReports(
        _ report: SweepReport,
        csv: String?,
        json: String?,
        svg: String?,
        svgMetric: String?,
        tableMetrics: TableMetrics = TableMetrics(),
        console: Console,
        command: String = "sweep"
    ) throws -> Int32 {
        let chartMetric = try svg.map { _ in try SweepChart.metric(for: report, requested: svgMetric) }
        SweepTable.lines(report, metrics: tableMetrics.names, hidesZeroMetrics: !tableMetrics.showsAll)
            .forEach(console.out)
        var writeError: (any Error)?
        do {
            if let csv { try RunCommand.write(SweepTable.csv(report), to: csv) }
            if let json { try RunCommand.write(SweepJSONLines.document(report), to: json) }
            if let svg { try RunCommand.write(SweepChart.svg(report, metric: chartMetric ?? nil), to: svg) }
        } catch {
            writeError = error
        }
        let failures = failureLines(report.records, spec: report.spec, program: console.program)
        if !failures.isEmpty {
            console.out("")
            failures.forEach(console.out)
        }
        // A report file that broke after the runs must not hide a failed check: exit 1 then, 2 otherwise.
        if let writeError {
            console.err("syncsim \(command): \(writeError)")
            return failures.isEmpty ? ExitCode.usage : ExitCode.checkFailed
        }
        return failures.isEmpty ? ExitCode.success : ExitCode.checkFailed
    }
}
