import SimCore

/// How a link direction loses packets at random, decided once per packet after it is serialized.
///
/// The Gilbert-Elliott model uses the four parameters as Linux netem's `loss gemodel p r 1-h 1-k` names them
/// (tc-netem(8)): `p` the chance of moving from the good to the bad state, `r` from bad back to good,
/// `1-h` the loss probability in the bad state and `1-k` in the good state. Each packet is lost with the current
/// state's probability; then the state moves.
public enum LossModel: Hashable, Sendable, CustomStringConvertible {
    /// No random loss.
    case none
    /// Each packet is lost independently with `probability` (0...1).
    case bernoulli(probability: Double)
    /// Bursty loss with a two-state Markov chain (netem `gemodel p r 1-h 1-k`), all probabilities in 0...1.
    case gilbertElliott(p: Double, r: Double, oneMinusH: Double, oneMinusK: Double)
    /// Bursty loss with a two-state Markov chain that moves in time rather than per packet (a continuous-time
    /// Gilbert-Elliott chain, as radio fades are described: by how long they last): the good state lasts an
    /// exponentially distributed time of mean `meanGood`, the bad state one of mean `meanBad`, both positive; a
    /// packet is lost with `oneMinusK` (good) or `oneMinusH` (bad), each in 0...1. A burst so ends after its time
    /// whether or not packets are sent, where netem's per-packet chain (`gilbertElliott`) holds a quiet link in the
    /// bad state until enough packets have gone. The chain starts in the good state when the link first sends and
    /// again after every profile change. SyncSim's own model, no netem counterpart.
    case gilbertElliottTimed(meanGood: SimDuration, meanBad: SimDuration, oneMinusH: Double, oneMinusK: Double)

    /// The long-run fraction of packets lost: for Gilbert-Elliott, (r·(1-k) + p·(1-h)) / (p + r), weighting each
    /// state's loss probability by the chain's stationary distribution; for the timed chain, each state's loss
    /// probability weighted by its share of time, (meanGood·(1-k) + meanBad·(1-h)) / (meanGood + meanBad), the
    /// fraction of packets lost when they are sent evenly in time.
    public var stationaryLossRate: Double {
        switch self {
        case .none: return 0
        case .bernoulli(let probability): return probability
        case .gilbertElliott(let p, let r, let oneMinusH, let oneMinusK):
            guard p + r > 0 else { return oneMinusK }
            return (r * oneMinusK + p * oneMinusH) / (p + r)
        case .gilbertElliottTimed(let meanGood, let meanBad, let oneMinusH, let oneMinusK):
            let good = Double(max(meanGood.nanoseconds, 0)), bad = Double(max(meanBad.nanoseconds, 0))
            guard good + bad > 0 else { return oneMinusK }
            return (good * oneMinusK + bad * oneMinusH) / (good + bad)
        }
    }

    /// `none`, `bernoulli(1%)`, `gilbert-elliott(p=1%,r=30%,1-h=50%,1-k=0%)` or
    /// `gilbert-elliott-timed(good=30s,bad=2s,1-h=80%,1-k=0.1%)`: percentages and durations, for tables.
    public var description: String {
        switch self {
        case .none: return "none"
        case .bernoulli(let probability): return "bernoulli(\(Self.percent(probability)))"
        case .gilbertElliott(let p, let r, let oneMinusH, let oneMinusK):
            return "gilbert-elliott(p=\(Self.percent(p)),r=\(Self.percent(r)),1-h=\(Self.percent(oneMinusH)),"
                + "1-k=\(Self.percent(oneMinusK)))"
        case .gilbertElliottTimed(let meanGood, let meanBad, let oneMinusH, let oneMinusK):
            return "gilbert-elliott-timed(good=\(meanGood),bad=\(meanBad),1-h=\(Self.percent(oneMinusH)),"
                + "1-k=\(Self.percent(oneMinusK)))"
        }
    }

    /// A probability as a percentage to two decimals at most, for tables and messages: 0.02 -> `2%`, 0.0125 -> `1.25%`.
    public static func percent(_ probability: Double) -> String {
        let hundredths = Int((probability * 10_000).rounded())
        let whole = hundredths / 100, fraction = hundredths % 100
        if fraction == 0 { return "\(whole)%" }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)%" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)%"
    }
}
