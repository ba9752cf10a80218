import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import SyncSim

@Suite struct SweepReportTests {
    private func report(
        _ params: [String] = ["historyPageSize=10,20,50,100"],
        profiles: [ProfileName] = [.edge, .threeG],
        seeds: Int = 8
    ) throws -> SweepReport {
        let spec = try SweepSpec(
            scenario: sweepTestScenario.name, axes: params.map(SweepAxis.init(parsing:)), profiles: profiles,
            seedCount: seeds, seedBase: 10, objective: "scrollWaitMilliseconds"
        )
        let records = SweepRunner(spec: spec, base: sweepTestScenario, executor: SweepTestExecutor()).records()
        return try SweepReport(spec: spec, records: records)
    }

    @Test("a larger page size lowers CHAT_HISTORY requests, through the whole sweep machinery")
    func pageSizeLowersRequests() throws {
        let report = try report()
        let metric = try #require(report.metrics.firstIndex { $0.name == "chatHistoryRequests" })
        for profile in report.spec.profiles {
            let medians = report.spec.combinations.filter { $0.profile == profile }
                .map { report.summaries[$0.index][metric].p50! }
            #expect(medians == [20, 10, 4, 2])
        }
    }

    @Test("the best combination per profile has the lowest median of the objective")
    func best() throws {
        let report = try report()
        // scroll wait = requests · latency + noise: the largest page size wins on both profiles.
        #expect(report.best == [3, 7])
        #expect(report.isBest(3) && !report.isBest(0))
    }

    @Test("known metrics come first in their fixed order, and runs without a metric are left out of its count")
    func metricsOrder() throws {
        let report = try report(seeds: 6)
        #expect(report.metrics.map(\.name) == ["chatOpenMilliseconds", "scrollWaitMilliseconds", "requests",
                                               "chatHistoryRequests"])
        // Seeds 10...15 include 13, which reports no chat open time.
        #expect(report.summaries[0][0].count == 5)
        #expect(report.summaries[0][1].count == 6)
    }

    @Test("JSON lines read back to the same records and print the same bytes")
    func jsonRoundTrip() throws {
        let report = try report()
        let text = SweepJSONLines.document(report)
        let contents = try SweepJSONLines.read(text, file: "sweep.jsonl")
        #expect(contents.spec == report.spec)
        #expect(contents.records == report.records)
        #expect(SweepJSONLines.document(try SweepReport(spec: contents.spec, records: contents.records)) == text)
    }

    @Test("a report with a run missing or repeated is refused")
    func incomplete() throws {
        let report = try report()
        #expect(throws: SweepError.self) {
            try SweepReport(spec: report.spec, records: Array(report.records.dropLast()))
        }
        #expect(throws: SweepError.self) {
            try SweepReport(spec: report.spec, records: report.records + [report.records[0]])
        }
    }

    @Test("malformed JSON lines name the file and line", arguments: [
        ("{\"type\":\"run\"}", "f.jsonl:1: a run before the sweep header"),
        ("not json", "f.jsonl:1: not a JSON object"),
        ("", "f.jsonl: no sweep header line"),
    ])
    func malformed(text: String, message: String) {
        #expect {
            try SweepJSONLines.read(text, file: "f.jsonl")
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test("the CSV has one row per combination and metric and marks the best")
    func csv() throws {
        let lines = SweepTable.csv(try report(seeds: 3)).split(separator: "\n")
        #expect(lines[0] == "profile,historyPageSize,metric,unit,runs,p10,p50,p90,p99,mean,p50_ci_low,p50_ci_high,best")
        #expect(lines.count == 1 + 8 * 4)
        #expect(lines.filter { $0.hasSuffix(",true") }.count == 2 * 4)
    }

    @Test("the table marks the best combination of each profile", arguments: [1, 2])
    func table(axes: Int) throws {
        let params = ["historyPageSize=10,20,50,100", "prefetchDistance=0,5"].prefix(axes).map { $0 }
        let lines = SweepTable.lines(try report(params, seeds: 3))
        #expect(lines.filter { $0.hasPrefix("  *") }.count == 2 * 4)
        #expect(lines.contains { $0.hasPrefix("  EDGE: historyPageSize=100") })
    }

    @Test("the SVG is well-formed XML with one panel per profile", arguments: [1, 2, 4])
    func svgWellFormed(profiles: Int) throws {
        let all: [ProfileName] = [.edge, .threeG, .fourG, .gprs]
        let report = try report(
            ["historyPageSize=10,20,50", "prefetchDistance=0,5"], profiles: Array(all.prefix(profiles)), seeds: 4
        )
        let svg = SweepChart.svg(report, metric: try SweepChart.metric(for: report))
        let parser = XMLParser(data: Data(svg.utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.root == "svg")
        for profile in all.prefix(profiles) { #expect(counter.texts.contains(profile.rawValue)) }
        #expect(counter.texts.contains("historyPageSize (messages)"))
        #expect(counter.texts.contains("scrollWaitMilliseconds (ms)"))
        #expect(counter.texts.contains("p50 (median)"))
        #expect(svg == SweepChart.svg(report, metric: try SweepChart.metric(for: report)))
    }

    @Test("a chart without metrics still parses and says so")
    func svgWithoutData() throws {
        let spec = try SweepSpec(scenario: "s", axes: [], profiles: [.edge], seedCount: 1)
        let record = SweepRunRecord(
            index: 0, combination: spec.combinations[0], seed: 1, verdict: .pass, digest: "0", violations: [],
            metrics: []
        )
        let report = try SweepReport(spec: spec, records: [record])
        #expect(try SweepChart.metric(for: report) == nil)
        #expect(throws: SweepError.self) { try SweepChart.metric(for: report, requested: "reconnects") }
        let svg = SweepChart.svg(report, metric: nil)
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        #expect(svg.contains(">no data<"))
    }
}

/// Records the root element and every text node of a parsed document.
private final class ElementCounter: NSObject, XMLParserDelegate {
    var root: String?
    var texts: [String] = []
    private var current = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if root == nil { root = name }
        current = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { texts.append(current) }
        current = ""
    }
}
