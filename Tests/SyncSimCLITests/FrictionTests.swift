import Foundation
import Scenarios
import SyncSim
import Testing
@testable import SyncSimCLI

/// The small inconsistencies a new user hit (issue 17's friction list), each pinned by its fix.
@Suite struct FrictionTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test("decode of a file that is neither a capture nor frames says so, with the first bytes")
    func decodeNonFrames() {
        let path = Self.fixtures.appendingPathComponent("wire/README.md").path
        let output = syncsim(["decode", path])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.hasPrefix("syncsim decode: \(path): not a capture or frame stream (first bytes: "), "\(output.err)")
        #expect(output.out.isEmpty)
    }

    @Test("every command words an unreadable input file the same way: cannot read FILE: reason", arguments: [
        ["decode"], ["trace-summary"], ["merge"], ["replay", "--against", "server"],
    ])
    func missingFile(command: [String]) {
        let path = "/nonexistent/syncsim-missing.bin"
        let output = syncsim(command + [path])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("cannot read \(path): "), "\(output.err)")
    }

    @Test("sweep --metric limits the printed blocks; metrics 0 in every run are hidden unless asked")
    func sweepMetrics() {
        let base = ["sweep", "open-and-scroll-to-start", "--profiles", "3G", "--seeds", "1"]
        let all = syncsim(base + ["--all-metrics"])
        let plain = syncsim(base)
        let one = syncsim(base + ["--metric", "chatOpenMilliseconds"])
        #expect(all.code == 0 && plain.code == 0 && one.code == 0, "\(plain.err)")
        let blocks = { (output: CommandOutput) in
            output.out.split(separator: "\n").filter { line in
                SweepMetric.all.contains { line.hasPrefix($0.name + " (") || line.hasPrefix($0.name + ":") }
            }.count
        }
        #expect(blocks(one) == 1)
        #expect(blocks(plain) < blocks(all))
        #expect(plain.out.contains("0 in every run, not shown (--all-metrics or --metric NAME shows them): "))
        #expect(!all.out.contains("0 in every run, not shown"))
        let unknown = syncsim(base + ["--metric", "speed"])
        #expect(unknown.code == ExitCode.usage)
        #expect(unknown.err.contains("--metric: unknown metric 'speed'; metrics: "))
    }

    @Test("sweep --client NAME --profile P pins that client's profile; the others follow --profiles")
    func sweepClientProfile() throws {
        var list = ArgumentList(["open-and-scroll-to-start", "--profiles", "EDGE", "--seeds", "1", "--client", "bob",
                                 "--profile", "GPRS"])
        let command = try SweepCommand(parsing: &list, catalog: Catalog.all)
        let combination = try #require(command.sweep.combinations.first)
        let applied = command.sweep.scenario(command.base, applying: combination)
        #expect(applied.client(named: "bob")?.profile == .gprs)
        #expect(applied.client(named: "alice")?.profile == .edge)
        #expect(command.sweep.reproduceCommand(command.sweep.runs()[0]).hasSuffix("--client bob --profile GPRS"))
        let header = SweepJSONLines.header(command.sweep, shard: nil)
        #expect(header.contains("\"clients\":[\"bob\"],\"clientProfile\":\"GPRS\","))
        let read = try SweepJSONLines.read(header + "\n", file: "x.jsonl")
        #expect(read.spec == command.sweep)
        let alone = syncsim(["sweep", "open-and-scroll-to-start", "--profiles", "EDGE", "--seeds", "1", "--profile", "GPRS"])
        #expect(alone.err.contains("--profile P sets the profile of the clients named by --client NAME"))
    }

    @Test("a client-name typo in a scenario lists the valid names")
    func clientTypo() {
        let scenario = Scenario("typo", summary: "s", seeds: [1]) {
            Client("alice", profile: .edge)
            Client("bob", profile: .edge)
            Timeline { At(.seconds(1)) { Send(from: "alcie", text: "hi", in: "alice+bob") } }
        }
        let problems = scenario.problems().map(\.description).joined(separator: "\n")
        #expect(problems.contains("alcie"), "\(problems)")
        #expect(problems.contains("alice, bob"), "\(problems)")
    }

    @Test("reproduce lines spell the command as it works here: syncsim on the PATH, else the checkout's path")
    func programName() {
        let triple = "/repo/.build/x86_64-unknown-linux-gnu/release/syncsim"
        let files = [
            "/usr/local/bin/syncsim": "/usr/local/bin/syncsim",
            triple: triple,
            "/repo/.build/release/syncsim": triple,
        ]
        func name(_ argument0: String, path: String) -> String {
            Console.programName(argument0: argument0, currentDirectory: "/repo", path: path, resolve: { files[$0] })
        }
        #expect(name("syncsim", path: "/usr/bin:/usr/local/bin") == "syncsim")
        #expect(name(triple, path: "/usr/bin") == ".build/release/syncsim")
        #expect(name(".build/release/syncsim", path: "/usr/bin") == ".build/release/syncsim")
        // `swift run` (so `make run`) starts the executable by the relative path with the triple in it.
        #expect(name(".build/x86_64-unknown-linux-gnu/release/syncsim", path: "/usr/bin") == ".build/release/syncsim")
        // Without the .build/release link there is nothing shorter that runs this build.
        #expect(name(".build/aarch64-unknown-linux-gnu/debug/syncsim", path: "/usr/bin")
            == ".build/aarch64-unknown-linux-gnu/debug/syncsim")
        #expect(name("/usr/local/bin/syncsim", path: "/usr/local/bin") == "syncsim")
        // Another syncsim on the PATH is not this one: keep the path that runs this build.
        #expect(name(triple, path: "/usr/local/bin") == ".build/release/syncsim")
        #expect(name("/opt/syncsim/bin/syncsim", path: "/usr/bin") == "/opt/syncsim/bin/syncsim")
    }

    @Test("a failed run's reproduce lines use the console's program name")
    func reproduceProgram() {
        final class Buffer: @unchecked Sendable { var out = "" }
        let buffer = Buffer()
        var console = Console(out: { buffer.out += $0 }, err: { buffer.out += $0 })
        console.program = ".build/release/syncsim"
        var list = ArgumentList(["bad", "--seed", "1"])
        let code = (try? RunCommand(parsing: &list, catalog: testCatalog))
            .map { (try? $0.execute(console: &console, executor: OddSeedsFail(), defaultRandomBase: { 1 })) ?? 2 }
        #expect(code == ExitCode.checkFailed)
        #expect(buffer.out.contains("  reproduce: .build/release/syncsim run bad --seed 1\n"))
        #expect(buffer.out.hasSuffix("reproduce:\n  .build/release/syncsim run bad --seed 1\n"))
    }
}
