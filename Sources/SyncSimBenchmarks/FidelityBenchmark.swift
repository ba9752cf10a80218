import Foundation
import SyncSim

/// `syncsim-bench fidelity [--ns3 PATH] [--reference CSV] [--samples CSV] [--seeds N] [--cells TEXT]`: the ns-3
/// fidelity grid in
/// SyncSim. `--tcp linux` and `--queue droptail` run our model with Linux's HyStart thresholds or without the CoDel
/// stage, to show what those two differences from ns-3 are worth; `--tcp ns3+rtt-history` (and the other variants of
/// `tcpVariants`) runs the reference with ns-3 behaviours that are measured but not in it, `--tcp ns3+no-loss-exit`
/// without one that is.
///
/// Per cell: ns-3's median (from the reference CSV, or rerun with `--ns3`), ours, their ratio, p10/p90 side by
/// side, and the two-sample Kolmogorov–Smirnov statistic D of ns-3's per-seed times (the samples CSV next to the
/// reference, or the rerun) against ours with its 5% critical value; then the median absolute error, the cells outside their tolerance and the worst cell. With `--ns3` it
/// also runs ns-3's program over the same grid in the same invocation (with `--seeds N`, N seeds on both sides) and
/// prints both wall times. `--cells TEXT` keeps the cells whose label contains TEXT (e.g. `5%`, `EDGE 1000000`).
enum FidelityBenchmark {
    static var benchmark: Benchmark { Benchmark(
        name: "fidelity",
        summary: "the ns-3 grid: ns-3 vs SyncSim per cell (args: [--ns3 PATH] [--reference CSV] [--seeds N] "
            + "[--cells TEXT] [--tcp linux|ns3|ns3+VARIANT...] [--queue codel|droptail])",
        check: { _ = try parse($0) },
        run: run
    ) }

