/// The statistics a sweep reports per combination and metric: percentiles, the mean, and a bootstrap confidence
/// interval for the median.
public enum SweepStatistics {
    /// Bootstrap resamples per confidence interval.
    public static let bootstrapResamples = 1_000
    /// Seed of the bootstrap's generator; every interval starts from it (see `medianConfidenceInterval`).
    public static let bootstrapSeed: UInt64 = 0x5357_4545_5042_4F4F

    /// The `q` quantile of `sorted` by linear interpolation between closest ranks (Hyndman and Fan's type 7,
    /// the default of R and NumPy): position `h = (n - 1)·q`, value
    /// `x[⌊h⌋] + (h - ⌊h⌋)·(x[⌊h⌋+1] - x[⌊h⌋])`.
    /// - Parameters:
    ///   - sorted: the sample in ascending order, not empty.
    ///   - q: the quantile in 0...1 (0.5 for the median).
    public static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        precondition(!sorted.isEmpty && (0...1).contains(q), "quantile of an empty sample or q outside 0...1")
        let position = Double(sorted.count - 1) * q
        let lower = Int(position.rounded(.down))
        let fraction = position - Double(lower)
        guard lower + 1 < sorted.count, fraction > 0 else { return sorted[lower] }
        return sorted[lower] + fraction * (sorted[lower + 1] - sorted[lower])
    }

    /// The arithmetic mean of a non-empty sample, summed in the given order.
    public static func mean(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "mean of an empty sample")
        return values.reduce(0, +) / Double(values.count)
    }

    /// A 95% percentile-bootstrap confidence interval for the median (Efron and Tibshirani, "An Introduction to
    /// the Bootstrap", 1993, §13.3).
    ///
    /// Method: draw `resamples` samples of `n` values with replacement (indices uniform via a `SeededGenerator`
    /// seeded with `bootstrapSeed`), take each resample's median (type 7), and return the 2.5% and 97.5%
    /// quantiles (type 7) of those medians. The generator starts afresh for every interval, so with the same
    /// sample size every combination uses the same resample indices: over the sweep's common seeds the intervals
    /// are paired, and the result depends only on `values` and their order.
    /// - Parameters:
    ///   - values: one value per seed, in seed order, not empty.
    ///   - resamples: how many resamples (default `bootstrapResamples`).
    /// - Returns: (low, high); both equal the value when `values` holds one value.
    public static func medianConfidenceInterval(
        _ values: [Double],
        resamples: Int = bootstrapResamples
    ) -> (low: Double, high: Double) {
        precondition(!values.isEmpty && resamples > 0, "bootstrap of an empty sample")
        var generator = SeededGenerator(seed: bootstrapSeed)
        let count = values.count
        var medians: [Double] = []
        medians.reserveCapacity(resamples)
        var resample = [Double](repeating: 0, count: count)
        for _ in 0..<resamples {
            for slot in 0..<count { resample[slot] = values[Int(generator.next() % UInt64(count))] }
            resample.sort()
            medians.append(quantile(resample, 0.5))
        }
        medians.sort()
        return (quantile(medians, 0.025), quantile(medians, 0.975))
    }
}
