import Foundation
import Testing

@testable import SyncSimCLI

/// Runs `syncsim explore` in-process.
@Suite struct ExploreCommandTests {
    static func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        DecodeCommandTests.run(["explore"] + arguments)
    }

    @Test("--jobs 1 and --jobs 2 print the same report")
    func jobsDoNotChangeOutput() {
        let arguments = ["--runs", "3", "--seed-base", "40", "--shrink-runs", "4", "--max-shrinks", "1"]
        let one = Self.run(arguments + ["--jobs", "1"])
        let two = Self.run(arguments + ["--jobs", "2"])
        #expect(one.code == two.code)
        #expect(one.out == two.out)
        #expect(one.out.contains("3 runs (seeds 40..42)"))
        #expect(one.out.contains("repeat: syncsim explore --seed-base 40 --runs 3"))
        #expect(one.out.contains("steps run: "))
    }

    /// Before: "cannot write /proc/nope: The file doesn't exist." (Foundation's sentence, not the system's reason).
    @Test("a --save directory that cannot be made is refused in the house wording, before any run")
    func saveDirectoryRefused() {
        let result = Self.run(["--runs", "1", "--seed-base", "40", "--save", "/proc/syncsim-no-such-dir"])
        #expect(result.code == 2)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("cannot write /proc/syncsim-no-such-dir: cannot create the directory: no such "
                                    + "file or directory"))
    }

    @Test("the JSON report names the runs, the failures and the coverage")
    func jsonReport() throws {
        let result = Self.run(["--runs", "2", "--seed-base", "40", "--shrink-runs", "0", "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["runs"] as? Int == 2)
        #expect(object["seedBase"] as? Int == 40)
        #expect(object["failures"] is [Any])
        let coverage = try #require(object["coverage"] as? [String: Any])
        #expect((coverage["invariants"] as? [String: Any])?.count == 19)
    }

    @Test("usage errors exit 2", arguments: [
        [String](), ["--runs", "2", "--budget", "1s"], ["--runs", "0"], ["--budget", "soon"],
        ["--runs", "1", "--mutant", "no-such"], ["--runs", "1", "--param", "historyPageSize=1,2"],
        ["--runs", "1", "--swarm", "--no-swarm"], ["--runs", "1", "--param", "noSuch=1"],
    ])
    func usageErrors(arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.code == 2, "\(arguments): \(result.err)")
    }

    @Test("a parameter given twice is refused, as sweep does, and a --param without a value asks for NAME=VALUE")
    func parameterErrors() {
        let twice = Self.run(["--runs", "1", "--param", "seqModulus=8", "--param", "seqModulus=16"])
        #expect(twice.code == 2)
        #expect(twice.err.contains("parameter seqModulus given twice; explore takes one value each"), "\(twice.err)")
        let bare = Self.run(["--runs", "1", "--param", "connectTimeout"])
        #expect(bare.code == 2)
        #expect(bare.err.contains("--param 'connectTimeout': expected NAME=VALUE"), "\(bare.err)")
    }

    @Test("contradictory --param pairs are refused before any run, naming both parameters and values", arguments: [
        (["initialSeq=300", "seqModulus=256"],
         "parameters initialSeq=300 and seqModulus=256 contradict each other: initialSeq must be below seqModulus "
            + "(seqs run 0...seqModulus-1)"),
        (["seqModulus=8", "initialSeq=8"], "parameters initialSeq=8 and seqModulus=8 contradict each other"),
        (["taskRetryBase=2min"],
         "parameters taskRetryBase=120s and taskRetryCap=60s (default) contradict each other: the first task retry "
            + "delay cannot exceed its cap"),
        (["backoffBase=10s", "backoffCap=5s"],
         "parameters backoffBase=10s and backoffCap=5s contradict each other: the first reconnect delay cannot exceed "
            + "its cap"),
    ])
    func contradictoryParameters(parameters: [String], message: String) {
        let result = Self.run(["--runs", "1"] + parameters.flatMap { ["--param", $0] })
        #expect(result.code == ExitCode.usage)
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix("syncsim explore: \(message)"), "\(result.err)")
        #expect(result.err.hasSuffix("\nsee 'syncsim explore --help'\n"))
        #expect(result.err.split(separator: "\n").count == 2)
    }

    @Test("the JSON report carries the --param values as a parameters object with sorted keys")
    func jsonParameters() throws {
        let arguments = ["--runs", "1", "--seed-base", "40", "--shrink-runs", "0", "--json"]
        let given = Self.run(arguments + ["--param", "seqModulus=256", "--param", "requestTimeout=30s",
                                          "--param", "historyPageSize=20"])
        #expect(given.code == ExitCode.success, "\(given.err)")
        #expect(given.out.contains(",\"parameters\":{\"historyPageSize\":\"20\",\"requestTimeout\":\"30s\","
            + "\"seqModulus\":\"256\"},"), "\(given.out)")
        let reordered = Self.run(arguments + ["--param", "historyPageSize=20", "--param", "seqModulus=256",
                                              "--param", "requestTimeout=30s"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reordered.out.utf8)) as? [String: Any])
        #expect(object["parameters"] as? [String: String]
            == ["historyPageSize": "20", "requestTimeout": "30s", "seqModulus": "256"])
        let none = Self.run(arguments)
        #expect(none.out.contains(",\"parameters\":{},"))
    }

    @Test("--shard i/n runs the seeds k % n + 1 == i and says so; the repeat command keeps the shard")
    func shard() {
        let result = Self.run(["--runs", "3", "--seed-base", "40", "--shrink-runs", "0", "--shard", "2/2"])
        #expect(result.out.contains("1 run (seeds 41..41 step 2)"), "\(result.out)")
        #expect(result.out.contains("; shard 2/2"))
        #expect(result.out.contains("repeat: syncsim explore --seed-base 40 --runs 2 --shard 2/2"))
        #expect(Self.run(["--runs", "3", "--shard", "0/2"]).code == 2)
    }

    @Test("reproduce: and repeat: lines spell the command as run's do: the console's program name")
    func reproduceProgram() throws {
        // Seed 1 fails T2 with resend-new-cid (ExploreMutantTests pins base 1 for it).
        var list = ArgumentList(["--runs", "1", "--seed-base", "1", "--mutant", "resend-new-cid", "--shrink-runs", "0"])
        let command = try ExploreCommand(parsing: &list)
        let captured = DecodeCommandTests.Captured()
        var console = Console(out: { captured.out += $0 }, err: { captured.err += $0 })
        console.program = ".build/release/syncsim"
        let start = ContinuousClock.now
        let code = try command.execute(console: &console, defaultSeedBase: { 0 }, clock: { start })
        #expect(code == ExitCode.checkFailed, "\(captured.out)")
        let lines = captured.out.split(separator: "\n").map(String.init)
        let reproduce = "  reproduce: .build/release/syncsim explore --seed-base 1 --runs 1 --mutant resend-new-cid"
        #expect(lines.contains(reproduce), "\(captured.out)")
        #expect(lines.contains("repeat: .build/release/syncsim explore --seed-base 1 --runs 1 --mutant resend-new-cid"))
        #expect(!lines.contains { $0.contains(": syncsim explore") })
    }

    @Test("failures that were not shrunk group by their check alone, so the distinct count means something")
    func unshrunkGroupByCheck() throws {
        // Seeds 1 and 5 of 1...5 fail T2 with resend-new-cid, each with its own mix of step kinds.
        let arguments = ["--runs", "5", "--seed-base", "1", "--mutant", "resend-new-cid", "--shrink-runs", "0"]
        let result = Self.run(arguments)
        #expect(result.code == ExitCode.checkFailed)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0 == "  signature: T2 (not shrunk)" }.count == 2, "\(result.out)")
        #expect(lines.contains("  2x T2 (not shrunk)  seeds 1, 5"))
        #expect(result.out.contains(": 2 failed, 1 distinct (2 failures not shrunk, grouped by check alone); "))
        let json = Self.run(arguments + ["--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let groups = try #require(object["groups"] as? [[String: Any]])
        // Every failed run names its seed and its trace digest, in both reports, and the digest is the run's own:
        // the one `syncsim explore --seed-base S --runs 1` gives again.
        let failures = try #require(object["failures"] as? [[String: Any]])
        let digests = failures.compactMap { $0["digest"] as? String }
        #expect(digests.count == 2 && digests.allSatisfy { $0.count == 16 }, "\(failures)")
        for (failure, digest) in zip(failures, digests) {
            let seed = try #require(failure["seed"] as? Int)
            #expect(lines.contains { $0.hasPrefix("FAIL run \(seed - 1) seed \(seed) digest \(digest): T2 at ") })
            let again = Self.run(["--runs", "1", "--seed-base", String(seed), "--mutant", "resend-new-cid",
                "--shrink-runs", "0"])
            #expect(again.out.contains("FAIL run 0 seed \(seed) digest \(digest): "), "\(again.out)")
        }
        #expect(groups.count == 1)
        #expect(groups.first?["signature"] as? String == "T2 (not shrunk)")
        #expect(groups.first?["count"] as? Int == 2)
    }

    @Test("a search without failures starts with its summary, not a blank line")
    func cleanReportStartsWithSummary() {
        let result = Self.run(["--runs", "2", "--seed-base", "1000"])
        #expect(result.code == ExitCode.success)
        #expect(result.out.hasPrefix("2 runs (seeds 1000..1001), "), "\(result.out)")
    }

    @Test("budgets read as durations")
    func budgets() throws {
        #expect(try ExploreCommand.budget("20s") == .seconds(20))
        #expect(try ExploreCommand.budget("2m") == .seconds(120))
        #expect(try ExploreCommand.budget("10min") == .seconds(600))
        #expect(try ExploreCommand.budget("1h") == .seconds(3_600))
    }
}
