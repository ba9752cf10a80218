import Testing

@testable import SyncSimBenchmarks

/// `syncsim-bench` argument parsing: every benchmark rejects unknown options, extra arguments, malformed values and
/// zero or negative counts with a message naming the argument, before it runs anything.
@Suite struct BenchmarkArgumentsTests {
    /// The message of the usage error `body` throws; nil when it throws none.
    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as BenchmarkUsageError {
            return error.description
        } catch {
            return "not a usage error: \(error)"
        }
    }

    static func benchmark(_ name: String) throws -> Benchmark {
        try #require(benchmarks.first { $0.name == name })
    }

    @Test("every benchmark names an unknown option as such", arguments: benchmarks.map(\.name))
    func unknownOption(name: String) throws {
        let benchmark = try Self.benchmark(name)
        let text = Self.message { try benchmark.check(["--bogus"]) }
        #expect(text?.hasPrefix("unknown option '--bogus'") == true, "\(text ?? "accepted")")
        #expect(text?.contains("see 'syncsim-bench \(name) --help'") == true)
    }

    @Test("every benchmark refuses an argument it does not take", arguments: [
        ("wire", ["100", "2", "extra"]), ("kernel", ["100", "10", "extra"]), ("net", ["10", "1", "extra"]),
        ("sweep", ["1", "1", "extra"]), ("catalog", ["1", "extra"]), ("decode", ["1", "1", "extra"]),
        ("scale", ["--runs", "10:1", "extra"]), ("fidelity", ["extra"]),
        ("transfer", ["1000", "100", "100", "10", "0", "1", "100", "200", "extra"]),
    ])
    func extraArgument(name: String, arguments: [String]) throws {
        let benchmark = try Self.benchmark(name)
        let text = Self.message { try benchmark.check(arguments) }
        #expect(text?.hasPrefix("unexpected argument 'extra'") == true, "\(text ?? "accepted")")
    }

    @Test("malformed, zero and negative values are errors naming the argument", arguments: [
        ("decode", ["abc"], "MEGABYTES must be an integer in 1...100000, got 'abc'"),
        ("decode", ["0"], "MEGABYTES must be an integer in 1...100000, got '0'"),
        ("decode", ["1", "abc"], "ROUNDS must be an integer in 1...1000, got 'abc'"),
        ("decode", ["1", "0"], "ROUNDS must be an integer in 1...1000, got '0'"),
        ("decode", ["-5"], "MEGABYTES must be an integer in 1...100000, got '-5'"),
        ("wire", ["2000", "0"], "ROUNDS must be an integer in 1...10000, got '0'"),
        ("kernel", ["1000", "x"], "K must be an integer in 1...10000000, got 'x'"),
        ("net", ["0"], "CLIENTS must be an integer in 1...1000000, got '0'"),
        ("sweep", ["1", "-1"], "JOBS must be an integer in 1...256, got '-1'"),
        ("catalog", ["1.5"], "SEEDS must be an integer in 1...100000, got '1.5'"),
        ("scale", ["--runs", "10:0"], "option --runs: expected CLIENTS:MINUTES"),
        ("scale", ["--runs", "10:1,"], "option --runs: expected CLIENTS:MINUTES"),
        ("scale", ["--runs"], "option --runs needs a value"),
        ("scale", ["--send-every", "0"], "option --send-every: expected an integer in 1...86400, got '0'"),
        ("scale", ["--seed", "-1"], "option --seed: expected an integer"),
        ("scale", ["--check-every", "0"], "option --check-every: expected an integer in 1...1000000, got '0'"),
        ("scale", ["--seed", "1", "--seed", "2"], "option --seed given 2 times"),
        ("fidelity", ["--seeds", "0"], "option --seeds: expected an integer in 1...1000000, got '0'"),
        ("fidelity", ["--tcp", "reno"], "option --tcp: expected linux, ns3 or ns3+VARIANT[+VARIANT...], got 'reno'"),
        ("fidelity", ["--cells"], "option --cells needs a value"),
        ("transfer", ["1000", "100", "100", "10", "0"], "missing SEED"),
        ("transfer", ["1000.5", "100", "100", "10", "0", "1"], "BYTES must be a whole number in 1...1000000000000"),
        ("transfer", ["1000", "100", "100", "10", "0", "1.5"], "SEED must be a whole number"),
        ("transfer", ["1000", "0", "100", "10", "0", "1"], "DOWN_KBPS must be a number in"),
        ("transfer", ["1000", "100", "100", "10", "1", "1"], "LOSS must be a number in 0...0.999, got '1'"),
    ])
    func malformed(name: String, arguments: [String], expected: String) throws {
        let benchmark = try Self.benchmark(name)
        let text = Self.message { try benchmark.check(arguments) }
        #expect(text?.contains(expected) == true, "\(text ?? "accepted")")
    }

    @Test("good arguments parse to what they say; absent ones take the defaults")
    func goodArguments() throws {
        #expect(try DecodeBenchmark.parse([]) == (100, 3))
        #expect(try DecodeBenchmark.parse(["2", "1"]) == (2, 1))
        #expect(try KernelBenchmark.parse(["1000"]).pendingCounts == [1_000, 100_000])
        #expect(try KernelBenchmark.parse(["1000", "5"]).pendingCounts == [5])
        let scale = try ScaleBenchmark.parse(["--runs=10:1,20:2", "--seed", "7"])
        #expect(scale.plans.map(\.clients) == [10, 20])
        #expect(scale.sendEverySeconds == 180)
        #expect(scale.seed == 7)
        #expect(scale.checkEvery == 1)
        #expect(try ScaleBenchmark.parse(["--check-every", "10"]).checkEvery == 10)
        let fidelity = try FidelityBenchmark.parse(["--seeds", "3", "--cells", "EDGE"])
        #expect(fidelity.seedCount == 3)
        #expect(fidelity.cellFilter == "EDGE")
        let transfer = try TransferBenchmark.parse(["--trace", "1000", "100", "100", "10", "0.01", "4"])
        #expect(transfer.isTraced)
        #expect(transfer.1 == 4)
        #expect(transfer.0.bytes == 1_000)
        #expect(transfer.0.queueCapacityPackets == 100)
    }
}
