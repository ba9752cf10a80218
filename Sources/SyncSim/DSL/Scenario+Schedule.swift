extension Scenario {
    /// The timeline with every step's start resolved to a virtual instant, ordered by (time, position).
    ///
    /// `After` steps start their delay after the referenced step's start. Steps at the same instant keep the
    /// order they were written in, so the world runs them in that order.
    /// - Throws: `ScenarioError` for a label that no earlier step carries, or a start before the run's start.
    public func schedule() throws -> [ScheduledStep] {
        var times: [SimInstant] = []
        var labelled: [String: SimInstant] = [:]
        for step in steps {
            let time: SimInstant
            switch step.timing {
            case .at(let offset):
                time = .start + offset
            case .afterPrevious(let delay):
                time = (times.last ?? .start) + delay
            case .after(let delay, let label):
                guard let anchor = labelled[label] else {
                    throw ScenarioError.unknownStepLabel(label, scenario: name, location: step.location)
                }
                time = anchor + delay
            }
            guard time >= .start else {
                throw ScenarioError.negativeTime(time, scenario: name, location: step.location)
            }
            times.append(time)
            if let label = step.label { labelled[label] = time }
        }
        return steps.indices
            .map { ScheduledStep(time: times[$0], index: $0, step: steps[$0]) }
            .sorted { ($0.time, $0.index) < ($1.time, $1.index) }
    }

    /// The same scenario with every step timed absolutely (`At`), in schedule order, labels dropped.
    ///
    /// The shrinker works on this form, so removing a step never moves the others.
    /// - Throws: as `schedule()`.
    public func withAbsoluteTiming() throws -> Scenario {
        var copy = self
        copy.steps = try schedule().map {
            Step(timing: .at($0.time.sinceStart), action: $0.step.action, label: nil, location: $0.step.location)
        }
        return copy
    }
}