    /// The reference CSV in the repository, found from this source file's path.
    static var defaultReferencePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/fidelity/ns3-reference.csv").path
    }

    /// The ns-3 reference's variants that `--tcp ns3+NAME+…` turns on and `--tcp ns3+no-NAME+…` turns off (each a
    /// `TCPConfiguration` knob; `loss-exit`, `sacked-rexmit-pipe` and `cubic-count` are on in `.ns3Reference` since
    /// branch fid10, the others off; docs/fidelity.md has what each did to the grid).
    static var tcpVariants: [String: WritableKeyPath<TCPConfiguration, Bool>] { [
        "loss-exit": \.growsOnlyAboveRecoveryPointOnLossExit,
        "rtt-history": \.samplesRTTFromOnceSentHistoryOnly,
        "every-rto": \.recomputesThresholdOnEveryTimeout,
        "sacked-rexmit-pipe": \.countsSackedRetransmissionsInFlight,
        "ssrb-on-rexmit": \.growsInRecoveryOnlyOnResentDataAcked,
        "cubic-count": \.keepsCubicAcknowledgmentCountAtTimeout,
    ] }

    /// The connection model named by `--tcp`: `linux`, `ns3`, or `ns3+` and variants of `tcpVariants` joined by `+`,
    /// each turned on, or off with the prefix `no-` (e.g. `ns3+rtt-history+no-loss-exit`).
    /// - Throws: `BenchmarkUsageError` for another name.
    static func tcpConfiguration(_ value: String) throws -> TCPConfiguration {
        if value == "linux" { return .linux }
        let parts = value.split(separator: "+").map(String.init)
        guard parts.first == "ns3" else {
            throw BenchmarkUsageError("option --tcp: expected linux, ns3 or ns3+VARIANT[+VARIANT...], got '\(value)' "
                + "(variants: \(tcpVariants.keys.sorted().joined(separator: ", ")))")
        }
        var configuration = TCPConfiguration.ns3Reference
        for part in parts.dropFirst() {
            let isOff = part.hasPrefix("no-")
            let name = isOff ? String(part.dropFirst(3)) : part
            guard let knob = tcpVariants[name] else {
                throw BenchmarkUsageError("option --tcp: unknown variant '\(name)' (variants: "
                    + "\(tcpVariants.keys.sorted().joined(separator: ", ")))")
            }
            configuration[keyPath: knob] = !isOff
        }
        return configuration
    }

    /// The per-seed samples CSV next to a reference CSV (`ns3-samples.csv` in the same directory).
    static func samplesPath(besides referencePath: String) -> String {
        URL(fileURLWithPath: referencePath).deletingLastPathComponent().appendingPathComponent("ns3-samples.csv").path
    }

    /// The options of one fidelity run.
    struct Options {
        var ns3Path: String?
        var referencePath = FidelityBenchmark.defaultReferencePath
        var samplesPath: String?
        var seedCount: Int?
        var cellFilter: String?
        var tcp = TCPConfiguration.ns3Reference
        var activeQueue = ActiveQueueManagement.ns3Default
    }

    /// `[--ns3 PATH] [--reference CSV] [--samples CSV] [--seeds N] [--cells TEXT] [--tcp linux|ns3|ns3+VARIANT...]
    /// [--queue codel|droptail]`.
    /// - Throws: `BenchmarkUsageError` for an unknown option, a missing or malformed value, or an extra argument.
    static func parse(_ arguments: [String]) throws -> Options {
        var parsed = BenchmarkArguments(arguments, benchmark: "fidelity")
        var options = Options()
        options.ns3Path = try parsed.value(of: "--ns3")
        options.referencePath = try parsed.value(of: "--reference") ?? defaultReferencePath
        options.samplesPath = try parsed.value(of: "--samples")
        options.cellFilter = try parsed.value(of: "--cells")
        if let tcp = try parsed.value(of: "--tcp") {
            options.tcp = try tcpConfiguration(tcp)
        }
        if let queue = try parsed.value(of: "--queue") {
            guard queue == "codel" || queue == "droptail" else {
                throw BenchmarkUsageError("option --queue: expected codel or droptail, got '\(queue)'")
            }
            options.activeQueue = queue == "codel" ? .ns3Default : .none
        }
        options.seedCount = try parsed.integer(option: "--seeds", in: 1...1_000_000)
        try parsed.finishOptions()
        return options
    }

    static func run(_ arguments: [String]) throws {
        let options = try parse(arguments)
        let ns3Path = options.ns3Path
        let referencePath = options.referencePath
        let samplesPath = options.samplesPath
        let seedCount = options.seedCount
        let cellFilter = options.cellFilter
        let tcp = options.tcp
        let activeQueue = options.activeQueue
        let text = try String(contentsOfFile: referencePath, encoding: .utf8)
        var cells = try FidelityReference.parse(text, file: referencePath)
        let samples = samplesPath ?? Self.samplesPath(besides: referencePath)
        if samplesPath != nil || FileManager.default.fileExists(atPath: samples) {
            cells = try FidelitySamples.attach(try String(contentsOfFile: samples, encoding: .utf8), to: cells,
                                               file: samples)
        }
        if let cellFilter {
            let all = cells
            cells = cells.filter { $0.label.contains(cellFilter) }
            guard !cells.isEmpty else {
                throw BenchmarkUsageError("option --cells: no cell label contains '\(cellFilter)' (labels read "
                    + "PROFILE BYTES B LOSS%: \(all.prefix(2).map { "'\($0.label)'" }.joined(separator: ", ")), ...)")
            }
        }

        var ns3Wall: Double?
        if let ns3Path {
            let start = Date()
            for position in cells.indices {
                let times = try runNS3(ns3Path, cell: cells[position], seeds: seedCount ?? cells[position].seeds)
                cells[position].reference = TransferPercentiles(times)
                cells[position].referenceSamples = times
            }
            ns3Wall = Date().timeIntervalSince(start)
        }

        print("fidelity: ns-3 (\(ns3Path == nil ? "reference CSV" : "rerun now")) vs SyncSim, completion time ms, "
            + "\(seedCount.map(String.init) ?? "all") seeds per cell")
        print(pad("cell", 24) + pad("ns-3 med", 11) + pad("ours med", 11) + pad("ratio", 7)
            + pad("ns-3 p10/p90", 19) + pad("ours p10/p90", 19) + pad("KS D/crit", 12) + "ok")
        var errors: [(cell: FidelityCell, error: Double)] = []
        let start = Date()
        var results: [(FidelityCell, TransferPercentiles)] = []
        var ourTimes: [[Double]] = []
        for cell in cells {
            let times = cell.runSeeds(seedCount: seedCount, tcp: tcp, activeQueue: activeQueue).times
            results.append((cell, TransferPercentiles(times)))
            ourTimes.append(times)
        }
        let oursWall = Date().timeIntervalSince(start)
        var agreeing: [FidelityCell] = []
        for ((cell, ours), times) in zip(results, ourTimes) {
            let reference = cell.reference
            let ratio = ours.median / reference.median
            let error = abs(ratio - 1)
            errors.append((cell, error))
            let test = cell.referenceSamples.isEmpty ? nil : KolmogorovSmirnovTest(cell.referenceSamples, times)
            if error > cell.tolerance, test?.agrees == true { agreeing.append(cell) }
            let ks = test.map { String(format: "%.3f/%.3f", $0.statistic, $0.criticalValue) } ?? "-"
            print(pad(cell.label, 24) + pad(format(reference.median), 11) + pad(format(ours.median), 11)
                + pad(String(format: "%.3f", ratio), 7)
                + pad("\(format(reference.p10))/\(format(reference.p90))", 19)
                + pad("\(format(ours.p10))/\(format(ours.p90))", 19) + pad(ks, 12)
                + verdict(cell, ours: ours, error: error, test: test))
        }
        let sortedErrors = errors.map(\.error).sorted()
        let medianError = TransferPercentiles(sortedErrors).median
        let outside = errors.filter { $0.error > $0.cell.tolerance }
        print("")
        print("median absolute error  \(String(format: "%.1f", medianError * 100))% over \(errors.count) cells")
        print("outside tolerance      \(outside.count) (lossless ±5%, lossy median ±15%)"
            + (outside.isEmpty ? "" : ": " + outside.map(\.cell.label).joined(separator: ", ")))
        print("of those, KS agrees    \(agreeing.count) (two-sample Kolmogorov-Smirnov at 5%: the distributions agree, "
            + "only the median moved)" + (agreeing.isEmpty ? "" : ": " + agreeing.map(\.label).joined(separator: ", ")))
        if let worst = results.max(by: { abs($0.1.median / $0.0.reference.median - 1)
                                          < abs($1.1.median / $1.0.reference.median - 1) }) {
            let (cell, ours) = worst
            print("worst cell             \(cell.label): "
                + String(format: "%+.1f%%", (ours.median / cell.reference.median - 1) * 100)
                + " (\(reason(cell, ours, seeds: seedCount ?? cell.seeds)))")
        }
        print("SyncSim wall time      \(String(format: "%.2f", oursWall)) s")
        if let ns3Wall {
            print("ns-3 wall time         \(String(format: "%.2f", ns3Wall)) s (one process per run)")
            print("speed ratio            \(String(format: "%.1f", ns3Wall / oursWall))x (ns-3 / SyncSim)")
        }
    }

    /// Runs ns-3's `transfer` program for seeds 1...seeds of a cell, as `grid.py` does.
    /// - Returns: the completion time per seed, ms (a run that did not finish counts as one hour).
    static func runNS3(_ path: String, cell: FidelityCell, seeds: Int) throws -> [Double] {
        var times: [Double] = []
        for seed in 1...seeds {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = [String(cell.bytes), String(cell.downlinkKilobitsPerSecond),
                                 String(cell.uplinkKilobitsPerSecond), String(cell.oneWayDelayMilliseconds),
                                 String(cell.lossProbability), String(seed), "100", "200"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let output = String(decoding: data, as: UTF8.self)
            guard let first = output.split(separator: " ").first, let time = Double(first) else {
                throw NS3OutputError(description: "\(path): unexpected output '\(output)'")
            }
            times.append(time < 0 ? 3_600_000 : time)
        }
        return times
    }

    /// `yes` within tolerance; `KS` outside it but the two distributions agree by the Kolmogorov–Smirnov test at
    /// 5%; `spread` outside it but inside ns-3's own p10–p90 over the seeds (2% slack); `NO` otherwise.
    static func verdict(_ cell: FidelityCell, ours: TransferPercentiles, error: Double,
                        test: KolmogorovSmirnovTest?) -> String {
        if error <= cell.tolerance { return "yes" }
        if test?.agrees == true { return "KS" }
        return (cell.reference.p10 * 0.98...cell.reference.p90 * 1.02).contains(ours.median) ? "spread" : "NO"
    }

    /// Why a cell is off, as far as the bench can tell.
    static func reason(_ cell: FidelityCell, _ ours: TransferPercentiles, seeds: Int) -> String {
        if cell.isLossless {
            return ours.median < cell.reference.median
                ? "the queue overflows in both; ns-3 loses more time repairing its CoDel drops"
                : "lossless: serialization, handshake and window growth differ"
        }
        if (cell.reference.p10 * 0.98...cell.reference.p90 * 1.02).contains(ours.median) {
            return "inside ns-3's own p10-p90: the median of \(seeds) seeds of a skewed, lumpy distribution "
                + "moves by that much between seed sets"
                + (seeds < 100 ? "; compare with --ns3 --seeds 100" : "")
        }
        return "random loss: recovery differs"
    }

    static func format(_ milliseconds: Double) -> String { String(format: "%.0f", milliseconds) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text.padding(toLength: width, withPad: " ", startingAt: 0)
    }
}

/// The ns-3 program of `--ns3` printed something other than `MILLISECONDS EVENTS`.
struct NS3OutputError: Error, CustomStringConvertible {
    var description: String
}
