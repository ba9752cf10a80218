/// A deterministic slice of a sweep's runs: shard `index` of `count` holds the runs whose index modulo `count` is
/// `index`, so shards are balanced across combinations and together cover every run exactly once.
///
/// Indices are 0-based, as Kubernetes' `JOB_COMPLETION_INDEX`.
public struct SweepShard: Hashable, Sendable, CustomStringConvertible {
    /// This shard, in `0..<count`.
    public var index: Int
    /// How many shards the sweep is split into, at least 1.
    public var count: Int

    /// The whole sweep as one shard.
    public static let whole = SweepShard(validIndex: 0, count: 1)

    private init(validIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `I/N` with `0 <= I < N`, `1 <= N <= 100000`.
    /// - Throws: `SweepError` naming the text and what was expected.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw SweepError.invalid("--shard '\(text)': expected I/N, e.g. 0/4 (I is 0-based)")
        }
        guard (1...100_000).contains(count) else {
            throw SweepError.invalid("--shard '\(text)': the shard count N must be in 1...100000")
        }
        guard (0..<count).contains(index) else {
            throw SweepError.invalid("--shard '\(text)': the shard index is 0-based, expected 0...\(count - 1)")
        }
        self.init(validIndex: index, count: count)
    }

    /// Whether the run with index `runIndex` belongs to this shard.
    public func contains(runIndex: Int) -> Bool { runIndex % count == index }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }
}
