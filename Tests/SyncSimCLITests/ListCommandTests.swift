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
}
