/// Reduces a failing scenario while the same failure keeps happening: fewer faults, fewer clients, fewer actions,
/// shorter faults, smaller seeded histories.
///
/// Greedy and deterministic: it re-runs candidates through the executor with the one failing seed and keeps a
/// candidate when it is valid and its run still shows the target failure: given a `Violation`, one with the same
/// `FailureSignature` (check id, client, chat and finding kind), so shrinking never drifts to another failure that
/// happens to trip the same check. Clients named by a remaining condition are kept (every client, when a custom
/// condition does not list the clients it looks at). Steps are first made absolute
/// (`Scenario.withAbsoluteTiming()`), so removing one never moves another. Runs stop at `maxRuns`.
///
/// The result is a regression to paste into the catalog: it is named `<name>-shrunk`, keeps the invariants and only
/// the expectation whose failure is preserved (other eventually-conditions and metric bounds may refer to steps
/// that were removed), and leaves `options.mutant` out of its clients. With a mutant, a candidate that breaks a
/// target other than a safety invariant (a liveness invariant, an eventually-condition, a bound) must also hold that
/// check with the reference engine, so the regression fails because of the mutant and not because shrinking made
/// the expectation impossible. A candidate never leaves a fault in effect at its end that the scenario had ended
/// (a LinkDown without its LinkUp, a Clog without its Release, a handover to offline without the one back).
public struct Shrinker: Sendable {
    /// Runs each candidate scenario.
    public var executor: any ScenarioExecutor
    /// The options every candidate run uses (mutant, trace recording, store directory).
    public var options: RunOptions
    /// The most runs the shrinker may spend.
    public var maxRuns: Int

    /// Creates a shrinker running candidates with `executor` and `options`, at most `maxRuns` runs (default 400).
    public init(executor: any ScenarioExecutor, options: RunOptions = RunOptions(), maxRuns: Int = 400) {
        self.executor = executor
        self.options = options
        self.maxRuns = maxRuns
    }

    /// What shrinking produced.
    public struct Outcome: Sendable {
        /// The reduced scenario, with `seeds == [seed]`.
        public var scenario: Scenario
        /// Its run, which still breaks the target check.
        public var result: RunResult
        /// Runs spent.
        public var runs: Int
    }

    /// Shrinks `scenario`, whose run with `seed` (and `options.mutant` forced on every client) broke `target`, to a
    /// scenario whose run shows a violation with the same `FailureSignature`.
    /// - Parameter scenario: the scenario as written, without `options.mutant` applied to its clients.
    /// - Returns: the smallest failing scenario found, or nil when the scenario's run does not show the failure
    ///   again (or its timing cannot be resolved).
    public func shrink(_ scenario: Scenario, seed: UInt64, violation target: Violation) -> Outcome? {
        shrink(scenario, seed: seed, check: target.check, matches: FailureSignature(target).matches)
    }

    /// Shrinks `scenario`, whose run with `seed` broke `target`, keeping any violation of that check (a looser
    /// target than `shrink(_:seed:violation:)`).
    public func shrink(_ scenario: Scenario, seed: UInt64, target: CheckID) -> Outcome? {
        shrink(scenario, seed: seed, check: target) { $0.check == target }
    }

    private func shrink(
        _ scenario: Scenario, seed: UInt64, check target: CheckID, matches: @escaping (Violation) -> Bool
    ) -> Outcome? {
        guard var current = try? scenario.withAbsoluteTiming() else { return nil }
        current.seeds = [seed]
        current.expectations = current.expectations.keeping(target)
        var state = State(shrinker: self, seed: seed, target: target, matches: matches,
                          faultsInEffect: current.faultsInEffectAtEnd())
        guard let first = state.fails(current) else { return nil }
        var best = first
        var progressed = true
        while progressed && state.hasBudget {
            progressed = false
            progressed = state.removeSteps(of: &current, best: &best) { $0.action.isFault } || progressed
            progressed = state.removeClients(of: &current, best: &best) || progressed
            progressed = state.removeSteps(of: &current, best: &best) { !$0.action.isFault } || progressed
            progressed = state.shortenFaults(of: &current, best: &best) || progressed
            progressed = state.shrinkHistory(of: &current, best: &best) || progressed
        }
        current.name = scenario.name + "-shrunk"
        let failing = best.violations.first(where: matches)
        var place = ""
        if let client = failing?.client { place += " for \(client)" }
        if let chat = failing?.chat { place += " in \(chat)" }
        current.summary = "Shrunk from '\(scenario.name)' seed \(seed): \(current.clients.count) client(s) and "
            + "\(current.steps.count) step(s) that still fail \(target)\(place)"
        return Outcome(scenario: current, result: best, runs: state.runs)
    }

    private struct State {
        let shrinker: Shrinker
        let seed: UInt64
        let target: CheckID
        let matches: (Violation) -> Bool
        /// The faults the scenario as given leaves in effect at its end (`Scenario.faultsInEffectAtEnd()`).
        let faultsInEffect: Set<String>
        var runs = 0

