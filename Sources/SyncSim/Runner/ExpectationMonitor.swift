/// Tracks a scenario's expectations during one run: eventually-conditions, `Always`/`Never` windows and metric
/// bounds, and reports what was missed.
///
/// For the world that executes scenarios: call `stepRan(label:at:)` when a labelled step runs, `observe(_:tail:)`
/// after every world step (at least once before each deadline in `nextDeadline`), then `finish(...)` at the end of the
/// run. Single-threaded and deterministic: conditions are evaluated in declaration order; an eventually-condition is
/// never evaluated again once satisfied, an `Always` never again once broken.
public struct ExpectationMonitor {
    private let eventually: [Eventually]
    private let metricBounds: [MetricBound]
    private let always: [Always]
    private var satisfied: [Bool]
    /// Per eventually-condition, what its last observation before the deadline found (for the report's `found`);
    /// nil before any observation, or for a condition with nothing to show (`converged`, a custom predicate).
    private var lastFound: [Observation?]
    /// Per eventually-condition, the trace tail up to its deadline, taken at the first observation past it.
    private var deadlineTails: [[String]?]
    private var broken: [Bool]
    /// When each step label ran (first time), for anchors and windows.
    private var labelTimes: [String: SimInstant] = [:]

    /// Starts tracking the expectations, none satisfied or broken yet.
    public init(_ expectations: Expectations) {
        eventually = expectations.eventually
        metricBounds = expectations.metricBounds
        always = expectations.always
        satisfied = Array(repeating: false, count: expectations.eventually.count)
        lastFound = Array(repeating: nil, count: expectations.eventually.count)
        deadlineTails = Array(repeating: nil, count: expectations.eventually.count)
        broken = Array(repeating: false, count: expectations.always.count)
    }

    /// Notes that the step labelled `label` ran at `time` (only its first run counts).
    public mutating func stepRan(label: String, at time: SimInstant) {
        if labelTimes[label] == nil { labelTimes[label] = time }
    }

    /// When the step labelled `label` ran, or nil.
    public func instant(ofStep label: String) -> SimInstant? { labelTimes[label] }

    /// The instant `moment` stands for, or nil while its step has not run.
    public func instant(of moment: Moment) -> SimInstant? {
        switch moment {
        case .time(let offset): .start + offset
        case .step(let label): labelTimes[label]
        }
    }

    /// The deadline of eventually-condition `index`, or nil while its anchor step has not run.
    private func deadline(_ index: Int) -> SimInstant? {
        let item = eventually[index]
        guard let anchor = item.anchor else { return .start + item.deadline }
        return labelTimes[anchor].map { $0 + item.deadline }
    }

    /// The earliest deadline of a condition not yet satisfied, as an instant; nil when none is pending.
    public var nextDeadline: SimInstant? {
        eventually.indices.filter { !satisfied[$0] }.compactMap(deadline).min()
    }

    /// Whether `observe(_:tail:)` never has anything to evaluate: no eventually-, `Always` or `Never` conditions
    /// (metric bounds are judged by `finish` alone).
    public var observesNothing: Bool { eventually.isEmpty && always.isEmpty }

    /// Whether every eventually-condition has been satisfied.
    public var isComplete: Bool { satisfied.allSatisfy { $0 } }

    /// Whether every windowed `MetricBound` with an end (`until`) has had its window close by `now`: a fixed
    /// moment passed, a step moment run and passed. A run ending at quiescence before then would judge the bound on
    /// part of its window (pings go on in a quiet world), so the world keeps running until this holds (or to the
    /// run's length).
    public func metricWindowsClosed(at now: SimInstant) -> Bool {
        metricBounds.allSatisfy { bound in
            guard let until = bound.window?.until else { return true }
            guard let instant = instant(of: until) else { return false }
            return instant <= now
        }
    }

