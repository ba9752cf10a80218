extension Scenario {
    /// The timeline with every step's start resolved to a virtual instant, ordered by (time, position).
    ///
    /// `After` steps start their delay after the referenced step's start. Steps at the same instant keep the
    /// order they were written in, so the world runs them in that order. `When` steps have no time ahead of the run
    /// and are left out (see `triggeredSteps`); an `After` without a label that follows one counts from the timed
    /// step before it.
    /// - Throws: `ScenarioError` for a label that no earlier timed step carries, a start before the run's start, or a
    ///   start past `Scenario.longestDuration` after it (checked before any sum can overflow virtual time).
    public func schedule() throws -> [ScheduledStep] {
        var times: [SimInstant?] = []
        var lastTime: SimInstant?
        var labelled: [String: SimInstant] = [:]
        for step in steps {
            let base: SimInstant
            let offset: SimDuration
            switch step.timing {
            case .when:
                times.append(nil)
                continue
            case .at(let start):
                (base, offset) = (.start, start)
            case .afterPrevious(let delay):
                (base, offset) = (lastTime ?? .start, delay)
            case .after(let delay, let label):
                guard let anchor = labelled[label] else {
                    throw ScenarioError.unknownStepLabel(
                        label, scenario: name, location: step.location, labels: labelled.keys.sorted())
                }
                (base, offset) = (anchor, delay)
            }
            // Every earlier start is within 0...longestDuration, so only the offset can overflow the sum.
            let (sum, overflows) = base.sinceStart.nanoseconds.addingReportingOverflow(offset.nanoseconds)
            guard !overflows, sum <= Self.longestDuration.nanoseconds else {
                throw ScenarioError.invalid(
                    "step would start more than \(Self.longestDuration) after the run's start",
                    scenario: name, location: step.location)
            }
            let time = SimInstant(nanosecondsSinceStart: sum)
            guard time >= .start else {
                throw ScenarioError.negativeTime(time, scenario: name, location: step.location)
            }
            times.append(time)
            lastTime = time
            if let label = step.label { labelled[label] = time }
        }
        return steps.indices
            .compactMap { index in times[index].map { ScheduledStep(time: $0, index: index, step: steps[index]) } }
            .sorted { ($0.time, $0.index) < ($1.time, $1.index) }
    }

    /// The steps that wait for a protocol event (`When`), in the order written, with their positions in `steps`.
    public var triggeredSteps: [(index: Int, step: Step, event: ProtocolEvent)] {
        steps.indices.compactMap { index in steps[index].timing.event.map { (index, steps[index], $0) } }
    }

    /// The same scenario with every timed step timed absolutely (`At`), in schedule order, then the `When` steps in
    /// the order written; labels stay (expectations may refer to them).
    ///
    /// The shrinker works on this form, so removing a step never moves the others.
    /// - Throws: as `schedule()`.
    public func withAbsoluteTiming() throws -> Scenario {
        var copy = self
        copy.steps = try schedule().map {
            Step(timing: .at($0.time.sinceStart), action: $0.step.action, label: $0.step.label,
                 location: $0.step.location)
        } + triggeredSteps.map(\.step)
        return copy
    }
}