        var hasBudget: Bool { runs < shrinker.maxRuns }

        /// The run of `candidate` when it is valid and still breaks the target (and, with a mutant and a
        /// non-invariant target, the reference engine holds the target); nil otherwise.
        mutating func fails(_ candidate: Scenario) -> RunResult? {
            // A candidate that leaves a fault in effect the scenario had ended (its LinkUp or Release removed) fails
            // liveness checks with any engine: it would shrink to a link that stays down (found by a new-user trial:
            // `run stuck-send-flushes-after-handover --seed 361 --mutant inflight-dropped-on-disconnect --shrink`).
            guard hasBudget, candidate.problems().isEmpty,
                  candidate.faultsInEffectAtEnd().isSubset(of: faultsInEffect) else { return nil }
            runs += 1
            let options = shrinker.options
            let mutated = options.mutant.map { candidate.withMutant($0) } ?? candidate
            let result = shrinker.executor.run(mutated, seed: seed, options: options)
            guard result.violations.contains(where: matches) else { return nil }
            if options.mutant != nil, !target.isSafetyInvariant {
                guard hasBudget else { return nil }
                runs += 1
                var reference = options
                reference.mutant = nil
                let control = shrinker.executor.run(candidate, seed: seed, options: reference)
                if control.violations.contains(where: matches) { return nil }
            }
            return result
        }

        /// Removes chunks of the steps matching `isCandidate`, halving the chunk size down to single steps.
        mutating func removeSteps(
            of scenario: inout Scenario,
            best: inout RunResult,
            where isCandidate: (Step) -> Bool
        ) -> Bool {
            var progressed = false
            var chunk = max(1, scenario.steps.filter(isCandidate).count / 2)
            while hasBudget {
                var start = 0
                while hasBudget {
                    let positions = scenario.steps.indices.filter { isCandidate(scenario.steps[$0]) }
                    guard start < positions.count else { break }
                    let doomed = Set(positions[start..<min(start + chunk, positions.count)])
                    var candidate = scenario
                    candidate.steps = scenario.steps.indices.filter { !doomed.contains($0) }.map { scenario.steps[$0] }
                    if let result = fails(candidate) {
                        scenario = candidate
                        best = result
                        progressed = true
                    } else {
                        start += chunk
                    }
                }
                if chunk == 1 { break }
                chunk /= 2
            }
            return progressed
        }

        /// Removes clients one at a time with their steps, chat memberships, histories and conditions.
        mutating func removeClients(of scenario: inout Scenario, best: inout RunResult) -> Bool {
            var progressed = false
            var index = 0
            while index < scenario.clients.count && hasBudget {
                let name = scenario.clients[index].name
                if scenario.namedByConditions(name) {
                    index += 1
                    continue
                }
                let candidate = Self.removingClient(name, from: scenario)
                if let result = fails(candidate) {
                    scenario = candidate
                    best = result
                    progressed = true
                } else {
                    index += 1
                }
            }
            return progressed
        }

        static func removingClient(_ name: String, from scenario: Scenario) -> Scenario {
            var copy = scenario
            // A user's second devices go with it.
            let gone = Set([name] + scenario.clients.filter { $0.user == name }.map(\.name))
            copy.clients.removeAll { gone.contains($0.name) }
            copy.steps.removeAll {
                $0.action.client.map(gone.contains) == true || $0.timing.event?.client.map(gone.contains) == true
            }
            for index in copy.chats.indices { copy.chats[index].members.removeAll { $0 == name } }
            copy.chats.removeAll { $0.members.isEmpty }
            // A chat named "a+b" loses its meaning without b; a declared chat just loses the member.
            let declared = Set(scenario.chats.map(\.name))
            copy.server.history.removeAll {
                !declared.contains($0.chat) && scenario.members(of: $0.chat).contains(name)
            }
            copy.expectations.eventually.removeAll { $0.condition.mentions(client: name) }
            copy.expectations.always.removeAll { $0.condition.mentions(client: name) }
            copy.expectations.metricBounds.removeAll { $0.client == name }
            return copy
        }

        /// Halves fault durations (in whole milliseconds, down to 1 ms) while the target keeps failing.
        mutating func shortenFaults(of scenario: inout Scenario, best: inout RunResult) -> Bool {
            var progressed = false
            for index in scenario.steps.indices {
                while hasBudget, let duration = scenario.steps[index].action.duration,
                    duration > .milliseconds(1)
                {
                    var candidate = scenario
                    // Whole milliseconds keep the printed scenario readable.
                    let half = SimDuration.milliseconds(max(1, duration.nanoseconds / 2 / 1_000_000))
                    candidate.steps[index].action = candidate.steps[index].action.withDuration(half)
                    guard let result = fails(candidate) else { break }
                    scenario = candidate
                    best = result
                    progressed = true
                }
            }
            return progressed
        }