    /// Evaluates the pending eventually-conditions whose deadline has not passed at `world.now`, and the `Always`
    /// and `Never` conditions whose window covers it.
    /// - Parameters:
    ///   - world: the world after a step.
    ///   - tail: the trace tail up to an instant, for a deadline just passed or a condition just broken.
    /// - Returns: the `Always`/`Never` conditions broken at this step, as violations at `world.now`.
    @discardableResult
    public mutating func observe(
        _ world: any WorldProbe,
        tail: ((SimInstant) -> [String])? = nil
    ) -> [Violation] {
        for index in eventually.indices where !satisfied[index] {
            guard let deadline = deadline(index) else { continue }
            guard world.now <= deadline else {
                if deadlineTails[index] == nil, let tail { deadlineTails[index] = tail(deadline) }
                continue
            }
            let condition = eventually[index].condition
            if condition.isSatisfied(in: world) {
                satisfied[index] = true
            } else {
                lastFound[index] = Observation(condition, in: world)
            }
        }
        var violations: [Violation] = []
        for index in always.indices where !broken[index] {
            let item = always[index]
            if let from = item.from {
                guard let start = instant(of: from), world.now >= start else { continue }
            }
            if let until = item.until, let end = instant(of: until), world.now >= end { continue }
            guard item.condition.isSatisfied(in: world) == item.isNegated else { continue }
            broken[index] = true
            let window = item.windowDescription
            violations.append(Violation(
                check: .always(item.description),
                client: item.condition.clients?.first,
                chat: item.condition.chat,
                time: world.now,
                expected: "\(item.isNegated ? "never" : "always") \(item.condition)"
                    + (window.isEmpty ? "" : " \(window)") + " (\(item.location))",
                found: item.isNegated ? "true at \(world.now)" : "false at \(world.now)",
                traceTail: tail?(world.now) ?? [],
                traceTailLength: Int.max
            ))
        }
        return violations
    }

    /// The violations of the run: conditions never satisfied by their deadline, then metrics out of bounds (a
    /// bounded metric the run did not report counts as out of bounds).
    /// - Parameters:
    ///   - now: the run's end.
    ///   - metrics: the run's metrics.
    ///   - schedule: the scenario's schedule, to name the step that ran last before each deadline.
    ///   - traceTail: the last trace records, attached to violations at the run's end.
    ///   - tail: the trace tail up to an instant (for a deadline not yet passed when the run ended); nil uses
    ///     `traceTail`.
    ///   - probe: the world, for windowed metric bounds; nil reports them as not measured.
    public func finish(
        at now: SimInstant,
        metrics: [Metric],
        schedule: [ScheduledStep],
        traceTail: [String],
        tail: ((SimInstant) -> [String])? = nil,
        probe: (any WorldProbe)? = nil
    ) -> [Violation] {
        var violations: [Violation] = []
        for index in eventually.indices where !satisfied[index] {
            let item = eventually[index]
            guard let due = deadline(index) else {
                violations.append(Violation(
                    check: .eventually(item.condition.description),
                    client: item.condition.clients?.first,
                    chat: item.condition.chat,
                    time: now,
                    expected: "\(item.condition) within \(item.deadline) after step '\(item.anchor ?? "")'"
                        + Self.written(item.location),
                    found: "step '\(item.anchor ?? "")' never ran",
                    lastStep: schedule.lastStep(atOrBefore: now),
                    traceTail: traceTail
                ))
                continue
            }
            let deadline = min(now, due)
            let anchorText = item.anchor.map { " after step '\($0)'" } ?? ""
            violations.append(
                Violation(
                    check: .eventually(item.condition.description),
                    client: item.condition.clients?.first,
                    chat: item.condition.chat,
                    time: deadline,
                    expected: "\(item.condition) within \(item.deadline)\(anchorText)" + Self.written(item.location),
                    found: lastFound[index].map { "\($0.description) by \(deadline)" } ?? "not true by \(deadline)",
                    lastStep: schedule.lastStep(atOrBefore: deadline),
                    traceTail: deadlineTails[index] ?? tail?(deadline) ?? traceTail,
                    traceTailLength: Int.max
                )
            )
        }
        for bound in metricBounds {
            let value: Double?
            if bound.isWindowed {
                value = probe.flatMap { windowedValue(bound, in: $0, end: now) }
            } else {
                value = metrics.first { $0.name == bound.metric }?.value
            }
            guard let value, bound.admits(value) else {
                violations.append(
                    Violation(
                        check: .metricBound(bound.description),
                        client: bound.client,
                        time: now,
                        expected: "\(bound) (\(bound.location))",
                        found: value.map { "\(bound.subject) = \($0)" } ?? "no metric \(bound.subject) reported",
                        lastStep: schedule.lastStep(atOrBefore: now),
                        traceTail: traceTail,
                        traceTailLength: Int.max
                    )
                )
                continue
            }
        }
        return violations
    }

