import Foundation
import Scenarios
import SyncSim
import SyncSimCLI

/// `syncsim-bench sweep [SEEDS] [JOBS]`: wall time of a tuning sweep of "open-and-scroll-to-start" in the world:
/// 5 history page sizes × 4 profiles × SEEDS seeds (default 50: 1000 runs) on JOBS threads (default one per core),
/// then the aggregation (percentiles and 1000 bootstrap resamples per combination and metric) and the reports.
///
/// The scenario is the catalog's `Catalog.openAndScrollToStart`, the executor `WorldExecutor` (as `syncsim sweep`),
/// the threads `Parallel` (as `syncsim sweep --jobs`).
enum SweepBenchmark {
    static var benchmark: Benchmark {
        Benchmark(
            name: "sweep",
            summary: "1000-run page-size sweep in the world: run, aggregate, report (args: [SEEDS] [JOBS])",
            check: { _ = try parse($0) },
            run: run
        )
    }

    /// `[SEEDS] [JOBS]`.
    /// - Throws: `BenchmarkUsageError` for an option, a value out of range or an extra argument.
    static func parse(_ arguments: [String]) throws -> (seeds: Int, jobs: Int) {
        var parsed = BenchmarkArguments(arguments, benchmark: "sweep")
        try parsed.finishOptions(positionals: ["SEEDS", "JOBS"])
        return (try parsed.integer(0, "SEEDS", default: 50, in: 1...100_000),
                try parsed.integer(1, "JOBS", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...256))
    }

    static func run(_ arguments: [String]) throws {
        let (seeds, jobs) = try parse(arguments)
        let base = Catalog.openAndScrollToStart
        let spec = try SweepSpec(
            scenario: base.name,
            axes: [SweepAxis(parsing: "historyPageSize=10,20,30,50,100")],
            profiles: [.gprs, .edge, .threeG, .fourG],
            seedCount: seeds,
            objective: SweepMetric.scrollWaitMilliseconds.name
        )
        let runner = SweepRunner(spec: spec, base: base, executor: WorldExecutor())
        let runs = spec.runs()
        let clock = ContinuousClock()
        let started = clock.now
        var slots = [SweepRunRecord?](repeating: nil, count: runs.count)
        Parallel.run(
            count: runs.count, jobs: jobs, work: { runner.record(of: runs[$0]) },
            completed: { slots[$0] = $1 }
        )
        let records = slots.compactMap { $0 }
        let ran = clock.now
        let report = try SweepReport(spec: spec, records: records)
        let aggregated = clock.now
        let bytes = SweepJSONLines.document(report).utf8.count + SweepTable.csv(report).utf8.count
            + SweepChart.svg(report, metric: try SweepChart.metric(for: report)).utf8.count
        let reported = clock.now
        func ms(_ duration: Duration) -> String { String(format: "%.1f ms", duration.seconds * 1e3) }
        print(
            "sweep \(spec.scenario): \(spec.combinations.count) combinations × \(seeds) seeds = \(records.count) runs "
                + "(WorldExecutor, \(jobs) thread\(jobs == 1 ? "" : "s"), \(report.failedRuns) failed a check)"
        )
        let rate = Double(records.count) / max((ran - started).seconds, 1e-9)
        print("  runs       \(ms(ran - started))  (\(String(format: "%.1f", rate)) runs/s)")
        print(
            "  aggregate  \(ms(aggregated - ran))  "
                + "(\(report.metrics.count) metric\(report.metrics.count == 1 ? "" : "s"), "
                + "\(SweepStatistics.bootstrapResamples) bootstrap resamples each)"
        )
        print("  reports    \(ms(reported - aggregated))  (JSON lines, CSV, SVG: \(bytes) bytes)")
        print("  total      \(ms(reported - started))")
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