        /// Halves pre-seeded chat histories while the target keeps failing.
        mutating func shrinkHistory(of scenario: inout Scenario, best: inout RunResult) -> Bool {
            var progressed = false
            for index in scenario.server.history.indices {
                while hasBudget, scenario.server.history[index].messages > 1 {
                    var candidate = scenario
                    candidate.server.history[index].messages /= 2
                    guard let result = fails(candidate) else { break }
                    scenario = candidate
                    best = result
                    progressed = true
                }
            }
            return progressed
        }
    }
}

extension CheckID {
    /// Whether the check is an invariant (rather than an eventually-condition, a metric bound or determinism).
    var isInvariant: Bool { if case .invariant = self { true } else { false } }

    /// Whether the check is a safety invariant, which the reference engine holds whatever the timeline: a liveness
    /// invariant (C6, T5, V1) needs the faults to end, so a shrunk timeline can break it with any engine.
    var isSafetyInvariant: Bool { if case .invariant(let id) = self { !id.isLiveness } else { false } }
}

extension Scenario {
    /// The faults still in effect when the timeline has run, one text each (`"link down alice"`): a link taken down
    /// and not brought up, a clog not released, a handover to offline not followed by another, lost connectivity
    /// not restored, and the last LOGIN cap (`"LOGIN cap 3"`). Steps count in the order of `steps`, which
    /// `withAbsoluteTiming()` sorts by time.
    func faultsInEffectAtEnd() -> Set<String> {
        var open: Set<String> = []
        var loginCap: Int?
        for step in steps {
            switch step.action {
            case .linkDown(let client, _): open.insert("link down \(client)")
            case .linkUp(let client): open.remove("link down \(client)")
            case .clog(let client): open.insert("clog \(client)")
            case .release(let client): open.remove("clog \(client)")
            case .changeProfile(let client, let profile):
                if profile == .offline { open.insert("offline \(client)") } else { open.remove("offline \(client)") }
            case .connectivity(let client, .lost): open.insert("connectivity lost \(client)")
            case .connectivity(let client, .restored): open.remove("connectivity lost \(client)")
            case .capLogin(let chats): loginCap = chats
            default: break
            }
        }
        if let loginCap { open.insert("LOGIN cap \(loginCap)") }
        return open
    }
}

extension Expectations {
    /// These expectations with the invariants and only the eventually-condition, `Always`/`Never` or metric bound
    /// that is `target`.
    func keeping(_ target: CheckID) -> Expectations {
        Expectations(
            invariants: invariants,
            eventually: eventually.filter { CheckID.eventually($0.condition.description) == target },
            metricBounds: metricBounds.filter { CheckID.metricBound($0.description) == target },
            always: always.filter { CheckID.always($0.description) == target }
        )
    }
}

extension Condition {
    /// Whether the condition names `client`.
    func mentions(client name: String) -> Bool { clients?.contains(name) == true }
}

extension Scenario {
    /// Whether a condition of the scenario (expectation or `Check` step) names `client`, or may look at it (a custom
    /// condition without a client list), so shrinking must keep it.
    func namedByConditions(_ client: String) -> Bool {
        var conditions = expectations.eventually.map(\.condition) + expectations.always.map(\.condition)
        for step in steps { if case .check(let condition) = step.action { conditions.append(condition) } }
        if expectations.metricBounds.contains(where: { $0.client == client }) { return true }
        return conditions.contains { $0.clients?.contains(client) ?? true }
    }
}

/// What makes two failures the same for shrinking: the check, the client and chat it names, and the finding's kind
/// (its expectation with every number masked, so ids and times that shrinking changes do not count).
public struct FailureSignature: Hashable, Sendable, CustomStringConvertible {
    /// The check broken.
    public var check: CheckID
    /// The client named, or nil.
    public var client: String?
    /// The chat named, or nil.
    public var chat: String?
    /// The finding's kind: `expected` with digit runs as `#`.
    public var kind: String

    /// The signature of `violation`.
    public init(_ violation: Violation) {
        check = violation.check
        client = violation.client
        chat = violation.chat
        kind = Self.masked(violation.expected)
    }

    /// Whether `violation` has this signature.
    public func matches(_ violation: Violation) -> Bool { FailureSignature(violation) == self }

    /// `T2 client alice chat alice+bob: one server message for cid #`.
    public var description: String {
        var text = "\(check)"
        if let client { text += " client \(client)" }
        if let chat { text += " chat \(chat)" }
        return text + ": " + kind
    }

    static func masked(_ text: String) -> String {
        var result = ""
        var inDigits = false
        for character in text {
            if character.isASCII, character.isNumber {
                if !inDigits { result.append("#") }
                inDigits = true
            } else {
                result.append(character)
                inDigits = false
            }
        }
        return result
    }
}
