import Foundation
import Scenarios
import SyncSim
import Testing
@testable import SyncSimCLI

/// Metrics from the parameters, profile and seed: `chatHistoryRequests = ceil(200 / historyPageSize)`, an open time
/// that grows with the page size, a scroll wait that grows with the requests, seeded noise.
struct PageSizeExecutor: ScenarioExecutor {
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        let client = scenario.clients[0]
        let pageSize = client.parameters["historyPageSize"]?.intValue ?? 30
        let latency = client.profile == .edge ? 880.0 : 200.0
        var generator = SeededGenerator(seed: seed)
        let noise = generator.nextUnitInterval() * 100
        let requests = (200 + pageSize - 1) / pageSize
        var hash = FNV1a()
        hash.add(client.profile.rawValue + " " + client.parameters.description)
        withUnsafeBytes(of: seed.littleEndian) { hash.add(bytes: $0) }
        return RunResult(
            scenario: scenario.name, seed: seed, digest: hash.value,
            metrics: [
                Metric("chatOpenMilliseconds", latency + 4 * Double(pageSize) + noise),
                Metric("scrollWaitMilliseconds", Double(requests) * latency + noise),
                Metric("chatHistoryRequests", Double(requests)),
            ]
        )
    }
}

let sweepCatalog = [
    Scenario("scroll", summary: "open and scroll", seeds: [1]) {
        Server(history: ["alice+bob": 200])
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Timeline { At(.seconds(1)) { OpenChat("alice", "alice+bob") } }
    },
    Scenario("broken", summary: "invalid", seeds: [1]) {
        Client("alice", profile: .edge)
        Timeline { At(.seconds(1)) { OpenChat("carol", "carol+alice") } }
    },
]

private final class Buffers: @unchecked Sendable {
    var out = ""
    var err = ""
}

/// `PageSizeExecutor`, with every run of a seed in `failingSeeds` failing a T2 check.
struct FailingSeedsExecutor: ScenarioExecutor {
    var failingSeeds: Set<UInt64>

    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        var result = PageSizeExecutor().run(scenario, seed: seed, options: options)
        if failingSeeds.contains(seed) {
            result.violations = [Violation(check: .invariant(.T2), time: .start, expected: "one", found: "two")]
        }
        return result
    }
}

/// Runs `syncsim sweep ARGS` in-process with the sweep test catalog and `executor` (default `PageSizeExecutor`).
func sweepCommand(
    _ arguments: [String], isInteractive: Bool = false, executor: any ScenarioExecutor = PageSizeExecutor()
) -> CommandOutput {
    let buffers = Buffers()
    var console = Console(isInteractive: isInteractive, out: { buffers.out += $0 }, err: { buffers.err += $0 })
    var list = ArgumentList(arguments)
    do {
        let command = try SweepCommand(parsing: &list, catalog: sweepCatalog)
        let code = try command.execute(console: &console, executor: executor)
        return CommandOutput(code: code, out: buffers.out, err: buffers.err)
    } catch {
        return CommandOutput(code: ExitCode.usage, out: buffers.out, err: buffers.err + "\(error)\n")
    }
}

/// A fresh temporary directory for one test's files.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-sweep-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func contents(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

@Suite struct SweepCommandTests {
    static let grid = ["scroll", "--param", "historyPageSize=10,25,50,100", "--profiles", "EDGE,3G", "--seeds", "5"]

