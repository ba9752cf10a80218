import Testing
@testable import SyncSim

@Suite struct PlaceholderExecutorTests {
    @Test("FNV-1a 64 matches the published test vectors", arguments: [
        ("", UInt64(0xCBF2_9CE4_8422_2325)), ("a", 0xAF63_DC4C_8601_EC8C), ("foobar", 0x8594_4171_F739_67E8),
    ])
    func fnv(text: String, expected: UInt64) {
        var hash = FNV1a()
        hash.add(text)
        #expect(hash.value == expected)
    }

    @Test("the placeholder passes with a digest fixed by scenario, seed and mutant")
    func digest() {
        let scenario = Scenario("x", summary: "s", seeds: [1]) {}
        let executor = PlaceholderExecutor()
        let first = executor.run(scenario, seed: 1, options: RunOptions())
        #expect(first.verdict == .pass)
        #expect(first.digest == executor.run(scenario, seed: 1, options: RunOptions()).digest)
        #expect(first.digest != executor.run(scenario, seed: 2, options: RunOptions()).digest)
        #expect(first.digest != executor.run(scenario, seed: 1, options: RunOptions(mutant: "m")).digest)
        #expect(first.digestHex.count == 16)
        #expect(RunResult.hex(0xAB) == "00000000000000ab")
        #expect(first.reproduceCommand == "syncsim run x --seed 1")
    }
}
