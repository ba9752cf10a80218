import Foundation
import SimCore
import SyncSim
import SyncTrace

/// The report of `syncsim explore`: failures with their reproduce commands and shrunk scenarios, failures grouped
/// by signature, and the summary with coverage; as human lines or one JSON document. Only virtual time and counts
/// appear, so the same runs give the same report whatever the job count.
struct ExploreReport {
    var command: ExploreCommand
    var seedBase: UInt64
    var outcomes: [ExploreOutcome]
    var failures: [ExploreFailure]
    /// Per failure, the file `--save` wrote, or nil.
    var saved: [String?]
    var coverage: ExploreCoverage
    /// How the human report's `reproduce:` and `repeat:` lines spell the command (`Console.program`: `syncsim` when
    /// that is on the PATH, else the path that runs this build). The JSON report keeps `syncsim`, as `run --json`.
    var program = "syncsim"

    /// Signatures in order of first appearance, each with the indices of its failures.
    var groups: [(signature: String, members: [Int])] {
        var result: [(signature: String, members: [Int])] = []
        for (index, failure) in failures.enumerated() {
            if let position = result.firstIndex(where: { $0.signature == failure.signature }) {
                result[position].members.append(index)
            } else {
                result.append((failure.signature, [index]))
            }
        }
        return result
    }

    /// The digest of every run's trace digest in run order (`FNV1a64.digestHex(ofDigests:)`).
    var runsDigest: String { FNV1a64.digestHex(ofDigests: outcomes.map(\.result.digestHex)) }

    var simulatedHours: String { String(format: "%.2f", Double(coverage.simulated.nanoseconds) / 3.6e12) }

    // MARK: Human

    func humanLines() -> [String] {
        var lines: [String] = []
        for (index, failure) in failures.enumerated() {
            let outcome = failure.outcome
            let run = Int(outcome.seed &- seedBase)
            lines.append(
                "FAIL run \(run) seed \(outcome.seed) digest \(outcome.result.digestHex): "
                    + (outcome.result.violations.first?.description ?? ""))
            if outcome.result.violations.count > 1 {
                lines.append("  and \(outcome.result.violations.count - 1) more violation(s)")
            }
            lines.append("  kinds on: \(outcome.exploreCase.enabledKinds.map(\.rawValue).joined(separator: ", "))")
            lines.append("  reproduce: \(command.reproduceCommand(seed: outcome.seed, program: program))")
            if let shrunk = failure.shrunk {
                let original = outcome.exploreCase.scenario
                lines.append(
                    "  shrunk in \(counted(failure.shrinkRuns, "run")), still failing \(failure.check): "
                        + "\(original.steps.count) -> \(counted(shrunk.steps.count, "step")), "
                        + "\(original.clients.count) -> \(counted(shrunk.clients.count, "client"))"
                )
                lines.append("  signature: \(failure.signature)")
                lines.append(shrunk.dslSource(indent: 4))
                if let path = saved[index] { lines.append("  saved: \(path)") }
            } else {
                lines.append("  signature: \(failure.signature)")
            }
        }
        if !failures.isEmpty {
            lines.append("")
            lines.append("distinct failures (check [kinds of steps left after shrinking]; not shrunk: check alone):")
            for group in groups {
                let seeds = group.members.prefix(5).map { String(failures[$0].outcome.seed) }.joined(separator: ", ")
                let more = group.members.count > 5 ? ", ..." : ""
                lines.append("  \(group.members.count)x \(group.signature)  seeds \(seeds)\(more)")
            }
        }
        if !lines.isEmpty { lines.append("") }  // a blank line after the failures, none above a clean summary
        lines.append(summaryLine())
        lines.append("repeat: \(repeatCommand(program: program))")
        lines.append("kinds on (runs): " + ExploreKind.allCases.map { "\($0.rawValue) \(coverage.kindRuns[$0] ?? 0)" }
            .joined(separator: ", "))
        lines.append("steps run: " + coverage.sortedStepCounts.map { "\($0.name) \($0.count)" }.joined(separator: ", "))
        lines.append("invariants checked in runs (broken): " + InvariantID.allCases.map {
            let broken = coverage.invariantFailures[$0] ?? 0
            return "\($0.rawValue) \(coverage.invariantRuns[$0] ?? 0)" + (broken > 0 ? " (\(broken))" : "")
        }.joined(separator: ", "))
        return lines
    }

    /// The command that repeats the runs done (this shard of them, with `--shard`), spelled with `program`.
    func repeatCommand(program: String = "syncsim") -> String {
        command.repeatCommand(
            seedBase: seedBase, runs: max(1, command.runsCovering(outcomes.count)), shard: command.shard,
            program: program)
    }

