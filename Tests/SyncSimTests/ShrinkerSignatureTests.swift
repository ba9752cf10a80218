import Foundation
import Scenarios
import Testing
@testable import SyncSim

/// Fails C2 for client "a" while the scenario holds a clog of "a", and C2 for client "b" otherwise: the same check,
/// another failure.
private struct DriftsToAnotherClient: ScenarioExecutor {
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        let client = scenario.steps.contains { $0.action == .clog(client: "a") } ? "a" : "b"
        let violation = Violation(check: .invariant(.C2), client: client, chat: "a+b", time: .start,
                                  expected: "every server message inside a chunk cached", found: "x")
        return RunResult(scenario: scenario.name, seed: seed, digest: 0, violations: [violation])
    }
}

/// Fails `eventually: probe` whenever the scenario still has client "carol" (a custom condition looks at her).
private struct NeedsCarol: ScenarioExecutor {
    func run(_ scenario: Scenario, seed: UInt64, options: RunOptions) -> RunResult {
        let violations = scenario.clients.contains { $0.name == "carol" }
            ? [Violation(check: .eventually("carol is idle"), time: .start, expected: "x", found: "y")] : []
        return RunResult(scenario: scenario.name, seed: seed, digest: 0, violations: violations)
    }
}

/// Shrinking keeps a failure's signature (check id, client, chat, kind of finding): a real failure from each check
/// group, run in the world with a small budget, and the rules that keep custom conditions' clients.
@Suite struct ShrinkerSignatureTests {
    static let drifting = Scenario("drifting", summary: "s", seeds: [1]) {
        Client("a", profile: .edge)
        Client("b", profile: .edge)
        Timeline {
            At(.seconds(1)) { Clog("a") }
            At(.seconds(2)) { OpenChat("b", "a+b") }
        }
    }

    @Test("a candidate failing the same check for another client is refused")
    func refusesDrift() throws {
        let original = DriftsToAnotherClient().run(Self.drifting, seed: 1, options: RunOptions()).violations[0]
        let shrinker = Shrinker(executor: DriftsToAnotherClient())
        let bySignature = try #require(shrinker.shrink(Self.drifting, seed: 1, violation: original))
        #expect(bySignature.scenario.steps.map(\.action) == [.clog(client: "a")])
        #expect(bySignature.result.violations.map(\.client) == ["a"])
        let byCheck = try #require(shrinker.shrink(Self.drifting, seed: 1, target: .invariant(.C2)))
        #expect(byCheck.scenario.steps.isEmpty)
    }

