import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Scenarios
import SyncSim
import Testing
@testable import SyncSimCLI

/// What a command printed, and its exit code.
struct CommandOutput {
    var code: Int32
    var out: String
    var err: String
}

private final class Buffers {
    var out = ""
    var err = ""
}

/// Runs `syncsim ARGS` in-process with the real catalog and default executor.
func syncsim(_ arguments: [String]) -> CommandOutput {
    let buffers = Buffers()
    var console = Console(isInteractive: false, out: { buffers.out += $0 }, err: { buffers.err += $0 })
    let code = runSyncSim(arguments: arguments, console: &console)
    return CommandOutput(code: code, out: buffers.out, err: buffers.err)
}

/// Runs `syncsim run ARGS` in-process with a test catalog and executor; random base 99 unless given.
func runCommand(
    _ arguments: [String],
    catalog: [Scenario],
    executor: any ScenarioExecutor,
    isInteractive: Bool = false
) -> CommandOutput {
    let buffers = Buffers()
    var console = Console(isInteractive: isInteractive, out: { buffers.out += $0 }, err: { buffers.err += $0 })
    var list = ArgumentList(arguments)
    do {
        let command = try RunCommand(parsing: &list, catalog: catalog)
        let code = try command.execute(console: &console, executor: executor, defaultRandomBase: { 99 })
        return CommandOutput(code: code, out: buffers.out, err: buffers.err)
    } catch {
        return CommandOutput(code: ExitCode.usage, out: buffers.out, err: buffers.err + "\(error)\n")
    }
}

/// Fails scenario "bad" on odd seeds with a T2 violation whose texts need escaping in every format.
struct OddSeedsFail: ScenarioExecutor {
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        var result = PlaceholderExecutor().run(scenario, seed: seed, options: options)
        result.metrics = [Metric("reconnects", 2), Metric("bytesOnAir", 1_500.5)]
        guard scenario.name == "bad", seed % 2 == 1 else { return result }
        result.violations = [
            Violation(
                check: .invariant(.T2),
                client: "alice",
                chat: "alice+bob",
                time: SimInstant(nanosecondsSinceStart: 12_345_000_000),
                expected: "one message for cid 7",
                found: "2 messages <\"dup\" & 'copy'>\u{1}",
                lastStep: StepReference(
                    source: "Send(from: \"alice\", text: \"x\", in: \"alice+bob\")",
                    time: SimInstant(nanosecondsSinceStart: 1_000_000_000),
                    location: SourceLocation(fileID: "Scenarios/Bad.swift", line: 12)
                ),
                traceTail: ["t=1 send", "t=2 resend"]
            )
        ]
        return result
    }
}

/// Returns a different digest on every call.
final class DriftingDigests: ScenarioExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var calls: UInt64 = 0

    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        lock.lock()
        calls += 1
        let digest = calls
        lock.unlock()
        return RunResult(scenario: scenario.name, seed: seed, digest: digest)
    }
}

/// Fails with C2 iff a push-loss step and an open of "a+b" by "a" are both present.
struct FailsWithPushLossAndOpen: ScenarioExecutor {
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        let actions = scenario.steps.map(\.action)
        let fails = actions.contains(.openChat(client: "a", chat: "a+b"))
            && actions.contains { if case .pushLoss = $0 { true } else { false } }
        let violation = Violation(check: .invariant(.C2), client: "a", time: .start, expected: "x", found: "y")
        return RunResult(scenario: scenario.name, seed: seed, digest: 1, violations: fails ? [violation] : [])
    }
}

let testCatalog = [
    Scenario("good", summary: "always passes", seeds: [1, 2]) { Client("a", profile: .wifi) },
    Scenario("bad", summary: "fails on odd seeds", seeds: [1, 2, 3]) {
        Client("a", profile: .edge)
        Client("b", profile: .edge)
        Client("c", profile: .edge)
        Timeline {
            At(.seconds(1)) { OpenChat("a", "a+b") }
            At(.seconds(2)) { PushLoss(probability: 0.5, for: .seconds(10)) }
            At(.seconds(3)) { Send(from: "c", text: "noise", in: "a+c") }
            At(.seconds(4)) { ServerRestart() }
        }
    },
]

@Suite struct RunCommandTests {
    @Test("a passing run prints seed and digest per run and exits 0")
    func passes() {
        let output = syncsim(["run", "reconnect-during-send", "--seed", "5"])
        #expect(output.code == 0)
        let lines = output.out.split(separator: "\n").map(String.init)
        let digest = RunResult.hex(
            WorldExecutor().run(Catalog.all[0], seed: 5, options: RunOptions()).digest
        )
        #expect(lines.first == "PASS  reconnect-during-send  seed 5  digest \(digest)")
        #expect(lines.last == "1 run of 1 scenario: 1 passed, 0 failed")
    }