    @Test("per-run results and every report are identical with 1 or several jobs", arguments: [2, 3, 8])
    func jobs(count: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func files(_ name: String) -> [String] {
            ["--json", directory.appendingPathComponent("\(name).jsonl").path,
             "--csv", directory.appendingPathComponent("\(name).csv").path,
             "--svg", directory.appendingPathComponent("\(name).svg").path]
        }
        let one = sweepCommand(Self.grid + files("one"))
        let many = sweepCommand(Self.grid + ["--jobs", "\(count)"] + files("many"))
        #expect(one.code == 0 && many.code == 0, "\(one.err)\(many.err)")
        #expect(one.out == many.out)
        for ext in ["jsonl", "csv", "svg"] {
            #expect(
                try contents(directory.appendingPathComponent("one.\(ext)"))
                    == contents(directory.appendingPathComponent("many.\(ext)"))
            )
        }
    }

    @Test("sharded runs merged give byte-identical JSON to the unsharded sweep", arguments: [1, 3, 7])
    func shardAndMerge(shards: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = directory.appendingPathComponent("whole.jsonl")
        #expect(sweepCommand(Self.grid + ["--json", whole.path]).code == 0)
        var shardFiles: [String] = []
        for index in (0..<shards).reversed() {
            let file = directory.appendingPathComponent("shard-\(index).jsonl").path
            let output = sweepCommand(Self.grid + ["--shard", "\(index + 1)/\(shards)", "--json", file, "--jobs", "2"])
            #expect(output.code == 0, "\(output.err)")
            #expect(output.out.isEmpty)
            shardFiles.append(file)
        }
        let merged = directory.appendingPathComponent("merged.jsonl")
        let output = syncsim(["merge"] + shardFiles + ["--json", merged.path])
        #expect(output.code == 0, "\(output.err)")
        #expect(try contents(merged) == contents(whole))
        #expect(output.out == sweepCommand(Self.grid).out)
    }

    @Test("a shard without --json prints its JSON lines: the header then its runs")
    func shardToStandardOutput() {
        let output = sweepCommand(Self.grid + ["--shard", "2/4"])
        #expect(output.code == 0)
        let lines = output.out.split(separator: "\n")
        #expect(lines.count == 1 + 10)
        #expect(lines[0].hasPrefix("{\"type\":\"sweep\",\"scenario\":\"scroll\""))
        #expect(lines[0].hasSuffix("\"runs\":40,\"shard\":\"2/4\"}"))
        #expect(lines[1].hasPrefix("{\"type\":\"run\",\"run\":1,\"combination\":0,"))
    }

    @Test("the table marks the largest page size best on both profiles by scroll wait")
    func table() {
        let output = sweepCommand(Self.grid + ["--objective", "scrollWaitMilliseconds"])
        #expect(output.code == 0)
        #expect(output.out.contains("  EDGE: historyPageSize=100  p50 "))
        #expect(output.out.contains("  3G: historyPageSize=100  p50 "))
    }

    @Test("invalid options fail with a clear one-line error and exit 2", arguments: [
        (["scroll", "--param", "pageSize=10", "--profiles", "EDGE", "--seeds", "2"],
         "unknown parameter 'pageSize'; valid parameters: historyPageSize,"),
        (["scroll", "--param", "historyPagesize=10", "--profiles", "EDGE", "--seeds", "2"],
         "unknown parameter 'historyPagesize' (did you mean 'historyPageSize'?); valid parameters: historyPageSize,"),
        (["scroll", "--profiles", "EDGF", "--seeds", "2"], "unknown profile 'EDGF' (did you mean 'EDGE'?); profiles:"),
        (["scroll", "--param", "historyPageSize=0", "--profiles", "EDGE", "--seeds", "2"],
         "parameter historyPageSize: expected an integer in 1...500 (messages), got '0'"),
        (["scroll", "--param", "requestTimeout=fast", "--profiles", "EDGE", "--seeds", "2"],
         "parameter requestTimeout: expected a duration"),
        (["scroll", "--profiles", "EDGE,5G", "--seeds", "2"], "unknown profile '5G' (did you mean '3G'?); profiles: 2G-rural, GPRS, EDGE"),
        (["scroll", "--profiles", "EDGE", "--seeds", "0"], "option --seeds: expected an integer in 1...1000000"),
        (["scroll", "--profiles", "EDGE"], "--seeds K is required"),
        (["scroll", "--seeds", "2"], "--profiles P1,P2,... is required"),
        (["scroll", "--profiles", "EDGE", "--seeds", "2", "--shard", "3/2"],
         "the shard number must be in 1...2"),
        (["scroll", "--profiles", "EDGE", "--seeds", "2", "--shard", "0/2"],
         "--shard '0/2': shards count from 1 (as Playwright, Jest and Vitest), expected 1...2"),
        (["scroll", "--profiles", "EDGE", "--seeds", "2", "--shard", "1-2"], "--shard '1-2': expected i/n"),
        (["scroll", "--profiles", "EDGE", "--seeds", "2", "--shard", "1/2", "--svg", "x.svg"],
         "--shard writes JSON lines only"),
        (["nope", "--profiles", "EDGE", "--seeds", "2"], "unknown scenario 'nope'"),
        (["scrol", "--profiles", "EDGE", "--seeds", "2"], "unknown scenario 'scrol' (did you mean 'scroll'?)"),
        (["scr*", "--profiles", "EDGE", "--seeds", "2"],
         "unknown scenario 'scr*' (sweep takes one scenario's name, not a pattern: 'syncsim list scr*' shows"),
        // A misspelt scenario is named before the options that are missing.
        (["nope"], "unknown scenario 'nope'"),
        ([], "expected one scenario name, got 0"),
        (["scroll", "--profiles", "EDGE", "--seeds", "2", "--client", "carol"], "--client 'carol' is not in scenario"),
        (["scroll", "--profiles", "EDGE", "--seeds", "2", "--objective", "speed"], "unknown objective metric 'speed'"),
        (["broken", "--profiles", "EDGE", "--seeds", "2"], "client 'carol' is not in the topology"),
    ])
    func invalid(arguments: [String], message: String) {
        let output = sweepCommand(arguments)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains(message), "\(output.err)")
        #expect(output.out.isEmpty)
    }

    @Test("the real command rejects a bad parameter with exit 2 and points at --help")
    func realCommand() {
        let output = syncsim(["sweep", "open-and-scroll-to-start", "--param", "historyPageSize=x", "--profiles",
                              "EDGE", "--seeds", "1"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.hasPrefix("syncsim sweep: parameter historyPageSize: expected an integer"))
    }

    @Test("bad --param values, unknown profiles and clients are usage errors: one line, then the pointer to --help",
          arguments: [
        (["--param", "historyPageSize=10,abc", "--profiles", "EDGE"],
         "parameter historyPageSize: expected an integer in 1...500 (messages), got 'abc'"),
        (["--param", "noSuch=1", "--profiles", "EDGE"], "unknown parameter 'noSuch'; valid parameters: "),
        (["--param", "historyPageSize=10", "--param", "historyPageSize=20", "--profiles", "EDGE"],
         "parameter historyPageSize given twice"),
        (["--profiles", "EDGE-lossyy"], "unknown profile 'EDGE-lossyy' (did you mean 'EDGE-lossy'?); profiles: 2G-rural, GPRS, EDGE, EDGE-lossy, "),
        (["--profiles", "EDGE,EDGE"], "--profiles: 'EDGE' given twice"),
        (["--profiles", "EDGE", "--client", "bob", "--profile", "5G"], "unknown profile '5G'"),
        (["--profiles", "EDGE", "--client", "carol"], "--client 'carol' is not in scenario open-and-scroll-to-start"),
        (["--profiles", "EDGE", "--objective", "speed"], "unknown objective metric 'speed'"),
        (["--profiles", "EDGE", "--param", "seqModulus=64,256", "--param", "initialSeq=1,100"],
         "parameters initialSeq=100 and seqModulus=64 contradict each other: initialSeq must be below seqModulus"),
        (["--profiles", "EDGE", "--param", "taskRetryBase=2s", "--param", "taskRetryCap=1s"],
         "parameters taskRetryBase=2s and taskRetryCap=1s contradict each other: the first task retry delay cannot "
            + "exceed its cap"),
        (["--profiles", "EDGE", "--param", "backoffCap=500ms"],
         "parameters backoffBase=1s (default) and backoffCap=500ms contradict each other"),
    ])
    func realCommandUsageErrors(arguments: [String], message: String) {
        let output = syncsim(["sweep", "open-and-scroll-to-start", "--seeds", "1"] + arguments)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.hasPrefix("syncsim sweep: \(message)"), "\(output.err)")
        #expect(output.err.hasSuffix("\nsee 'syncsim sweep --help'\n"), "\(output.err)")
        #expect(output.err.split(separator: "\n").count == 2)
    }

    @Test("a swept parameter that contradicts a scenario client's own is refused, naming the client")
    func contradictsScenarioClient() {
        let output = syncsim(["sweep", "seq-wrap-long-pending", "--seeds", "1", "--profiles", "4G",
                              "--param", "seqModulus=256,128"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.hasPrefix("syncsim sweep: parameters initialSeq=250 (scenario client 'alice') and "
            + "seqModulus=128 contradict each other: "), "\(output.err)")
        // Equal bases and caps are consistent (every retry waits the cap).
        var list = ArgumentList(["open-and-scroll-to-start", "--seeds", "1", "--profiles", "EDGE",
                                 "--param", "taskRetryBase=5s", "--param", "taskRetryCap=5s"])
        #expect(throws: Never.self) { try SweepCommand(parsing: &list, catalog: Catalog.all) }
    }

    @Test("explore's --param errors point at --help too")
    func exploreParamUsageError() {
        let output = syncsim(["explore", "--runs", "1", "--param", "noSuch=1"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.hasPrefix("syncsim explore: unknown parameter 'noSuch'"), "\(output.err)")
        #expect(output.err.hasSuffix("\nsee 'syncsim explore --help'\n"))
    }

    @Test("the real command sweeps in the world and exits 1 naming the runs that failed a check, with a reproducer")
    func realSweep() {
        // A 500 ms request timeout on EDGE (RTT above 800 ms): the LOGIN completes once the handshake timeout has
        // backed off (1 s, then 2 s), but every history page times out, so the scroll never reaches the top: C6.
        let output = syncsim(["sweep", "open-and-scroll-to-start", "--param", "historyPageSize=10,50", "--param",
                              "requestTimeout=500ms,20s", "--profiles", "EDGE,3G", "--seeds", "2", "--jobs", "2"])
        #expect(output.code == ExitCode.checkFailed, "\(output.err)")
        #expect(output.out.hasPrefix("sweep open-and-scroll-to-start: 8 combinations × 2 seeds (1...2) = 16 runs, "
                                     + "4 failed a check"))
        #expect(output.out.contains("\n4 of 16 runs failed a check:\n  FAIL run 0  EDGE historyPageSize=10 "
                                    + "requestTimeout=500ms  seed 1: C6 at "))
        #expect(output.out.contains("\nreproduce: syncsim sweep open-and-scroll-to-start --param historyPageSize=10 "
                                    + "--param requestTimeout=500ms --profiles EDGE --seeds 1 --seed-base 1\n"))
    }

    @Test("many failed runs: the first five are listed, then how many more, and the reports are still written")
    func manyFailures() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("s.jsonl")
        let executor = FailingSeedsExecutor(failingSeeds: [2, 4])
        let output = sweepCommand(Self.grid + ["--json", json.path], executor: executor)
        #expect(output.code == ExitCode.checkFailed)
        #expect(output.out.contains("\n16 of 40 runs failed a check:\n  FAIL run 1  EDGE historyPageSize=10  seed 2: "
                                    + "T2"))
        #expect(output.out.contains("\n  ... and 11 more\nreproduce: syncsim sweep scroll --param historyPageSize=10 "
                                    + "--profiles EDGE --seeds 1 --seed-base 2\n"))
        #expect(try contents(json).contains("\"verdict\":\"fail\""))
    }

    @Test("a sweep whose runs all hold their checks exits 0 and lists no failure")
    func passingSweepExitsZero() {
        let output = sweepCommand(Self.grid)
        #expect(output.code == ExitCode.success)
        #expect(!output.out.contains("failed a check:"))
    }

    @Test("a shard with a failed run still writes its lines, names the failure on stderr and exits 1")
    func failedShard() throws {
        let output = syncsim(["sweep", "open-and-scroll-to-start", "--param", "requestTimeout=500ms", "--profiles",
                              "EDGE", "--seeds", "1", "--shard", "1/1"])
        #expect(output.code == ExitCode.checkFailed)
        #expect(output.out.split(separator: "\n").count == 2)
        #expect(output.err.contains("1 of 1 run failed a check:\n  FAIL run 0  EDGE requestTimeout=500ms  seed 1:"))
        #expect(output.err.contains("reproduce: syncsim sweep open-and-scroll-to-start --param requestTimeout=500ms"))
    }

    /// A small sweep of the catalog's open-and-scroll-to-start in the world, on a lossy profile so seeds differ.
    static let worldGrid = ["sweep", "open-and-scroll-to-start", "--param", "historyPageSize=20,100", "--profiles",
                            "EDGE-lossy,3G", "--seeds", "3", "--seed-base", "7"]

    @Test("in the world, per-run results and reports are identical with 1 or 2 jobs")
    func worldJobs() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let one = directory.appendingPathComponent("one.jsonl"), two = directory.appendingPathComponent("two.jsonl")
        let first = syncsim(Self.worldGrid + ["--json", one.path])
        let second = syncsim(Self.worldGrid + ["--jobs", "2", "--json", two.path])
        #expect(first.code == 0 && second.code == 0, "\(first.out)\(second.out)")
        #expect(first.out == second.out)
        #expect(try contents(one) == contents(two))
        // Seeds differ on EDGE-lossy: the sweep is not comparing copies of one run.
        let digests = try contents(one).split(separator: "\n").filter { $0.contains("\"type\":\"run\"") }
            .map { $0.components(separatedBy: "\"digest\":").last!.prefix(18) }
        #expect(Set(digests).count == digests.count)
    }

    @Test("in the world, shards merged give the unsharded sweep's JSON byte for byte, and its table")
    func worldShards() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = directory.appendingPathComponent("whole.jsonl")
        let unsharded = syncsim(Self.worldGrid + ["--json", whole.path])
        #expect(unsharded.code == 0, "\(unsharded.out)")
        let files = (0..<3).map { directory.appendingPathComponent("shard-\($0).jsonl").path }
        for (index, file) in files.enumerated() {
            #expect(syncsim(Self.worldGrid + ["--shard", "\(index + 1)/3", "--json", file]).code == 0)
        }
        let merged = directory.appendingPathComponent("merged.jsonl")
        let output = syncsim(["merge"] + files.reversed() + ["--json", merged.path])
        #expect(output.code == 0, "\(output.err)")
        #expect(try contents(merged) == contents(whole))
        #expect(output.out == unsharded.out)
    }

    @Test("progress shows runs done of total on a terminal and nothing otherwise")
    func progress() {
        let interactive = sweepCommand(Self.grid, isInteractive: true)
        #expect(interactive.err.contains("[1/40]"))
        #expect(interactive.err.contains("ETA"))
        #expect(sweepCommand(Self.grid).err.isEmpty)
    }
}
