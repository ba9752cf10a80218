import Testing
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
