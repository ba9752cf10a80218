/// What a run must show: the invariants to check, conditions with deadlines, and bounds on metrics.
public struct Expectations: Sendable {
    /// Invariants the checkers enforce, in declaration order, each once. Empty means none was named, in which
    /// case `Scenario` checks all of them.
    public var invariants: [InvariantID]
    /// Conditions that must become true by their deadlines, in source order.
    public var eventually: [Eventually]
    /// Bounds on end-of-run metrics, in source order.
    public var metricBounds: [MetricBound]
    /// Conditions checked after every world step of their window (`Always`, `Never`), in source order.
    public var always: [Always]

    /// Creates expectations; with no `invariants` the scenario checks all of them.
    public init(
        invariants: [InvariantID] = [],
        eventually: [Eventually] = [],
        metricBounds: [MetricBound] = [],
        always: [Always] = []
    ) {
        self.invariants = invariants
        self.eventually = eventually
        self.metricBounds = metricBounds
        self.always = always
    }
}

/// A condition that must hold at some point no later than `deadline` of virtual time after the run's start, or after
/// the labelled step `anchor` ran (`Eventually(within: .seconds(30), after: "relogin", .loggedIn(client: "alice"))`).
public struct Eventually: Sendable {
    /// Virtual time from the run's start (or from `anchor`'s step) by which the condition must have held.
    public var deadline: SimDuration
    /// The label of the step the deadline counts from, or nil for the run's start. The condition is watched only
    /// once that step ran; a step that never runs is reported as a failure at the end of the run.
    public var anchor: String?
    /// What must become true.
    public var condition: Condition
    /// Where it was written.
    public var location: SourceLocation

    /// A data condition: `Eventually(within: .seconds(120), .serverMessageCount(chat: "alice+bob", count: 1))`;
    /// with `after`, the deadline counts from the step labelled so.
    public init(
        within deadline: SimDuration,
        after anchor: String? = nil,
        _ condition: Condition,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.deadline = deadline
        self.anchor = anchor
        self.condition = condition
        self.location = SourceLocation(fileID: fileID, line: line)
    }

    /// A custom predicate over the world, named by `label` in reports; `clients` lists the clients it looks at, so
    /// shrinking keeps them (without the list, shrinking keeps every client).
    public init(
        _ label: String,
        within deadline: SimDuration,
        after anchor: String? = nil,
        clients: [String]? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ predicate: @escaping @Sendable (any WorldProbe) -> Bool
    ) {
        self.init(
            within: deadline,
            after: anchor,
            .custom(label: label, clients: clients, predicate: predicate),
            fileID: fileID,
            line: line
        )
    }
}

/// A condition checked after every world step from `from` (the run's start when nil) until `until` (the run's end
/// when nil); `Never(...)` builds one that must not hold. The first step at which it breaks is reported, with that
/// instant and the trace up to it.
///
/// ```swift
/// Always(.echoOnScreen(client: "alice", chat: "alice+bob", text: "hi"), from: "sent", until: .seconds(30))
/// Never(.loggedIn(client: "alice"), from: .seconds(5), until: "link-up")
/// ```
public struct Always: Sendable {
    /// The condition watched.
    public var condition: Condition
    /// True for `Never`: the condition must be false at every step of the window.
    public var isNegated: Bool
    /// Where the window opens (inclusive), or nil for the run's start.
    public var from: Moment?
    /// Where the window closes (exclusive), or nil for the run's end.
    public var until: Moment?
    /// Where it was written.
    public var location: SourceLocation

    /// `condition` must hold after every world step in [`from`, `until`).
    public init(
        _ condition: Condition,
        from: Moment? = nil,
        until: Moment? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.init(condition, isNegated: false, from: from, until: until,
                  location: SourceLocation(fileID: fileID, line: line))
    }

    /// A custom predicate that must hold after every step in the window; `clients` as for `Eventually`.
    public init(
        _ label: String,
        from: Moment? = nil,
        until: Moment? = nil,
        clients: [String]? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        _ predicate: @escaping @Sendable (any WorldProbe) -> Bool
    ) {
        self.init(.custom(label: label, clients: clients, predicate: predicate), isNegated: false, from: from,
                  until: until, location: SourceLocation(fileID: fileID, line: line))
    }

    /// The memberwise form: `isNegated` makes it a `Never`.
    public init(_ condition: Condition, isNegated: Bool, from: Moment?, until: Moment?, location: SourceLocation) {
        self.condition = condition
        self.isNegated = isNegated
        self.from = from
        self.until = until
        self.location = location
    }

    /// `always: alice is logged in`, `never: ...` (the check id reports use).
    public var description: String { (isNegated ? "never: " : "always: ") + condition.description }

    /// `from 5.000s until step 'up'`, or empty for the whole run.
    public var windowDescription: String {
        [from.map { "from \($0)" }, until.map { "until \($0)" }].compactMap { $0 }.joined(separator: " ")
    }
}

/// A condition that must be false after every world step from `from` until `until` (an `Always` negated):
/// `Never(.serverMessageCount(chat: "alice+bob", count: 2), from: "resend")`.
public func Never(
    _ condition: Condition,
    from: Moment? = nil,
    until: Moment? = nil,
    fileID: String = #fileID,
    line: Int = #line
) -> Always {
    Always(condition, isNegated: true, from: from, until: until, location: SourceLocation(fileID: fileID, line: line))
}

