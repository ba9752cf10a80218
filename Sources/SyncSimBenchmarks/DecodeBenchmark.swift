import Foundation
import Scenarios
import SyncSim
import SyncTrace

/// `syncsim-bench decode`: capture read + TCP reassembly + frame decode speed on captures of our own protocol.
///
/// Generates pcapng captures with the `syncsim run --pcap` writer (`World.startCapture`): the
/// `group-chat-100-mixed` scenario over seeds 1, 2, ... until the files reach the target size (about 0.7 MB per
/// run), one file per run in a temporary directory. Then times `TraceDecoder().decode(path:)` over every file
/// (libpcap read, reassembly of every connection, `FrameDecoder` with typed payloads left as MessagePack values),
/// best of the rounds. MB/s counts capture file bytes (1 MB = 10^6 bytes) on one core.
enum DecodeBenchmark {
    static var benchmark: Benchmark {
        Benchmark(
            name: "decode",
            summary: "read + reassemble + decode pcapng captures of simulated runs (args: [MEGABYTES] [ROUNDS])",
            check: { _ = try parse($0) },
            run: run
        )
    }

    /// `[MEGABYTES] [ROUNDS]`: the capture bytes to generate (10^6 bytes each) and the timed rounds.
    /// - Throws: `BenchmarkUsageError` for an option, a value out of range or an extra argument.
    static func parse(_ arguments: [String]) throws -> (megabytes: Int, rounds: Int) {
        var parsed = BenchmarkArguments(arguments, benchmark: "decode")
        try parsed.finishOptions(positionals: ["MEGABYTES", "ROUNDS"])
        return (try parsed.integer(0, "MEGABYTES", default: 100, in: 1...100_000),
                try parsed.integer(1, "ROUNDS", default: 3, in: 1...1_000))
    }

    static func run(_ arguments: [String]) throws {
        let (megabytes, rounds) = try parse(arguments)
        let targetBytes = megabytes * 1_000_000
        let directory = NSTemporaryDirectory() + "syncsim-bench-decode-\(ProcessInfo.processInfo.processIdentifier)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }

        var paths: [String] = []
        var totalBytes = 0
        var seed: UInt64 = 1
        let generationStart = ContinuousClock.now
        while totalBytes < targetBytes {
            let world = try World(scenario: Catalog.groupChat100Mixed, seed: seed)
            world.startCapture()
            _ = world.run()
            let bytes = world.capture?.bytes ?? []
            let path = "\(directory)/group-chat-seed\(seed).pcapng"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths.append(path)
            totalBytes += bytes.count
            seed += 1
        }
        let generation = seconds(ContinuousClock.now - generationStart)
        print("decode: \(paths.count) captures of group-chat-100-mixed (seeds 1...\(seed - 1)), "
            + "\(String(format: "%.1f", Double(totalBytes) / 1e6)) MB, generated in "
            + "\(String(format: "%.1f", generation)) s; best of \(rounds) rounds")

        var best = Double.infinity
        var frames = 0
        var packets = 0
        for _ in 0..<rounds {
            var roundFrames = 0
            var roundPackets = 0
            let start = ContinuousClock.now
            for path in paths {
                let decoding = try TraceDecoder().decode(path: path)
                roundFrames += decoding.connections.reduce(0) { $0 + $1.frames.count }
                roundPackets += decoding.trace.packetCount
            }
            best = min(best, seconds(ContinuousClock.now - start))
            frames = roundFrames
            packets = roundPackets
        }
        print("  read+reassemble+decode  \(String(format: "%7.3f", best)) s  "
            + "\(String(format: "%7.1f", Double(totalBytes) / 1e6 / best)) MB/s  "
            + "\(String(format: "%9.0f", Double(frames) / best)) frames/s  "
            + "\(String(format: "%9.0f", Double(packets) / best)) packets/s  "
            + "(\(frames) frames, \(packets) packets)")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
