import Foundation
import SyncSim
import Testing
@testable import SyncSimCLI

/// Records the trace window each run was asked for.
private final class WindowRecorder: ScenarioExecutor, @unchecked Sendable {
    var windows: [Int] = []
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        windows.append(options.traceWindow)
        return RunResult(scenario: scenario.name, seed: seed, digest: 0)
    }
}

/// `syncsim dsl-reference`, and `run`'s `--shrink-out` and `--trace-window`.
@Suite struct DSLCommandTests {
    @Test("dsl-reference prints the generated reference")
    func reference() {
        var out = ""
        var err = ""
        var console = Console(out: { out += $0 }, err: { err += $0 })
        let code = runSyncSim(arguments: ["dsl-reference"], console: &console)
        #expect(code == 0 && err.isEmpty)
        #expect(out == DSLReference.markdown)
    }

    @Test("--trace-window reaches every run; 0 and --shrink-out without --shrink are usage errors")
    func options() {
        let recorder = WindowRecorder()
        let output = runCommand(["good", "--trace-window", "80"], catalog: testCatalog, executor: recorder)
        #expect(output.code == 0)
        #expect(!recorder.windows.isEmpty && recorder.windows.allSatisfy { $0 == 80 })
        #expect(runCommand(["good", "--trace-window", "0"], catalog: testCatalog, executor: recorder).code == 2)
        let lone = runCommand(["good", "--shrink-out", "/tmp/x.swift"], catalog: testCatalog, executor: recorder)
        #expect(lone.code == 2 && lone.err.contains("--shrink-out needs --shrink"))
        // A --shrink-out that cannot be written is refused before any run, as --junit is (it was found only after
        // the runs and the shrinking, with the failed check's exit 1).
        let before = recorder.windows.count
        let nowhere = runCommand(["good", "--shrink", "--shrink-out", "/nonexistent-syncsim-dir/x.swift"],
                                 catalog: testCatalog, executor: recorder)
        #expect(nowhere.code == 2 && nowhere.err.contains("cannot write /nonexistent-syncsim-dir/x.swift: no such "
                                                          + "directory /nonexistent-syncsim-dir"))
        #expect(recorder.windows.count == before)
    }

    @Test("--shrink-out writes the reduced scenarios as a Swift file for Scenarios/")
    func shrinkOut() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncsim-shrunk-\(UInt32.random(in: 0...UInt32.max)).swift").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let arguments = ["bad", "--seed", "4", "--shrink", "--shrink-out", path]
        let output = runCommand(arguments, catalog: testCatalog, executor: FailsWithPushLossAndOpen())
        #expect(output.code == 1)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("import SyncSim\n\n// fails C2 client a: x"))
        #expect(text.contains("extension Catalog {\n    /// Shrunk from 'bad' seed 4: "))
        #expect(text.contains("    static let badShrunk = Scenario(\"bad-shrunk\""))
        #expect(output.out.contains("shrink: wrote 1 scenario(s) to \(path)"))
    }
}
