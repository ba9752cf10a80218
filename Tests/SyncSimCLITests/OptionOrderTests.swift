import Foundation
import Scenarios
import SyncSim
import Testing

@testable import SyncSimCLI

/// Unknown options and malformed values are named before any check between options (a missing required option,
/// two options that exclude each other), in every command.
@Suite struct OptionOrderTests {
    // MARK: unknown options and malformed values come first

    @Test("every command names an unknown option before any check between options", arguments: CommandRegistry.names)
    func unknownOptionFirst(command: String) {
        let output = syncsim([command, "--bogus"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("unknown option or extra argument '--bogus'"), "\(output.err)")
    }

    @Test("a malformed value or an unknown option is named before a missing or conflicting option", arguments: [
        (["explore", "--seed-base", "abc"], "option --seed-base: expected an integer"),
        (["explore", "--runs", "1", "--budget", "1s", "--bogus"], "unknown option or extra argument '--bogus'"),
        (["run", "--random-base", "5", "--bogus"], "unknown option or extra argument '--bogus'"),
        (["run", "--seed", "1", "--seeds", "1..2", "--bogus"], "unknown option or extra argument '--bogus'"),
        (["run", "--shrink-out", "x.swift", "--jobs", "0"], "option --jobs: expected an integer in 1...256"),
        (["sweep", "scroll", "--seeds", "abc"], "option --seeds: expected an integer"),
        (["sweep", "scroll", "--profile", "EDGE", "--bogus"], "unknown option or extra argument '--bogus'"),
        (["merge", "--metric", "chatOpenMilliseconds", "--all-metrics", "--bogus"], "unknown option or extra argument"),
        (["serve", "--seed", "x"], "option --seed: expected an integer"),
        (["client", "--port", "1", "--seed", "x"], "option --seed: expected an integer"),
        (["replay", "x.pcapng", "--against", "sideways"], "option --against: expected server or client"),
        (["replay", "/nonexistent.pcapng", "--run", "--bogus"], "unknown option or extra argument '--bogus'"),
        (["replay", "/nonexistent.pcapng", "--run", "--against", "server"], "give either --run or --against"),
        (["replay", "x.pcapng", "--emit-scenario", "x", "--client", "1.2.3.4"], "--client goes with --against client"),
    ])
    func malformedFirst(arguments: [String], message: String) {
        let output = syncsim(arguments)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains(message), "\(output.err)")
    }
}
