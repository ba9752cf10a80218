import Testing
@testable import SyncSim

@Suite struct SweepJSONLinesTests {
    @Test("JSON lines read back to the same records and print the same bytes")
    func jsonRoundTrip() throws {
        let report = try makeSweepReport()
        let text = SweepJSONLines.document(report)
        let contents = try SweepJSONLines.read(text, file: "sweep.jsonl")
        #expect(contents.spec == report.spec)
        #expect(contents.records == report.records)
        #expect(SweepJSONLines.document(try SweepReport(spec: contents.spec, records: contents.records)) == text)
    }

    @Test("malformed JSON lines name the file and line", arguments: [
        ("{\"type\":\"run\"}", "f.jsonl:1: a run before the sweep header"),
        ("not json", "f.jsonl:1: not a JSON object"),
        ("", "f.jsonl: empty file (0 bytes), not sweep JSON lines"),
        ("\n \n", "f.jsonl: only blank lines, no sweep JSON lines (a sweep header line first)"),
    ])
    func malformed(text: String, message: String) {
        #expect {
            try SweepJSONLines.read(text, file: "f.jsonl")
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }
}
