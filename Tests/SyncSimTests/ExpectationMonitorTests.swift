import Testing
@testable import SyncSim

/// A world whose server history of "a+b" grows by hand.
private struct CountingWorld: WorldProbe {
    var now = SimInstant.start
    var messageCount = 0
    var hasConverged = false
    var clientNames = ["a", "b"]

    func serverMessages(in chat: String) -> [ChatMessage] {
        (0..<messageCount).map { ChatMessage(id: Int64($0), time: 0, sender: 1, text: "m\($0)") }
    }
    func cachedMessages(of client: String, in chat: String) -> [ChatMessage] { [] }
    func chunkCount(of client: String, in chat: String) -> Int { 0 }
    var pendingTasks = 0
    func pendingTaskCount(of client: String) -> Int { pendingTasks }
    func isLoggedIn(_ client: String) -> Bool { true }
}

@Suite struct ExpectationMonitorTests {
    static let scenario = Scenario("monitored", summary: "s", seeds: [1]) {
        Client("a", profile: .wifi)
        Client("b", profile: .wifi)
        Timeline {
            At(.seconds(1)) { Send(from: "a", text: "x", in: "a+b") }
            At(.seconds(50)) { Send(from: "b", text: "y", in: "a+b") }
        }
        Expect {
            Eventually(within: .seconds(10), .serverMessageCount(chat: "a+b", count: 1))
            Eventually(within: .seconds(20), .converged)
            MetricBound("reconnects", atMost: 2)
            MetricBound("loginAttempts", atLeast: 1)
        }
    }

    @Test("a failed condition on the server's texts shows the texts found by its deadline", arguments: [
        Condition.serverTexts(chat: "a+b", texts: ["m0", "x"]),
        Condition.serverOrder(chat: "a+b", texts: ["x", "m0"]),
    ])
    func foundTexts(condition: Condition) throws {
        #expect(Self.found(condition) == ["server texts [\"m0\", \"m1\"] by 10.000s"])
    }

    /// The `found` of `condition` within 10 s, looked at in a world of two messages and two tasks per client at 5 s
    /// and of three messages at 30 s.
    static func found(_ condition: Condition) -> [String] {
        let expectations = Expectations(eventually: [Eventually(within: .seconds(10), condition)])
        var monitor = ExpectationMonitor(expectations)
        var world = CountingWorld()
        world.now = .start + .seconds(5)
        world.messageCount = 2
        world.pendingTasks = 2
        monitor.observe(world)
        world.now = .start + .seconds(30)
        world.messageCount = 3
        monitor.observe(world)
        return monitor.finish(at: .start + .minutes(1), metrics: [], schedule: [], traceTail: []).map(\.found)
    }

    @Test("a failed condition says what its last look before the deadline found", arguments: [
        (Condition.serverMessageCount(chat: "a+b", count: 5), "2 messages on the server by 10.000s"),
        (Condition.queueDrained(client: "a"), "unfinished tasks: a 2 by 10.000s"),
        (Condition.allQueuesDrained, "unfinished tasks: a 2, b 2 by 10.000s"),
        (Condition.historyComplete(client: "a", chat: "a+b"), "0 chunks holding 0 of the server's 2 messages by 10.000s"),
        (Condition.textOnScreen(client: "a", chat: "a+b", text: "x"), "no chat open by 10.000s"),
        (Condition.readUpToNewest(client: "a", chat: "a+b"), "read mark none, newest message 1 by 10.000s"),
        (Condition.serverSessions(client: "a", count: 1), "0 sessions on the server by 10.000s"),
        (Condition.converged, "not true by 10.000s"),
        (Condition.custom(label: "mine") { _ in false }, "not true by 10.000s"),
    ])
    func foundState(condition: Condition, expected: String) {
        #expect(Self.found(condition) == [expected])
    }

    @Test("a long list of found texts shows the first and last ten")
    func longList() {
        let texts = (0..<25).map { "t\($0)" }
        let head = (0..<10).map { "\"t\($0)\"" }.joined(separator: ", ")
        let tail = (15..<25).map { "\"t\($0)\"" }.joined(separator: ", ")
        #expect(ExpectationMonitor.list(texts) == "[\(head), ... 5 more ..., \(tail)]")
    }

    @Test("conditions true before their deadline hold; late ones and broken bounds are violations")
    func monitors() throws {
        var monitor = ExpectationMonitor(Self.scenario.expectations)
        #expect(monitor.nextDeadline == .start + .seconds(10))
        var world = CountingWorld()
        world.now = .start + .seconds(5)
        world.messageCount = 1
        monitor.observe(world)
        #expect(monitor.nextDeadline == .start + .seconds(20))
        world.now = .start + .seconds(30)
        world.hasConverged = true
        monitor.observe(world)
        #expect(!monitor.isComplete)
        let violations = monitor.finish(
            at: .start + .minutes(1),
            metrics: [Metric("reconnects", 3)],
            schedule: try Self.scenario.schedule(),
            traceTail: ["last record"]
        )
        #expect(violations.map(\.check) == [
            .eventually("every client has converged with the server"),
            .metricBound("reconnects <= 2.0"),
            .metricBound("loginAttempts >= 1.0"),
        ])
        #expect(violations[0].time == .start + .seconds(20))
        #expect(violations[0].lastStep?.source == "Send(from: \"a\", text: \"x\", in: \"a+b\")")
        #expect(violations[0].lastStep?.location.fileID == "SyncSimTests/ExpectationMonitorTests.swift")
        #expect(violations[1].found == "reconnects = 3.0")
        #expect(violations[1].lastStep?.source == "Send(from: \"b\", text: \"y\", in: \"a+b\")")
        #expect(violations[2].found == "no metric loginAttempts reported")
        #expect(violations.allSatisfy { $0.traceTail == ["last record"] })
    }

    @Test("a violation keeps at most the last 30 trace records")
    func traceTail() {
        let violation = Violation(
            check: .invariant(.C1), time: .start, expected: "e", found: "f", traceTail: (0..<50).map { "r\($0)" }
        )
        #expect(violation.traceTail.count == 30)
        #expect(violation.traceTail.first == "r20")
        #expect(violation.invariant == .C1)
    }
}