    /// A windowed bound's value over its window, clipped to the run's end; nil for an unknown metric. A window
    /// whose start step never ran counts nothing.
    private func windowedValue(_ bound: MetricBound, in probe: any WorldProbe, end: SimInstant) -> Double? {
        guard let metric = WindowMetric(rawValue: bound.metric), let window = bound.window else { return nil }
        guard let from = window.from.map(instant(of:)) ?? .start else { return 0 }
        let until = window.until.flatMap(instant(of:)) ?? end + .nanoseconds(1)
        let counts = probe.windowMetrics(of: bound.client, from: from, until: until)
        return Double(counts.value(of: metric, opcode: bound.opcode))
    }

    /// `["a", "b"]`; a long list as its first and last ten texts with the count between.
    /// ` (Scenarios/File.swift:12)`: where the expectation was written; empty for one made by code (a replayed
    /// capture's, the explorer's), whose location would name the generator's own source.
    static func written(_ location: SourceLocation) -> String {
        location == .generated ? "" : " (\(location))"
    }

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

extension ExpectationMonitor {
    /// What an eventually-condition found when it was last looked at, kept as values (cheap to take after every
    /// step) and worded only for the report. Before, only the conditions on the server's texts said what they found;
    /// every other missed condition read "not true by T" (round 38's sequence writers asked for more).
    enum Observation {
        case texts([String])
        case serverCount(Int)
        case unfinishedTasks([(client: String, count: Int)])
        case history(chunks: Int, cached: Int, server: Int)
        case notLoggedIn
        case screen(openChat: String?, visible: [Int64], echoes: Int)
        case readMark(Int64?, newest: Int64)
        case sessions(Int)

        /// Nil for a condition with nothing to show beyond "not true" (`converged`, `photosComplete`, a custom
        /// predicate).
        init?(_ condition: Condition, in world: any WorldProbe) {
            switch condition {
            case .serverTexts(let chat, _), .serverOrder(let chat, _):
                self = .texts(world.serverMessages(in: chat).map(\.text))
            case .serverMessageCount(let chat, _):
                self = .serverCount(world.serverMessages(in: chat).count)
            case .queueDrained(let client):
                self = .unfinishedTasks([(client, world.pendingTaskCount(of: client))])
            case .allQueuesDrained:
                self = .unfinishedTasks(world.clientNames.map { ($0, world.pendingTaskCount(of: $0)) }.filter { $0.1 > 0 })
            case .historyComplete(let client, let chat):
                self = .history(chunks: world.chunkCount(of: client, in: chat),
                                cached: world.cachedMessages(of: client, in: chat).count,
                                server: world.serverMessages(in: chat).count)
            case .loggedIn:
                self = .notLoggedIn
            case .textOnScreen(let client, _, _):
                let screen = world.screen(of: client)
                self = .screen(openChat: screen.openChat, visible: screen.visibleMessageIds,
                               echoes: screen.localEchoes.count)
            case .readUpToNewest(let client, let chat):
                guard let newest = world.serverMessages(in: chat).last?.id else { return nil }
                self = .readMark(world.readMark(of: client, in: chat), newest: newest)
            case .serverSessions(let client, _):
                self = .sessions(world.serverSessionCount(of: client))
            case .converged, .photosComplete, .custom:
                return nil
            }
        }

        var description: String {
            switch self {
            case .texts(let texts):
                return "server texts \(ExpectationMonitor.list(texts))"
            case .serverCount(let count):
                return "\(count) message\(count == 1 ? "" : "s") on the server"
            case .unfinishedTasks(let counts):
                let named = counts.map { "\($0.client) \($0.count)" }.joined(separator: ", ")
                return "unfinished tasks: " + (named.isEmpty ? "none" : named)
            case .history(let chunks, let cached, let server):
                return "\(chunks) chunk\(chunks == 1 ? "" : "s") holding \(cached) of the server's \(server) messages"
            case .notLoggedIn:
                return "not logged in"
            case .screen(let openChat, let visible, let echoes):
                guard let openChat else { return "no chat open" }
                let ids = visible.isEmpty ? "no message" : "ids \(visible.map(String.init).joined(separator: ", "))"
                return "'\(openChat)' open showing \(ids) and \(echoes) local echo\(echoes == 1 ? "" : "es")"
            case .readMark(let mark, let newest):
                return "read mark \(mark.map(String.init) ?? "none"), newest message \(newest)"
            case .sessions(let count):
                return "\(count) session\(count == 1 ? "" : "s") on the server"
            }
        }
    }
}
