import Foundation

/// The JSON-lines form of a sweep: a `sweep` header line, one `run` line per run, one `combination` line per
/// combination; keys in a fixed order, numbers in Swift's shortest round-trip form, so equal inputs give equal
/// bytes. Shards write the header (with `"shard":"I/N"`) and their runs; `syncsim merge` reads them back.
public enum SweepJSONLines {
    /// The header line: scenario, parameters (name, values), profiles, seeds, seedBase, clients, clientProfile,
    /// linkProfileFile, linkProfiles (the names of its profiles the sweep uses) and linkProfilesDigest (their
    /// figures; each only when set), objective,
    /// runs, shard (null for a whole sweep).
    public static func header(_ spec: SweepSpec, shard: SweepShard?) -> String {
        let axes = spec.axes.map { axis in
            let values = axis.values.map { JSONText.string($0.description) }.joined(separator: ",")
            return "{\"name\":\(JSONText.string(axis.parameter.name)),\"values\":[\(values)]}"
        }
        // The profiles of `--link-profiles` the sweep names: merge accepts them without the file.
        let ownProfiles = (spec.profiles + (spec.clientProfile.map { [$0] } ?? [])).filter {
            LinkProfile.named($0.rawValue) == nil
        }
        return "{\"type\":\"sweep\",\"scenario\":\(JSONText.string(spec.scenario)),"
            + "\"parameters\":[\(axes.joined(separator: ","))],"
            + "\"profiles\":[\(spec.profiles.map { JSONText.string($0.rawValue) }.joined(separator: ","))],"
            + "\"seeds\":\(spec.seedCount),\"seedBase\":\(spec.seedBase),"
            + "\"clients\":[\(spec.clients.map(JSONText.string).joined(separator: ","))],"
            + (spec.clientProfile.map { "\"clientProfile\":\(JSONText.string($0.rawValue))," } ?? "")
            + (spec.linkProfileFile.map { "\"linkProfileFile\":\(JSONText.string($0))," } ?? "")
            + (ownProfiles.isEmpty ? "" : "\"linkProfiles\":["
                + ownProfiles.map { JSONText.string($0.rawValue) }.joined(separator: ",") + "],")
            + (spec.linkProfilesDigest.map { "\"linkProfilesDigest\":\(JSONText.string($0))," } ?? "")
            + "\"objective\":\(JSONText.string(spec.objective)),\"runs\":\(spec.runCount),"
            + "\"shard\":\(shard.map { JSONText.string($0.description) } ?? "null")}"
    }

    /// A run line: run, combination, profile, parameters, seed, verdict, digest, violations, metrics, reproduce.
    public static func run(_ record: SweepRunRecord, spec: SweepSpec) -> String {
        let metrics = record.metrics.map {
            "{\"name\":\(JSONText.string($0.name)),\"value\":\(JSONText.number($0.value))}"
        }
        let reproduce = spec.reproduceCommand(record.run)
        return "{\"type\":\"run\",\"run\":\(record.index),\"combination\":\(record.combination.index),"
            + "\"profile\":\(JSONText.string(record.combination.profile.rawValue)),"
            + "\"parameters\":\(parameters(record.combination, spec: spec)),\"seed\":\(record.seed),"
            + "\"verdict\":\(JSONText.string(record.verdict.rawValue)),\"digest\":\(JSONText.string(record.digest)),"
            + "\"violations\":[\(record.violations.map(JSONText.string).joined(separator: ","))],"
            + "\"metrics\":[\(metrics.joined(separator: ","))],\"reproduce\":\(JSONText.string(reproduce))}"
    }

    /// A combination line: combination, profile, parameters, runs, failed, best, then per metric name, unit,
    /// count, p10, p50, p90, p99, mean, p50Low, p50High (the median's 95% bootstrap interval).
    public static func combination(_ combination: SweepCombination, report: SweepReport) -> String {
        let seedCount = report.spec.seedCount
        let runs = report.records[(combination.index * seedCount)..<((combination.index + 1) * seedCount)]
        let number = JSONText.number
        let metrics = report.summaries[combination.index].map { summary in
            "{\"name\":\(JSONText.string(summary.metric.name)),\"unit\":\(JSONText.string(summary.metric.unit)),"
                + "\"count\":\(summary.count),\"p10\":\(number(summary.p10)),\"p50\":\(number(summary.p50)),"
                + "\"p90\":\(number(summary.p90)),\"p99\":\(number(summary.p99)),\"mean\":\(number(summary.mean)),"
                + "\"p50Low\":\(number(summary.p50Low)),\"p50High\":\(number(summary.p50High))}"
        }
        return "{\"type\":\"combination\",\"combination\":\(combination.index),"
            + "\"profile\":\(JSONText.string(combination.profile.rawValue)),"
            + "\"parameters\":\(parameters(combination, spec: report.spec)),\"runs\":\(runs.count),"
            + "\"failed\":\(runs.filter { $0.verdict == .fail }.count),"
            + "\"best\":\(report.isBest(combination.index)),\"metrics\":[\(metrics.joined(separator: ","))]}"
    }

