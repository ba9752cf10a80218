import Testing
import SyncSim
@testable import SyncSimCLI

@Suite struct SyncSimCLISmokeTests {
    @Test("module builds and links") func builds() {
        #expect(Bool(true))
    }

    @Test("help COMMAND prints that command's help, like COMMAND --help", arguments: ["run", "sweep", "merge", "list"])
    func helpCommand(name: String) {
        let viaHelp = syncsim(["help", name])
        let viaFlag = syncsim([name, "--help"])
        #expect(viaHelp.code == 0)
        #expect(viaHelp.out == viaFlag.out)
        #expect(viaHelp.out.hasPrefix("usage: syncsim \(name)"))
    }

    @Test("help with an unknown command is a usage error")
    func helpUnknown() {
        let output = syncsim(["help", "frobnicate"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("unknown command 'frobnicate'"))
    }

    @Test("help help explains help; help with two names is a usage error")
    func helpHelp() {
        let output = syncsim(["help", "help"])
        #expect(output.code == ExitCode.success, "\(output.err)")
        #expect(output.out.hasPrefix("usage: syncsim help [COMMAND]"))
        #expect(syncsim(["help"]).out == syncsim(["--help"]).out)
        let two = syncsim(["help", "run", "sweep"])
        #expect(two.code == ExitCode.usage)
        #expect(two.err.hasPrefix("syncsim help: expected at most one command name, got 2: run sweep\n"))
    }

    @Test("--version prints the package version")
    func version() {
        let output = syncsim(["--version"])
        #expect(output.code == ExitCode.success)
        #expect(output.out == "syncsim \(SyncSimVersion.current)\n")
        #expect(syncsim(["--version", "run"]).code == ExitCode.usage)
    }

    @Test("bare syncsim prints the command list on stderr and exits 2, as a usage error")
    func bare() {
        let output = syncsim([])
        #expect(output.code == ExitCode.usage)
        #expect(output.out.isEmpty)
        #expect(output.err.hasPrefix("syncsim: a deterministic network simulator"))
    }

    @Test("a misspelt command gets the closest one suggested", arguments: [
        ("rnu", "run"), ("lsit", "list"), ("swep", "sweep"), ("trace", "trace-summary"), ("--verison", "--version"),
        ("explroe", "explore"),
    ])
    func commandSuggestion(typed: String, suggested: String) {
        let output = syncsim([typed])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.hasPrefix("syncsim: unknown command '\(typed)' (did you mean '\(suggested)'?); commands: "),
                "\(output.err)")
    }

    @Test("a command far from every name gets no suggestion; help names the closest too")
    func noSuggestion() {
        #expect(syncsim(["frobnicate"]).err.hasPrefix("syncsim: unknown command 'frobnicate'; commands: "))
        #expect(syncsim(["help", "sweeep"]).err.hasPrefix("syncsim help: unknown command 'sweeep' (did you mean "
            + "'sweep'?)"))
    }

    @Test("a misspelt long option gets the closest option of its command", arguments: [
        (["run", "--sed", "4"], "--sed", "--seed"),
        (["sweep", "x", "--profils", "EDGE"], "--profils", "--profiles"),
        (["explore", "--run=3"], "--run=3", "--runs"),
        (["list", "--jsno"], "--jsno", "--json"),
    ])
    func optionSuggestion(arguments: [String], typed: String, suggested: String) {
        let output = syncsim(arguments)
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("unknown option or extra argument '\(typed)' (did you mean '\(suggested)'?)"),
                "\(output.err)")
    }

    @Test("edit distance counts an adjacent swap as one edit")
    func editDistance() {
        #expect(Suggestion.editDistance("rnu", "run") == 1)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.closest(to: "xyz", among: ["run", "list"]) == nil)
    }

    @Test("sweep's usage line shows --param as optional; merge --help describes its report options")
    func helpTexts() {
        let sweep = syncsim(["sweep", "--help"]).out
        #expect(sweep.contains("[--param NAME=V1,V2,... ...]"))
        #expect(!sweep.contains("SCENARIO --param"))
        let merge = syncsim(["merge", "--help"]).out
        for option in ["--csv FILE", "--json FILE", "--svg FILE", "--svg-metric METRIC"] {
            #expect(merge.contains("  \(option)"))
        }
        for line in (sweep + "\n" + merge).split(separator: "\n") { #expect(line.count <= 120, "\(line)") }
    }
}
