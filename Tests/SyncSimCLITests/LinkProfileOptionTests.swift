import Foundation
import SyncSim
import Testing

@testable import SyncSimCLI

/// `--link-profiles FILE` on `profiles`, `sweep`, `merge` and `explore`, and explore's `--profiles`.
@Suite struct LinkProfileOptionTests {
    /// A file with one cell of the user's own: EDGE rates with bursty loss.
    static func cellFile(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("cells.json").path
        try Data("""
            {"profiles": [{"name": "EDGE-bursty", "source": "assumption",
              "downlink": {"rateBitsPerSecond": 240000, "oneWayDelayMs": 400,
                           "loss": {"gilbertElliott": {"p": 0.02, "r": 0.3, "oneMinusH": 0.2, "oneMinusK": 0.001}}},
              "uplink": {"rateBitsPerSecond": 200000, "oneWayDelayMs": 440, "jitter": {"uniformMaximumMs": 80},
                         "reordersPackets": true}}]}
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("profiles lists the file's profiles after the catalog's, with what they have beyond rate and delay")
    func profilesCommand() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = syncsim(["profiles", "--link-profiles", try Self.cellFile(in: directory)])
        #expect(output.code == 0, "\(output.err)")
        let lines = output.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 + 8 + 1)
        #expect(lines[0].contains("more (down / up)"))
        #expect(lines.last?.hasPrefix("EDGE-bursty") == true)
        #expect(lines.last?.contains("gilbert-elliott(p=2%,r=30%,1-h=20%,1-k=0.1%)") == true)
        #expect(lines.last?.contains("- / jitter uniform(0..80ms), reorders") == true)
    }

    @Test("--link-profiles is repeatable: each file's profiles are added; a name two files define is refused")
    func severalFiles() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cells = try Self.cellFile(in: directory)
        let more = directory.appendingPathComponent("more.json").path
        try Data("""
            [{"name": "satellite-slow", "source": "assumption",
              "uplink": {"rateBitsPerSecond": 64000, "oneWayDelayMs": 300},
              "downlink": {"rateBitsPerSecond": 128000, "oneWayDelayMs": 300}}]
            """.utf8).write(to: URL(fileURLWithPath: more))
        let output = syncsim(["profiles", "--link-profiles", cells, "--link-profiles", more])
        #expect(output.code == 0, "\(output.err)")
        let lines = output.out.split(separator: "\n").map(String.init)
        #expect(lines.suffix(2).map { String($0.prefix(14)) } == ["EDGE-bursty   ", "satellite-slow"], "\(lines)")

        let explore = syncsim(["explore", "--runs", "1", "--seed-base", "70", "--shrink-runs", "0",
                               "--link-profiles", cells, "--link-profiles", more, "--profiles", "satellite-slow"])
        #expect(explore.code == 0, "\(explore.out)\(explore.err)")
        #expect(explore.out.contains("--link-profiles \(cells) --link-profiles \(more) --profiles satellite-slow"))

        let twice = syncsim(["profiles", "--link-profiles", cells, "--link-profiles", cells])
        #expect(twice.code == ExitCode.usage)
        #expect(twice.err.contains("--link-profiles: 'EDGE-bursty' is defined in \(cells) and in \(cells)"), "\(twice.err)")
    }

    @Test("a malformed file is an input error naming the file and the JSON path", arguments: ["profiles", "explore"])
    func malformed(command: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.json").path
        try Data("[{\"name\": \"x\", \"source\": \"s\", \"uplink\": {}}]".utf8).write(to: URL(fileURLWithPath: path))
        let extra = command == "explore" ? ["--runs", "1"] : []
        let output = syncsim([command, "--link-profiles", path] + extra)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("\(path): profiles[0].uplink.rateBitsPerSecond: missing"), "\(output.err)")
        let missing = syncsim([command, "--link-profiles", directory.appendingPathComponent("none.json").path] + extra)
        #expect(missing.code == ExitCode.usage && missing.err.contains("none.json: no such file"), "\(missing.err)")
    }

    @Test("sweep runs on a profile of the file; its reproduce line and a merge of its shards name it")
    func sweep() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cells = try Self.cellFile(in: directory)
        let grid = ["sweep", "open-and-scroll-to-start", "--link-profiles", cells, "--profiles", "edge-bursty,EDGE",
                    "--seeds", "2", "--seed-base", "3"]
        let whole = directory.appendingPathComponent("whole.jsonl")
        let unsharded = syncsim(grid + ["--json", whole.path])
        #expect(unsharded.code == 0, "\(unsharded.err)")
        #expect(unsharded.out.contains("EDGE-bursty"))
        let text = try contents(whole)
        #expect(text.contains("\"linkProfileFile\":\"\(cells)\",\"linkProfiles\":[\"EDGE-bursty\"]"))
        #expect(text.contains("syncsim sweep open-and-scroll-to-start --link-profiles \(cells) --profiles EDGE-bursty"))
        // The cell differs from EDGE: its runs are not copies of EDGE's.
        let digests = text.split(separator: "\n").filter { $0.contains("\"type\":\"run\"") }
            .map { $0.components(separatedBy: "\"digest\":").last!.prefix(18) }
        #expect(Set(digests).count == 4)
        let shards = (0..<2).map { directory.appendingPathComponent("shard-\($0).jsonl").path }
        for (index, file) in shards.enumerated() {
            #expect(syncsim(grid + ["--shard", "\(index + 1)/2", "--json", file]).code == 0)
        }
        let merged = directory.appendingPathComponent("merged.jsonl")
        let output = syncsim(["merge"] + shards + ["--json", merged.path])
        #expect(output.code == 0, "\(output.err)")
        #expect(try contents(merged) == text)
        let unknown = syncsim(["sweep", "open-and-scroll-to-start", "--profiles", "EDGE-bursty", "--seeds", "1"])
        #expect(unknown.code == ExitCode.usage && unknown.err.contains("unknown profile 'EDGE-bursty'"))
    }

    @Test("explore puts clients on the chosen profiles, and its repeat line names the options")
    func explore() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cells = try Self.cellFile(in: directory)
        let output = syncsim(["explore", "--runs", "2", "--seed-base", "70", "--shrink-runs", "0",
                              "--link-profiles", cells, "--profiles", "EDGE-bursty"])
        #expect(output.code == 0, "\(output.out)\(output.err)")
        #expect(output.out.contains(
            "repeat: syncsim explore --seed-base 70 --runs 2 --link-profiles \(cells) --profiles EDGE-bursty"))
        let command = try ExploreCommand.startProfiles(names: ["EDGE-bursty"], own: LinkProfileFile.parse(
            Data(contentsOf: URL(fileURLWithPath: cells)), file: cells))
        #expect(command?.map(\.name) == ["EDGE-bursty"])
        // Its bursts are short (q 0.14: 15 s more tail): no notice.
        #expect(!output.err.contains("long bursts"), "\(output.err)")
    }

    @Test("explore says on stderr when a cell's long loss bursts lengthen the quiet tail; the report is the same")
    func exploreBurstNotice() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bursty.json").path
        try Data("""
            {"profiles": [{"name": "fading", "source": "assumption",
              "downlink": {"rateBitsPerSecond": 150000, "oneWayDelayMs": 300},
              "uplink": {"rateBitsPerSecond": 100000, "oneWayDelayMs": 300,
                         "loss": {"gilbertElliott": {"p": 0.02, "r": 0.1, "oneMinusH": 0.9, "oneMinusK": 0}}}}]}
            """.utf8).write(to: URL(fileURLWithPath: path))
        let output = syncsim(["explore", "--runs", "1", "--seed-base", "70", "--shrink-runs", "0",
                              "--link-profiles", path, "--profiles", "fading"])
        #expect(output.code == 0, "\(output.out)\(output.err)")
        #expect(output.err.contains("explore: profile 'fading' loses packets in long bursts (uplink "
            + "gilbert-elliott(p=2%,r=10%,1-h=90%,1-k=0%)); each run's quiet tail waits up to 3247s more for one to "
            + "pass (docs/models.md)"), "\(output.err)")
        #expect(!output.out.contains("long bursts"))
    }

    @Test("explore refuses an unknown, repeated or offline --profiles entry", arguments: [
        (["--profiles", "5G"], "--profiles: unknown profile '5G' (did you mean '3G'?); profiles: 2G-rural"),
        (["--profiles", "EDGF"], "--profiles: unknown profile 'EDGF' (did you mean 'EDGE'?); profiles: 2G-rural"),
        (["--profiles", "EDGE,edge"], "--profiles: 'EDGE' given twice"),
        (["--profiles", "offline"], "--profiles: clients cannot start offline"),
    ])
    func badProfiles(arguments: [String], message: String) {
        let output = syncsim(["explore", "--runs", "1"] + arguments)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains(message), "\(output.err)")
    }

    @Test("explore refuses a profile with random outages: they would go on in the quiet tail")
    func randomOutages() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("flaky.json").path
        try Data("""
            [{"name": "flaky", "source": "s", "uplink": {"rateBitsPerSecond": 100000, "oneWayDelayMs": 1},
              "downlink": {"rateBitsPerSecond": 100000, "oneWayDelayMs": 1,
                           "outages": {"random": {"meanIntervalMs": 60000, "meanLengthMs": 1000}}}}]
            """.utf8).write(to: URL(fileURLWithPath: path))
        let output = syncsim(["explore", "--runs", "1", "--link-profiles", path])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("profile 'flaky': its downlink has random outages"), "\(output.err)")
    }

    @Test("explore refuses links on which no engine converges: too slow, too lossy, too delayed", arguments: [
        ("\"rateBitsPerSecond\": 0, \"oneWayDelayMs\": 1", "its uplink takes 3600s to send a 1,500-byte packet"),
        ("\"rateBitsPerSecond\": 1000, \"oneWayDelayMs\": 1", "its uplink takes 12s to send a 1,500-byte packet"),
        ("\"rateBitsPerSecond\": 100000, \"oneWayDelayMs\": 1, \"loss\": {\"bernoulli\": 1}",
         "its uplink loses 100% of packets in the long run"),
        ("\"rateBitsPerSecond\": 100000, \"oneWayDelayMs\": 3600000", "its uplink's one-way delay reaches 3600s"),
    ])
    func unusableLinks(uplink: String, message: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.json").path
        try Data("""
            [{"name": "bad", "source": "s", "uplink": {\(uplink)},
              "downlink": {"rateBitsPerSecond": 100000, "oneWayDelayMs": 1}}]
            """.utf8).write(to: URL(fileURLWithPath: path))
        let output = syncsim(["explore", "--runs", "1", "--link-profiles", path, "--profiles", "bad"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("profile 'bad': \(message)"), "\(output.err)")
        // The same link is the user's to sweep.
        #expect(syncsim(["profiles", "--link-profiles", path]).code == 0)
    }

    @Test("sweep names the scenario's own profiles, and refuses a file profile of the same name")
    func scenarioOwnProfiles() throws {
        let own = syncsim(["sweep", "bursty-reordering-cell", "--profiles", "edge-bursty-reordering,EDGE",
                           "--seeds", "1", "--metric", "reconnects"])
        #expect(own.code == 0, "\(own.err)")
        #expect(own.out.contains("EDGE-bursty-reordering"))
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("clash.json").path
        try Data("""
            [{"name": "EDGE-bursty-reordering", "source": "s", "uplink": {"rateBitsPerSecond": 20000, "oneWayDelayMs": 900},
              "downlink": {"rateBitsPerSecond": 20000, "oneWayDelayMs": 900}}]
            """.utf8).write(to: URL(fileURLWithPath: path))
        let clash = syncsim(["sweep", "bursty-reordering-cell", "--link-profiles", path, "--profiles",
                             "EDGE-bursty-reordering", "--seeds", "1"])
        #expect(clash.code == ExitCode.usage)
        #expect(clash.err.contains("'EDGE-bursty-reordering' is also a link profile of scenario bursty-reordering-cell"),
                "\(clash.err)")
    }

    @Test("merge takes shards whose file was named by other paths, and refuses shards of other figures")
    func mergeByContents() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cells = try Self.cellFile(in: directory)
        let other = directory.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let changed = other.appendingPathComponent("cells.json").path
        try Data(try contents(URL(fileURLWithPath: cells)).replacingOccurrences(of: "\"p\": 0.02", with: "\"p\": 0.2")
            .utf8).write(to: URL(fileURLWithPath: changed))
        let grid = ["sweep", "open-and-scroll-to-start", "--profiles", "EDGE-bursty", "--seeds", "2"]
        let first = directory.appendingPathComponent("1.jsonl").path
        let second = directory.appendingPathComponent("2.jsonl").path
        let third = directory.appendingPathComponent("3.jsonl").path
        #expect(syncsim(grid + ["--link-profiles", cells, "--shard", "1/2", "--json", first]).code == 0)
        #expect(syncsim(grid + ["--link-profiles", directory.path + "/./cells.json", "--shard", "2/2", "--json", second])
            .code == 0)
        #expect(syncsim(grid + ["--link-profiles", changed, "--shard", "2/2", "--json", third]).code == 0)
        let same = syncsim(["merge", first, second])
        #expect(same.code == 0, "\(same.err)")
        let differing = syncsim(["merge", first, third])
        #expect(differing.code == ExitCode.usage)
        #expect(differing.err.contains("its header differs in the link profiles' figures"), "\(differing.err)")
    }
}
