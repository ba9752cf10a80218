import SyncSim

extension ReplayInference {
    /// Whether a client's retransmissions came in runs (a radio fade: several segments in a row lost, then long clean
    /// stretches) rather than one at a time, and the Gilbert-Elliott loss that reproduces them.
    ///
    /// The sample: every segment that carried payload on the client's chat connections, per connection and
    /// direction in capture order, flagged when it repeated bytes already received (a retransmission); segments in a
    /// span the scenario already explains by an outage or loss burst (`linkDrops`: from an RTT before its start to
    /// 2 RTT after its end, where the retransmission that got through left) are left out, and such a span ends a run.
    /// A burst is a maximal run of consecutive retransmitted segments in one direction of one connection.
    ///
    /// Rule: with `share` = retransmitted / segments and `meanBurstLength` = retransmitted / bursts, the loss is
    /// bursty when at least `minimumRetransmissions` (8) segments were retransmitted and the mean burst is at least
    /// `clusteringFactor` (1.5) times what independent loss at the same share gives: a run of a Bernoulli(share)
    /// sequence is geometric with mean 1 / (1 - share).
    ///
    /// Estimator: the simple Gilbert model, netem's `loss gemodel p r` with its defaults 1-h = 100% and 1-k = 0%
    /// (tc-netem(8)); E. N. Gilbert's two-state channel ("Capacity of a burst-noise channel", Bell System Technical
    /// Journal 39, 1960) with a bad state that loses every packet. A burst is then a stay in the bad state, geometric
    /// with mean 1 / r, and the long-run loss is p / (p + r). Hence r = 1 / meanBurstLength and
    /// p = r · share / (1 - share), moment matching on the run lengths and the share. Both are rounded to
    /// hundredths of a percent, p to at least 0.01% (a chain that never enters the bad state would lose nothing).
    struct BurstLoss: Equatable {
        /// Payload segments in the sample.
        var segments: Int
        /// Of those, segments that were retransmissions.
        var retransmitted: Int
        /// Maximal runs of consecutive retransmitted segments.
        var bursts: Int

        /// Fewest retransmitted segments before the runs are judged (fewer say little about their lengths).
        static let minimumRetransmissions = 8
        /// How many times longer than independent loss's the mean burst must be to count as bursty.
        static let clusteringFactor = 1.5

        /// Retransmitted segments over segments, 0...1.
        var share: Double { segments == 0 ? 0 : Double(retransmitted) / Double(segments) }
        /// Retransmitted segments per burst (0 without any).
        var meanBurstLength: Double { bursts == 0 ? 0 : Double(retransmitted) / Double(bursts) }
        /// The mean run of retransmissions independent (Bernoulli) loss at `share` gives: 1 / (1 - share).
        var independentMeanBurstLength: Double { share < 1 ? 1 / (1 - share) : .infinity }

        /// Whether the retransmissions cluster by the rule above.
        var isBursty: Bool {
            retransmitted >= Self.minimumRetransmissions && share < 1
                && meanBurstLength >= Self.clusteringFactor * independentMeanBurstLength
        }

        /// The simple Gilbert estimate: p = r · share / (1 - share), r = 1 / mean burst, 1-h = 1, 1-k = 0, p and r
        /// rounded to 0.0001 (from 0.0001 up; r is at most 2/3 since the mean burst is at least 1.5); nil unless
        /// `isBursty`.
        var lossModel: LossModel? {
            guard isBursty else { return nil }
            let r = 1 / meanBurstLength
            let p = r * share / (1 - share)
            func rounded(_ probability: Double) -> Double {
                min(1, max(0.0001, (probability * 10_000).rounded() / 10_000))
            }
            return .gilbertElliott(p: rounded(p), r: rounded(r), oneMinusH: 1, oneMinusK: 0)
        }

        /// `12 of 400 segments retransmitted in 3 bursts, mean 4.0 (independent loss at that share: 1.03):
        /// Gilbert-Elliott p 0.77%, r 25%, 1-h 100%, 1-k 0%`; nil unless `isBursty`.
        var comment: String? {
            guard case .gilbertElliott(let p, let r, let oneMinusH, let oneMinusK) = lossModel else { return nil }
            return "\(retransmitted) of \(segments) payload segments retransmitted in \(bursts) bursts, mean "
                + "\(SweepTable.fixed(meanBurstLength, decimals: 1)) (independent loss at that share: "
                + "\(SweepTable.fixed(independentMeanBurstLength, decimals: 2))): "
                + "Gilbert-Elliott p \(LossModel.percent(p)), "
                + "r \(LossModel.percent(r)), 1-h \(LossModel.percent(oneMinusH)), 1-k \(LossModel.percent(oneMinusK))"
        }
    }

    /// The runs of retransmissions on a client's chat connections (see `BurstLoss`), leaving out payload segments
    /// captured within `excluded` (time spans the scenario explains otherwise); a span also ends a run.
    static func burstLoss(_ connections: [ReplayTimeline.Connection],
                          excluding excluded: [(from: SimInstant, until: SimInstant)]) -> BurstLoss {
        var result = BurstLoss(segments: 0, retransmitted: 0, bursts: 0)
        for connection in connections {
            for direction in [connection.tcp.clientPayloadSegments, connection.tcp.serverPayloadSegments] {
                var inBurst = false
                for segment in direction {
                    if excluded.contains(where: { segment.time >= $0.from && segment.time <= $0.until }) {
                        inBurst = false
                        continue
                    }
                    result.segments += 1
                    if segment.isRetransmission {
                        result.retransmitted += 1
                        if !inBurst { result.bursts += 1 }
                    }
                    inBurst = segment.isRetransmission
                }
            }
        }
        return result
    }
}
