import Foundation
import Testing
@testable import SyncSim

/// docs/dsl.md is `DSLReference.markdown`, and the reference covers every action and condition.
@Suite struct DSLReferenceTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/dsl.md").path

    @Test("docs/dsl.md equals the generated reference (SYNCSIM_WRITE_DSL_REFERENCE=1 rewrites it)")
    func committedFileIsCurrent() throws {
        let generated = DSLReference.markdown
        if ProcessInfo.processInfo.environment["SYNCSIM_WRITE_DSL_REFERENCE"] == "1" {
            try generated.write(toFile: Self.path, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOfFile: Self.path, encoding: .utf8)
        #expect(committed == generated, "regenerate: swift run syncsim dsl-reference > docs/dsl.md")
    }

    @Test("every action word appears once, with its example printed by the DSL printer")
    func actions() {
        let entries = DSLReference.actionSamples.map(DSLReference.entry(for:))
        #expect(Set(entries.map(\.word)).count == entries.count)
        // One sample per Action case (ScrollUp and ScrollDown share `.scroll`; LinkDown has two forms).
        let cases = Set(DSLReference.actionSamples.map { "\($0)".prefix { $0 != "(" } })
        #expect(cases.count == entries.count - 1)
        for entry in entries { #expect(entry.example.hasPrefix(entry.word.prefix { $0 != " " }), "\(entry.word)") }
        let markdown = DSLReference.markdown
        for word in ["Always", "Never", "When", "Check", "Device", "MetricWindow", ".nth", "WorldProbe"] {
            #expect(markdown.contains(word), "\(word)")
        }
    }

    @Test("every condition has an entry whose example starts with its word")
    func conditions() {
        let entries = DSLReference.conditionSamples.map(DSLReference.entry(for:))
        #expect(Set(entries.map(\.word)).count == entries.count)
        for entry in entries { #expect(entry.example.hasPrefix(entry.word), "\(entry.word)") }
    }
}
