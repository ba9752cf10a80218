import Testing
import Scenarios
@testable import SyncSim

/// Fails with T2 iff the scenario still holds a clog of alice, a send "only once" by alice, and an outage of
/// alice lasting at least 4 s; counts its runs.
private struct NeedsThreeSteps: ScenarioExecutor {
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        let actions = scenario.steps.map(\.action)
        let fails = actions.contains(.clog(client: "alice"))
            && actions.contains(.sendText(client: "alice", chat: "alice+bob", text: "only once"))
            && actions.contains { action in
                if case .outage("alice", let duration, _) = action { return duration >= .seconds(4) }
                return false
            }
        let violations = fails ? [Violation(check: .invariant(.T2), time: .start, expected: "1", found: "2")] : []
        return RunResult(scenario: scenario.name, seed: seed, digest: 0, violations: violations)
    }
}

/// Fails `eventually: texts` when a client runs a mutant, or (with any engine) when the send of "one" is gone.
private struct TextsNeedOne: ScenarioExecutor {
    static let target = CheckID.eventually("texts")

    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        let hasOne = scenario.steps.contains { $0.action == .sendText(client: "alice", chat: "alice+bob", text: "one") }
        let fails = scenario.clients.contains { $0.mutant != nil } || !hasOne
        let violations = fails ? [Violation(check: Self.target, time: .start, expected: "x", found: "y")] : []
        return RunResult(scenario: scenario.name, seed: seed, digest: 0, violations: violations)
    }
}

@Suite struct ShrinkerTests {
    static let noisy = Scenario("noisy", summary: "s", seeds: [1, 2, 3]) {
        Server(history: ["alice+bob": 64])
        Client("alice", profile: .edge)
        Client("bob", profile: .fourG)
        Client("carol", profile: .threeG)
        Timeline {
            At(.seconds(1)) { OpenChat("carol", "bob+carol") }
            At(.seconds(2)) { Clog("alice") }
            After(.seconds(1)) { Send(from: "alice", text: "only once", in: "alice+bob") }
            After(.seconds(1)) { PushLoss(probability: 0.5, for: .seconds(30)) }
            At(.seconds(5)) { LinkDown("alice", for: .seconds(60)) }
            for index in 0..<6 { At(.seconds(10 + index)) { Send(from: "bob", text: "\(index)", in: "alice+bob") } }
            At(.seconds(20)) { ServerRestart(downtime: .seconds(2)) }
            At(.seconds(30)) { Send(from: "carol", text: "hey", in: "bob+carol") }
        }
    }

