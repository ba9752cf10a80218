import Foundation

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

    static func overview() -> String {
        var lines = [
            "syncsim: a deterministic network simulator and protocol test bench for a messenger's sync protocol.",
            "",
            "usage: syncsim COMMAND [OPTIONS]    (syncsim help COMMAND or syncsim COMMAND --help for its options)",
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
