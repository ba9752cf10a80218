import Foundation
import SyncSim
import Testing
@testable import SyncSimCLI

@Suite struct MergeCommandTests {
    private func shards(_ count: Int, grid: [String] = SweepCommandTests.grid, in directory: URL) -> [String] {
        (0..<count).map { index in
            let file = directory.appendingPathComponent("shard-\(index).jsonl").path
            _ = sweepCommand(grid + ["--shard", "\(index + 1)/\(count)", "--json", file])
            return file
        }
    }

    @Test("merge writes CSV and SVG identical to the unsharded sweep's")
    func reports() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = shards(3, in: directory)
        let csv = directory.appendingPathComponent("m.csv"), svg = directory.appendingPathComponent("m.svg")
        #expect(syncsim(["merge"] + files + ["--csv", csv.path, "--svg", svg.path]).code == 0)
        let wholeCSV = directory.appendingPathComponent("w.csv"), wholeSVG = directory.appendingPathComponent("w.svg")
        #expect(sweepCommand(SweepCommandTests.grid + ["--csv", wholeCSV.path, "--svg", wholeSVG.path]).code == 0)
        #expect(try contents(csv) == contents(wholeCSV))
        #expect(try contents(svg) == contents(wholeSVG))
    }

    @Test("merging shards with failed runs exits 1 and lists them as the unsharded sweep does")
    func failedRuns() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let executor = FailingSeedsExecutor(failingSeeds: [3])
        let files = (0..<2).map { index in
            let file = directory.appendingPathComponent("shard-\(index).jsonl").path
            let output = sweepCommand(
                SweepCommandTests.grid + ["--shard", "\(index + 1)/2", "--json", file], executor: executor
            )
            #expect(output.code == ExitCode.checkFailed)
            return file
        }
        let merged = syncsim(["merge"] + files)
        #expect(merged.code == ExitCode.checkFailed)
        #expect(merged.out.contains("8 of 40 runs failed a check:"))
        #expect(merged.out == sweepCommand(SweepCommandTests.grid, executor: executor).out)
    }

    @Test("a missing shard is an error naming the missing runs, exit 2")
    func missingShard() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = shards(4, in: directory)
        let output = syncsim(["merge"] + files.dropLast())
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("10 of 40 runs missing (3, 7, 11,"), "\(output.err)")
    }

    @Test("a shard given twice is an error naming both files, exit 2")
    func repeatedShard() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = shards(2, in: directory)
        let output = syncsim(["merge"] + files + [files[0]])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("\(files[0]) is given twice"), "\(output.err)")
        let copy = directory.appendingPathComponent("copy.jsonl").path
        try FileManager.default.copyItem(atPath: files[1], toPath: copy)
        let copied = syncsim(["merge"] + files + [copy])
        #expect(copied.code == ExitCode.usage)
        #expect(copied.err.contains("run 1 appears in both \(files[1]) and \(copy) (the same shard given twice?)"))
    }

    @Test("shards of different sweeps are refused, exit 2")
    func differentSweeps() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = shards(2, in: directory)[0]
        let other = directory.appendingPathComponent("other.jsonl").path
        _ = sweepCommand(["scroll", "--profiles", "EDGE", "--seeds", "3", "--shard", "1/2", "--json", other])
        let output = syncsim(["merge", first, other])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("describes a different sweep"), "\(output.err)")
    }

    @Test("an unreadable or malformed file is an error naming it, exit 2")
    func badFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.jsonl")
        try Data("{\"type\":\"sweep\"}\n".utf8).write(to: bad)
        let malformed = syncsim(["merge", bad.path])
        #expect(malformed.code == ExitCode.usage)
        #expect(malformed.err.contains("bad.jsonl:1: malformed sweep header: missing field"), "\(malformed.err)")
        let missing = syncsim(["merge", directory.appendingPathComponent("none.jsonl").path])
        #expect(missing.code == ExitCode.usage)
        #expect(missing.err.contains("cannot read"))
        #expect(syncsim(["merge"]).code == ExitCode.usage)
    }

    @Test("an empty or blank file is named as empty, not as lacking a sweep header line")
    func emptyFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("shard-1.jsonl")
        try Data().write(to: empty)
        let output = syncsim(["merge", empty.path])
        #expect(output.code == ExitCode.usage)
        #expect(output.err == "syncsim merge: \(empty.path): empty file (0 bytes), not sweep JSON lines\n")
        let blank = directory.appendingPathComponent("shard-2.jsonl")
        try Data("\n\n".utf8).write(to: blank)
        let blankOutput = syncsim(["merge", blank.path])
        #expect(blankOutput.code == ExitCode.usage)
        #expect(blankOutput.err.contains("shard-2.jsonl: only blank lines, no sweep JSON lines"), "\(blankOutput.err)")
    }
}
