import Testing
@testable import SyncSimCLI

@Suite struct ProfilesCommandTests {
    private func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        var out = ""
        var err = ""
        var console = Console(out: { out += $0 }, err: { err += $0 })
        let code = runSyncSim(arguments: arguments, console: &console)
        return (code, out, err)
    }

    @Test("prints every catalog profile with its source")
    func table() {
        let result = run(["profiles"])
        #expect(result.code == 0)
        #expect(result.err.isEmpty)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 + 8)
        #expect(lines[0].hasPrefix("profile"))
        let edge = lines.first { $0.hasPrefix("EDGE ") }
        #expect(edge?.contains("240") == true && edge?.contains("ATC profile Edge-Average") == true)
        #expect(lines.contains { $0.hasPrefix("4G ") && $0.contains("1638.4") && $0.contains("mobileSlow4G") })
        #expect(lines.contains { $0.hasPrefix("EDGE-lossy") && $0.contains("bernoulli(1%)") })
    }

    @Test("rejects extra arguments with exit code 2")
    func extraArgument() {
        let result = run(["profiles", "--bogus"])
        #expect(result.code == 2)
        #expect(result.err.contains("--bogus"))
    }

    @Test("--help describes the command")
    func help() {
        let result = run(["profiles", "--help"])
        #expect(result.code == 0 && result.out.contains("usage: syncsim profiles"))
    }
}
