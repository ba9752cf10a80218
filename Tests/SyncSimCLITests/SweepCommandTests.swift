import Foundation
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

/// Runs `syncsim sweep ARGS` in-process with the sweep test catalog and `PageSizeExecutor`.
func sweepCommand(_ arguments: [String], isInteractive: Bool = false) -> CommandOutput {
    let buffers = Buffers()
    var console = Console(isInteractive: isInteractive, out: { buffers.out += $0 }, err: { buffers.err += $0 })
    var list = ArgumentList(arguments)
    do {
        let command = try SweepCommand(parsing: &list, catalog: sweepCatalog)
        let code = try command.execute(console: &console, executor: PageSizeExecutor())
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
            let output = sweepCommand(Self.grid + ["--shard", "\(index)/\(shards)", "--json", file, "--jobs", "2"])
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
        let output = sweepCommand(Self.grid + ["--shard", "1/4"])
        #expect(output.code == 0)
        let lines = output.out.split(separator: "\n")
        #expect(lines.count == 1 + 10)
        #expect(lines[0].hasPrefix("{\"type\":\"sweep\",\"scenario\":\"scroll\""))
        #expect(lines[0].hasSuffix("\"runs\":40,\"shard\":\"1/4\"}"))
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
        (["scroll", "--param", "historyPageSize=0", "--profiles", "EDGE", "--seeds", "2"],
         "parameter historyPageSize: expected an integer in 1...500 (messages), got '0'"),
        (["scroll", "--param", "requestTimeout=fast", "--profiles", "EDGE", "--seeds", "2"],
         "parameter requestTimeout: expected a duration"),
        (["scroll", "--profiles", "EDGE,5G", "--seeds", "2"], "unknown profile '5G'; profiles: 2G-rural, GPRS, EDGE"),
        (["scroll", "--profiles", "EDGE", "--seeds", "0"], "option --seeds: expected an integer in 1...1000000"),
        (["scroll", "--profiles", "EDGE"], "--seeds K is required"),
        (["scroll", "--seeds", "2"], "--profiles P1,P2,... is required"),
        (["scroll", "--profiles", "EDGE", "--seeds", "2", "--shard", "2/2"],
         "the shard index is 0-based, expected 0...1"),
        (["scroll", "--profiles", "EDGE", "--seeds", "2", "--shard", "1-2"], "--shard '1-2': expected I/N"),
        (["scroll", "--profiles", "EDGE", "--seeds", "2", "--shard", "0/2", "--svg", "x.svg"],
         "--shard writes JSON lines only"),
        (["nope", "--profiles", "EDGE", "--seeds", "2"], "unknown scenario 'nope'"),
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

    @Test("the real command sweeps the catalog's open-and-scroll-to-start with the default executor")
    func realSweep() {
        let output = syncsim(["sweep", "open-and-scroll-to-start", "--param", "historyPageSize=10,50", "--param",
                              "requestTimeout=500ms,20s", "--profiles", "EDGE,3G", "--seeds", "2", "--jobs", "2"])
        #expect(output.code == ExitCode.success, "\(output.err)")
        #expect(output.out.hasPrefix("sweep open-and-scroll-to-start: 8 combinations × 2 seeds (1...2) = 16 runs"))
    }

    @Test("progress shows runs done of total on a terminal and nothing otherwise")
    func progress() {
        let interactive = sweepCommand(Self.grid, isInteractive: true)
        #expect(interactive.err.contains("[1/40]"))
        #expect(interactive.err.contains("ETA"))
        #expect(sweepCommand(Self.grid).err.isEmpty)
    }
}
