import SimCore
/// A whole sweep's results: every run, each combination's metric summaries, and the best combination per profile.
///
/// Built from the records of every run (one process, or shards merged); the same records give the same report,
/// byte for byte, in every format.
public struct SweepReport: Sendable {
    /// The sweep.
    public var spec: SweepSpec
    /// Every run, in run order.
    public var records: [SweepRunRecord]
    /// The metrics the report shows: the known ones some run reported (in `SweepMetric.all` order), then any
    /// other names the executor reported, in first-seen order.
    public var metrics: [SweepMetric]
    /// Per combination (in sweep order), one summary per entry of `metrics`.
    public var summaries: [[MetricSummary]]
    /// Per profile (in `spec.profiles` order), the combination index with the lowest median of the objective, or
    /// nil when no run reported the objective. Ties go to the earlier combination.
    public var best: [Int?]

    /// Aggregates a complete set of records.
    /// - Throws: `SweepError` when a run is missing, appears twice, or does not match the sweep's plan.
    public init(spec: SweepSpec, records unordered: [SweepRunRecord]) throws {
        self.spec = spec
        let expected = spec.runs()
        var slots = [SweepRunRecord?](repeating: nil, count: expected.count)
        for record in unordered {
            guard expected.indices.contains(record.index) else {
                throw SweepError.invalid("run \(record.index) is outside the sweep's \(expected.count) runs")
            }
            let run = expected[record.index]
            guard record.combination == run.combination, record.seed == run.seed else {
                throw SweepError.invalid(
                    "run \(record.index): combination \(record.combination.index) seed \(record.seed) does not match "
                        + "the sweep's plan (combination \(run.combination.index) seed \(run.seed))"
                )
            }
            guard slots[record.index] == nil else { throw SweepError.invalid("run \(record.index) appears twice") }
            slots[record.index] = record
        }
        let missing = slots.indices.filter { slots[$0] == nil }
        guard missing.isEmpty else {
            let shown = missing.prefix(10).map(String.init).joined(separator: ", ")
            throw SweepError.invalid(
                "\(missing.count) of \(expected.count) runs missing (\(shown)\(missing.count > 10 ? ", ..." : "")); "
                    + "is a shard file missing?"
            )
        }
        let ordered = slots.compactMap { $0 }
        records = ordered

        var names = SweepMetric.all.map(\.name).filter { name in ordered.contains { $0.value(of: name) != nil } }
        for record in ordered {
            for metric in record.metrics where !names.contains(metric.name) && metric.value.isFinite {
                names.append(metric.name)
            }
        }
        metrics = names.map(SweepMetric.named)

        let combinations = spec.combinations
        let seedCount = spec.seedCount
        let summaries = combinations.map { combination in
            let runs = ordered[(combination.index * seedCount)..<((combination.index + 1) * seedCount)]
            return names.map { name in
                MetricSummary(metric: SweepMetric.named(name), values: runs.compactMap { $0.value(of: name) })
            }
        }
        self.summaries = summaries

        let objective = names.firstIndex(of: spec.objective)
        best = spec.profiles.map { profile in
            guard let objective else { return nil }
            var chosen: (index: Int, median: Double)?
            for combination in combinations where combination.profile == profile {
                guard let median = summaries[combination.index][objective].p50 else { continue }
                if chosen.map({ median < $0.median }) ?? true { chosen = (combination.index, median) }
            }
            return chosen?.index
        }
    }

    /// Whether combination `index` is the best of its profile.
    public func isBest(_ index: Int) -> Bool { best.contains(index) }

    /// The digest of every run's trace digest in run order (`FNV1a64.digestHex(ofDigests:)`): one value to compare
    /// two sweeps by; the JSON lines hold each run's.
    public var runsDigest: String { FNV1a64.digestHex(ofDigests: records.map(\.digest)) }

    /// How many runs failed a check.
    public var failedRuns: Int { records.filter { $0.verdict == .fail }.count }
}
