// The words of a scenario body other than timeline actions (those are in TimelineActions.swift). Kept in one
// file because each is a few lines of sugar over the plain value types; the values are what the runner reads.

/// The virtual server: `Server()`, or with parameters and pre-existing history
/// (`Server(history: ["alice+bob": 300])`).
public struct Server: Sendable {
    /// The server as data.
    public let spec: ServerSpec

    /// - Parameters:
    ///   - parameters: server knobs, handed to SyncServer.
    ///   - history: messages per chat that exist before the run, in this order.
    ///   - clockOffset: the server clock's offset against true virtual time.
    public init(
        parameters: ParameterSet = [:],
        history: KeyValuePairs<String, Int> = [:],
        clockOffset: SimDuration = .zero,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        spec = ServerSpec(
            parameters: parameters,
            history: history.map { ChatHistorySeed(chat: $0.key, messages: $0.value) },
            clockOffset: clockOffset,
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// A simulated phone: `Client("alice", profile: .edge)`.
public struct Client: Sendable {
    /// The client as data.
    public let spec: ClientSpec

    /// - Parameters:
    ///   - name: the user name, unique in the scenario.
    ///   - profile: the access link's profile at the start.
    ///   - parameters: reference-engine parameters.
    ///   - mutant: a deliberately broken engine variant, for checker tests; nil for the reference engine.
    public init(
        _ name: String,
        profile: ProfileName,
        parameters: ParameterSet = [:],
        mutant: String? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        spec = ClientSpec(
            name: name,
            profile: profile,
            parameters: parameters,
            mutant: mutant,
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}

/// A second device of a user (a tablet next to the phone): its own engine, database and link, logged in as the same
/// user, so it posts, reads and syncs as that user. Steps name it `"<user>:<device>"`:
/// `Device("alice", "tablet", profile: .wifi)` then `Send(from: "alice:tablet", text: "hi", in: "alice+bob")`.
/// It belongs to every chat its user belongs to.
public struct Device: Sendable {
    /// The device as a client spec (named `"<user>:<device>"`, `user` set).
    public let spec: ClientSpec

    /// - Parameters:
    ///   - user: the client (user) it belongs to.
    ///   - device: its name, unique for the user (`"tablet"`).
    ///   - profile: the access link's profile at the start (Wi-Fi by default).
    ///   - parameters: reference-engine parameters.
    public init(
        _ user: String,
        _ device: String,
        profile: ProfileName = .wifi,
        parameters: ParameterSet = [:],
        fileID: String = #fileID,
        line: Int = #line
    ) {
        spec = ClientSpec(
            name: user + ":" + device, profile: profile, parameters: parameters, user: user,
            location: SourceLocation(fileID: fileID, line: line))
    }
}

/// A chat with explicit members: `Chat("team", members: ["alice", "bob", "carol"])`. Chats named `"alice+bob"`
/// need no declaration.
public struct Chat: Sendable {
    /// The chat as data.
    public let spec: ChatSpec

    /// Declares chat `name` with the client names `members`; `fileID` and `line` record the call site.
    public init(_ name: String, members: [String], fileID: String = #fileID, line: Int = #line) {
        spec = ChatSpec(name: name, members: members, location: SourceLocation(fileID: fileID, line: line))
    }
}

/// The scenario's timeline: `At` and `After` groups in the order they are written.
public struct Timeline: Sendable {
    /// The steps, in the order written.
    public let steps: [Step]

    /// Collects the `At` and `After` groups of `content` in the order written.
    public init(@TimelineBuilder _ content: () -> [Step]) { steps = content() }
}

/// Actions at an offset from the start of the run:
/// `At(.seconds(1)) { Send(from: "alice", text: "hi", in: "alice+bob") }`.
public struct At: Sendable {
    /// The steps, in the order written.
    public let steps: [Step]

    /// Runs `actions` at `time` of virtual time after the run's start.
    public init(_ time: SimDuration, @ActionBuilder _ actions: () -> [ActionItem]) {
        steps = actions().map { Step(timing: .at(time), action: $0.action, label: $0.label, location: $0.location) }
    }
}

/// Actions some time after another step: after the step written just before (`After(.seconds(2)) { ... }`), or
/// after a labelled one (`After(.seconds(2), step: "upload") { ... }`). All actions of the group run together.
public struct After: Sendable {
    /// The steps, in the order written.
    public let steps: [Step]

    /// Runs `actions` `delay` after the previous step, or after the step labelled `label` when given.
    public init(_ delay: SimDuration, step label: String? = nil, @ActionBuilder _ actions: () -> [ActionItem]) {
        var steps: [Step] = []
        for (offset, item) in actions().enumerated() {
            let timing: StepTiming
            if offset > 0 {
                timing = .afterPrevious(.zero)
            } else if let label {
                timing = .after(delay, step: label)
            } else {
                timing = .afterPrevious(delay)
            }
            steps.append(Step(timing: timing, action: item.action, label: item.label, location: item.location))
        }
        self.steps = steps
    }
}

/// Actions that run when a protocol event occurs, at that virtual instant:
/// `When(.server(receives: .login, from: "bob")) { PostFromOtherDevice("alice", text: "race", in: "alice+bob") }`.
///
/// See `ProtocolEvent` for where each event is observed (before or after the server or engine handles it). A `When`
/// step is not scheduled ahead of the run: it fires at most once, at the event's `nth` occurrence, or never.
/// Its actions may carry labels that `Always(from:)`, `Never(until:)` and `Eventually(after:)` refer to.
public struct When: Sendable {
    /// The steps, in the order written; all run together when the event occurs.
    public let steps: [Step]

    /// Runs `actions` when `event` occurs.
    public init(_ event: ProtocolEvent, @ActionBuilder _ actions: () -> [ActionItem]) {
        steps = actions().map { Step(timing: .when(event), action: $0.action, label: $0.label, location: $0.location) }
    }
}

/// The scenario's expectations: `Expect { Invariants(.all); Eventually(...); MetricBound(...) }`.
public struct Expect: Sendable {
    /// The expectations, in the order written.
    public let items: [ExpectationItem]

    /// Collects the expectations of `content` in the order written.
    public init(@ExpectationBuilder _ content: () -> [ExpectationItem]) { items = content() }
}

/// Invariants to check: `Invariants(.all)`, `Invariants(.tasks)` or `Invariants(.T2, .T4)`.
public struct Invariants: Sendable {
    /// The invariants named, in the order given.
    public let ids: [InvariantID]

    /// Checks every invariant of `group`.
    public init(_ group: InvariantGroup) { ids = group.members }

    /// Checks the invariants named, in the order given.
    public init(_ first: InvariantID, _ rest: InvariantID...) { ids = [first] + rest }
}