    @Test("shrinking keeps only what the failure needs and shortens the outage")
    func shrinks() throws {
        let shrinker = Shrinker(executor: NeedsThreeSteps())
        let outcome = try #require(shrinker.shrink(Self.noisy, seed: 2, target: .invariant(.T2)))
        #expect(outcome.scenario.seeds == [2])
        #expect(outcome.scenario.steps.map(\.action) == [
            .clog(client: "alice"),
            .sendText(client: "alice", chat: "alice+bob", text: "only once"),
            .outage(client: "alice", duration: .seconds(7) + .milliseconds(500), mode: .silently),
        ])
        #expect(outcome.scenario.steps.map(\.timing) == [.at(.seconds(2)), .at(.seconds(3)), .at(.seconds(5))])
        #expect(outcome.scenario.clients.map(\.name) == ["alice", "bob"])
        #expect(outcome.scenario.server.history == [ChatHistorySeed(chat: "alice+bob", messages: 1)])
        #expect(outcome.result.violations.first?.check == .invariant(.T2))
        #expect(outcome.runs <= 400)
        let source = outcome.scenario.dslSource()
        #expect(source.contains("At(.seconds(3)) { Send(from: \"alice\", text: \"only once\", in: \"alice+bob\") }"))
        #expect(source.contains("LinkDown(\"alice\", for: .milliseconds(7500))"))
    }

    /// A send retried over a 25 s outage, between two other sends, with a texts condition that names all three.
    static let retried = Scenario("retried-send", summary: "s", seeds: [1]) {
        Server()
        Client("alice", profile: .edge)
        Client("bob", profile: .threeG)
        Timeline {
            At(.seconds(2)) { Send(from: "alice", text: "one", in: "alice+bob") }
            At(.seconds(5)) { OpenChat("alice", "alice+bob") }
            At(.seconds(6)) { Send(from: "alice", text: "hi", in: "alice+bob") }
            At(.milliseconds(6_300)) { LinkDown("alice", for: .seconds(25)) }
            At(.seconds(60)) { Send(from: "alice", text: "two", in: "alice+bob") }
        }
        Expect {
            Invariants(.all)
            Eventually(within: .minutes(3), .serverTexts(chat: "alice+bob", texts: ["one", "hi", "two"]))
            MetricBound("reconnects", atMost: 100)
        }
    }

    @Test("a shrunk mutant failure passes with the reference engine and fails the same check with the mutant")
    func mutantRegression() throws {
        let mutant = "resend-new-cid"
        let executor = WorldExecutor()
        let original = executor.run(Self.retried.withMutant(mutant), seed: 1, options: RunOptions(mutant: mutant))
        let target = try #require(original.violations.first?.check)
        #expect(target == .invariant(.T2))
        let shrinker = Shrinker(executor: executor, options: RunOptions(mutant: mutant))
        let outcome = try #require(shrinker.shrink(Self.retried, seed: 1, target: target))
        let shrunk = outcome.scenario
        #expect(shrunk.name == "retried-send-shrunk")
        #expect(shrunk.clients.allSatisfy { $0.mutant == nil })
        #expect(!shrunk.dslSource().contains("mutant"))
        #expect(shrunk.expectations.eventually.isEmpty)
        #expect(shrunk.expectations.metricBounds.isEmpty)
        #expect(shrunk.checkedInvariants == Self.retried.checkedInvariants)
        #expect(shrunk.steps.count < Self.retried.steps.count)

        let reference = executor.run(shrunk, seed: 1, options: RunOptions())
        #expect(reference.violations.map(\.description) == [])
        let mutated = executor.run(shrunk.withMutant(mutant), seed: 1, options: RunOptions(mutant: mutant))
        #expect(mutated.violations.first?.check == target)
    }

    @Test("shrinking keeps the failing eventually-condition and drops the others")
    func keepsTargetExpectation() {
        let expectations = Self.retried.expectations
        let target = CheckID.eventually(expectations.eventually[0].condition.description)
        let kept = expectations.keeping(target)
        #expect(kept.eventually.map(\.condition.description) == [expectations.eventually[0].condition.description])
        #expect(kept.metricBounds.isEmpty)
        #expect(kept.invariants == expectations.invariants)
        #expect(expectations.keeping(.metricBound("reconnects <= 100.0")).metricBounds.count == 1)
    }

    @Test("with a mutant, a step the reference engine needs to hold the failing condition is kept")
    func keepsStepsTheReferenceNeeds() throws {
        let shrinker = Shrinker(executor: TextsNeedOne(), options: RunOptions(mutant: "resend-new-cid"))
        let outcome = try #require(shrinker.shrink(Self.retried, seed: 1, target: TextsNeedOne.target))
        #expect(outcome.scenario.steps.map(\.action) == [.sendText(client: "alice", chat: "alice+bob", text: "one")])
    }

    @Test("a run that does not fail the target is not shrunk")
    func noFailure() {
        let shrinker = Shrinker(executor: NeedsThreeSteps())
        #expect(shrinker.shrink(Self.noisy, seed: 1, target: .invariant(.C1)) == nil)
        #expect(shrinker.shrink(Scenario("x", summary: "s", seeds: [1]) {}, seed: 1, target: .invariant(.T2)) == nil)
    }

    @Test("the run budget is respected")
    func budget() throws {
        let shrinker = Shrinker(executor: NeedsThreeSteps(), maxRuns: 5)
        let outcome = try #require(shrinker.shrink(Self.noisy, seed: 1, target: .invariant(.T2)))
        #expect(outcome.runs <= 5)
    }
}

