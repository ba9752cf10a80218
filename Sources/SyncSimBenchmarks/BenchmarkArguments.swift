/// Optional positional arguments of a benchmark (`syncsim-bench catalog 20`), parsed strictly: a value that is not
/// a number in range is an error naming the argument, never silently replaced by the default.
struct BenchmarkArguments {
    private let values: [String]
    private let benchmark: String

    init(_ values: [String], benchmark: String) {
        self.values = values
        self.benchmark = benchmark
    }

    /// The integer at `position` (0-based), or `defaultValue` when absent.
    /// - Throws: `BenchmarkUsageError` when present but not an integer in `range`.
    func integer(_ position: Int, _ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard position < values.count else { return defaultValue }
        guard let value = Int(values[position]), range.contains(value) else {
            throw BenchmarkUsageError(
                "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(values[position])'")
        }
        return value
    }

    /// Throws when more than `count` arguments were given.
    func expectAtMost(_ count: Int) throws {
        if values.count > count {
            throw BenchmarkUsageError("unexpected argument '\(values[count])'; see 'syncsim-bench \(benchmark) --help'")
        }
    }
}

/// A benchmark called with arguments it does not take; printed on stderr with exit code 2.
struct BenchmarkUsageError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}
