/// A broken check in a run: what, where (client, chat, virtual time), expected versus found, the scenario step
/// that ran last with its source line, and the tail of the trace.
public struct Violation: Hashable, Sendable, CustomStringConvertible {
    /// The check that failed.
    public var check: CheckID
    /// The client it concerns, or nil (server-wide, or the whole run).
    public var client: String?
    /// The chat it concerns, or nil.
    public var chat: String?
    /// Virtual time at which the checker saw it.
    public var time: SimInstant
    /// What the check expected (`"one server message for cid 7"`).
    public var expected: String
    /// What it found (`"2 messages: ids 41, 42"`).
    public var found: String
    /// The timeline step that ran last before the violation, or nil when none had run.
    public var lastStep: StepReference?
    /// The last trace records up to the violation's instant, oldest first; at most `Violation.traceTailLength`
    /// unless a longer window was asked for (`--trace-window`).
    public var traceTail: [String]

    /// How many trace records a violation keeps.
    public static let traceTailLength = 30

    /// Creates a violation of `check` seen at virtual time `time`, with what was expected and what was found.
    public init(
        check: CheckID,
        client: String? = nil,
        chat: String? = nil,
        time: SimInstant,
        expected: String,
        found: String,
        lastStep: StepReference? = nil,
        traceTail: [String] = [],
        traceTailLength: Int = Violation.traceTailLength
    ) {
        self.check = check
        self.client = client
        self.chat = chat
        self.time = time
        self.expected = expected
        self.found = found
        self.lastStep = lastStep
        self.traceTail = Array(traceTail.suffix(max(traceTailLength, 0)))
    }

    /// The invariant broken, or nil for other checks.
    public var invariant: InvariantID? { if case .invariant(let id) = check { id } else { nil } }

    /// One line: `T2 at 12.345s client alice chat alice+bob: expected ..., found ...`.
    public var description: String {
        var where_ = "\(check) at \(time)"
        if let client { where_ += " client \(client)" }
        if let chat { where_ += " chat \(chat)" }
        return "\(where_): expected \(expected), found \(found)"
    }
}

/// A timeline step as reports cite it: its DSL call, when it ran, and the line that wrote it.
public struct StepReference: Hashable, Sendable, CustomStringConvertible {
    /// The step's DSL call (`Send(from: "alice", text: "hi", in: "alice+bob")`).
    public var source: String
    /// When it ran.
    public var time: SimInstant
    /// Where it was written.
    public var location: SourceLocation

    /// Creates a reference to the step written at `location` as `source`, which ran at `time`.
    public init(source: String, time: SimInstant, location: SourceLocation) {
        self.source = source
        self.time = time
        self.location = location
    }

    /// Makes a reference to a scheduled step.
    public init(_ scheduled: ScheduledStep) {
        self.init(
            source: Scenario.actionSource(scheduled.step.action),
            time: scheduled.time,
            location: scheduled.step.location
        )
    }

    /// `Scenarios/X.swift:12 at 1.300s: LinkDown("alice", for: .seconds(8))`; a step made by code (a replayed capture's,
    /// a shrunk one's) has no line to name: `step at 1.300s: ...`.
    public var description: String {
        "\(location == .generated ? "step" : location.description) at \(time): \(source)"
    }
}