/// A custom predicate that must be false after every world step of the window; `clients` as for `Eventually`.
public func Never(
    _ label: String,
    from: Moment? = nil,
    until: Moment? = nil,
    clients: [String]? = nil,
    fileID: String = #fileID,
    line: Int = #line,
    _ predicate: @escaping @Sendable (any WorldProbe) -> Bool
) -> Always {
    Always(.custom(label: label, clients: clients, predicate: predicate), isNegated: true, from: from, until: until,
           location: SourceLocation(fileID: fileID, line: line))
}

/// A bound on a metric the world reports at the end of a run (`"reconnects"`, `"loginAttempts"`; `SweepMetric.all`),
/// or, with `client:`, `opcode:` or `window:`, on a per-client count over a time window (`WindowMetric`):
/// `MetricBound("requests", client: "alice", opcode: .chatMark, window: .from("opened"), atMost: 1)`.
public struct MetricBound: Hashable, Sendable, CustomStringConvertible {
    /// The metric's name: one of `RunResult.metrics` for a run metric, one of `WindowMetric.allCases` (raw
    /// values) for a windowed one.
    public var metric: String
    /// The client counted (every client summed when nil); set for a windowed metric.
    public var client: String?
    /// For `"requests"` and `"pushesReceived"`: only frames of this opcode; nil counts every opcode.
    public var opcode: Opcode?
    /// The time window counted; nil with `client` and `opcode` nil means a run metric.
    public var window: MetricWindow?
    /// Inclusive lower bound, or nil.
    public var atLeast: Double?
    /// Inclusive upper bound, or nil.
    public var atMost: Double?
    /// Where it was written.
    public var location: SourceLocation

    /// A bound on `metric`; give `atLeast`, `atMost` or both. Giving `client`, `opcode` or `window` makes it a
    /// windowed per-client bound (`metric` then names a `WindowMetric`; the window defaults to the whole run).
    public init(
        _ metric: String,
        client: String? = nil,
        opcode: Opcode? = nil,
        window: MetricWindow? = nil,
        atLeast: Double? = nil,
        atMost: Double? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.metric = metric
        self.client = client
        self.opcode = opcode
        self.window = window ?? (client != nil || opcode != nil ? .wholeRun : nil)
        self.atLeast = atLeast
        self.atMost = atMost
        self.location = SourceLocation(fileID: fileID, line: line)
    }

    /// Whether `value` lies within the bound.
    public func admits(_ value: Double) -> Bool {
        if let atLeast, value < atLeast { return false }
        if let atMost, value > atMost { return false }
        return true
    }

    /// Whether the bound is on a windowed per-client count rather than a run metric.
    public var isWindowed: Bool { window != nil }

    /// `requests[alice CHAT_MARK from step 'opened']`, or the bare metric name for a run metric.
    public var subject: String {
        guard let window else { return metric }
        let parts = [client ?? "all clients", opcode.map { "\($0)" }, window.description.isEmpty ? nil : window.description]
        return "\(metric)[" + parts.compactMap { $0 }.joined(separator: " ") + "]"
    }

    /// `reconnects <= 5`, `0 <= x <= 3`.
    public var description: String {
        switch (atLeast, atMost) {
        case let (low?, high?): "\(low) <= \(subject) <= \(high)"
        case let (low?, nil): "\(subject) >= \(low)"
        case let (nil, high?): "\(subject) <= \(high)"
        case (nil, nil): "\(subject) (unbounded)"
        }
    }
}

/// The time window of a windowed `MetricBound`: from a moment (inclusive) until another (exclusive).
public struct MetricWindow: Hashable, Sendable, CustomStringConvertible {
    /// Where the window opens, or nil for the run's start.
    public var from: Moment?
    /// Where it closes, or nil for the run's end.
    public var until: Moment?

    /// A window from `from` (the run's start when nil) until `until` (the run's end when nil).
    public init(from: Moment? = nil, until: Moment? = nil) {
        self.from = from
        self.until = until
    }

    /// The whole run.
    public static let wholeRun = MetricWindow()

    /// From `moment` until `until` (the run's end when nil): `.from("opened", until: .seconds(60))`.
    public static func from(_ moment: Moment, until: Moment? = nil) -> MetricWindow {
        MetricWindow(from: moment, until: until)
    }

    /// From the run's start until `moment`.
    public static func until(_ moment: Moment) -> MetricWindow { MetricWindow(until: moment) }

    /// `from step 'opened' until 60.000s`, or empty for the whole run.
    public var description: String {
        [from.map { "from \($0)" }, until.map { "until \($0)" }].compactMap { $0 }.joined(separator: " ")
    }
}

/// The per-client counts a windowed `MetricBound` can bound, as the world observes them on the wire and in the
/// client's driver (`WorldProbe.windowMetrics(of:from:until:)`).
public enum WindowMetric: String, CaseIterable, Hashable, Sendable {
    /// Requests the client sent (optionally of one opcode).
    case requests
    /// Connection attempts after the client's first.
    case reconnects
    /// Successful LOGIN responses the client received.
    case logins
    /// CDN uploads the client started.
    case uploadsStarted
    /// Pushes the client received (optionally of one opcode).
    case pushesReceived
}
