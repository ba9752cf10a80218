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
        run: run
    ) }

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let usage = "usage: syncsim-bench transfer BYTES DOWN_KBPS UP_KBPS ONE_WAY_MS LOSS SEED [QUEUE_PACKETS] "
        + "[MIN_RTO_MS]"

    /// Parses the arguments of `transfer.cc` into an experiment and a seed.
    /// - Throws: `UsageError` naming the argument that is missing or malformed.
    static func parse(_ arguments: [String]) throws -> (TransferExperiment, UInt64) {
        guard (6...8).contains(arguments.count) else { throw UsageError(description: usage) }
        func number(_ index: Int, _ name: String, range: ClosedRange<Double>) throws -> Double {
            guard let value = Double(arguments[index]), range.contains(value) else {
                throw UsageError(description: "argument \(name): expected a number in \(range), found "
                    + "'\(arguments[index])'; \(usage)")
            }
            return value
        }
        let bytes = try number(0, "BYTES", range: 1...1e12)
        let down = try number(1, "DOWN_KBPS", range: 0.001...1e9)
        let up = try number(2, "UP_KBPS", range: 0.001...1e9)
        let oneWay = try number(3, "ONE_WAY_MS", range: 0...1e9)
        let loss = try number(4, "LOSS", range: 0...0.999)
        let seed = try number(5, "SEED", range: 0...Double(UInt32.max))
        let queue = arguments.count > 6 ? try number(6, "QUEUE_PACKETS", range: 0...1e9) : 100
        let minimumRTO = arguments.count > 7 ? try number(7, "MIN_RTO_MS", range: 0...1e9) : 200
        let experiment = TransferExperiment(
            bytes: Int(bytes), downlinkRateBitsPerSecond: Int(down * 1_000), uplinkRateBitsPerSecond: Int(up * 1_000),
            oneWayDelay: .nanoseconds(Int64(oneWay * 1e6)), lossProbability: loss, queueCapacityPackets: Int(queue),
            minimumRTO: .nanoseconds(Int64(minimumRTO * 1e6)))
        return (experiment, UInt64(seed))
    }

    static func run(_ arguments: [String]) throws {
        var arguments = arguments
        var tcp = TCPConfiguration.ns3Reference
        if let index = arguments.firstIndex(of: "--tcp") {
            guard index + 1 < arguments.count else { throw UsageError(description: "--tcp needs a value") }
            tcp = try FidelityBenchmark.tcpConfiguration(arguments[index + 1])
            arguments.removeSubrange(index...(index + 1))
        }
        let isTraced = arguments.last == "--trace"
        var (experiment, seed) = try parse(isTraced ? Array(arguments.dropLast()) : arguments)
        experiment.tcp = tcp
        let (outcome, trace) = experiment.run(seed: seed, trace: TraceLog(isEnabled: isTraced))
        for record in trace.records { print(record) }
        let milliseconds = outcome.completionTime.map { $0.seconds * 1_000 } ?? -1
        print(String(format: "%.3f %d", milliseconds, outcome.eventsRun))
        let counters = "retransmitted segments \(outcome.retransmittedSegments), RTOs "
            + "\(outcome.retransmissionTimeouts), packets dropped by queues \(outcome.packetsDroppedByQueue)\n"
        FileHandle.standardError.write(Data(counters.utf8))
    }
}
