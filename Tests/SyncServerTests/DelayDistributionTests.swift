import SimCore
import Testing
@testable import SyncServer

@Suite struct DelayDistributionTests {
    @Test("delay distributions draw within their bounds and never negative") func distributions() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<200 {
            let u = DelayDistribution.uniform(.milliseconds(10), .milliseconds(20)).draw(using: &generator)
            #expect(u >= .milliseconds(10) && u < .milliseconds(20))
            #expect(DelayDistribution.exponential(mean: .seconds(Int64(1))).draw(using: &generator) >= .zero)
        }
    }

    @Test("a fixed delay is exact and never negative") func fixed() {
        var generator = SeededGenerator(seed: 1)
        #expect(DelayDistribution.fixed(.milliseconds(5)).draw(using: &generator) == .milliseconds(5))
        #expect(DelayDistribution.fixed(.milliseconds(-5)).draw(using: &generator) == .zero)
    }
}
