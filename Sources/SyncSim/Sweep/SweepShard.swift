/// A deterministic slice of a sweep's runs: shard `number` of `count` holds the runs whose index modulo `count` is
/// `number - 1`, so shards are balanced across combinations and together cover every run exactly once.
///
/// Shards count from 1, as Playwright's, Jest's and Vitest's `--shard i/n` do: `1/4` ... `4/4`. (Kubernetes'
/// `JOB_COMPLETION_INDEX` is 0-based: pass `$((JOB_COMPLETION_INDEX + 1))/N`.)
public struct SweepShard: Hashable, Sendable, CustomStringConvertible {
    /// This shard's 0-based position, in `0..<count` (`number - 1`).
    public var index: Int
    /// How many shards the sweep is split into, at least 1.
    public var count: Int

    /// The whole sweep as one shard (`1/1`).
    public static let whole = SweepShard(validIndex: 0, count: 1)

    private init(validIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// The shard's 1-based number, in `1...count`, as written in `--shard number/count`.
    public var number: Int { index + 1 }

    /// Shard `number` (1-based) of `count`.
    /// - Throws: `SweepError` unless `1 <= count <= 100000` and `1 <= number <= count`.
    public init(number: Int, count: Int) throws {
        try self.init(parsing: "\(number)/\(count)")
    }

    /// Parses `i/n` with `1 <= i <= n`, `1 <= n <= 100000` (shards count from 1).
    /// - Throws: `SweepError` naming the text and what was expected; `0/n` says that shards count from 1.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let number = Int(parts[0]), let count = Int(parts[1]) else {
            throw SweepError.invalid("--shard '\(text)': expected i/n, e.g. 1/4 (shards count from 1)")
        }
        guard (1...100_000).contains(count) else {
            throw SweepError.invalid("--shard '\(text)': the shard count n must be in 1...100000")
        }
        if number == 0 {
            throw SweepError.invalid(
                "--shard '\(text)': shards count from 1 (as Playwright, Jest and Vitest), expected 1...\(count)"
            )
        }
        guard (1...count).contains(number) else {
            throw SweepError.invalid("--shard '\(text)': the shard number must be in 1...\(count)")
        }
        self.init(validIndex: number - 1, count: count)
    }

    /// Whether the run with 0-based index `runIndex` belongs to this shard.
    public func contains(runIndex: Int) -> Bool { runIndex % count == index }

    /// The elements of `items` at the positions this shard holds, in order.
    public func slice<Element>(_ items: [Element]) -> [Element] {
        items.indices.filter { contains(runIndex: $0) }.map { items[$0] }
    }

    /// `i/n`, 1-based.
    public var description: String { "\(number)/\(count)" }
}
