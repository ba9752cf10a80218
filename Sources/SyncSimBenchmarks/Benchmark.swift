/// A benchmark: a name, one line of help, a parser that checks its arguments without running anything, and a body
/// that takes the arguments and prints its figures.
struct Benchmark: Sendable {
    var name: String
    var summary: String
    /// Parses the arguments and throws `BenchmarkUsageError` for any it does not take; runs nothing.
    var check: @Sendable ([String]) throws -> Void
    var run: @Sendable ([String]) throws -> Void
}

/// The benchmarks, one line each, in the order `--help` lists them.
let benchmarks: [Benchmark] = [
    WireBenchmark.benchmark,
    KernelBenchmark.benchmark,
    NetBenchmark.benchmark,
    SweepBenchmark.benchmark,
    TransferBenchmark.benchmark,
    FidelityBenchmark.benchmark,
    CatalogBenchmark.benchmark,
    DecodeBenchmark.benchmark,
    ScaleBenchmark.benchmark,
]
