import Foundation
import SyncSim

/// `syncsim merge`: combines the JSON lines of sweep shards into the report of one unsharded sweep.
enum MergeCommand {
    static let spec = CommandSpec(
        name: "merge",
        summary: "combine the JSON lines of sweep shards into one sweep report",
        help: """
            usage: syncsim merge FILE... [--csv FILE] [--json FILE] [--svg FILE] [--svg-metric METRIC]
                                 [--metric NAME ... | --all-metrics]

            Reads the JSON lines that `syncsim sweep --shard i/n --json FILE` wrote (or a whole sweep's --json
            output), checks that they describe the same sweep and hold every run exactly once, and prints the same
            table and writes the same files as one unsharded sweep: --json output is byte-identical to it.

            options (as for sweep; the files are checked and created before the shards are merged):
              --csv FILE           write one CSV row per combination and metric
              --json FILE          write JSON lines: a header, one line per run, one per combination
              --svg FILE           write a chart: a panel per profile, the first parameter on the x axis, the p10-p90
                                   band, p50 and p99 of the chart metric
              --svg-metric METRIC  the metric the chart shows (default the sweep's objective; `syncsim sweep --help`
                                   lists the metrics)

            exit codes: 0 every run held its checks, 1 a run failed a check (listed as by sweep), 2 a usage or
            input error (unreadable or malformed file, shards of different sweeps, a missing or repeated run)

            example: syncsim merge shard-1.jsonl shard-2.jsonl shard-3.jsonl --json sweep.jsonl --svg sweep.svg
            """,
        run: { list, console in
            let csv = try list.value(of: "--csv")
            let json = try list.value(of: "--json")
            let svg = try list.value(of: "--svg")
            let svgMetric = try list.value(of: "--svg-metric")
            let tableMetrics = try SweepCommand.TableMetrics(parsing: &list)
            let files = list.positionals()
            try list.finish()
            try tableMetrics.requireConsistent()
            guard !files.isEmpty else { throw UsageError("give at least one file of sweep JSON lines") }
            if let svgMetric, svg == nil { throw UsageError("--svg-metric \(svgMetric) needs --svg FILE") }
            try SweepCommand.validateChartMetric(svgMetric)
            let texts = try files.map { file -> (String, String) in (file, try InputFile.readText(file)) }
            let report = try merge(texts)
            try OutputFile.prepare([csv, json, svg])
            return try SweepCommand.writeReports(
                report, csv: csv, json: json, svg: svg, svgMetric: svgMetric, tableMetrics: tableMetrics,
                console: console, command: "merge"
            )
        }
    )

    /// Merges (file name, contents) pairs.
    /// - Throws: `SweepError` for a malformed file, files of different sweeps, a missing or repeated run.
    static func merge(_ files: [(name: String, text: String)]) throws -> SweepReport {
        var spec: SweepSpec?
        var firstFile = ""
        var records: [SweepRunRecord] = []
        var fileOfRun: [Int: String] = [:]
        for (position, file) in files.enumerated() where files[..<position].contains(where: { $0.name == file.name }) {
            throw SweepError.invalid("\(file.name) is given twice")
        }
        for (name, text) in files {
            let contents = try SweepJSONLines.read(text, file: name)
            if let spec, let field = spec.firstDifference(from: contents.spec) {
                throw SweepError.invalid("\(name) describes a different sweep than \(firstFile) (its header differs "
                                         + "in \(field))")
            }
            if spec == nil { (spec, firstFile) = (contents.spec, name) }
            for record in contents.records {
                if let earlier = fileOfRun[record.index] {
                    let place = earlier == name ? "twice in \(name)" : "in both \(earlier) and \(name)"
                    let hint = earlier == name ? "" : " (the same shard given twice?)"
                    throw SweepError.invalid("run \(record.index) appears \(place)\(hint)")
                }
                fileOfRun[record.index] = name
            }
            records += contents.records
        }
        return try SweepReport(spec: spec!, records: records)
    }
}
