/// One metric of one sweep combination, aggregated over its seeds.
public struct MetricSummary: Hashable, Sendable {
    /// The metric.
    public var metric: SweepMetric
    /// How many runs reported it.
    public var count: Int
    /// 10th, 50th, 90th and 99th percentiles (type 7), or nil when no run reported the metric.
    public var p10: Double?
    public var p50: Double?
    public var p90: Double?
    public var p99: Double?
    /// The mean, or nil.
    public var mean: Double?
    /// 95% bootstrap confidence interval of the median (`SweepStatistics.medianConfidenceInterval`), or nil.
    public var p50Low: Double?
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
