import Scenarios
import Testing
@testable import SyncSim

/// Sweeps of catalog scenarios in the real world (`WorldExecutor`): what the sweep reports is what tuning relies on.
@Suite struct SweepWorldTests {
    /// The catalog scenario swept over `parameter` on `profiles` with `seeds` seeds, in the world.
    private func report(
        _ scenario: Scenario, _ parameter: String, profiles: [ProfileName], seeds: Int, objective: String
    ) throws -> SweepReport {
        let spec = try SweepSpec(
            scenario: scenario.name, axes: [SweepAxis(parsing: parameter)], profiles: profiles, seedCount: seeds,
            objective: objective
        )
        try spec.validate(against: scenario)
        let records = SweepRunner(spec: spec, base: scenario, executor: WorldExecutor()).records()
        return try SweepReport(spec: spec, records: records)
    }

    /// Per combination, the median of `metric` (every run must have reported it).
    private func medians(_ report: SweepReport, _ metric: SweepMetric) throws -> [Double] {
        let column = try #require(report.metrics.firstIndex(of: metric))
        return try report.spec.combinations.map { try #require(report.summaries[$0.index][column].p50) }
    }

    @Test("on EDGE, a larger history page size lowers the number of CHAT_HISTORY requests for the same scroll")
    func pageSizeLowersHistoryRequests() throws {
        let report = try report(
            Catalog.openAndScrollToStart, "historyPageSize=10,30,100", profiles: [.edge], seeds: 2,
            objective: SweepMetric.scrollWaitMilliseconds.name
        )
        #expect(report.failedRuns == 0, "\(report.records.flatMap(\.violations))")
        let requests = try medians(report, .chatHistoryRequests)
        #expect(requests[0] > requests[1] && requests[1] > requests[2], "CHAT_HISTORY requests: \(requests)")
        // Fewer round trips: the scroll also waits less, and the largest page size is the best.
        let waits = try medians(report, .scrollWaitMilliseconds)
        #expect(waits[0] > waits[1] && waits[1] > waits[2], "scroll wait by page size: \(waits)")
        #expect(report.best == [2])
    }

    @Test("on a lossy 2G-rural link, a shorter pong timeout raises reconnects")
    func shortPongTimeoutRaisesReconnects() throws {
        let report = try report(
            Catalog.idleOnLossyLink, "pongTimeout=1500ms,20s", profiles: [.twoGRural], seeds: 4,
            objective: SweepMetric.reconnects.name
        )
        #expect(report.failedRuns == 0, "\(report.records.flatMap(\.violations))")
        let column = try #require(report.metrics.firstIndex(of: .reconnects))
        let short = report.summaries[0][column], long = report.summaries[1][column]
        #expect(try #require(short.mean) > #require(long.mean), "reconnects: 1.5 s \(short), 20 s \(long)")
        #expect(try #require(short.p50) > #require(long.p50))
        let timeouts = try medians(report, .requestTimeouts)
        #expect(timeouts[0] > timeouts[1], "request timeouts (pongs past the timeout): \(timeouts)")
    }

    @Test("the world reports every metric of SweepMetric.all for a run that opens a chat and sends")
    func worldReportsTheOneListOfMetrics() {
        let result = WorldExecutor().run(Catalog.idleOnLossyLink, seed: 161, options: RunOptions())
        #expect(result.metrics.map(\.name) == SweepMetric.all.map(\.name))
        #expect(World.metricNames == SweepMetric.all.map(\.name))
    }
}
