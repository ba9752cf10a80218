import SyncSim

/// The output formats of `syncsim run`: human lines, JSON lines and JUnit XML. All deterministic: fixed key
/// order, no dictionaries, no timestamps.
enum Report {
    // MARK: Human

    /// The lines for one run: a PASS/FAIL line with seed and digest, then for a failure each violation with the
    /// step that ran last and the trace tail, and the reproduce command.
    static func humanLines(for result: RunResult) -> [String] {
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
                lines.append("    trace tail (\(violation.traceTail.count) records):")
                lines += violation.traceTail.map { "      | \($0)" }
            }
        }
        lines.append("  reproduce: \(result.reproduceCommand)")
        return lines
    }

    // MARK: JSON lines

    /// One JSON object on one line, keys in this order: scenario, seed, mutant, verdict, digest, violations,
    /// metrics, reproduce.
    static func jsonLine(for result: RunResult) -> String {
        let violations = result.violations.map { violation -> String in
            let step = violation.lastStep.map {
                "{\"source\":\(json($0.source)),\"location\":\(json($0.location.description)),"
                    + "\"time\":\(json($0.time.description))}"
            } ?? "null"
            return "{\"check\":\(json(violation.check.description)),"
                + "\"client\":\(violation.client.map(json) ?? "null"),"
                + "\"chat\":\(violation.chat.map(json) ?? "null"),"
                + "\"time\":\(json(violation.time.description)),"
                + "\"timeNanoseconds\":\(violation.time.nanosecondsSinceStart),"
                + "\"expected\":\(json(violation.expected)),\"found\":\(json(violation.found)),"
                + "\"lastStep\":\(step),"
                + "\"traceTail\":[\(violation.traceTail.map(json).joined(separator: ","))]}"
        }
        let metrics = result.metrics.map { "{\"name\":\(json($0.name)),\"value\":\(json($0.value))}" }
        return "{\"scenario\":\(json(result.scenario)),\"seed\":\(result.seed),"
            + "\"mutant\":\(result.mutant.map(json) ?? "null"),"
            + "\"verdict\":\(json(result.verdict.rawValue)),\"digest\":\(json(result.digestHex)),"
            + "\"violations\":[\(violations.joined(separator: ","))],"
            + "\"metrics\":[\(metrics.joined(separator: ","))],"
            + "\"reproduce\":\(json(result.reproduceCommand))}"
    }

    /// A JSON string literal (RFC 8259 §7): quotes, backslashes and control characters escaped.
    static func json(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A JSON number; `null` for NaN and infinities, which JSON cannot hold.
    static func json(_ value: Double) -> String { value.isFinite ? "\(value)" : "null" }

    // MARK: JUnit XML

    /// JUnit XML: one `testsuite` per scenario (in run order), one `testcase` per seed; a failure's message is the
    /// violation summary and the reproduce command.
    static func junitXML(for results: [RunResult]) -> String {
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
                "  <testsuite name=\(xmlAttribute(scenario)) tests=\"\(runs.count)\" failures=\"\(failed)\">"
            )
            for run in runs {
                let mutant = run.mutant.map { " mutant \($0)" } ?? ""
                let name = xmlAttribute("\(scenario) seed \(run.seed)\(mutant)")
                lines.append("    <testcase classname=\(xmlAttribute("syncsim.\(scenario)")) name=\(name)>")
                if run.verdict == .fail {
                    let summary = run.violations.map(\.description).joined(separator: "; ")
                    let message = "\(summary); reproduce: \(run.reproduceCommand)"
                    let type = run.violations.first.map(\.check.description) ?? "failure"
                    let body = humanLines(for: run).joined(separator: "\n")
                    lines.append(
                        "      <failure message=\(xmlAttribute(message)) type=\(xmlAttribute(type))>"
                            + xmlText(body) + "</failure>"
                    )
                }
                lines.append("      <system-out>\(xmlText("digest \(run.digestHex)"))</system-out>")
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A double-quoted XML attribute value, escaped.
    static func xmlAttribute(_ text: String) -> String {
        let escaped = xmlText(text)
            .replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "\n", with: "&#10;")
        return "\"" + escaped + "\""
    }

    /// XML character data: `&`, `<`, `>`, `'` escaped; characters XML 1.0 forbids (most C0 controls) become U+FFFD.
    static func xmlText(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
