import Foundation
import SimCore
import Testing
@testable import SimNet

/// Holds the model against ns-3 on cells outside the mobile profiles of the grid
/// (`Fixtures/fidelity/ns3-other-cells.csv`, made by `tools/ns3/grid.py --grid other`): a satellite-like link with
/// 2% loss (12 seeds had it 37% faster than ns-3; over 60 seeds it is 6% faster and the distributions agree) and a
/// 64/32 kbit/s link with 1 s one way and 3% loss, and (since branch fid10, which brought it from 25% to 14% faster
/// than ns-3 with the distributions agreeing) a 1/0.5 Mbit/s link with 10% loss, and a 30/15 Mbit/s link with 20 ms one
/// way and 5% loss (added by fid10: 23% faster than ns-3 before it, 6% slower after): docs/fidelity.md, "Cells outside
/// the grid (branch fid10)".
@Suite struct OtherCellsFidelityTests {
    static let referenceURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fidelity/ns3-other-cells.csv")

    static let samplesURL = referenceURL.deletingLastPathComponent().appendingPathComponent("ns3-other-samples.csv")

    static func cells() throws -> [FidelityCell] {
        try FidelitySamples.attach(String(contentsOf: samplesURL, encoding: .utf8),
                                   to: FidelityReference.parse(String(contentsOf: referenceURL, encoding: .utf8),
                                                               file: "ns3-other-cells.csv"),
                                   file: "ns3-other-samples.csv")
    }

    /// The pinned cells: all four.
    static var pinnedCells: [FidelityCell] {
        (try? cells()) ?? []
    }

    @Test("the fixture holds the four other cells with 60 seeds each, and their samples")
    func fixture() throws {
        let cells = try Self.cells()
        #expect(cells.map(\.profile) == ["sat", "lossy-1M", "slow-64k", "fast-20ms"])
        #expect(cells.map(\.bytes) == [1_000_000, 200_000, 100_000, 500_000])
        #expect(cells.allSatisfy { $0.seeds == 60 && $0.referenceSamples.count == 60 })
        #expect(Self.pinnedCells.count == 4)
    }

    @Test("other lossy cells: median within 15% of ns-3's and the distributions agree (KS at 5%)",
          arguments: pinnedCells)
    func withinTolerance(cell: FidelityCell) {
        let times = cell.runSeeds().times
        let median = TransferPercentiles(times).median
        let error = abs(median / cell.reference.median - 1)
        let test = KolmogorovSmirnovTest(times, cell.referenceSamples)
        #expect(error <= cell.tolerance && test.agrees, """
            \(cell.label): ns-3 median \(cell.reference.median) ms, ours \(median) ms, \
            KS D \(test.statistic) (critical \(test.criticalValue))
            """)
    }
}
