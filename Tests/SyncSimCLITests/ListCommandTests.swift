import Foundation
import Scenarios
import SyncSim
import Testing
@testable import SyncSimCLI

@Suite struct ListCommandTests {
    @Test("list prints every catalog scenario with its summary, in catalog order")
    func list() {
        let output = syncsim(["list"])
        #expect(output.code == 0)
        let lines = output.out.split(separator: "\n").map(String.init)
        #expect(lines.count == Catalog.all.count)
        for (line, scenario) in zip(lines, Catalog.all) {
            #expect(line.hasPrefix(scenario.name + " "))
            #expect(line.hasSuffix(scenario.summary))
            let seeds = "seeds " + scenario.seeds.map(String.init).joined(separator: ",")
            #expect(line.contains(" \(seeds) "), "\(line)")
        }
    }

    @Test("list --mutants prints each mutant and the scenarios that catch it")
    func mutants() {
        let output = syncsim(["list", "--mutants"])
        #expect(output.code == 0)
        for mutant in Mutant.all { #expect(output.out.contains(mutant.name + " ")) }
        #expect(output.out.contains("caught by: login-rejected-backoff-grows"))
    }

    @Test("list rejects unknown options with exit 2")
    func unknownOption() {
        let output = syncsim(["list", "--bogus"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("unknown option or extra argument '--bogus'"))
    }

    @Test("list --mutants --json prints one JSON array of the mutants")
    func listMutantsJSON() throws {
        let output = syncsim(["list", "--mutants", "--json"])
        #expect(output.code == ExitCode.success)
        let array = try #require(try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [[String: Any]])
        #expect(array.map { $0["name"] as? String } == Mutant.all.map(\.name))
        #expect(array.allSatisfy { $0["summary"] is String && $0["caughtBy"] is [String] })
    }

    @Test("list --mutants takes no scenario selection", arguments: [
        ["--tag", "slow"], ["--grep", "x"], ["--shard", "1/2"], ["gprs-*"],
    ])
    func listMutantsRefusesSelection(arguments: [String]) {
        let output = syncsim(["list", "--mutants"] + arguments)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("--mutants lists the engine mutants"))
    }

    @Test("list --shard i/n shows the runs of that shard; the shards together show every pinned run once")
    func listShard() throws {
        var runs: [String] = []
        for index in 1...3 {
            let output = syncsim(["list", "--shard", "\(index)/3", "--json"])
            #expect(output.code == ExitCode.success)
            let array = try #require(try JSONSerialization.jsonObject(with: Data(output.out.utf8)) as? [[String: Any]])
            for object in array {
                let name = try #require(object["name"] as? String)
                for seed in try #require(object["seeds"] as? [Int]) { runs.append("\(name)#\(seed)") }
            }
        }
        let all = Catalog.all.flatMap { scenario in scenario.seeds.map { "\(scenario.name)#\($0)" } }
        #expect(runs.sorted() == all.sorted())
        #expect(syncsim(["list", "--shard", "0/3"]).code == ExitCode.usage)
    }
}
