/// Derives an independent generator per component from (run seed, component name).
///
/// Adding a client or a fault does not shift anyone else's draws, and sweeps compare parameters on common random
/// numbers. The name is hashed with 64-bit FNV-1a over its UTF-8 bytes (never Swift's `Hasher`, which is seeded
/// per process), mixed with the run seed through SplitMix64.
public struct RandomStreams: Hashable, Sendable {
    /// The run's seed, as printed with every run.
    public let runSeed: UInt64

    /// The streams of the run seeded with `runSeed`.
    public init(runSeed: UInt64) { self.runSeed = runSeed }

    /// The generator for the component called `name` (for example `"link.alice.down"`).
    public func stream(_ name: String) -> SeededGenerator {
        SeededGenerator(seed: Self.streamSeed(runSeed: runSeed, name: name))
    }

    /// The seed of the stream called `name`; stable across processes and machines.
    public static func streamSeed(runSeed: UInt64, name: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        var mix = SplitMix64(state: runSeed ^ hash)
        _ = mix.next()
        return mix.next() ^ hash
    }
}
