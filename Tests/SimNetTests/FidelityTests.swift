import Foundation
import SimCore
import Testing
@testable import SimNet

/// Holds the link and TCP model against ns-3 (`Fixtures/fidelity/ns3-reference.csv`) on the small cells of the grid;
/// `syncsim-bench fidelity` runs all of it in a release build.
@Suite struct FidelityTests {
    static let referenceURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fidelity/ns3-reference.csv")

    static func reference() throws -> [FidelityCell] {
        try FidelityReference.parse(String(contentsOf: referenceURL, encoding: .utf8))
    }

    /// The fast subset: every cell up to 100 KB without loss and with 1% loss (a debug build runs it in seconds).
    static var fastCells: [FidelityCell] {
        ((try? reference()) ?? []).filter { $0.bytes <= 100_000 && $0.lossProbability <= 0.01 }
    }

    @Test("the reference CSV has the whole grid")
    func referenceGrid() throws {
        let cells = try Self.reference()
        #expect(cells.count == 45)
        #expect(Set(cells.map(\.profile)) == ["2G-rural", "GPRS", "EDGE", "3G"])
        #expect(cells.allSatisfy { $0.seeds == 20 && $0.reference.p10 <= $0.reference.median })
        #expect(Self.fastCells.count == 24)
    }

    @Test("median completion time is within tolerance of ns-3 (lossless ±5%, lossy ±15%)", arguments: fastCells)
    func withinTolerance(cell: FidelityCell) {
        let ours = cell.run(seedCount: cell.isLossless ? 1 : cell.seeds).percentiles
        let error = abs(ours.median / cell.reference.median - 1)
        #expect(error <= cell.tolerance, """
            \(cell.label): ns-3 median \(cell.reference.median) ms, ours \(ours.median) ms \
            (seeds 1...\(cell.isLossless ? 1 : cell.seeds))
            """)
    }

    @Test("a malformed reference names the line and field")
    func malformedReference() {
        let bad = FidelityReference.header + "\nEDGE,240,200,420,lots,0.0,20,1,1,1,1\n"
        #expect(throws: FidelityReferenceError.self) { try FidelityReference.parse(bad, file: "x.csv") }
        do {
            _ = try FidelityReference.parse(bad, file: "x.csv")
        } catch {
            #expect("\(error)" == "x.csv line 2: field bytes: expected an integer, found `lots`")
        }
        #expect(throws: FidelityReferenceError.self) { try FidelityReference.parse("profile,bytes\n") }
    }

    @Test("percentiles interpolate between order statistics as grid.py does")
    func percentiles() {
        let sample = (1...20).map(Double.init)
        let percentiles = TransferPercentiles(sample.reversed())
        #expect(percentiles.median == 10.5)
        #expect(abs(percentiles.p10 - 2.9) < 1e-9)
        #expect(abs(percentiles.p90 - 18.1) < 1e-9)
    }

    @Test("the same seed gives the same outcome; a lossless run has no retransmissions")
    func deterministic() {
        let lossy = TransferExperiment(bytes: 50_000, downlinkRateBitsPerSecond: 780_000,
                                       uplinkRateBitsPerSecond: 330_000, oneWayDelay: .milliseconds(100),
                                       lossProbability: 0.05)
        #expect(lossy.run(seed: 7) == lossy.run(seed: 7))
        var lossless = lossy
        lossless.lossProbability = 0
        let outcome = lossless.run(seed: 1)
        #expect(outcome.retransmittedSegments == 0 && outcome.packetsDroppedByQueue == 0)
        #expect(outcome.completionTime != nil)
    }

    @Test("a queue of 10 packets overflows in slow start and SACK recovery still delivers every byte")
    func smallQueueOverflow() {
        let experiment = TransferExperiment(bytes: 300_000, downlinkRateBitsPerSecond: 240_000,
                                            uplinkRateBitsPerSecond: 200_000, oneWayDelay: .milliseconds(420),
                                            lossProbability: 0, queueCapacityPackets: 10)
        let outcome = experiment.run(seed: 1)
        #expect(outcome.packetsDroppedByQueue > 0)
        #expect(outcome.completionTime != nil)
    }
}
