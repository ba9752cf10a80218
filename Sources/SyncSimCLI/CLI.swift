/// Entry point of the `syncsim` command: parses `arguments` (without the program name) and runs a command.
///
/// Output goes to `console` so tests can run commands in-process and read what they printed.
/// - Returns: the process exit code: 0 success, 1 a failed check, 2 a usage or input error.
public func runSyncSim(arguments: [String], console: inout Console) -> Int32 {
    // Bare `syncsim` is a usage error: the command list goes to standard error, as every usage error's text does.
    guard let name = arguments.first else {
        console.err(CommandRegistry.overview())
        return ExitCode.usage
    }
    if name == "--version" {
        guard arguments.count == 1 else {
            console.err("syncsim: --version takes no arguments, got '\(arguments[1])'")
            return ExitCode.usage
        }
        console.out("syncsim \(SyncSimVersion.current)")
        return ExitCode.success
    }
    if name == "help" {
        guard arguments.count <= 2 else {
            console.err("syncsim help: expected at most one command name, got \(arguments.count - 1): "
                + arguments.dropFirst().joined(separator: " "))
            console.err("see 'syncsim help help'")
            return ExitCode.usage
        }
        guard arguments.count == 2 else {
            console.out(CommandRegistry.overview())
            return ExitCode.success
        }
        let topic = arguments[1]
        if topic == "help" || topic == "--help" || topic == "-h" {
            console.out(CommandRegistry.helpOfHelp)
            return ExitCode.success
        }
        guard let command = CommandRegistry.command(named: topic) else {
            console.err("syncsim help: \(CommandRegistry.unknownCommand(topic))")
            return ExitCode.usage
        }
        console.out(command.help)
        return ExitCode.success
    }
    if name == "--help" || name == "-h" {
        console.out(CommandRegistry.overview())
        return ExitCode.success
    }
    guard let command = CommandRegistry.command(named: name) else {
        console.err("syncsim: \(CommandRegistry.unknownCommand(name))")
        return ExitCode.usage
    }
    var list = ArgumentList(Array(arguments.dropFirst()))
    if list.hasHelpFlag {
        console.out(command.help)
        return ExitCode.success
    }
    do {
        return try command.run(&list, &console)
    } catch let error as UsageError {
        console.err("syncsim \(name): \(error)")
        console.err("see 'syncsim \(name) --help'")
        return ExitCode.usage
    } catch {
        console.err("syncsim \(name): \(error)")
        return ExitCode.usage
    }
}

/// Process exit codes shared by every command.
public enum ExitCode {
    /// The command did what was asked and every check passed.
    public static let success: Int32 = 0
    /// A check failed: an invariant was violated, a replay differed.
    public static let checkFailed: Int32 = 1
    /// Bad usage or bad input (a file that cannot be read or parsed).
    public static let usage: Int32 = 2
}

/// Where a command prints: standard output and standard error, or buffers in tests.
public struct Console {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    /// Whether standard error is a terminal (progress lines are shown only then).
    public var isInteractive: Bool
    /// The command as `reproduce:` lines print it: `syncsim` when that is on the PATH, else the path that works
    /// from the working directory (`.build/release/syncsim`); see `Console.programName(argument0:...)`.
    public var program = "syncsim"

    /// Creates a console writing through `out` and `err`; `isInteractive` enables progress lines.
    public init(isInteractive: Bool = false, out: @escaping (String) -> Void, err: @escaping (String) -> Void) {
        self.isInteractive = isInteractive
        self.writeOut = out
        self.writeErr = err
    }

    /// Prints one line (a newline is added) to standard output.
    public func out(_ line: String) { writeOut(line + "\n") }

    /// Prints one line (a newline is added) to standard error.
    public func err(_ line: String) { writeErr(line + "\n") }

    /// Writes text as is (no newline) to standard error; for progress lines that redraw with `\r`.
    public func errRaw(_ text: String) { writeErr(text) }
}

/// A command of `syncsim`: a name, its help text and what it does.
public struct CommandSpec: Sendable {
    /// The command's name as typed after `syncsim`.
    public var name: String
    /// One line for the overview.
    public var summary: String
    /// The full `--help` text: usage line, options with defaults, an example.
    public var help: String
    /// Runs the command on its remaining arguments, printing to the console, and returns the exit code.
    public var run: @Sendable (inout ArgumentList, inout Console) throws -> Int32

    /// Creates a command named `name` with its overview `summary`, `--help` text and `run` closure.
    public init(
        name: String,
        summary: String,
        help: String,
        run: @escaping @Sendable (inout ArgumentList, inout Console) throws -> Int32
    ) {
        self.name = name
        self.summary = summary
        self.help = help
        self.run = run
    }
}

/// A mistake in how a command was called; printed with a pointer to `--help`, exit code 2.
public struct UsageError: Error, Hashable, CustomStringConvertible {
    public var description: String

    /// Creates a usage error with the one-line message `description`.
    public init(_ description: String) { self.description = description }
}
