/// What a run must show: the invariants to check, conditions with deadlines, and bounds on metrics.
public struct Expectations: Sendable {
    /// Invariants the checkers enforce, in declaration order, each once. Empty means none was named, in which
    /// case `Scenario` checks all of them.
    public var invariants: [InvariantID]
    /// Conditions that must become true by their deadlines, in source order.
    public var eventually: [Eventually]
    /// Bounds on end-of-run metrics, in source order.
    public var metricBounds: [MetricBound]

    /// Creates expectations; with no `invariants` the scenario checks all of them.
    public init(invariants: [InvariantID] = [], eventually: [Eventually] = [], metricBounds: [MetricBound] = []) {
        self.invariants = invariants
        self.eventually = eventually
        self.metricBounds = metricBounds
    }
}

/// A condition that must hold at some point no later than `deadline` of virtual time after the run's start.
public struct Eventually: Sendable {
    /// Virtual time from the run's start by which the condition must have held.
    public var deadline: SimDuration
    /// What must become true.
    public var condition: Condition
    /// Where it was written.
    public var location: SourceLocation

    /// A data condition: `Eventually(within: .seconds(120), .serverMessageCount(chat: "alice+bob", count: 1))`.
    public init(
        within deadline: SimDuration,
        _ condition: Condition,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.deadline = deadline
        self.condition = condition
        self.location = SourceLocation(fileID: fileID, line: line)
    }

    /// A custom predicate over the world, named by `label` in reports.
    public init(
        _ label: String,
        within deadline: SimDuration,
        fileID: String = #fileID,
        line: Int = #line,
        _ predicate: @escaping @Sendable (any WorldProbe) -> Bool
    ) {
        self.init(
            within: deadline,
            .custom(label: label, predicate: predicate),
            fileID: fileID,
            line: line
        )
    }
}

/// A bound on a metric the world reports at the end of a run (`"reconnects"`, `"loginAttempts"`; `SweepMetric.all`).
public struct MetricBound: Hashable, Sendable, CustomStringConvertible {
    /// The metric's name as `RunResult.metrics` lists it.
    public var metric: String
    /// Inclusive lower bound, or nil.
    public var atLeast: Double?
    /// Inclusive upper bound, or nil.
    public var atMost: Double?
    /// Where it was written.
    public var location: SourceLocation

    /// A bound on `metric`; give `atLeast`, `atMost` or both.
    public init(
        _ metric: String,
        atLeast: Double? = nil,
        atMost: Double? = nil,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.metric = metric
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

    /// `reconnects <= 5`, `0 <= x <= 3`.
    public var description: String {
        switch (atLeast, atMost) {
        case let (low?, high?): "\(low) <= \(metric) <= \(high)"
        case let (low?, nil): "\(metric) >= \(low)"
        case let (nil, high?): "\(metric) <= \(high)"
        case (nil, nil): "\(metric) (unbounded)"
        }
    }
}
