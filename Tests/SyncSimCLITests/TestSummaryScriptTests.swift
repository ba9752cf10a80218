import Foundation
import Testing

/// scripts/swift-test-summary.sh (`make test`): failures kept, noise cut, one summary line, swift test's status.
@Suite struct TestSummaryScriptTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A swift test output with a build line, XCTest's empty report, passing and failing tests.
    private static let sample = """
        [12/40] Compiling SyncSimTests ShrinkerTests.swift
        Build complete! (3.10s)
        Test Suite 'All tests' started at 2026-11-30 10:00:00.000.
        Test Suite 'All tests' passed at 2026-11-30 10:00:00.001.
        \t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds
        ◇ Test run started.
        ↳ Testing Library Version: 6.3
        ◇ Suite ShrinkerTests started.
        ◇ Test "shrinks" started.
        ✔ Test "shrinks" passed after 0.1 seconds.
        ✘ Test "breaks" recorded an issue at ShrinkerTests.swift:12:9: Expectation failed: 1 == 2
        ✘ Test "breaks" failed after 0.2 seconds with 1 issue.
        ✔ Test "cases" with 3 test cases passed after 0.3 seconds.
        ◇ Test case passing 2 arguments text → "two
        lines", expected → "two lines" to "escapes" started.
        ━ Test "expected" recorded a known issue at ShrinkerTests.swift:20:5: Issue recorded
        ↳ scenario seed 1 failed: C2 at 1.000s
          trace tail (1 record):
            | 0.900s alice rx CHAT_HISTORY response seq=1
        /usr/bin/ld.gold: warning: Cannot export local symbol '__asan_report_load1_asm'
        ✘ Suite ShrinkerTests failed after 0.3 seconds with 1 issue.
        ✘ Test run with 3 tests in 1 suite failed after 0.3 seconds with 1 issue.

        """

    @Test("make test keeps failures and swift test's closing line, cuts the noise, ends with N passed, N failed")
    func filters() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-mt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sampleFile = directory.appendingPathComponent("sample.txt")
        try Self.sample.write(to: sampleFile, atomically: true, encoding: .utf8)
        let fakeSwift = directory.appendingPathComponent("swift")
        try "#!/bin/sh\ncat '\(sampleFile.path)'\nexit 1\n".write(to: fakeSwift, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fakeSwift.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.root.appendingPathComponent("scripts/swift-test-summary.sh").path]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT"] = fakeSwift.path
        environment["TEST_LOG"] = directory.appendingPathComponent("log.txt").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("✘ Test \"breaks\" recorded an issue at ShrinkerTests.swift:12:9: Expectation failed: 1 == 2"))
        #expect(lines.contains("✘ Test run with 3 tests in 1 suite failed after 0.3 seconds with 1 issue."))
        #expect(lines.last?.hasPrefix("make test: 2 passed, 1 failed (swift test exit 1; full output in ") == true)
        #expect(lines.contains("━ Test \"expected\" recorded a known issue at ShrinkerTests.swift:20:5: Issue recorded"))
        for noise in ["Executed 0 tests", "Compiling", "Test Suite 'All tests'", "started", "\"shrinks\" passed",
                      "lines\", expected", "C2 at 1.000s", "trace tail", "CHAT_HISTORY", "ld.gold"] {
            #expect(!text.contains(noise), "\(noise)")
        }
    }
}
