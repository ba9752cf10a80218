import Foundation
import Scenarios
import SyncSim
import Testing
@testable import SyncSimCLI

/// `run`'s CI conventions: `--shard i/n` from 1, name patterns, `--grep`, `--tag`; and `list --json`.
@Suite struct RunSelectionTests {
    /// The verdict lines (`PASS  name  seed N  digest D`, `FAIL ...`) of a run's output, in order.
    private func verdicts(_ output: CommandOutput) -> [String] {
        output.out.split(separator: "\n").map(String.init).filter { $0.hasPrefix("PASS ") || $0.hasPrefix("FAIL ") }
    }

    @Test("--shard 1/4 ... 4/4 over run reproduces the unsharded verdicts, each run exactly once")
    func shardsCoverTheRun() {
        let whole = runCommand(["--seeds", "1..7"], catalog: testCatalog, executor: OddSeedsFail())
        #expect(whole.code == ExitCode.checkFailed)
        var sharded: [String] = []
        var failed = 0
        for number in 1...4 {
            let output = runCommand(
                ["--seeds", "1..7", "--shard", "\(number)/4"], catalog: testCatalog, executor: OddSeedsFail()
            )
            #expect(output.out.contains("; shard \(number)/4"), "\(output.out)")
            if output.code == ExitCode.checkFailed { failed += 1 }
            sharded += verdicts(output)
        }
        #expect(verdicts(whole).count == 14)
        #expect(sharded.sorted() == verdicts(whole).sorted())
        #expect(failed > 0)
    }

    @Test("in the world, the shards of a tagged catalog slice give the unsharded digests and verdicts")
    func worldShards() {
        let whole = syncsim(["run", "--tag", "connection", "--jobs", "2"])
        var sharded: [String] = []
        for number in 1...3 {
            let output = syncsim(["run", "--tag", "connection", "--shard", "\(number)/3"])
            #expect(output.code == whole.code)
            sharded += verdicts(output)
        }
        #expect(!verdicts(whole).isEmpty)
        #expect(sharded.sorted() == verdicts(whole).sorted())
    }

