/// PLACEHOLDER until the simulated world exists: runs nothing and reports a pass.
///
/// Its digest is 64-bit FNV-1a over the scenario name, a zero byte, the seed (8 bytes little-endian) and, when
/// given, a zero byte and the mutant name, so it is deterministic and differs per (scenario, seed, mutant). Its
/// one metric, `scheduledSteps`, counts the timeline's steps. Replace it with the world's executor.
public struct PlaceholderExecutor: ScenarioExecutor {
    /// Creates the placeholder executor; it has no state.
    public init() {}

    /// Returns a pass without simulating anything (see the type's note).
    public func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        var hash = FNV1a()
        hash.add(scenario.name)
        hash.add(0)
        withUnsafeBytes(of: seed.littleEndian) { hash.add(bytes: $0) }
        if let mutant = options.mutant {
            hash.add(0)
            hash.add(mutant)
        }
        let trace = options.recordsTrace
            ? ["placeholder executor: scenario \(scenario.name) seed \(seed) was not simulated"] : []
        return RunResult(
            scenario: scenario.name,
            seed: seed,
            mutant: options.mutant,
            digest: hash.value,
            metrics: [Metric("scheduledSteps", Double(scenario.steps.count))],
            trace: trace
        )
    }
}

/// 64-bit FNV-1a (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3).
public struct FNV1a: Hashable, Sendable {
    /// The hash of everything added so far.
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// Starts a hash at the FNV-1a 64-bit offset basis.
    public init() {}

    /// Adds one byte.
    public mutating func add(_ byte: UInt8) {
        value ^= UInt64(byte)
        value &*= 0x0000_0100_0000_01B3
    }

    /// Adds bytes in order.
    public mutating func add(bytes: UnsafeRawBufferPointer) { for byte in bytes { add(byte) } }

    /// Adds the string's UTF-8 bytes.
    public mutating func add(_ text: String) { for byte in text.utf8 { add(byte) } }
}