    @Test("a custom condition without a client list keeps every client; with one, keeps those it names")
    func customConditionsKeepTheirClients() throws {
        func scenario(clients: [String]?) -> Scenario {
            Scenario("custom", summary: "s", seeds: [1]) {
                Client("alice", profile: .edge)
                Client("bob", profile: .edge)
                Client("carol", profile: .edge)
                Expect { Eventually("carol is idle", within: .seconds(1), clients: clients) { _ in false } }
            }
        }
        let shrinker = Shrinker(executor: NeedsCarol())
        let unlisted = try #require(shrinker.shrink(scenario(clients: nil), seed: 1, target: .eventually("carol is idle")))
        #expect(unlisted.scenario.clients.map(\.name) == ["alice", "bob", "carol"])
        let listed = try #require(shrinker.shrink(scenario(clients: ["carol"]), seed: 1,
                                                   target: .eventually("carol is idle")))
        #expect(listed.scenario.clients.map(\.name) == ["carol"])
        #expect(listed.scenario.catalogSource().hasPrefix("extension Catalog {\n    /// Shrunk from 'custom' seed 1: "))
        #expect(listed.scenario.catalogSource().contains("clients: [\"carol\"]) { _ in fatalError("))
    }

    /// A failure of each check group: (label, scenario, mutant, seed, check of the violation to shrink).
    static let groups: [(String, Scenario, String?, UInt64, String)] = [
        ("chunks", Catalog.historyGapAfterLogin, "gap-ignored-after-login", 101, "C2"),
        ("tasks", Catalog.responseLostAfterStore, "resend-new-cid", 331, "T2"),
        ("protocol and sync", Catalog.clockSkewLastSync, "since-from-device-clock", 241, "P4"),
        ("convergence", Catalog.historyGapAfterLogin, "gap-ignored-after-login", 101, "V1"),
        ("eventually", Self.expectationFailures, nil, 1, "eventually: server has 9 message(s) in alice+bob"),
        ("always", Self.expectationFailures, nil, 1, "never: bob is logged in"),
        ("metric bound", Self.expectationFailures, nil, 1, "metric: requests[alice MSG_SEND] <= 0.0"),
        ("checkpoint", Self.expectationFailures, nil, 1, "check: server has 5 message(s) in alice+bob"),
    ]

    /// Breaks an eventually-condition, a `Never`, a windowed metric bound and a `Check`, on any correct engine.
    static let expectationFailures = Scenario("expectation-failures", summary: "s", seeds: [1],
                                              runLength: .minutes(2)) {
        Client("alice", profile: .threeG)
        Client("bob", profile: .fourG)
        Client("carol", profile: .fourG)
        Timeline {
            At(.seconds(2)) { Send(from: "alice", text: "one", in: "alice+bob") }
            At(.seconds(3)) { OpenChat("carol", "bob+carol") }
            At(.seconds(4)) { Send(from: "bob", text: "two", in: "alice+bob").named("two") }
            At(.seconds(10)) { Check(.serverMessageCount(chat: "alice+bob", count: 5)) }
            At(.seconds(12)) { LinkDown("carol", for: .seconds(5)) }
        }
        Expect {
            Eventually(within: .seconds(60), .serverMessageCount(chat: "alice+bob", count: 9))
            Never(.loggedIn(client: "bob"), from: "two")
            MetricBound("requests", client: "alice", opcode: .msgSend, atMost: 0)
        }
    }

    @Test("shrinking one failure of each check group keeps its signature", arguments: groups.indices)
    func keepsSignature(group: Int) throws {
        let (label, scenario, mutant, seed, check) = Self.groups[group]
        let options = RunOptions(mutant: mutant)
        let run = WorldExecutor().run(mutant.map { scenario.withMutant($0) } ?? scenario, seed: seed, options: options)
        let failure = try #require(run.violations.first { $0.check.description == check }, "\(label)")
        let signature = FailureSignature(failure)
        let shrinker = Shrinker(executor: WorldExecutor(), options: options, maxRuns: 25)
        let outcome = try #require(shrinker.shrink(scenario, seed: seed, violation: failure), "\(label)")
        #expect(outcome.result.violations.contains(where: signature.matches), "\(label): \(signature)")
        #expect(outcome.scenario.problems().isEmpty, "\(label)")
        #expect(outcome.scenario.steps.count <= scenario.steps.count, "\(label)")
        #expect(outcome.scenario.clients.map(\.name).contains(failure.client ?? outcome.scenario.clients[0].name))
    }
}

// A shrunk scenario's `catalogSource()` as the shrinker printed it (`customConditionsKeepTheirClients`), pasted
// unchanged: it compiles as it stands.
extension Catalog {
    /// Shrunk from 'custom' seed 1: 1 client(s) and 0 step(s) that still fail eventually: carol is idle
    static let customShrunk = Scenario("custom-shrunk", summary: "Shrunk from 'custom' seed 1: 1 client(s) and 0 step(s) that still fail eventually: carol is idle", seeds: [1]) {
        Server()
        Client("carol", profile: .edge)
        Expect {
            Eventually("carol is idle", within: .seconds(1), clients: ["carol"]) { _ in fatalError("custom condition 'carol is idle' cannot be printed; see SyncSimTests/ShrinkerSignatureTests.swift:124") }
        }
    }
}

@Suite struct ShrunkPrintoutTests {
    @Test("the pasted printout of a shrunk scenario compiles and reads back as the same scenario")
    func pasted() {
        let pasted = Catalog.customShrunk
        #expect(pasted.name == "custom-shrunk")
        #expect(pasted.clients.map(\.name) == ["carol"])
        #expect(pasted.expectations.eventually.map(\.condition) == [.custom(label: "carol is idle", clients: ["carol"],
                                                                              predicate: { _ in false })])
        #expect(pasted.problems().isEmpty)
    }
}
