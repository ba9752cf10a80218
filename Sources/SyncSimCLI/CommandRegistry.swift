import Foundation
import SyncSim

/// The list of `syncsim` commands. Add one line per command, in the order `--help` shows them.
enum CommandRegistry {
    static let all: [CommandSpec] = [
        // Commands are added here, one line each, e.g. `DecodeCommand.spec,`.
        ListCommand.spec,
        RunCommand.spec,
        DecodeCommand.spec,
        ProfilesCommand.spec,
        SweepCommand.spec,
        ExploreCommand.spec,
        MergeCommand.spec,
        TraceDecodeCommand.spec,
        ReplayCommand.spec,
        ServeCommand.spec,
        ClientCommand.spec,
        DSLReferenceCommand.spec,
    ]

    static var names: [String] { all.map(\.name) }

    static func command(named name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// `unknown command 'rnu' (did you mean 'run'?); commands: list, run, ...` (the suggestion only when one is
    /// close).
    static func unknownCommand(_ name: String) -> String {
        let hint = Suggestion.clause(for: name, among: names + ["help", "--help", "--version"])
        return "unknown command '\(name)'\(hint); commands: \(names.joined(separator: ", "))"
    }

    /// What `syncsim help help` prints.
    static let helpOfHelp = """
        usage: syncsim help [COMMAND]

        Without COMMAND, lists the commands (as `syncsim --help`); with one, prints that command's usage, options,
        exit codes and an example (as `syncsim COMMAND --help`). `syncsim --version` prints the version.
        `syncsim` alone prints the command list on standard error and exits 2, as a usage error.

        exit codes: 0 success, 2 an unknown command or more than one name

        example: syncsim help sweep
        """

    static func overview() -> String {
        var lines = [
            "syncsim: a deterministic network simulator and protocol test bench for a messenger's sync protocol.",
            "",
            "usage: syncsim COMMAND [OPTIONS]    (syncsim help COMMAND or syncsim COMMAND --help for its options)",
            "       syncsim --version",
            "",
            "commands:",
        ]
        let width = (all.map(\.name.count).max() ?? 0) + 2
        for command in all {
            lines.append("  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary)
        }
        lines.append("")
        lines.append("exit codes: 0 success, 1 a failed check, 2 a usage or input error")
        return lines.joined(separator: "\n")
    }
}
