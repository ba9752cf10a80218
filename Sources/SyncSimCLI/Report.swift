import SyncSim
import SyncTrace

/// The output formats of `syncsim run`: human lines, JSON lines and JUnit XML. All deterministic: fixed key
/// order, no dictionaries, no timestamps.
enum Report {
    // MARK: Human

    /// The lines for one run: a PASS/FAIL line with seed and digest, then for a failure each violation with the
    /// step that ran last and the trace tail, and the reproduce command (`reproduce`, by default the `run` command
    /// spelled with `syncsim`).
    static func humanLines(for result: RunResult, reproduce: String? = nil) -> [String] {
        let mutant = result.mutant.map { "  mutant \($0)" } ?? ""
        var lines = [
            "\(result.verdict == .pass ? "PASS" : "FAIL")  \(result.scenario)  seed \(result.seed)  "
                + "digest \(result.digestHex)\(mutant)"
        ]
        guard result.verdict == .fail else { return lines }
        for violation in result.violations {
            lines.append("  \(violation)")
            if let step = violation.lastStep { lines.append("    last step: \(step)") }
            if !violation.traceTail.isEmpty {
                lines.append("    trace tail (\(counted(violation.traceTail.count, "record"))):")
                lines += violation.traceTail.map { "      | \($0)" }
            }
        }
        lines.append("  reproduce: \(reproduce ?? result.reproduceCommand)")
        return lines
    }

    // MARK: JSON lines

    /// One JSON object on one line, keys in this order: scenario, seed, mutant, verdict, digest, violations,
    /// metrics, reproduce.
    static func jsonLine(for result: RunResult, reproduce: String? = nil) -> String {
        let violations = result.violations.map { violation -> String in
            let step = violation.lastStep.map {
                "{\"source\":\(JSONText.string($0.source)),\"location\":\(JSONText.string($0.location.description)),"
                    + "\"time\":\(JSONText.string($0.time.description))}"
            } ?? "null"
            return "{\"check\":\(JSONText.string(violation.check.description)),"
                + "\"client\":\(violation.client.map(JSONText.string) ?? "null"),"
                + "\"chat\":\(violation.chat.map(JSONText.string) ?? "null"),"
                + "\"time\":\(JSONText.string(violation.time.description)),"
                + "\"timeNanoseconds\":\(violation.time.nanosecondsSinceStart),"
                + "\"expected\":\(JSONText.string(violation.expected)),\"found\":\(JSONText.string(violation.found)),"
                + "\"lastStep\":\(step),"
                + "\"traceTail\":[\(violation.traceTail.map(JSONText.string).joined(separator: ","))]}"
        }
        let metrics = result.metrics.map {
            "{\"name\":\(JSONText.string($0.name)),\"value\":\(JSONText.number($0.value))}"
        }
        return "{\"scenario\":\(JSONText.string(result.scenario)),\"seed\":\(result.seed),"
            + "\"mutant\":\(result.mutant.map(JSONText.string) ?? "null"),"
            + "\"verdict\":\(JSONText.string(result.verdict.rawValue)),\"digest\":\(JSONText.string(result.digestHex)),"
            + "\"violations\":[\(violations.joined(separator: ","))],"
            + "\"metrics\":[\(metrics.joined(separator: ","))],"
            + "\"reproduce\":\(JSONText.string(reproduce ?? result.reproduceCommand))}"
    }

    // MARK: JUnit XML

    /// JUnit XML: one `testsuite` per scenario (in run order), one `testcase` per seed; a failure's message is the
    /// violation summary and the reproduce command.
    static func junitXML(
        for results: [RunResult], reproduce: (RunResult) -> String = { $0.reproduceCommand }
    ) -> String {
        var scenarios: [String] = []
        for result in results where !scenarios.contains(result.scenario) { scenarios.append(result.scenario) }
        let failures = results.filter { $0.verdict == .fail }.count
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"syncsim\" tests=\"\(results.count)\" failures=\"\(failures)\">",
        ]
        for scenario in scenarios {
            let runs = results.filter { $0.scenario == scenario }
            let failed = runs.filter { $0.verdict == .fail }.count
            lines.append(
                "  <testsuite name=\(XMLText.attribute(scenario)) tests=\"\(runs.count)\" failures=\"\(failed)\">"
            )
            for run in runs {
                let mutant = run.mutant.map { " mutant \($0)" } ?? ""
                let name = XMLText.attribute("\(scenario) seed \(run.seed)\(mutant)")
                lines.append("    <testcase classname=\(XMLText.attribute("syncsim.\(scenario)")) name=\(name)>")
                if run.verdict == .fail {
                    let summary = run.violations.map(\.description).joined(separator: "; ")
                    let message = "\(summary); reproduce: \(reproduce(run))"
                    let type = run.violations.first.map(\.check.description) ?? "failure"
                    let body = humanLines(for: run, reproduce: reproduce(run)).joined(separator: "\n")
                    lines.append(
                        "      <failure message=\(XMLText.attribute(message)) type=\(XMLText.attribute(type))>"
                            + XMLText.characterData(body) + "</failure>"
                    )
                }
                lines.append("      <system-out>\(XMLText.characterData("digest \(run.digestHex)"))</system-out>")
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }
}