    @Test("shard and selection mistakes exit 2 with a message saying what is wrong", arguments: [
        (["run", "--shard", "0/4"], "--shard '0/4': shards count from 1 (as Playwright, Jest and Vitest), expected 1...4"),
        (["run", "--shard", "5/4"], "the shard number must be in 1...4"),
        (["run", "--shard", "4"], "expected i/n, e.g. 1/4"),
        (["run", "--shard", "1/2", "--random", "3"], "--shard with --random needs --random-base B"),
        (["run", "zz*"], "no scenario matches pattern 'zz*'"),
        (["run", "--tag", "nope"], "--tag nope: no catalog scenario has this tag; tags: connection, field-bug,"),
        (["run", "--tag", "histroy"], "--tag histroy: no catalog scenario has this tag (did you mean 'history'?); tags:"),
        (["run", "--grep", "no such words here"], "no scenario matches --grep 'no such words here'"),
        (["run", "photo-*", "--tag", "connection"], "no scenario matches photo-* --tag connection"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let output = syncsim(arguments)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains(message), "\(output.err)")
    }

    @Test("name patterns, --grep and --tag select scenarios in catalog order", arguments: [
        (["photo-*"], ["photo-on-2g-link-drop", "photo-echo-through-lost-answer", "photo-kill-at-send"]),
        (["*-restart"], ["server-restart", "half-open-switch-then-restart", "long-offline-sat-restart",
                         "seq4-jittery-server-restart", "twelve-hours-skewed-restart",
                         "b38-held-send-answer-over-restart"]),
        (["server-restar?"], ["server-restart"]),
        (["server-restart", "*-restart"], ["server-restart", "half-open-switch-then-restart", "long-offline-sat-restart",
                                           "seq4-jittery-server-restart", "twelve-hours-skewed-restart",
                                           "b38-held-send-answer-over-restart"]),
        (["--grep", "HALF-OPEN"], ["half-open-connection", "half-open-switch-then-restart", "seq4-slow-sends-half-open",
                                   "twelve-hours-skewed-restart", "tiny-pages-four-gaps-up-down"]),
        (["--tag", "photo"], ["photo-on-2g-link-drop", "crash-mid-photo-upload", "gsm-data-photo-queue",
                              "bursty-handover-sat-photos",
                              "tablet-photos-phone-scrolls", "slow-tokens-while-scrolling",
                              "lost-tokens-and-send-answer", "seq2-photo-mark-open", "restart-mid-photos-handover",
                              "crash-processing-offline-subkbit", "restart-mid-album-flapping", "bloat-album-crash-reset",
                              "hours-offline-photos-gsm-restarts", "photo-echo-through-lost-answer",
                              "photo-kill-at-send", "b38-album-kill-at-second-token", "b38-two-devices-photo-kill"]),
        (["--tag", "field-bug", "--tag", "connection", "--grep", "restart"],
         ["stuck-send-flushes-after-handover", "half-open-switch-then-restart"]),
    ])
    func selects(arguments: [String], names: [String]) throws {
        var list = ArgumentList(arguments)
        let command = try RunCommand(parsing: &list, catalog: Catalog.all)
        #expect(command.scenarios.map(\.name) == names)
    }

    @Test("wildcards match the whole name: * any run of characters, ? exactly one", arguments: [
        ("gprs-send", "gprs-*", true), ("gprs", "gprs-*", false), ("a-gprs-b", "*gprs*", true),
        ("abc", "a?c", true), ("ac", "a?c", false), ("abcbc", "a*bc", true), ("abcbd", "a*bc", false),
        ("", "*", true), ("x", "", false),
    ])
    func wildcard(name: String, pattern: String, expected: Bool) {
        #expect(ScenarioSelection.matches(name, pattern: pattern) == expected)
    }

    @Test("every catalog scenario declares at least one tag, and list shows them")
    func catalogTags() {
        #expect(Catalog.all.allSatisfy { !$0.tags.isEmpty })
        let output = syncsim(["list", "--tag", "slow"])
        #expect(output.code == 0)
        #expect(output.out.contains("group-chat-100-mixed "))
        #expect(output.out.contains("[history,slow]"))
    }

    @Test("list --json prints name, seeds, tags, summary and source location for each scenario")
    func listJSON() throws {
        let output = syncsim(["list", "--json"])
        #expect(output.code == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [[String: Any]]
        let objects = try #require(parsed)
        #expect(objects.count == Catalog.all.count)
        for (object, scenario) in zip(objects, Catalog.all) {
            #expect(object["name"] as? String == scenario.name)
            #expect((object["seeds"] as? [Int])?.map(UInt64.init) == scenario.seeds)
            #expect(object["tags"] as? [String] == scenario.tags.map(\.name))
            #expect(object["summary"] as? String == scenario.summary)
            #expect(object["file"] as? String == scenario.location.fileID)
            #expect(object["line"] as? Int == scenario.location.line)
        }
        #expect((objects.first?["file"] as? String)?.hasPrefix("Scenarios/") == true)
        #expect(output.out.split(separator: "\n").count == Catalog.all.count)
    }

    @Test("list takes run's selection, so it shows what that run would run")
    func listSelection() {
        let output = syncsim(["list", "*-restart", "--json"])
        #expect(output.out.hasPrefix("[{\"name\":\"server-restart\""))
        #expect(output.out.split(separator: "\n").count == 6)
    }

    @Test("tags round-trip through dslSource")
    func tagsInDSL() {
        let scenario = Scenario("t", summary: "s", seeds: [1], tags: [.slow, "nightly", .slow]) {
            Client("a", profile: .wifi)
        }
        #expect(scenario.tags == ["nightly", .slow])
        #expect(scenario.dslSource().hasPrefix("Scenario(\"t\", summary: \"s\", seeds: [1], tags: [\"nightly\", \"slow\"])"))
    }
}
