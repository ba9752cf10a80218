import Foundation
import Scenarios
import Testing
@testable import SyncSim

@Suite struct ScenarioDSLSourceTests {
    @Test("the printer writes each part in DSL form")
    func keyLines() {
        let source = ScenarioTests.sample.dslSource()
        let lines = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "Scenario(\"sample\", summary: \"a sample\", seeds: [1, 2]) {")
        #expect(lines.contains("Server(parameters: [\"historyPageSize\": 30], history: [\"alice+bob\": 10])"))
        #expect(lines.contains(
            "Client(\"alice\", profile: .edge, parameters: [\"requestTimeout\": .duration(.seconds(20))])"
        ))
        #expect(lines.contains("Client(\"bob\", profile: \"LTE-M\", mutant: \"resend-new-cid\")"))
        #expect(lines.contains("Chat(\"team\", members: [\"alice\", \"bob\"])"))
        #expect(lines.contains(
            "At(.seconds(1)) { Send(from: \"alice\", text: \"hi\", in: \"alice+bob\").named(\"hello\") }"
        ))
        #expect(lines.contains("After(.milliseconds(300)) { LinkDown(\"alice\", for: .seconds(8)) }"))
        #expect(lines.contains("After(.seconds(2), step: \"hello\") { OpenChat(\"bob\", \"team\") }"))
        #expect(lines.contains("After(.zero) { ScrollUp(\"bob\", in: \"team\", messages: 40) }"))
        #expect(lines.contains("Invariants(.C1, .T2)"))
        #expect(lines.contains(
            "Eventually(within: .minutes(2), .serverMessageCount(chat: \"alice+bob\", count: 1))"
        ))
        #expect(lines.contains("MetricBound(\"reconnects\", atMost: 3.0)"))
        #expect(lines.last == "}")
    }

    @Test("string literals escape quotes, backslashes and control characters")
    func escaping() {
        #expect(DSLLiteral.string("say \"hi\"\\\n\t\u{1}") == "\"say \\\"hi\\\"\\\\\\n\\t\\u{1}\"")
        #expect(DSLLiteral.string("café ☕") == "\"café ☕\"")
        // Texts with no byte to escape take a shortcut; each escaped kind alone, and beside non-ASCII text, takes
        // the full path.
        #expect(DSLLiteral.string("") == "\"\"")
        #expect(DSLLiteral.string("plain text, 42!") == "\"plain text, 42!\"")
        #expect(DSLLiteral.string("\u{7F}") == "\"\\u{7f}\"")
        #expect(DSLLiteral.string("\u{1F}") == "\"\\u{1f}\"")
        #expect(DSLLiteral.string("привет\"") == "\"привет\\\"\"")
        #expect(DSLLiteral.string("é\\") == "\"é\\\\\"")
    }

    @Test("durations print in the largest exact unit", arguments: [
        (SimDuration.zero, ".zero"), (.minutes(5), ".minutes(5)"), (.seconds(90), ".seconds(90)"),
        (.milliseconds(1_300), ".milliseconds(1300)"), (.nanoseconds(7), ".nanoseconds(7)"),
        (.hours(-3), ".hours(-3)"), (.microseconds(12_500), ".microseconds(12_500)"),
    ])
    func durations(duration: SimDuration, expected: String) {
        #expect(DSLLiteral.duration(duration) == expected)
    }

    @Test("a custom condition prints as a stub naming its label and source")
    func customStub() {
        let scenario = Scenario("custom", summary: "s", seeds: [1]) {
            Client("a", profile: .wifi)
            Expect { Eventually("a is idle", within: .seconds(3)) { _ in true } }
        }
        let source = scenario.dslSource()
        #expect(source.contains("Eventually(\"a is idle\", within: .seconds(3)) { _ in fatalError("))
        #expect(source.contains("custom condition 'a is idle' cannot be printed; see SyncSimTests/"))
    }

    @Test("every catalog scenario's printout compiles and reads back to the same printout")
    func catalogRoundTrip() {
        // PrintedCatalog.swift holds the printouts as code, compiled with the tests.
        let printed = PrintedCatalog.all
        #expect(printed.count == Catalog.all.count, "regenerate PrintedCatalog.swift, see its header")
        // A custom condition prints as a stub naming where it was written, which differs between the two.
        func withoutStubSources(_ source: String) -> String {
            source.replacing(/cannot be printed; see [^"]*"/, with: "cannot be printed\"")
        }
        for (original, reread) in zip(Catalog.all, printed) {
            #expect(withoutStubSources(reread.dslSource()) == withoutStubSources(original.dslSource()),
                    "\(original.name): regenerate PrintedCatalog.swift")
            #expect(reread.steps.map(\.action) == original.steps.map(\.action))
            #expect(reread.steps.map(\.timing) == original.steps.map(\.timing))
            #expect(reread.clients.map(\.name) == original.clients.map(\.name))
        }
    }

    @Test("the printout is stable: printing twice gives the same text, indented on request")
    func stable() {
        for scenario in Catalog.all {
            #expect(scenario.dslSource() == scenario.dslSource())
            let indented = scenario.dslSource(indent: 4)
            #expect(indented.split(separator: "\n").allSatisfy { $0.hasPrefix("    ") })
        }
    }
}

/// Writes PrintedCatalog.swift (the catalog's printouts as compiled code) when the environment variable
/// `SYNCSIM_WRITE_PRINTED_CATALOG=1` is set: `SYNCSIM_WRITE_PRINTED_CATALOG=1 swift test --filter PrintedCatalog`.
@Suite struct PrintedCatalogWriter {
    @Test("PrintedCatalog.swift is regenerated on request") func write() throws {
        guard ProcessInfo.processInfo.environment["SYNCSIM_WRITE_PRINTED_CATALOG"] == "1" else { return }
        var text = """
            // Generated by `SYNCSIM_WRITE_PRINTED_CATALOG=1 swift test --filter PrintedCatalog`: each catalog
            // scenario's `dslSource()`, compiled so the printer's output is proven to be valid DSL code.
            // ScenarioDSLSourceTests checks that these read back to the same printout. Do not edit by hand.
            import SyncSim

            enum PrintedCatalog {
                static let all: [Scenario] = [

            """
        for scenario in Catalog.all { text += scenario.dslSource(indent: 8) + ",\n" }
        text += "    ]\n}\n"
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("PrintedCatalog.swift")
        try Data(text.utf8).write(to: path)
    }
}
