import Testing
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
