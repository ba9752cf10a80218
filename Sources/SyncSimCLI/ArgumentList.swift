import SyncSim

/// A command's arguments, consumed by name: options (`--seed 7`, `--seed=7`), flags (`--json`) and positionals.
///
/// Commands take what they know, then call `finish()`, which rejects anything left over, so a typo is an error
/// rather than silently ignored.
public struct ArgumentList: Sendable {
    private var remaining: [String]
    /// Every option and flag name the command asked for, in the order asked: what `finish()` suggests from.
    private var known: [String] = []

    /// Wraps the arguments after the command name, in the order given.
    public init(_ arguments: [String]) { self.remaining = arguments }

    /// Whether `--help` or `-h` was given.
    public var hasHelpFlag: Bool { remaining.contains("--help") || remaining.contains("-h") }

    /// Removes and returns every value of option `name` (with its leading dashes, e.g. `"--param"`), in order.
    /// - Throws: `UsageError` when the option is last with no value.
    public mutating func values(of name: String) throws -> [String] {
        known.append(name)
        guard let found = Self.take(name, from: &remaining, isValue: { !$0.hasPrefix("--") }) else {
            throw UsageError("option \(name) needs a value")
        }
        return found
    }

    /// Removes every `name VALUE` and `name=VALUE` from `arguments` and returns the values in order; nil (with
    /// `arguments` partly consumed) when `name` is last or followed by an argument `isValue` refuses. Shared with
    /// `syncsim-bench`'s strict argument reader.
    public static func take(_ name: String, from arguments: inout [String], isValue: (String) -> Bool) -> [String]? {
        var found: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == name {
                guard index + 1 < arguments.count, isValue(arguments[index + 1]) else { return nil }
                found.append(arguments[index + 1])
                arguments.removeSubrange(index...(index + 1))
            } else if argument.hasPrefix(name + "=") {
                found.append(String(argument.dropFirst(name.count + 1)))
                arguments.remove(at: index)
            } else {
                index += 1
            }
        }
        return found
    }

    /// Removes and returns the value of option `name`, or nil when absent.
    /// - Throws: `UsageError` when given twice or without a value.
    public mutating func value(of name: String) throws -> String? {
        let found = try values(of: name)
        guard found.count <= 1 else { throw UsageError("option \(name) given \(found.count) times") }
        return found.first
    }

    /// Removes option `name` and parses its value as an integer in `range`; nil when absent.
    /// - Throws: `UsageError` naming the option and the expected range.
    public mutating func int(
        _ name: String,
        in range: ClosedRange<Int> = Int.min...Int.max
    ) throws -> Int? {
        guard let text = try value(of: name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("option \(name): expected an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// Removes flag `name` and returns whether it was present.
    public mutating func flag(_ name: String) -> Bool {
        known.append(name)
        let before = remaining.count
        remaining.removeAll { $0 == name }
        return remaining.count != before
    }

    /// Removes and returns the positional arguments (everything not starting with `-`), in order.
    public mutating func positionals() -> [String] {
        let found = remaining.filter { !$0.hasPrefix("-") || $0 == "-" }
        remaining.removeAll { !$0.hasPrefix("-") || $0 == "-" }
        return found
    }

    /// Removes and returns the first positional argument, skipping the value after each option in `valueOptions`
    /// (so `--seeds 1..5 run.pcapng` gives `run.pcapng`); nil when there is none.
    public mutating func removeFirstPositional(valueOptions: Set<String>) -> String? {
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if valueOptions.contains(argument) {
                index += 2
            } else if argument.hasPrefix("-") && argument != "-" {
                index += 1
            } else {
                return remaining.remove(at: index)
            }
        }
        return nil
    }

    /// Ends parsing.
    /// - Throws: `UsageError` naming the first argument nobody took; for a misspelt option, with the closest option
    ///   the command asked for (`unknown option or extra argument '--sed' (did you mean '--seed'?)`).
    public func finish() throws {
        if let first = remaining.first {
            let typed = first.hasPrefix("--") ? String(first.prefix { $0 != "=" }) : ""
            let hint = typed.isEmpty ? "" : Suggestion.clause(for: typed, among: known)
            throw UsageError("unknown option or extra argument '\(first)'\(hint)")
        }
    }
}
