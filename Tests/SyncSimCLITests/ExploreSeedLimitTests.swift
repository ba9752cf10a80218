import Foundation
import Scenarios
import SyncSim
import Testing

@testable import SyncSimCLI

/// Seeds never wrap past UInt64.max: `explore` refuses or stops at the largest seed; `run` and `sweep` too; and the
/// paths `explore --save DIR/` prints are joined with one slash.
@Suite struct ExploreSeedLimitTests {
    // MARK: seeds never wrap past UInt64.max

    @Test("explore --runs refuses seeds past the largest up front, naming the --runs that fits")
    func exploreRunsPastLastSeed() {
        let output = syncsim(["explore", "--runs", "96", "--seed-base", "18446744073709551600"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("the seeds would pass 18446744073709551615, the largest seed; give --runs 16"))
        #expect(syncsim(["explore", "--runs", "1", "--seed-base", "18446744073709551616"]).code == ExitCode.usage)
    }

    @Test("how many runs fit before the largest seed, with and without a shard")
    func runsBeforeLastSeed() throws {
        func command(_ arguments: [String]) throws -> ExploreCommand {
            var list = ArgumentList(["--budget", "1s"] + arguments)
            return try ExploreCommand(parsing: &list)
        }
        #expect(try command([]).runsBeforeLastSeed(base: .max) == 1)
        #expect(try command([]).runsBeforeLastSeed(base: .max - 15) == 16)
        #expect(try command([]).runsBeforeLastSeed(base: 0) == .max)
        #expect(try command(["--shard", "2/4"]).runsBeforeLastSeed(base: .max - 5) == 2)  // indices 1, 5
        #expect(try command(["--shard", "4/4"]).runsBeforeLastSeed(base: .max - 2) == 0)
    }

    @Test("a budget search stops at the largest seed, says so, and its repeat command is accepted")
    func exploreBudgetStopsAtLastSeed() throws {
        var list = ArgumentList(["--budget", "1h", "--seed-base", "18446744073709551613", "--shrink-runs", "0"])
        let command = try ExploreCommand(parsing: &list)
        let captured = DecodeCommandTests.Captured()
        var console = Console(out: { captured.out += $0 }, err: { captured.err += $0 })
        let start = ContinuousClock.now
        // A clock that never moves: only the last seed can end this search.
        _ = try command.execute(console: &console, defaultSeedBase: { 0 }, clock: { start })
        #expect(captured.out.contains("3 runs (seeds 18446744073709551613..18446744073709551615)"), "\(captured.out)")
        #expect(captured.err.contains("stopped at seed 18446744073709551615 before the budget was spent"))
        let repeatLine = try #require(captured.out.split(separator: "\n").first { $0.hasPrefix("repeat: ") })
        #expect(repeatLine == "repeat: syncsim explore --seed-base 18446744073709551613 --runs 3")
        var again = ArgumentList(repeatLine.split(separator: " ").dropFirst(3).map(String.init))
        #expect(throws: Never.self) { try ExploreCommand(parsing: &again) }
    }

    @Test("a budget shard whose first seed would pass the largest is refused, not run empty")
    func exploreShardPastLastSeed() throws {
        var list = ArgumentList(["--budget", "1s", "--seed-base", "18446744073709551614", "--shard", "3/4"])
        let command = try ExploreCommand(parsing: &list)
        var console = Console(out: { _ in }, err: { _ in })
        let start = ContinuousClock.now
        #expect(throws: UsageError.self) {
            try command.execute(console: &console, defaultSeedBase: { 0 }, clock: { start })
        }
    }

    @Test("run --seeds may end at the largest seed; sweep refuses seeds past it")
    func runAndSweepAtLastSeed() {
        let run = runCommand(["good", "--seeds", "18446744073709551614..18446744073709551615"],
                             catalog: testCatalog, executor: PlaceholderExecutor())
        #expect(run.code == ExitCode.success, "\(run.err)")
        #expect(run.out.contains("seed 18446744073709551615 "))
        #expect(run.out.contains("2 runs of 1 scenario"))
        let sweep = syncsim(["sweep", "open-and-scroll-to-start", "--profiles", "EDGE", "--seeds", "2",
                             "--seed-base", "18446744073709551615"])
        #expect(sweep.code == ExitCode.usage)
        #expect(sweep.err.contains("would pass 18446744073709551615"), "\(sweep.err)")
    }

    // MARK: paths

    @Test("a directory given with a trailing slash joins its files with one slash")
    func joinsPaths() {
        #expect(OutputFile.path(in: "found/", file: "Explore7.swift") == "found/Explore7.swift")
        #expect(OutputFile.path(in: "found//", file: "Explore7.swift") == "found/Explore7.swift")
        #expect(OutputFile.path(in: "found", file: "Explore7.swift") == "found/Explore7.swift")
        #expect(OutputFile.path(in: "/", file: "Explore7.swift") == "/Explore7.swift")
        #expect(OutputFile.trimmingTrailingSlashes("stores/") == "stores")
    }
}
