import Foundation
import SimCore
import Testing
@testable import SimNet

/// Holds the link and TCP model against ns-3 (`Fixtures/fidelity/ns3-reference.csv`) on the small cells of the grid;
/// `syncsim-bench fidelity` runs all of it in a release build.
@Suite struct FidelityTests {
    static let referenceURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fidelity/ns3-reference.csv")

    static let samplesURL = referenceURL.deletingLastPathComponent().appendingPathComponent("ns3-samples.csv")

    static func reference() throws -> [FidelityCell] {
        try FidelityReference.parse(String(contentsOf: referenceURL, encoding: .utf8))
    }

    /// The fast subset: every cell up to 100 KB without loss and with 1% loss (a debug build runs it in seconds).
    static var fastCells: [FidelityCell] {
        ((try? reference()) ?? []).filter { $0.bytes <= 100_000 && $0.lossProbability <= 0.01 }
    }

    @Test("the reference CSV has the whole grid: 45 cells of 20 seeds and the 9 4G cells of 60")
    func referenceGrid() throws {
        let cells = try Self.reference()
        #expect(cells.count == 54)
        #expect(Set(cells.map(\.profile)) == ["2G-rural", "GPRS", "EDGE", "3G", "4G"])
        #expect(cells.allSatisfy { $0.seeds == ($0.profile == "4G" ? 60 : 20) })
        #expect(cells.allSatisfy { $0.reference.p10 <= $0.reference.median })
        #expect(cells.filter { $0.profile == "4G" }.map(\.label) == [
            "4G 30000 B 0%", "4G 30000 B 1%", "4G 30000 B 3%", "4G 300000 B 0%", "4G 300000 B 1%", "4G 300000 B 3%",
            "4G 3000000 B 0%", "4G 3000000 B 1%", "4G 3000000 B 3%",
        ])
        #expect(Self.fastCells.count == 26)
    }

    @Test("the per-seed samples are the runs behind every reference cell's percentiles")
    func samplesMatchReference() throws {
        let cells = try FidelitySamples.attach(String(contentsOf: Self.samplesURL, encoding: .utf8),
                                               to: Self.reference())
        for cell in cells {
            #expect(cell.referenceSamples.count == cell.seeds, "\(cell.label)")
            guard !cell.referenceSamples.isEmpty else { continue }
            let percentiles = TransferPercentiles(cell.referenceSamples)
            #expect(abs(percentiles.median - cell.reference.median) <= 0.05, "\(cell.label)")
            #expect(abs(percentiles.p10 - cell.reference.p10) <= 0.05, "\(cell.label)")
            #expect(abs(percentiles.p90 - cell.reference.p90) <= 0.05, "\(cell.label)")
        }
    }

    @Test("malformed samples name the line and field")
    func malformedSamples() throws {
        let cells = try FidelityReference.parse(FidelityReference.header + "\n4G,1638,750,75,30000,0.0,2,1,1,1,1\n")
        let good = FidelitySamples.header + "\n4G,1638,750,75,30000,0.0,1,462.0,107\n4G,1638,750,75,30000,0.0,2,463.0,107\n"
        #expect(try FidelitySamples.attach(good, to: cells, file: "s.csv")[0].referenceSamples == [462, 463])
        func message(_ text: String) -> String {
            do {
                _ = try FidelitySamples.attach(text, to: cells, file: "s.csv")
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(message(FidelitySamples.header + "\n4G,1638,750,75,30000,0.0,one,462.0,107\n")
            == "s.csv line 2: field seed: expected an integer, found `one`")
        #expect(message(FidelitySamples.header + "\n4G,1638,750,75,30000,0.0,2,462.0,107\n")
            == "s.csv line 2: field seed: expected 1, found `2`")
        #expect(message(FidelitySamples.header + "\n4G,1638,750,75,300,0.0,1,462.0,107\n")
            == "s.csv line 2: no reference cell `4G 300 B 0%`")
        #expect(message(FidelitySamples.header + "\n4G,1638,750,75,30000,0.0,1,462.0,107\n")
            == "s.csv line 2: 4G 30000 B 0%: 1 seeds, the reference says 2")
    }

    @Test("two-sample Kolmogorov-Smirnov: D is the largest gap between the empirical distributions")
    func kolmogorovSmirnov() {
        let same = KolmogorovSmirnovTest([1, 2, 3, 4], [4, 3, 2, 1])
        #expect(same.statistic == 0 && same.agrees)
        // F1 - F2 is largest at x = 3: 3/4 of the first sample, 0 of the second.
        let apart = KolmogorovSmirnovTest([1, 2, 3, 10], [4, 5, 6, 7])
        #expect(apart.statistic == 0.75)
        // Ties move both functions at once: at x = 2, 3/3 of the first against 1/3 of the second.
        #expect(abs(KolmogorovSmirnovTest([1, 2, 2], [2, 3, 3]).statistic - 2.0 / 3) < 1e-12)
        // c(0.05) · √((n + m) / (n · m)): 60 and 60 seeds, 0.248; 20 and 20, 0.429.
        #expect(abs(KolmogorovSmirnovTest(Array(repeating: 1, count: 60), Array(repeating: 1, count: 60))
            .criticalValue - 0.2479) < 1e-4)
        #expect(abs(KolmogorovSmirnovTest(Array(repeating: 1, count: 20), Array(repeating: 1, count: 20))
            .criticalValue - 0.4294) < 1e-4)
        #expect(apart.agrees, "4 against 4 is too few to tell them apart: critical value 0.96")
        let shifted = KolmogorovSmirnovTest((1...20).map(Double.init), (11...30).map(Double.init))
        #expect(shifted.statistic == 0.5 && !shifted.agrees)
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
