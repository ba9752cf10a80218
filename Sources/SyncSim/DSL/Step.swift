/// One entry of a scenario's timeline: when, what, an optional label other steps can refer to, and where it was
/// written.
public struct Step: Hashable, Sendable {
    /// When the step runs, absolutely or after another step.
    public var timing: StepTiming
    /// What it does.
    public var action: Action
    /// A name other steps may anchor to with `After(_:step:)`; nil when unnamed.
    public var label: String?
    /// The DSL line that made it.
    public var location: SourceLocation

    /// Creates a step running `action` at `timing`, optionally `label`led, written at `location`.
    public init(timing: StepTiming, action: Action, label: String? = nil, location: SourceLocation) {
        self.timing = timing
        self.action = action
        self.label = label
        self.location = location
    }
}

/// When a step runs, in virtual time.
///
/// "After" means after the other step's scheduled start, not after its effect completes (a send being
/// acknowledged): timings stay data the runner resolves before the run, see `Scenario.schedule()`.
public enum StepTiming: Hashable, Sendable {
    /// At this offset from the start of the run.
    case at(SimDuration)
    /// This long after the step written just before it in the timeline (the run's start for the first step).
    case afterPrevious(SimDuration)
    /// This long after the step labelled with this name, which must come earlier in the timeline.
    case after(SimDuration, step: String)
    /// When a protocol event occurs during the run (`When(...)`): not scheduled ahead, fired by the world.
    case when(ProtocolEvent)

    /// The protocol event the step waits for, or nil for a step with a time.
    public var event: ProtocolEvent? { if case .when(let event) = self { event } else { nil } }
}

/// A step with its resolved start time: what the world schedules.
public struct ScheduledStep: Hashable, Sendable {
    /// Virtual time at which the step runs.
    public var time: SimInstant
    /// The step's position in `Scenario.steps` (ties between equal times run in this order).
    public var index: Int
    /// The step itself.
    public var step: Step
}
