import SyncSim

/// The `--shard i/n` option that `sweep`, `run` and `explore` share: shards count from 1, as Playwright's, Jest's
/// and Vitest's do, and `0/n` is refused with a message saying so.
///
/// A command takes the items it would run (runs, jobs, seeds) in a fixed order and keeps `shard.slice(items)`:
/// item k (0-based) belongs to shard `k % n + 1`, so the n shards together run every item exactly once.
enum ShardOption {
    /// The line for a command's `--help` options block.
    static let helpLine = "--shard i/n          run only slice i of n (1-based, 1/4 ... 4/4): item k goes to shard k % n + 1"

    /// Removes `--shard` from `list` and parses it; nil when absent.
    /// - Throws: `UsageError` for a malformed value, `0/n` ("shards count from 1"), or `i > n`.
    static func parse(_ list: inout ArgumentList) throws -> SweepShard? {
        guard let text = try list.value(of: "--shard") else { return nil }
        return try parse(text)
    }

    /// Parses `i/n`.
    /// - Throws: `UsageError` for a malformed value, `0/n` ("shards count from 1"), or `i > n`.
    static func parse(_ text: String) throws -> SweepShard {
        try UsageError.fromSweepOptions { try SweepShard(parsing: text) }
    }
}
