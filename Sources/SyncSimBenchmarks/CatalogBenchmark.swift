import Foundation
import Scenarios
import SyncSim

/// `syncsim-bench catalog`: wall time of the whole catalog in the world, each scenario with 10 seeds (1...10), one
/// run after another on one thread; then the 100-client group scenario alone, simulating one hour of virtual time
/// (no early stop at quiescence). Targets: under 60 s and under 10 s on one core, release build.
enum CatalogBenchmark {
    static var benchmark: Benchmark {
        Benchmark(
            name: "catalog",
            summary: "whole catalog × 10 seeds in the world, then the 100-client group for 1 h (args: [SEEDS])",
            check: { _ = try parse($0) },
            run: run)
    }

    /// `[SEEDS]`.
    /// - Throws: `BenchmarkUsageError` for an option, a value out of range or an extra argument.
    static func parse(_ arguments: [String]) throws -> UInt64 {
        var parsed = BenchmarkArguments(arguments, benchmark: "catalog")
        try parsed.finishOptions(positionals: ["SEEDS"])
        return UInt64(try parsed.integer(0, "SEEDS", default: 10, in: 1...100_000))
    }

    static func run(_ arguments: [String]) throws {
        let seedCount = try parse(arguments)
        let clock = ContinuousClock()
        let executor = WorldExecutor()
        var runs = 0
        var failures = 0
        var slowest: (name: String, seconds: Double) = ("", 0)
        let started = clock.now
        for scenario in Catalog.all {
            let scenarioStart = clock.now
            for seed in 1...seedCount {
                let result = executor.run(scenario, seed: seed, options: RunOptions())
                runs += 1
                if result.verdict == .fail { failures += 1 }
            }
            let seconds = (clock.now - scenarioStart).seconds
            if seconds > slowest.seconds { slowest = (scenario.name, seconds) }
        }
        let catalogSeconds = (clock.now - started).seconds
        print(String(
            format: "catalog: %d scenarios × %d seeds = %d runs in %.2f s (%.1f runs/s, one thread; %d failed; "
                + "slowest %@ %.2f s)",
            Catalog.all.count, seedCount, runs, catalogSeconds, Double(runs) / max(catalogSeconds, 1e-9), failures,
            slowest.name, slowest.seconds))

        let group = Catalog.groupChat100Mixed
        let world = try World(scenario: group, seed: group.seeds[0])
        world.stopsWhenQuiescent = false
        world.runLength = .hours(1)
        let groupStart = clock.now
        let result = world.run()
        let groupSeconds = (clock.now - groupStart).seconds
        print(String(
            format: "group: %@, %d clients, 1 h of virtual time in %.2f s (%d kernel events, %d violations)",
            group.name, group.clients.count, groupSeconds, world.network.eventsRun, result.violations.count))
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
