import Foundation
import SyncSim
import Testing

@testable import SyncSimCLI

/// `explore --save DIR` never overwrites a file that holds another scenario of the same seed (an earlier search with
/// other parameters or another mutant): it writes the next variant beside it, with its own property and scenario
/// names, and reuses a file that already holds the same text.
@Suite struct ExploreSaveTests {
    static func failure(seed: UInt64, steps: Int) -> ExploreFailure {
        let generated = ExploreGenerator().generate(seed: seed)
        var shrunk = generated.scenario
        shrunk.steps = Array(shrunk.steps.prefix(steps))
        shrunk.name = "explore-\(seed)"
        let violation = Violation(check: .invariant(.T2), time: .start, expected: "one", found: "two")
        let result = RunResult(scenario: shrunk.name, seed: seed, digest: 0, violations: [violation])
        let outcome = ExploreOutcome(exploreCase: generated, result: result, simulated: .seconds(1), events: 1)
        return ExploreFailure(outcome: outcome, check: .invariant(.T2), shrunk: shrunk, shrinkRuns: 3)
    }

    @Test("a second, different scenario of the same seed goes to Explore<seed>-2.swift; the first stays as it was")
    func keepsEarlierFile() throws {
        let directory = NSTemporaryDirectory() + "syncsim-explore-save-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try OutputFile.prepareDirectory(directory)
        let first = Self.failure(seed: 7, steps: 2)
        let second = Self.failure(seed: 7, steps: 1)

        let firstPath = try #require(try ExploreCommand.save(first, mutant: nil, in: directory))
        #expect(firstPath == directory + "/Explore7.swift")
        let firstText = try String(contentsOfFile: firstPath, encoding: .utf8)

        let secondPath = try #require(try ExploreCommand.save(second, mutant: "seq-reuse-inflight", in: directory))
        #expect(secondPath == directory + "/Explore7-2.swift")
        #expect(try String(contentsOfFile: firstPath, encoding: .utf8) == firstText)
        let secondText = try String(contentsOfFile: secondPath, encoding: .utf8)
        #expect(secondText.contains("    public static let explore7_2 = Scenario(\"explore-7-2\""))
        #expect(secondText.contains("add\n// `explore7_2` to"))

        // The same text again is the same file, not a third one.
        #expect(try ExploreCommand.save(first, mutant: nil, in: directory) == firstPath)
        #expect(try ExploreCommand.save(second, mutant: "seq-reuse-inflight", in: directory) == secondPath)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            == ["Explore7-2.swift", "Explore7.swift"])
    }

    @Test("a failure that was not shrunk writes no file")
    func unshrunkWritesNothing() throws {
        var failure = Self.failure(seed: 9, steps: 1)
        failure.shrunk = nil
        #expect(try ExploreCommand.save(failure, mutant: nil, in: NSTemporaryDirectory()) == nil)
    }
}
