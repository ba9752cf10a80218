import Testing
@testable import SyncSim

@Suite struct SweepStatisticsTests {
    @Test(
        "quantiles interpolate linearly between closest ranks (type 7)",
        arguments: [(0.0, 1.0), (0.1, 1.3), (0.5, 2.5), (0.9, 3.7), (0.99, 3.97), (1.0, 4.0)]
    )
    func quantiles(q: Double, expected: Double) {
        #expect(abs(SweepStatistics.quantile([1, 2, 3, 4], q) - expected) < 1e-12)
    }

    @Test("a one-value sample has every quantile, the mean and the median interval equal to it")
    func singleValue() {
        #expect(SweepStatistics.quantile([7], 0.99) == 7)
        #expect(SweepStatistics.mean([7]) == 7)
        let interval = SweepStatistics.medianConfidenceInterval([7])
        #expect(interval.low == 7 && interval.high == 7)
    }

    @Test("the mean of 1, 2, 3, 4 is 2.5 and the median of an odd sample is its middle value")
    func meanAndMedian() {
        #expect(SweepStatistics.mean([1, 2, 3, 4]) == 2.5)
        #expect(SweepStatistics.quantile([1, 5, 9], 0.5) == 5)
    }

    @Test("the bootstrap interval of the median is deterministic, ordered, within the sample and holds the median")
    func bootstrap() {
        let values = (1...20).map { Double($0 * $0 % 37) }
        let first = SweepStatistics.medianConfidenceInterval(values)
        let second = SweepStatistics.medianConfidenceInterval(values)
        #expect(first == second)
        let median = SweepStatistics.quantile(values.sorted(), 0.5)
        #expect(first.low <= median && median <= first.high)
        #expect(values.min()! <= first.low && first.high <= values.max()!)
        #expect(first.low < first.high)
    }

    @Test("the bootstrap interval is pinned for a known sample (same on every machine)")
    func bootstrapPinned() {
        let interval = SweepStatistics.medianConfidenceInterval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        #expect(interval.low == 3.0 && interval.high == 8.0, "got \(interval)")
    }

    @Test("a constant sample has a zero-width interval")
    func constant() {
        let interval = SweepStatistics.medianConfidenceInterval([4, 4, 4, 4, 4])
        #expect(interval.low == 4 && interval.high == 4)
    }

    @Test("a metric summary reports count, percentiles, mean and the interval; none without values")
    func summary() {
        let summary = MetricSummary(metric: .reconnects, values: [4, 1, 3, 2])
        #expect(summary.count == 4)
        #expect(summary.p50 == 2.5 && summary.mean == 2.5)
        #expect(summary.p10.map { abs($0 - 1.3) < 1e-12 } == true)
        #expect(summary.p50Low != nil && summary.p50High != nil)
        let empty = MetricSummary(metric: .reconnects, values: [])
        #expect(empty.count == 0 && empty.p50 == nil && empty.mean == nil && empty.p50Low == nil)
    }
}
