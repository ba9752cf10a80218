/// One metric of one sweep combination, aggregated over its seeds.
public struct MetricSummary: Hashable, Sendable {
    /// The metric.
    public var metric: SweepMetric
    /// How many runs reported it.
    public var count: Int
    /// The 10th percentile (type 7), or nil when no run reported the metric; likewise the others.
    public var p10: Double?
    /// The median.
    public var p50: Double?
    /// The 90th percentile.
    public var p90: Double?
    /// The 99th percentile.
    public var p99: Double?
    /// The mean, or nil.
    public var mean: Double?
    /// Lower end of the median's 95% bootstrap confidence interval (`SweepStatistics.medianConfidenceInterval`).
    public var p50Low: Double?
    /// Upper end of the median's 95% bootstrap confidence interval.
    public var p50High: Double?

    /// Aggregates `values` (one per run that reported the metric, in seed order).
    public init(metric: SweepMetric, values: [Double]) {
        self.metric = metric
        count = values.count
        guard !values.isEmpty else { return }
        let sorted = values.sorted()
        p10 = SweepStatistics.quantile(sorted, 0.10)
        p50 = SweepStatistics.quantile(sorted, 0.50)
        p90 = SweepStatistics.quantile(sorted, 0.90)
        p99 = SweepStatistics.quantile(sorted, 0.99)
        mean = SweepStatistics.mean(values)
        let interval = SweepStatistics.medianConfidenceInterval(values)
        p50Low = interval.low
        p50High = interval.high
    }
}