    /// The seeds run: `40..42`, or with a shard `41..49 step 4`.
    var seedRange: String {
        let first = seedBase &+ UInt64(command.runIndex(0))
        let last = seedBase &+ UInt64(command.runIndex(max(0, outcomes.count - 1)))
        guard let shard = command.shard, shard.count > 1 else { return "\(first)..\(last)" }
        return "\(first)..\(last) step \(shard.count)"
    }

    func summaryLine() -> String {
        var line = "\(counted(outcomes.count, "run")) (seeds \(seedRange)), "
            + "\(simulatedHours) simulated hours, \(coverage.events) events: \(coverage.failedRuns) failed, "
            + "\(groups.count) distinct"
        let unshrunk = failures.count { $0.shrunk == nil }
        if unshrunk > 0 { line += " (\(counted(unshrunk, "failure")) not shrunk, grouped by check alone)" }
        if let mutant = command.mutant {
            let shared = outcomes.count(where: \.referenceAlsoFailed)
            line += "; mutant \(mutant)"
            if shared > 0 { line += " (\(shared) run(s) also broke checks with the reference engine, not counted)" }
        }
        line += command.usesSwarm ? "; swarm" : "; no swarm"
        if let shard = command.shard { line += "; shard \(shard)" }
        return line + "; runs' digest \(runsDigest)"
    }

    // MARK: JSON

    func json() -> String {
        func string(_ text: String) -> String { JSONText.string(text) }
        func object(_ pairs: [(String, String)]) -> String {
            "{" + pairs.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        }
        let failureObjects = failures.enumerated().map { index, failure -> String in
            let outcome = failure.outcome
            return object([
                ("run", String(Int(outcome.seed &- seedBase))),
                ("seed", String(outcome.seed)),
                ("digest", string(outcome.result.digestHex)),
                ("check", string(failure.check.description)),
                ("violation", string(outcome.result.violations.first?.description ?? "")),
                ("violations", String(outcome.result.violations.count)),
                ("kinds", "[" + outcome.exploreCase.enabledKinds.map { string($0.rawValue) }.joined(separator: ",") + "]"),
                ("reproduce", string(command.reproduceCommand(seed: outcome.seed, program: program))),
                ("signature", string(failure.signature)),
                ("shrunkSteps", failure.shrunk.map { String($0.steps.count) } ?? "null"),
                ("shrinkRuns", String(failure.shrinkRuns)),
                ("dsl", failure.shrunk.map { string($0.dslSource()) } ?? "null"),
                ("saved", saved[index].map(string) ?? "null"),
            ])
        }
        let groupObjects = groups.map { group in
            object([
                ("signature", string(group.signature)),
                ("count", String(group.members.count)),
                ("seeds", "[" + group.members.map { String(failures[$0].outcome.seed) }.joined(separator: ",") + "]"),
            ])
        }
        let kinds = object(ExploreKind.allCases.map { ($0.rawValue, String(coverage.kindRuns[$0] ?? 0)) })
        let steps = object(coverage.sortedStepCounts.map { ($0.name, String($0.count)) })
        let invariants = object(InvariantID.allCases.map {
            ($0.rawValue, object([
                ("runs", String(coverage.invariantRuns[$0] ?? 0)),
                ("broken", String(coverage.invariantFailures[$0] ?? 0)),
            ]))
        })
        return object([
            ("seedBase", String(seedBase)),
            ("runs", String(outcomes.count)),
            ("repeat", string(repeatCommand(program: program))),
            ("shard", command.shard.map { string($0.description) } ?? "null"),
            ("mutant", command.mutant.map(string) ?? "null"),
            // The --param values as typed back (`"20s"`), keys sorted, so the document does not depend on option order.
            ("parameters", object(command.parameters.entries.sorted { $0.key < $1.key }
                .map { ($0.key, string($0.value.description)) })),
            ("swarm", command.usesSwarm ? "true" : "false"),
            ("simulatedSeconds", String(coverage.simulated.nanoseconds / 1_000_000_000)),
            ("events", String(coverage.events)),
            ("failedRuns", String(coverage.failedRuns)),
            ("runsDigest", string(runsDigest)),
            ("failures", "[" + failureObjects.joined(separator: ",") + "]"),
            ("groups", "[" + groupObjects.joined(separator: ",") + "]"),
            ("coverage", object([("kinds", kinds), ("steps", steps), ("invariants", invariants)])),
        ])
    }
}
