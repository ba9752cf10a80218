import Testing
@testable import SyncSim

@Suite struct SweepReportTests {
    @Test("a larger page size lowers CHAT_HISTORY requests, through the whole sweep machinery")
    func pageSizeLowersRequests() throws {
        let report = try makeSweepReport()
        let metric = try #require(report.metrics.firstIndex { $0.name == "chatHistoryRequests" })
        for profile in report.spec.profiles {
            let medians = report.spec.combinations.filter { $0.profile == profile }
                .map { report.summaries[$0.index][metric].p50! }
            #expect(medians == [20, 10, 4, 2])
        }
    }

    @Test("the best combination per profile has the lowest median of the objective")
    func best() throws {
        let report = try makeSweepReport()
        // scroll wait = requests · latency + noise: the largest page size wins on both profiles.
        #expect(report.best == [3, 7])
        #expect(report.isBest(3) && !report.isBest(0))
    }

    @Test("known metrics come first in their fixed order, and runs without a metric are left out of its count")
    func metricsOrder() throws {
        let report = try makeSweepReport(seeds: 6)
        #expect(report.metrics.map(\.name) == ["chatOpenMilliseconds", "scrollWaitMilliseconds", "requests",
                                               "chatHistoryRequests"])
        // Seeds 10...15 include 13, which reports no chat open time.
        #expect(report.summaries[0][0].count == 5)
        #expect(report.summaries[0][1].count == 6)
    }

    @Test("a report with a run missing or repeated is refused")
    func incomplete() throws {
        let report = try makeSweepReport()
        #expect(throws: SweepError.self) {
            try SweepReport(spec: report.spec, records: Array(report.records.dropLast()))
        }
        #expect(throws: SweepError.self) {
            try SweepReport(spec: report.spec, records: report.records + [report.records[0]])
        }
    }
}
