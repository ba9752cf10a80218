import Foundation
import SimCore
import SyncTrace

/// The human and CSV forms of a sweep report: a table per metric with the best combination per profile marked,
/// and one CSV row per combination and metric. Locale-free number formatting, so the bytes depend only on the data.
public enum SweepTable {
    /// The terminal table: a summary line, then per metric a block (combination rows: best mark, profile, axis
    /// values, runs, p50 with its 95% CI, p90, p99, mean), then the best combination per profile.
    /// - Parameters:
    ///   - metrics: the metrics to print blocks for, in report order; empty for every metric.
    ///   - hidesZeroMetrics: leave out (and name in one line) the metrics that are 0 in every run, unless named in
    ///     `metrics`.
    public static func lines(_ report: SweepReport, metrics: [String] = [], hidesZeroMetrics: Bool = false) -> [String] {
        let spec = report.spec
        let combinations = spec.combinations
        var lines = [
            "sweep \(spec.scenario): \(counted(combinations.count, "combination")) × "
                + "\(counted(spec.seedCount, "seed")) "
                + "(\(spec.seedBase)...\(spec.seedBase + UInt64(spec.seedCount - 1))) "
                + "= \(counted(report.records.count, "run")), "
                + "\(report.failedRuns) failed a check; runs' digest \(report.runsDigest)",
            "percentiles over seeds (type 7); [a, b] = 95% bootstrap CI of p50 "
                + "(\(SweepStatistics.bootstrapResamples) resamples); "
                + "* = best of its profile by p50 of \(spec.objective)",
        ]
        if report.metrics.isEmpty {
            lines.append("")
            lines.append("no metrics reported: the executor measured nothing these reports know")
        }
        var hidden: [String] = []
        for (metricIndex, metric) in report.metrics.enumerated() {
            if !metrics.isEmpty && !metrics.contains(metric.name) { continue }
            if metrics.isEmpty && hidesZeroMetrics
                && report.records.allSatisfy({ ($0.value(of: metric.name) ?? 0) == 0 })
            {
                hidden.append(metric.name)
                continue
            }
            lines.append("")
            lines.append("\(metric.name)\(metric.unit.isEmpty ? "" : " (\(metric.unit))"): \(metric.summary)")
            var rows = [
                ["", "profile"] + spec.axes.map(\.parameter.name) + ["runs", "p50 [95% CI]", "p90", "p99", "mean"]
            ]
            for combination in combinations {
                let summary = report.summaries[combination.index][metricIndex]
                let interval = summary.p50.map {
                    "\(format($0)) [\(format(summary.p50Low!)), \(format(summary.p50High!))]"
                }
                rows.append(
                    [report.isBest(combination.index) ? "*" : "", combination.profile.rawValue]
                        + combination.values.map(\.description)
                        + [
                            "\(summary.count)", interval ?? "-", summary.p90.map(format) ?? "-",
                            summary.p99.map(format) ?? "-", summary.mean.map(format) ?? "-",
                        ]
                )
            }
            lines += align(rows, rightAligned: Set((2 + spec.axes.count)..<(7 + spec.axes.count)))
        }
        if !hidden.isEmpty {
            lines.append("")
            lines.append("0 in every run, not shown (--all-metrics or --metric NAME shows them): "
                + hidden.joined(separator: ", "))
        }
        lines.append("")
        let objective = report.metrics.firstIndex { $0.name == spec.objective }
        lines.append("best per profile (lowest p50 of \(spec.objective)):")
        for (profile, best) in zip(spec.profiles, report.best) {
            guard let best, let objective else {
                lines.append("  \(profile): no run reported \(spec.objective)")
                continue
            }
            let summary = report.summaries[best][objective]
            lines.append(
                "  \(profile): \(spec.label(of: combinations[best]))  p50 \(format(summary.p50!)) "
                    + "[\(format(summary.p50Low!)), \(format(summary.p50High!))] \(report.metrics[objective].unit)"
            )
        }
        return lines
    }

    /// CSV (RFC 4180, `\n` line ends): `profile`, one column per axis, `metric`, `unit`, `runs`, `p10`, `p50`, `p90`,
    /// `p99`, `mean`, `p50_ci_low`, `p50_ci_high`, `best`; one row per combination and metric; numbers in Swift's
    /// shortest round-trip form, empty when no run reported the metric.
    public static func csv(_ report: SweepReport) -> String {
        let header = ["profile"] + report.spec.axes.map(\.parameter.name)
            + ["metric", "unit", "runs", "p10", "p50", "p90", "p99", "mean", "p50_ci_low", "p50_ci_high", "best"]
        var rows = [header]
        for combination in report.spec.combinations {
            for summary in report.summaries[combination.index] {
                let numbers = [summary.p10, summary.p50, summary.p90, summary.p99, summary.mean, summary.p50Low,
                    summary.p50High].map { $0.map { "\($0)" } ?? "" }
                rows.append(
                    [combination.profile.rawValue] + combination.values.map(\.description)
                        + [summary.metric.name, summary.metric.unit, "\(summary.count)"] + numbers
                        + [report.isBest(combination.index) ? "true" : "false"]
                )
            }
        }
        return rows.map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    /// `value` with one decimal below 10000 and none from there, half away from zero: `12.5`, `12345`.
    public static func format(_ value: Double) -> String { fixed(value, decimals: abs(value) < 10_000 ? 1 : 0) }

    /// `value` rounded to `decimals` (0...6) decimal places, without a locale: `-0.5`, `1234.0`.
    public static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return "\(value)" }
        let units = Int64(scaled)
        let whole = String(units / Int64(scale))
        let sign = value < 0 && units != 0 ? "-" : ""
        guard decimals > 0 else { return sign + whole }
        let fraction = String(units % Int64(scale))
        return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    private static func align(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                line += (column == 0 ? "" : "  ") + (rightAligned.contains(column) ? padding + cell : cell + padding)
            }
            return "  " + String(line.reversed().drop { $0 == " " }.reversed())
        }
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
