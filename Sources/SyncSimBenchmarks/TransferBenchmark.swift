import Foundation
import SyncSim

/// `syncsim-bench transfer BYTES DOWN_KBPS UP_KBPS ONE_WAY_MS LOSS SEED [QUEUE_PACKETS] [MIN_RTO_MS]`: the ns-3
/// reference transfer (`transfer.cc`) in SyncSim, with the same arguments and the same output line: the time from
/// the connect to the last byte received in ms (-1 when it did not finish within an hour), and the event count.
/// `--tcp` names the connection model as for `fidelity` (default `ns3`).
enum TransferBenchmark {
    static var benchmark: Benchmark { Benchmark(
        name: "transfer",
        summary: "one ns-3 reference transfer (args: BYTES DOWN_KBPS UP_KBPS ONE_WAY_MS LOSS SEED [QUEUE_PKTS] "
            + "[MIN_RTO_MS] [--tcp linux|ns3|ns3+VARIANT...] [--trace])",
        check: { _ = try parse($0) },
        run: run
    ) }

    /// Parses the arguments of `transfer.cc` (and `--tcp`, `--trace`) into an experiment, a seed and whether to trace.
    /// - Throws: `BenchmarkUsageError` naming the argument that is missing, malformed, out of range, unknown or
    ///   extra. BYTES, SEED and QUEUE_PACKETS must be whole numbers.
    static func parse(_ arguments: [String]) throws -> (TransferExperiment, UInt64, isTraced: Bool) {
        var parsed = BenchmarkArguments(arguments, benchmark: "transfer")
        let isTraced = parsed.flag("--trace")
        let tcp = try parsed.value(of: "--tcp").map(FidelityBenchmark.tcpConfiguration) ?? .ns3Reference
        try parsed.finishOptions(positionals: [
            "BYTES", "DOWN_KBPS", "UP_KBPS", "ONE_WAY_MS", "LOSS", "SEED", "QUEUE_PACKETS", "MIN_RTO_MS",
        ])
        try parsed.requirePositionals(6)
        let bytes = try parsed.number(0, "BYTES", in: 1...1e12, integral: true)
        let down = try parsed.number(1, "DOWN_KBPS", in: 0.001...1e9)
        let up = try parsed.number(2, "UP_KBPS", in: 0.001...1e9)
        let oneWay = try parsed.number(3, "ONE_WAY_MS", in: 0...1e9)
        let loss = try parsed.number(4, "LOSS", in: 0...0.999)
        let seed = try parsed.number(5, "SEED", in: 0...Double(UInt32.max), integral: true)
        let queue = try parsed.number(6, "QUEUE_PACKETS", default: 100, in: 0...1e9, integral: true)
        let minimumRTO = try parsed.number(7, "MIN_RTO_MS", default: 200, in: 0...1e9)
        var experiment = TransferExperiment(
            bytes: Int(bytes), downlinkRateBitsPerSecond: Int(down * 1_000), uplinkRateBitsPerSecond: Int(up * 1_000),
            oneWayDelay: .nanoseconds(Int64(oneWay * 1e6)), lossProbability: loss, queueCapacityPackets: Int(queue),
            minimumRTO: .nanoseconds(Int64(minimumRTO * 1e6)))
        experiment.tcp = tcp
        return (experiment, UInt64(seed), isTraced)
    }

    static func run(_ arguments: [String]) throws {
        let (experiment, seed, isTraced) = try parse(arguments)
        let (outcome, trace) = experiment.run(seed: seed, trace: TraceLog(isEnabled: isTraced))
        for record in trace.records { print(record) }
        let milliseconds = outcome.completionTime.map { $0.seconds * 1_000 } ?? -1
        print(String(format: "%.3f %d", milliseconds, outcome.eventsRun))
        let counters = "retransmitted segments \(outcome.retransmittedSegments), RTOs "
            + "\(outcome.retransmissionTimeouts), packets dropped by queues \(outcome.packetsDroppedByQueue)\n"
        FileHandle.standardError.write(Data(counters.utf8))
    }
}
