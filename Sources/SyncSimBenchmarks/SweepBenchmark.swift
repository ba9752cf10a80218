import Foundation
import Scenarios
import SyncSim

/// `syncsim-bench sweep`: wall time of a tuning sweep of "open-and-scroll-to-start": 5 history page sizes × 4
/// profiles × 50 seeds (1000 runs), one after another on one thread, then the aggregation (percentiles and 1000
/// bootstrap resamples per combination and metric) and the reports.
///
/// The scenario is the catalog's `Catalog.openAndScrollToStart`. The executor is `PlaceholderExecutor` until the
/// world's executor lands: swap the one line below.
enum SweepBenchmark {
    static var benchmark: Benchmark {
        Benchmark(name: "sweep", summary: "1000-run page-size sweep: run, aggregate, report (args: [SEEDS])", run: run)
    }

    /// The executor the benchmark runs. PLACEHOLDER until the world's executor exists.
    static let executor: any ScenarioExecutor = PlaceholderExecutor()

    static func run(_ arguments: [String]) throws {
        let seeds = arguments.first.flatMap(Int.init) ?? 50
        let base = Catalog.openAndScrollToStart
        let spec = try SweepSpec(
            scenario: base.name,
            axes: [SweepAxis(parsing: "historyPageSize=10,20,30,50,100")],
            profiles: [.gprs, .edge, .threeG, .fourG],
            seedCount: seeds,
            objective: SweepMetric.scrollWaitMilliseconds.name
        )
        let clock = ContinuousClock()
        let started = clock.now
        let records = SweepRunner(spec: spec, base: base, executor: executor).records()
        let ran = clock.now
        let report = try SweepReport(spec: spec, records: records)
        let aggregated = clock.now
        let bytes = SweepJSONLines.document(report).utf8.count + SweepTable.csv(report).utf8.count
            + SweepChart.svg(report, metric: try SweepChart.metric(for: report)).utf8.count
        let reported = clock.now
        func ms(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            return String(format: "%.1f ms", Double(seconds) * 1e3 + Double(attoseconds) * 1e-15)
        }
        print(
            "sweep \(spec.scenario): \(spec.combinations.count) combinations × \(seeds) seeds = \(records.count) runs "
                + "(executor \(type(of: executor)))"
        )
        let rate = Double(records.count) / max((ran - started).seconds, 1e-9)
        print("  runs       \(ms(ran - started))  (\(String(format: "%.0f", rate)) runs/s, one thread)")
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