    @Test("usage errors exit 2 with a clear message", arguments: [
        (["run", "--seeds", "3..1"], "range 3..1 is empty; write the smaller seed first (1..3)"),
        (["run", "no-such-scenario"], "unknown scenario 'no-such-scenario'"),
        (["run", "offline-send-in-order"],
         "unknown scenario 'offline-send-in-order' (did you mean 'offline-sends-in-order'?)"),
        (["run", "--mutant", "no-such-mutant"], "unknown mutant 'no-such-mutant'; mutants: merge-skips-bridge"),
        (["run", "--mutant", "merge-skips-bridg"],
         "unknown mutant 'merge-skips-bridg' (did you mean 'merge-skips-bridge'?); mutants: merge-skips-bridge"),
        (["run", "--seed", "1", "--seeds", "1..2"], "give either --seed or --seeds, not both"),
        (["run", "--seed", "x"], "option --seed: expected an integer"),
        (["run", "--seeds", "1-3"], "expected a range A..B"),
        (["run", "--jobs", "0"], "option --jobs: expected an integer in 1...256"),
        (["run", "--random-base", "4"], "--random-base needs --random K"),
        (["run", "--frobnicate"], "unknown option or extra argument '--frobnicate'"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let output = syncsim(arguments)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains(message), "\(output.err)")
        #expect(output.out.isEmpty)
    }

    /// Before: `last step: <generated>:0 at 3.009s: ...` for a replayed capture's step (a fresh user's trial).
    @Test("a step made by code is named by its time alone, one written in a scenario by its file and line")
    func generatedStepReference() {
        let made = StepReference(source: "Send(from: \"alice\", text: \"d\", in: \"alice+bob\")",
                                 time: .start + .milliseconds(3_009), location: .generated)
        #expect(made.description == "step at 3.009s: Send(from: \"alice\", text: \"d\", in: \"alice+bob\")")
        let written = StepReference(source: "Background(\"alice\")", time: .start + .seconds(1),
                                    location: SourceLocation(fileID: "Scenarios/X.swift", line: 12))
        #expect(written.description == "Scenarios/X.swift:12 at 1.000s: Background(\"alice\")")
    }

    @Test("a violation exits 1 and prints the violation, the last step and the reproduce command")
    func failure() {
        let output = runCommand(["bad", "--mutant", "parallel-sends"], catalog: testCatalog, executor: OddSeedsFail())
        #expect(output.code == ExitCode.checkFailed)
        #expect(output.out.contains("FAIL  bad  seed 1  digest "))
        #expect(output.out.contains("PASS  bad  seed 2  digest "))
        #expect(output.out.contains("  T2 at 12.345s client alice chat alice+bob: expected one message for cid 7"))
        #expect(output.out.contains("    last step: Scenarios/Bad.swift:12 at 1.000s: Send(from: \"alice\""))
        #expect(output.out.contains("      | t=2 resend"))
        #expect(output.out.contains("  reproduce: syncsim run bad --seed 1 --mutant parallel-sends"))
        #expect(output.out.contains("3 runs of 1 scenario: 1 passed, 2 failed; mutant parallel-sends"))
    }

    @Test("--jobs 3 prints exactly what --jobs 1 prints")
    func jobsDoNotChangeOutput() {
        let arguments = ["--seeds", "1..12", "--random", "3", "--random-base", "5"]
        let serial = runCommand(arguments + ["--jobs", "1"], catalog: testCatalog, executor: OddSeedsFail())
        let parallel = runCommand(arguments + ["--jobs", "3"], catalog: testCatalog, executor: OddSeedsFail())
        #expect(serial.code == 1)
        #expect(parallel.code == serial.code)
        #expect(parallel.out == serial.out)
        #expect(serial.out.contains("random seeds from --random 3 --random-base 5"))
        let json1 = runCommand(arguments + ["--json", "--jobs", "1"], catalog: testCatalog, executor: OddSeedsFail())
        let json3 = runCommand(arguments + ["--json", "--jobs", "3"], catalog: testCatalog, executor: OddSeedsFail())
        #expect(json1.out == json3.out)
    }

    @Test("--check-determinism catches an executor whose digests drift")
    func determinism() {
        let drifting = runCommand(["good", "--check-determinism"], catalog: testCatalog, executor: DriftingDigests())
        #expect(drifting.code == ExitCode.checkFailed)
        #expect(drifting.out.contains("determinism at 0.000s: expected the same trace digest in both runs"))
        #expect(drifting.out.contains("\ndeterminism: 2 runs repeated, 2 with different digests\n"))
        let steady = runCommand(["good", "--check-determinism"], catalog: testCatalog, executor: OddSeedsFail())
        #expect(steady.code == ExitCode.success)
        #expect(steady.out.contains("\ndeterminism: 2 runs repeated, all digests equal\n"))
        let unchecked = runCommand(["good"], catalog: testCatalog, executor: DriftingDigests())
        #expect(unchecked.code == ExitCode.success)
        #expect(!unchecked.out.contains("determinism:"))
    }

    @Test("--random without a base takes the default base and prints it")
    func randomBase() {
        let output = runCommand(["good", "--random", "2"], catalog: testCatalog, executor: OddSeedsFail())
        #expect(output.out.contains("random seeds from --random 2 --random-base 99"))
        let seeds = RunPlan.randomSeeds(base: 99, scenario: "good", count: 2)
        #expect(output.out.contains("seed \(seeds[1])  digest"))
    }

    @Test("--json prints one JSON object per run, summary on stderr")
    func json() {
        let output = runCommand(["bad", "--json"], catalog: testCatalog, executor: OddSeedsFail())
        let lines = output.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"scenario\":\"bad\",\"seed\":") && $0.hasSuffix("}") })
        #expect(lines[1].contains("\"verdict\":\"pass\",\"digest\":\""))
        #expect(lines[1].contains("\"violations\":[],\"metrics\":[{\"name\":\"reconnects\",\"value\":2.0},"))
        #expect(lines[0].contains(
            "\"found\":\"2 messages <\\\"dup\\\" & 'copy'>\\u0001\""
        ))
        #expect(lines[0].contains("\"reproduce\":\"syncsim run bad --seed 1\"}"))
        #expect(output.err.contains("3 runs of 1 scenario: 1 passed, 2 failed"))
        for line in lines {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            #expect(object is [String: Any], "not valid JSON: \(line)")
        }
    }

    @Test("--junit writes one testcase per scenario and seed with escaped failure messages")
    func junit() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncsim-junit-\(UInt32.random(in: 0...UInt32.max)).xml").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = runCommand(["good", "bad", "--junit", path], catalog: testCatalog, executor: OddSeedsFail())
        #expect(output.code == 1)
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"))
        #expect(xml.contains("<testsuites name=\"syncsim\" tests=\"5\" failures=\"2\">"))
        #expect(xml.contains("<testsuite name=\"good\" tests=\"2\" failures=\"0\">"))
        #expect(xml.contains("<testcase classname=\"syncsim.bad\" name=\"bad seed 3\">"))
        #expect(xml.contains(
            "found 2 messages &lt;&quot;dup&quot; &amp; &apos;copy&apos;&gt;\u{FFFD}; "
                + "reproduce: syncsim run bad --seed 3"
        ))
        #expect(xml.contains("type=\"T2\""))
        #expect(!xml.contains("\u{1}"))
        let document = try XMLDocument(data: Data(xml.utf8))
        #expect(try document.nodes(forXPath: "//testcase").count == 5)
        #expect(try document.nodes(forXPath: "//failure").count == 2)
    }

    @Test("--trace writes every run's trace records")
    func trace() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncsim-trace-\(UInt32.random(in: 0...UInt32.max)).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = runCommand(["good", "--trace", path], catalog: testCatalog, executor: PlaceholderExecutor())
        #expect(output.code == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# good seed 1 digest "))
        #expect(text.contains("placeholder executor: scenario good seed 2 was not simulated"))
    }

    @Test("an unwritable report file is an input error")
    func unwritable() {
        let arguments = ["good", "--junit", "/nonexistent-dir/x.xml"]
        let output = runCommand(arguments, catalog: testCatalog, executor: OddSeedsFail())
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("cannot write /nonexistent-dir/x.xml: no such directory /nonexistent-dir"))
        #expect(output.out.isEmpty)
    }

    @Test("--shrink prints a smaller failing scenario as DSL code")
    func shrink() {
        let arguments = ["bad", "--seed", "4", "--shrink"]
        let output = runCommand(arguments, catalog: testCatalog, executor: FailsWithPushLossAndOpen())
        #expect(output.code == 1)
        #expect(output.out.contains("shrunk bad seed 4 in "))
        #expect(output.out.contains("still failing C2 client a: x: 4 -> 2 steps, 3 -> 2 clients"))
        #expect(output.out.contains("// fails C2 client a: x (once in Catalog.all: syncsim run bad-shrunk --seed 4)"))
        #expect(output.out.contains("extension Catalog {\n    /// Shrunk from 'bad' seed 4: 2 client(s) and 2 step(s)"))
        #expect(output.out.contains("    static let badShrunk = Scenario(\"bad-shrunk\", summary: \"Shrunk from 'bad' seed 4: "))
        #expect(output.out.contains("        At(.seconds(1)) { OpenChat(\"a\", \"a+b\") }"))
        #expect(output.out.contains("        At(.seconds(2)) { PushLoss(probability: 0.5, for: .milliseconds(1)) }"))
        #expect(!output.out.contains("ServerRestart"))
    }

    @Test("--shrink with --mutant prints the mutant in a comment, not in every Client(...)")
    func shrinkWithMutant() {
        let arguments = ["bad", "--seed", "4", "--shrink", "--mutant", "resend-new-cid"]
        let output = runCommand(arguments, catalog: testCatalog, executor: FailsWithPushLossAndOpen())
        #expect(output.code == 1)
        #expect(output.out.contains(
            "// fails C2 client a: x with --mutant resend-new-cid (once in Catalog.all: "
                + "syncsim run bad-shrunk --seed 4 --mutant resend-new-cid)"
        ))
        #expect(output.out.contains("        Client(\"a\", profile: .edge)\n"))
        #expect(!output.out.contains("mutant: "))
    }

    @Test("an invalid scenario is an input error naming its line")
    func invalidScenario() {
        let broken = [Scenario("broken", summary: "s", seeds: [1]) {
            Timeline { At(.seconds(1)) { Send(from: "ghost", text: "boo", in: "ghost+nobody") } }
        }]
        let output = runCommand([], catalog: broken, executor: OddSeedsFail())
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("RunCommandTests.swift:"))
        #expect(output.err.contains("client 'ghost' is not in the topology"))
    }

    @Test("an unknown client parameter or profile is an input error before any run, not a failed run")
    func unknownParameterOrProfile() {
        let typos = [Scenario("typo", summary: "s", seeds: [1]) {
            Client("alice", profile: .edge, parameters: ["historyPagesize": .int(10)])
            Client("bob", profile: "LTE-X")
        }]
        let output = runCommand([], catalog: typos, executor: WorldExecutor())
        #expect(output.code == ExitCode.usage)
        #expect(output.out.isEmpty)
        #expect(output.err.contains("RunCommandTests.swift:"))
        #expect(output.err.contains("scenario 'typo': client 'alice': unknown parameter 'historyPagesize' (valid: "))
        #expect(output.err.contains("scenario 'typo': client 'bob': unknown link profile 'LTE-X'; profiles: "))
    }

    @Test("progress goes to stderr with carriage returns on a terminal, and nowhere otherwise")
    func progress() {
        let arguments = ["good", "--seeds", "1..4"]
        let terminal = runCommand(arguments, catalog: testCatalog, executor: OddSeedsFail(), isInteractive: true)
        #expect(terminal.err.contains("\r"))
        #expect(terminal.err.contains("[1/4] 0 failed, "))
        #expect(terminal.err.contains(" runs/s, ETA "))
        let ci = runCommand(arguments, catalog: testCatalog, executor: OddSeedsFail(), isInteractive: false)
        #expect(ci.err.isEmpty)
        #expect(terminal.out == ci.out)
    }

    /// Three passes over the catalog, not four: the serial run's digests are compared with the parallel run's, which
    /// repeats each run too (`--check-determinism`), so every run is executed three times in all. (Both with
    /// `--check-determinism` was the suite's longest test, its critical path in a debug build.)
    @Test("the whole catalog runs with the default executor, identically with 1 and 2 jobs")
    func wholeCatalog() {
        let serial = syncsim(["run"])
        let parallel = syncsim(["run", "--check-determinism", "--jobs", "2"])
        #expect(serial.code == ExitCode.success)
        #expect(parallel.code == ExitCode.success)
        let runs = Catalog.all.map(\.seeds.count).reduce(0, +)
        let determinism = "determinism: \(runs) runs repeated, all digests equal\n"
        #expect(parallel.out == serial.out + determinism)
        #expect(serial.out.hasSuffix("\(runs) runs of \(Catalog.all.count) scenarios: \(runs) passed, 0 failed\n"))
    }
}
