/// Tracks a scenario's eventually-conditions and metric bounds during one run and reports what was missed.
///
/// For the world that executes scenarios: call `observe(_:)` after events (at least once before each deadline
/// in `nextDeadline`), then `finish(...)` at the end of the run. Single-threaded and deterministic: conditions are
/// evaluated in declaration order and never again once satisfied.
public struct ExpectationMonitor {
    private let eventually: [Eventually]
    private let metricBounds: [MetricBound]
    private var satisfied: [Bool]
    /// Per condition on the server's texts, the texts seen at its last observation before the deadline (for the
    /// report's `found`); nil for other conditions or before any observation.
    private var lastTexts: [[String]?]

    /// Starts tracking the eventually-conditions and metric bounds of `expectations`, none satisfied yet.
    public init(_ expectations: Expectations) {
        eventually = expectations.eventually
        metricBounds = expectations.metricBounds
        satisfied = Array(repeating: false, count: expectations.eventually.count)
        lastTexts = Array(repeating: nil, count: expectations.eventually.count)
    }

    /// The earliest deadline of a condition not yet satisfied, as an instant; nil when none is pending.
    public var nextDeadline: SimInstant? {
        eventually.indices.filter { !satisfied[$0] }.map { SimInstant.start + eventually[$0].deadline }.min()
    }

    /// Whether every eventually-condition has been satisfied.
    public var isComplete: Bool { satisfied.allSatisfy { $0 } }

    /// Evaluates the pending conditions whose deadline has not passed at `world.now`.
    public mutating func observe(_ world: any WorldProbe) {
        for index in eventually.indices where !satisfied[index] {
            guard world.now <= .start + eventually[index].deadline else { continue }
            let condition = eventually[index].condition
            if condition.isSatisfied(in: world) {
                satisfied[index] = true
            } else {
                switch condition {
                case .serverTexts(let chat, _), .serverOrder(let chat, _):
                    lastTexts[index] = world.serverMessages(in: chat).map(\.text)
                default:
                    break
                }
            }
        }
    }

    /// The violations of the run: conditions never satisfied by their deadline, then metrics out of bounds (a
    /// bounded metric the run did not report counts as out of bounds).
    /// - Parameters:
    ///   - now: the run's end.
    ///   - metrics: the run's metrics.
    ///   - schedule: the scenario's schedule, to name the step that ran last before each deadline.
    ///   - traceTail: the last trace records, attached to each violation.
    public func finish(
        at now: SimInstant,
        metrics: [Metric],
        schedule: [ScheduledStep],
        traceTail: [String]
    ) -> [Violation] {
        var violations: [Violation] = []
        for index in eventually.indices where !satisfied[index] {
            let item = eventually[index]
            let deadline = min(now, .start + item.deadline)
            violations.append(
                Violation(
                    check: .eventually(item.condition.description),
                    time: deadline,
                    expected: "\(item.condition) within \(item.deadline) (\(item.location))",
                    found: lastTexts[index].map { "server texts \(Self.list($0)) by \(deadline)" }
                        ?? "not true by \(deadline)",
                    lastStep: schedule.lastStep(atOrBefore: deadline),
                    traceTail: traceTail
                )
            )
        }
        for bound in metricBounds {
            let value = metrics.first { $0.name == bound.metric }?.value
            guard let value, bound.admits(value) else {
                violations.append(
                    Violation(
                        check: .metricBound(bound.description),
                        time: now,
                        expected: "\(bound) (\(bound.location))",
                        found: value.map { "\(bound.metric) = \($0)" } ?? "no metric \(bound.metric) reported",
                        lastStep: schedule.lastStep(atOrBefore: now),
                        traceTail: traceTail
                    )
                )
                continue
            }
        }
        return violations
    }

    /// `["a", "b"]`; a long list as its first and last ten texts with the count between.
    static func list(_ texts: [String]) -> String {
        guard texts.count > 20 else { return "\(texts)" }
        let head = texts.prefix(10).map { "\($0)".debugDescription }.joined(separator: ", ")
        let tail = texts.suffix(10).map { "\($0)".debugDescription }.joined(separator: ", ")
        return "[\(head), ... \(texts.count - 20) more ..., \(tail)]"
    }
}

extension Array where Element == ScheduledStep {
    /// The step that ran last at or before `time` (the last in schedule order), as a report cites it; nil when
    /// none had run.
    public func lastStep(atOrBefore time: SimInstant) -> StepReference? {
        last { $0.time <= time }.map(StepReference.init)
    }
}
