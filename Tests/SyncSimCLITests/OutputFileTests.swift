import Foundation
import SyncSim
import Testing
@testable import SyncSimCLI

/// Removes `directory` on its first run (so report files cannot be written afterwards) and fails every run.
private final class RemovesDirectory: ScenarioExecutor, @unchecked Sendable {
    let directory: URL

    init(_ directory: URL) { self.directory = directory }

    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        try? FileManager.default.removeItem(at: directory)
        var result = FailingSeedsExecutor(failingSeeds: [seed]).run(scenario, seed: seed, options: options)
        result.scenario = scenario.name
        return result
    }
}

/// Counts runs.
private final class CountingExecutor: ScenarioExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var runs = 0

    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        lock.lock()
        runs += 1
        lock.unlock()
        return PageSizeExecutor().run(scenario, seed: seed, options: options)
    }
}

@Suite struct OutputFileTests {
    @Test("prepare creates the file empty, truncating what was there")
    func prepares() throws {
        let directory = try temporaryDirectory()
        let file = directory.appendingPathComponent("x.txt")
        try "old".write(to: file, atomically: true, encoding: .utf8)
        try OutputFile.prepare(file.path)
        #expect(try contents(file) == "")
    }

    @Test("a missing directory and a directory are one-line errors")
    func errors() throws {
        let directory = try temporaryDirectory()
        #expect(throws: OutputFileError.self) { try OutputFile.prepare("/nonexistent-dir/x.xml") }
        do { try OutputFile.prepare("/nonexistent-dir/x.xml") } catch {
            #expect("\(error)" == "cannot write /nonexistent-dir/x.xml: no such directory /nonexistent-dir")
        }
        do { try OutputFile.prepare(directory.path) } catch {
            #expect("\(error)" == "cannot write \(directory.path): is a directory")
        }
    }

    @Test("run checks --junit and --trace before any run, exit 2", arguments: ["--junit", "--trace"])
    func runChecksFirst(option: String) throws {
        let directory = try temporaryDirectory()
        let counter = CountingExecutor()
        let missing = runCommand(["good", option, "/nonexistent-dir/x"], catalog: testCatalog, executor: counter)
        #expect(missing.code == ExitCode.usage)
        #expect(missing.err.contains("cannot write /nonexistent-dir/x: no such directory /nonexistent-dir"))
        let isDirectory = runCommand(["good", option, directory.path], catalog: testCatalog, executor: counter)
        #expect(isDirectory.code == ExitCode.usage)
        #expect(isDirectory.err.contains("cannot write \(directory.path): is a directory"))
        #expect(!isDirectory.err.contains("NSCocoaErrorDomain"))
        #expect(counter.runs == 0)
        #expect(missing.out.isEmpty && isDirectory.out.isEmpty)
    }

    @Test("run: a write that fails after a failed check prints the error and exits 1")
    func runWriteFailsAfterFailedCheck() throws {
        let directory = try temporaryDirectory()
        let junit = directory.appendingPathComponent("sub/x.xml")
        try FileManager.default.createDirectory(
            at: junit.deletingLastPathComponent(), withIntermediateDirectories: true)
        let output = runCommand(
            ["good", "--seed", "1", "--junit", junit.path], catalog: testCatalog, executor: RemovesDirectory(directory))
        #expect(output.code == ExitCode.checkFailed)
        #expect(output.err.contains("cannot write \(junit.path)"))
        #expect(output.out.contains("FAIL"))
    }

    @Test("sweep checks --csv, --json, --svg before any run, exit 2", arguments: ["--csv", "--json", "--svg"])
    func sweepChecksFirst(option: String) throws {
        let counter = CountingExecutor()
        let output = sweepCommand(
            ["scroll", "--profiles", "EDGE", "--seeds", "2", option, "/nonexistent-dir/x"], executor: counter)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("cannot write /nonexistent-dir/x: no such directory /nonexistent-dir"))
        #expect(counter.runs == 0)
    }

    @Test("sweep checks --svg-metric against the metric list before any run")
    func sweepChecksChartMetric() throws {
        let directory = try temporaryDirectory()
        let counter = CountingExecutor()
        let svg = directory.appendingPathComponent("x.svg").path
        let output = sweepCommand(
            ["scroll", "--profiles", "EDGE", "--seeds", "2", "--svg", svg, "--svg-metric", "speed"], executor: counter)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("--svg-metric: unknown metric 'speed'; metrics: "))
        #expect(counter.runs == 0)
    }

    @Test("sweep: a write that fails after a failed check prints the error and exits 1")
    func sweepWriteFailsAfterFailedCheck() throws {
        let directory = try temporaryDirectory()
        let csv = directory.appendingPathComponent("x.csv").path
        let output = sweepCommand(
            ["scroll", "--profiles", "EDGE", "--seeds", "2", "--csv", csv], executor: RemovesDirectory(directory))
        #expect(output.code == ExitCode.checkFailed)
        #expect(output.err.contains("cannot write \(csv)"))
        #expect(output.out.contains("runs failed a check"))
    }
}

@Suite struct StoreDirectoryTests {
    @Test("--store-dir refuses a foreign file a run would replace, before any run, with exit 2, and keeps it")
    func foreignFileRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let foreign = directory.appendingPathComponent("reconnect-during-send-seed1-bob.sqlite")
        try "not a database".write(to: foreign, atomically: true, encoding: .utf8)
        let output = syncsim(["run", "reconnect-during-send", "--seed", "1", "--store-dir", directory.path])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("reconnect-during-send-seed1-bob.sqlite: not an SQLite database"))
        #expect(output.out.isEmpty)
        #expect(try contents(foreign) == "not a database")
    }

    @Test("--store-dir creates only its last component: a missing parent is refused with exit 2, nothing made")
    func missingParentRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let parent = directory.appendingPathComponent("nonexist").path
        let store = parent + "/d"
        let output = syncsim(["run", "reconnect-during-send", "--seed", "1", "--store-dir", store])
        // Before: the parent was created as well, and the run went on (exit 0).
        #expect(output.code == ExitCode.usage, "\(output)")
        #expect(output.err.contains("cannot write \(store): no such directory \(parent)"), "\(output.err)")
        #expect(!FileManager.default.fileExists(atPath: parent))
        // With the parent there, the last component is made.
        let made = directory.appendingPathComponent("d").path
        #expect(syncsim(["run", "reconnect-during-send", "--seed", "1", "--store-dir", made]).code == 0)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: made, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test("--store-dir on a file is a usage error")
    func notADirectory() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("plain")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let output = syncsim(["run", "reconnect-during-send", "--seed", "1", "--store-dir", file.path])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("is not a directory"))
    }
}
