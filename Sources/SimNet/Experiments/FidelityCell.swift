import SimCore

/// One cell of the ns-3 fidelity grid: a link shape, a transfer size and a loss rate, with ns-3's figures over its
/// seeds (a row of `Fixtures/fidelity/ns3-reference.csv`, written by the project's ns-3 tool `grid.py`).
public struct FidelityCell: Hashable, Sendable {
    /// Profile name as in the grid, e.g. `EDGE`.
    public var profile: String
    /// Rate towards the phone, kbit/s.
    public var downlinkKilobitsPerSecond: Int
    /// Rate from the phone, kbit/s.
    public var uplinkKilobitsPerSecond: Int
    /// Propagation delay each way, ms.
    public var oneWayDelayMilliseconds: Int
    /// Application bytes transferred.
    public var bytes: Int
    /// Per-packet loss probability, each direction.
    public var lossProbability: Double
    /// Seeds 1...`seeds` were run.
    public var seeds: Int
    /// ns-3's completion time percentiles over the seeds, ms (linear interpolation between order statistics).
    public var reference: TransferPercentiles
    /// ns-3's median event count.
    public var referenceMedianEvents: Int
    /// ns-3's completion time per seed, ms, in seed order (from the samples CSV); empty when not known.
    public var referenceSamples: [Double] = []

    /// A cell with its reference figures.
    public init(profile: String, downlinkKilobitsPerSecond: Int, uplinkKilobitsPerSecond: Int,
                oneWayDelayMilliseconds: Int, bytes: Int, lossProbability: Double, seeds: Int,
                reference: TransferPercentiles, referenceMedianEvents: Int) {
        self.profile = profile
        self.downlinkKilobitsPerSecond = downlinkKilobitsPerSecond
        self.uplinkKilobitsPerSecond = uplinkKilobitsPerSecond
        self.oneWayDelayMilliseconds = oneWayDelayMilliseconds
        self.bytes = bytes
        self.lossProbability = lossProbability
        self.seeds = seeds
        self.reference = reference
        self.referenceMedianEvents = referenceMedianEvents
    }

    /// The same transfer in SimNet.
    public var experiment: TransferExperiment {
        TransferExperiment(bytes: bytes, downlinkRateBitsPerSecond: downlinkKilobitsPerSecond * 1_000,
                           uplinkRateBitsPerSecond: uplinkKilobitsPerSecond * 1_000,
                           oneWayDelay: .milliseconds(Int64(oneWayDelayMilliseconds)), lossProbability: lossProbability)
    }

    /// Whether the cell has no random loss (it may still lose packets to queue overflow).
    public var isLossless: Bool { lossProbability == 0 }

    /// The allowed relative error of our median against ns-3's: 5% for lossless cells, 15% for lossy ones (the
    /// tolerances of the fidelity issue; lossy medians over 20 seeds move by more than 5% between seed sets).
    public var tolerance: Double { isLossless ? 0.05 : 0.15 }

    /// `EDGE 100000 B 5%`.
    public var label: String {
        let percent = lossProbability * 100
        let loss = percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
        return "\(profile) \(bytes) B \(loss)"
    }

    /// Runs the cell's transfer for seeds `1...seedCount` and summarizes the completion times.
    /// - Parameters:
    ///   - seedCount: seeds to run (default: as many as the reference).
    ///   - tcp: the connection model (default `.ns3Reference`).
    ///   - activeQueue: what holds packets at a full queue (default CoDel, as ns-3).
    /// - Returns: percentiles in ms (runs that did not finish count as one hour) and the median event count.
    public func run(seedCount: Int? = nil, tcp: TCPConfiguration = .ns3Reference,
                    activeQueue: ActiveQueueManagement = .ns3Default)
        -> (percentiles: TransferPercentiles, medianEvents: Int) {
        let (times, events) = runSeeds(seedCount: seedCount, tcp: tcp, activeQueue: activeQueue)
        return (TransferPercentiles(times), Int(TransferPercentiles(events).median))
    }

    /// Runs the cell's transfer for seeds `1...seedCount`, as `run`.
    /// - Returns: the completion time per seed in ms (one hour when a run did not finish) and the event counts.
    public func runSeeds(seedCount: Int? = nil, tcp: TCPConfiguration = .ns3Reference,
                         activeQueue: ActiveQueueManagement = .ns3Default) -> (times: [Double], events: [Double]) {
        var experiment = experiment
        experiment.tcp = tcp
        experiment.activeQueue = activeQueue
        var times: [Double] = []
        var events: [Double] = []
        for seed in 1...max(1, seedCount ?? seeds) {
            let outcome = experiment.run(seed: UInt64(seed))
            times.append((outcome.completionTime ?? .hours(1)).seconds * 1_000)
            events.append(Double(outcome.eventsRun))
        }
        return (times, events)
    }
}

/// p10, median and p90 of a sample, each by linear interpolation between order statistics (as Python's
/// `statistics.median` and the quantile function of `grid.py`).
public struct TransferPercentiles: Hashable, Sendable {
    /// 10th percentile.
    public var p10: Double
    /// Median.
    public var median: Double
    /// 90th percentile.
    public var p90: Double

    /// Given figures.
    public init(p10: Double, median: Double, p90: Double) {
        self.p10 = p10
        self.median = median
        self.p90 = p90
    }

    /// The percentiles of `sample`. - Precondition: `sample` is not empty.
    public init(_ sample: [Double]) {
        precondition(!sample.isEmpty)
        let sorted = sample.sorted()
        func quantile(_ p: Double) -> Double {
            let k = Double(sorted.count - 1) * p
            let floor = Int(k)
            let ceiling = min(floor + 1, sorted.count - 1)
            return sorted[floor] + (sorted[ceiling] - sorted[floor]) * (k - Double(floor))
        }
        self.init(p10: quantile(0.1), median: quantile(0.5), p90: quantile(0.9))
    }
}