    /// The whole report as JSON lines: header (shard null), every run, every combination; newline-terminated.
    public static func document(_ report: SweepReport) -> String {
        var lines = [header(report.spec, shard: nil)]
        lines += report.records.map { run($0, spec: report.spec) }
        lines += report.spec.combinations.map { combination($0, report: report) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A shard's output: its header and its runs; newline-terminated.
    public static func shardDocument(spec: SweepSpec, shard: SweepShard, records: [SweepRunRecord]) -> String {
        ([header(spec, shard: shard)] + records.map { run($0, spec: spec) }).joined(separator: "\n") + "\n"
    }

    // MARK: Reading

    /// What one file held: its sweep and its run records (combination lines are recomputed, so they are skipped).
    public struct Contents: Sendable {
        /// The sweep its header describes.
        public var spec: SweepSpec
        /// Its runs, in file order.
        public var records: [SweepRunRecord]
    }

    /// Reads the JSON lines of a sweep or shard.
    /// - Parameters:
    ///   - text: the file's contents.
    ///   - file: its name, for errors.
    /// - Throws: `SweepError` naming the file and line: not JSON, a missing or second header, an unknown line type,
    ///   a field of the wrong type, a run that does not belong to the header's sweep; naming the file for one that
    ///   is empty or blank.
    public static func read(_ text: String, file: String) throws -> Contents {
        var spec: SweepSpec?
        var records: [SweepRunRecord] = []
        var combinations: [SweepCombination] = []
        let decoder = JSONDecoder()
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let data = Data(line.utf8)
            func fail(_ detail: String) -> SweepError { SweepError.invalid("\(file):\(number): \(detail)") }
            let kind: LineKind
            do { kind = try decoder.decode(LineKind.self, from: data) } catch {
                throw fail("not a JSON object with a \"type\" field")
            }
            switch kind.type {
            case "sweep":
                guard spec == nil else { throw fail("a second sweep header") }
                let header: HeaderLine
                do { header = try decoder.decode(HeaderLine.self, from: data) } catch {
                    throw fail("malformed sweep header: \(describe(error))")
                }
                do {
                    spec = try header.spec()
                } catch let error as SweepError {
                    throw fail("\(error)")
                }
                combinations = spec!.combinations
            case "run":
                guard let spec else { throw fail("a run before the sweep header") }
                let line: RunLine
                do { line = try decoder.decode(RunLine.self, from: data) } catch {
                    throw fail("malformed run: \(describe(error))")
                }
                guard (0..<spec.runCount).contains(line.run), combinations.indices.contains(line.combination),
                    let verdict = Verdict(rawValue: line.verdict)
                else { throw fail("run \(line.run) does not belong to the sweep in the header") }
                records.append(
                    SweepRunRecord(
                        index: line.run,
                        combination: combinations[line.combination],
                        seed: line.seed,
                        verdict: verdict,
                        digest: line.digest,
                        violations: line.violations,
                        metrics: line.metrics.map { Metric($0.name, $0.value ?? .nan) }
                    )
                )
            case "combination":
                guard spec != nil else { throw fail("a combination before the sweep header") }
            default:
                throw fail("unknown line type '\(kind.type)'; expected sweep, run or combination")
            }
        }
        guard let spec else {
            // An empty file is the likeliest reason (a shard whose job never wrote it): say so rather than "no header".
            if text.isEmpty { throw SweepError.invalid("\(file): empty file (0 bytes), not sweep JSON lines") }
            if text.allSatisfy(\.isWhitespace) {
                throw SweepError.invalid("\(file): only blank lines, no sweep JSON lines (a sweep header line first)")
            }
            throw SweepError.invalid("\(file): no sweep header line")
        }
        return Contents(spec: spec, records: records)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing field \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
        default: "not valid JSON"
        }
    }

    private struct LineKind: Decodable {
        var type: String
    }

    private struct HeaderLine: Decodable {
        struct Axis: Decodable {
            var name: String
            var values: [String]
        }
        var scenario: String
        var parameters: [Axis]
        var profiles: [String]
        var seeds: Int
        var seedBase: UInt64
        var clients: [String]
        var clientProfile: String?
        /// The `--link-profiles` file and its profiles' names: merge resolves the names without reading the file.
        var linkProfileFile: String?
        var linkProfiles: [String]?
        var linkProfilesDigest: String?
        var objective: String

        func spec() throws -> SweepSpec {
            let extra = linkProfiles ?? []
            var spec = try SweepSpec(
                scenario: scenario,
                axes: parameters.map { try SweepAxis(parsing: "\($0.name)=\($0.values.joined(separator: ","))") },
                profiles: profiles.map { try SweepSpec.profile(named: $0, among: extra) },
                seedCount: seeds,
                seedBase: seedBase,
                clients: clients,
                objective: objective
            )
            spec.clientProfile = try clientProfile.map { try SweepSpec.profile(named: $0, among: extra) }
            spec.linkProfileFile = linkProfileFile
            spec.linkProfilesDigest = linkProfilesDigest
            return spec
        }
    }

    private struct RunLine: Decodable {
        struct MetricLine: Decodable {
            var name: String
            var value: Double?
        }
        var run: Int
        var combination: Int
        var seed: UInt64
        var verdict: String
        var digest: String
        var violations: [String]
        var metrics: [MetricLine]
    }

    // MARK: Writing helpers

    private static func parameters(_ combination: SweepCombination, spec: SweepSpec) -> String {
        let pairs = zip(spec.axes, combination.values).map { axis, value in
            "{\"name\":\(JSONText.string(axis.parameter.name)),\"value\":\(JSONText.string(value.description))}"
        }
        return "[\(pairs.joined(separator: ","))]"
    }
}
