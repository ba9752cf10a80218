/// The run's pseudo-random generator: xoshiro256** seeded through SplitMix64.
///
/// Both algorithms are by Blackman and Vigna ("Scrambled Linear Pseudorandom Number Generators", 2018); the
/// seeding through SplitMix64 follows their recommendation. The sequence depends only on the seed, so a run is
/// reproducible in any process on any machine. Components never share a generator: each takes its own stream
/// from `RandomStreams`.
public struct SeededGenerator: RandomNumberGenerator, Hashable, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose whole sequence is fixed by `seed`.
    public init(seed: UInt64) {
        var splitMix = SplitMix64(state: seed)
        s0 = splitMix.next()
        s1 = splitMix.next()
        s2 = splitMix.next()
        s3 = splitMix.next()
    }

    /// The next 64 random bits of the xoshiro256** sequence.
    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let shifted = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= shifted
        s3 = rotateLeft(s3, 45)
        return result
    }

    /// A uniform draw in [0, 1) with 53 random bits.
    public mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `probability` (clamped to [0, 1]).
    public mutating func nextBernoulli(_ probability: Double) -> Bool {
        if probability <= 0 { return false }
        if probability >= 1 { return true }
        return nextUnitInterval() < probability
    }

    /// An exponentially distributed draw with the given mean (inverse transform sampling).
    public mutating func nextExponential(mean: Double) -> Double {
        -mean * log1mUniform()
    }

    private mutating func log1mUniform() -> Double {
        // 1 - u lies in (0, 1], so its logarithm is finite.
        var x = 1 - nextUnitInterval()
        // Natural logarithm by range reduction and the atanh series, in plain IEEE arithmetic: libm's `log` may
        // differ in the last bit between libm versions, and a draw must be the same on every machine.
        var result = 0.0
        while x < 0.5 { x *= 2; result -= 0.693_147_180_559_945_3 }
        let y = (x - 1) / (x + 1)
        let y2 = y * y
        var term = y
        var sum = 0.0
        var k = 1.0
        while abs(term / k) > 1e-17 {
            sum += term / k
            term *= y2
            k += 2
        }
        return result + 2 * sum
    }

    private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators", 2014): used only to expand
/// a 64-bit seed into xoshiro's 256-bit state and to derive stream seeds.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
