import SyncSimCLI

/// The arguments of one benchmark (`syncsim-bench catalog 20`, `syncsim-bench scale --runs 1000:60`), parsed
/// strictly and in one way for every benchmark: options first (`--seed 7` or `--seed=7`), then at most the named
/// positionals. An unknown option, an option without its value or given twice, a value that is not a number in
/// range, and an argument nobody takes are errors naming the argument, never replaced by a default or ignored.
///
/// Use: take the options (`value(of:)`, `flag(_:)`, `integer(option:in:)`), then `finishOptions(positionals:)`,
/// then read the positionals (`integer(_:_:default:in:)`, `number(_:_:in:)`).
struct BenchmarkArguments {
    private var remaining: [String]
    private var positionals: [String] = []
    private var positionalNames: [String] = []
    private let benchmark: String

    init(_ values: [String], benchmark: String) {
        self.remaining = values
        self.benchmark = benchmark
    }

    /// Whether `argument` is an option (`--seed`, `-x`) rather than a value; `-5` and `-0.5` are values, so a
    /// negative number is reported as out of range, not as an unknown option.
    static func isOption(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument != "-" && Double(argument) == nil
    }

    /// `see 'syncsim-bench NAME --help'`, the pointer every usage error ends with.
    private var helpPointer: String { "see 'syncsim-bench \(benchmark) --help'" }

    private func error(_ message: String) -> BenchmarkUsageError {
        BenchmarkUsageError("\(message); \(helpPointer)")
    }

    /// Removes option `name` (with its dashes, `"--seed"`) and returns its value; nil when absent.
    /// - Throws: `BenchmarkUsageError` when the option is given twice or has no value.
    mutating func value(of name: String) throws -> String? {
        guard let found = ArgumentList.take(name, from: &remaining, isValue: { !Self.isOption($0) }) else {
            throw error("option \(name) needs a value")
        }
        guard found.count <= 1 else { throw error("option \(name) given \(found.count) times") }
        return found.first
    }

    /// Removes flag `name` and returns whether it was given.
    mutating func flag(_ name: String) -> Bool {
        let before = remaining.count
        remaining.removeAll { $0 == name }
        return remaining.count != before
    }

    /// Removes option `name` and parses its value as an integer in `range`; nil when absent.
    /// - Throws: `BenchmarkUsageError` naming the option, the range and the value.
    mutating func integer(option name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = try value(of: name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw error(
                "option \(name): expected an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// Ends the options: what is left must be positionals, at most one per name in `names` (in order).
    /// - Throws: `BenchmarkUsageError` for the first unknown option, or the first argument past `names`.
    mutating func finishOptions(positionals names: [String] = []) throws {
        if let option = remaining.first(where: Self.isOption) { throw error("unknown option '\(option)'") }
        if remaining.count > names.count {
            let takes = names.isEmpty ? "takes no positional arguments"
                : "takes at most \(names.count) (\(names.joined(separator: " ")))"
            throw error("unexpected argument '\(remaining[names.count])': \(benchmark) \(takes)")
        }
        positionals = remaining
        positionalNames = names
        remaining = []
    }

    /// How many positionals were given (after `finishOptions`).
    var positionalCount: Int { positionals.count }

    /// - Throws: `BenchmarkUsageError` naming the first of the first `count` positionals that is missing.
    func requirePositionals(_ count: Int) throws {
        if positionals.count < count {
            throw error("missing \(positionalNames[positionals.count]): \(benchmark) needs "
                + positionalNames.prefix(count).joined(separator: " "))
        }
    }

    /// The positional integer at `position` (0-based), or `defaultValue` when absent.
    /// - Throws: `BenchmarkUsageError` when present but not an integer in `range`.
    func integer(_ position: Int, _ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard position < positionals.count else { return defaultValue }
        guard let value = Int(positionals[position]), range.contains(value) else {
            throw error("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), "
                + "got '\(positionals[position])'")
        }
        return value
    }

    /// The positional number at `position` (0-based), or `defaultValue` when absent; with `integral`, a whole number.
    /// - Throws: `BenchmarkUsageError` when present but not a number in `range` (or not whole when `integral`).
    func number(
        _ position: Int, _ name: String, default defaultValue: Double? = nil, in range: ClosedRange<Double>,
        integral: Bool = false
    ) throws -> Double {
        guard position < positionals.count else {
            guard let defaultValue else { throw error("missing \(name)") }
            return defaultValue
        }
        let text = positionals[position]
        guard let value = Double(text), range.contains(value), !integral || value == value.rounded() else {
            let kind = integral ? "a whole number" : "a number"
            let bounds = "\(Self.format(range.lowerBound))...\(Self.format(range.upperBound))"
            throw error("\(name) must be \(kind) in \(bounds), got '\(text)'")
        }
        return value
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// A benchmark called with arguments it does not take; printed on stderr with exit code 2.
struct BenchmarkUsageError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
