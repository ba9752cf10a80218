import Testing
@testable import SyncSim

@Suite struct SweepTableTests {
    @Test("the CSV has one row per combination and metric and marks the best")
    func csv() throws {
        let lines = SweepTable.csv(try makeSweepReport(seeds: 3)).split(separator: "\n")
        #expect(lines[0] == "profile,historyPageSize,metric,unit,runs,p10,p50,p90,p99,mean,p50_ci_low,p50_ci_high,best")
        #expect(lines.count == 1 + 8 * 4)
        #expect(lines.filter { $0.hasSuffix(",true") }.count == 2 * 4)
    }

    @Test("the table marks the best combination of each profile", arguments: [1, 2])
    func table(axes: Int) throws {
        let params = ["historyPageSize=10,20,50,100", "prefetchDistance=0,5"].prefix(axes).map { $0 }
        let lines = SweepTable.lines(try makeSweepReport(params, seeds: 3))
        #expect(lines.filter { $0.hasPrefix("  *") }.count == 2 * 4)
        #expect(lines.contains { $0.hasPrefix("  EDGE: historyPageSize=100") })
    }

    @Test("fixed formatting rounds half away from zero without a locale", arguments: [
        (1.25, 1, "1.3"), (-0.04, 1, "0.0"), (1234.5, 0, "1235"), (0.5, 2, "0.50"), (-2.5, 0, "-3"), (12.0, 1, "12.0"),
    ])
    func fixed(value: Double, decimals: Int, expected: String) {
        #expect(SweepTable.fixed(value, decimals: decimals) == expected)
    }
}
