import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import SyncSim

@Suite struct SweepChartTests {
    @Test("chart axes step by 1, 2 or 5 times a power of ten in at most 5 steps", arguments: [
        (0.0, 1.0, 1), (7.0, 2.0, 4), (10.0, 2.0, 5), (11.0, 5.0, 3), (230.0, 50.0, 5), (68_000.0, 20_000.0, 4),
        (0.3, 0.1, 3),
    ])
    func axisScale(maximum: Double, step: Double, ticks: Int) {
        let scale = SweepChart.axisScale(maximum)
        #expect(abs(scale.step - step) < 1e-9 && scale.ticks == ticks, "got \(scale)")
    }

    @Test("the SVG is well-formed XML with one panel per profile", arguments: [1, 2, 4])
    func svgWellFormed(profiles: Int) throws {
        let all: [ProfileName] = [.edge, .threeG, .fourG, .gprs]
        let report = try makeSweepReport(
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