/// Fails T5 whenever alice's link goes down at some point (whatever follows): a shrinker free to drop the LinkUp
/// would keep the failure with the link down for good.
private struct FailsAfterLinkDown: ScenarioExecutor {
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        let fails = scenario.steps.contains { $0.action == .linkDown(client: "alice", mode: .silently) }
        let violations = fails ? [Violation(check: .invariant(.T5), time: .start, expected: "0", found: "1")] : []
        return RunResult(scenario: scenario.name, seed: seed, digest: 0, violations: violations)
    }
}

@Suite struct ShrinkerOpenFaultTests {
    static let downAndUp = Scenario("down-and-up", summary: "s", seeds: [1]) {
        Client("alice", profile: .edge)
        Client("bob", profile: .edge)
        Timeline {
            At(.seconds(1)) { LinkDown("alice") }
            At(.seconds(2)) { Send(from: "alice", text: "x", in: "alice+bob") }
            At(.seconds(3)) { Clog("alice") }
            At(.seconds(9)) { Release("alice") }
            At(.seconds(10)) { LinkUp("alice") }
        }
    }

    @Test("the faults in effect at the end: a link down without its LinkUp, a clog without its Release, ...")
    func faultsInEffect() throws {
        #expect(Self.downAndUp.faultsInEffectAtEnd().isEmpty)
        var open = Self.downAndUp
        open.steps.removeAll { $0.action == .linkUp(client: "alice") || $0.action == .release(client: "alice") }
        #expect(open.faultsInEffectAtEnd() == ["link down alice", "clog alice"])
        let offline = Scenario("offline", summary: "s", seeds: [1]) {
            Client("alice", profile: .edge)
            Timeline {
                At(.seconds(1)) { Handover("alice", to: .offline) }
                At(.seconds(2)) { CapLogin(chats: 2) }
            }
        }
        #expect(offline.faultsInEffectAtEnd() == ["offline alice", "LOGIN cap 2"])
    }

    @Test("shrinking never removes the step that ends a fault while keeping the fault")
    func keepsLinkUp() throws {
        let shrinker = Shrinker(executor: FailsAfterLinkDown())
        let outcome = try #require(shrinker.shrink(Self.downAndUp, seed: 1, target: .invariant(.T5)))
        let actions = outcome.scenario.steps.map(\.action)
        // Before the fix: [LinkDown] alone, a link down for good.
        #expect(actions == [.linkDown(client: "alice", mode: .silently), .linkUp(client: "alice")])
    }

    @Test("a mutant's shrunk failure of a liveness invariant passes with the reference engine (new-user trial)")
    func livenessRegressionPassesWithReference() throws {
        let scenario = try #require(Catalog.scenario(named: "stuck-send-flushes-after-handover"))
        let mutant = "inflight-dropped-on-disconnect"
        let executor = WorldExecutor()
        let failing = executor.run(scenario.withMutant(mutant), seed: 361, options: RunOptions(mutant: mutant))
        let violation = try #require(failing.violations.first)
        let shrinker = Shrinker(executor: executor, options: RunOptions(mutant: mutant), maxRuns: 60)
        let outcome = try #require(shrinker.shrink(scenario, seed: 361, violation: violation))
        #expect(outcome.scenario.faultsInEffectAtEnd().isEmpty)
        #expect(executor.run(outcome.scenario, seed: 361, options: RunOptions()).violations.map(\.description) == [])
        let mutated = executor.run(outcome.scenario.withMutant(mutant), seed: 361, options: RunOptions(mutant: mutant))
        #expect(mutated.violations.contains { $0.check == violation.check })
    }
}
