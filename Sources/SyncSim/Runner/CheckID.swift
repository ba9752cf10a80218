/// Which check a violation broke: an invariant, an eventually-condition, a metric bound, or determinism.
public enum CheckID: Hashable, Sendable, CustomStringConvertible {
    /// An invariant the checkers found broken.
    case invariant(InvariantID)
    /// An eventually-condition, by its description, that did not hold by its deadline.
    case eventually(String)
    /// A metric bound, by its description, that the run's metric broke.
    case metricBound(String)
    /// Two runs of the same scenario and seed gave different trace digests.
    case determinism
    /// An `Always` or `Never` condition, by its description (`always: ...`, `never: ...`), broken at some step.
    case always(String)
    /// A `Check` timeline step, by its condition's description, that did not hold when it ran.
    case checkpoint(String)

    /// `T2`, `eventually: server has 1 message(s) in alice+bob`, `metric: reconnects <= 5.0`, `determinism`.
    public var description: String {
        switch self {
        case .invariant(let id): id.rawValue
        case .eventually(let condition): "eventually: \(condition)"
        case .metricBound(let bound): "metric: \(bound)"
        case .determinism: "determinism"
        case .always(let condition): condition
        case .checkpoint(let condition): "check: \(condition)"
        }
    }
}
