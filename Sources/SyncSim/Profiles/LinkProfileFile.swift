import Foundation

/// Link profiles read from a JSON file (`--link-profiles FILE`): network cells beside the catalog's, for `profiles`
/// to list and `sweep` and `explore` to put clients on.
///
/// The file holds `{"profiles": [...]}` or the array alone. Each profile has `name`, `source` (where its figures
/// come from: a measurement, a paper, a tool's preset), `uplink` and `downlink`; each direction has
/// `rateBitsPerSecond` and `oneWayDelayMs` and, optionally, `perPacketOverheadBytes`, `jitter`
/// (`{"uniformMaximumMs": 50}` or `{"exponentialMeanMs": 20}`), `reordersPackets`, `queueCapacityBytes`,
/// `queueCapacityPackets`, `loss` (`{"bernoulli": 0.01}` or `{"gilbertElliott": {"p": 0.01, "r": 0.3,
/// "oneMinusH": 0.5, "oneMinusK": 0}}`, netem's `gemodel` parameters, or `{"gilbertElliottTimed": {"meanGoodMs":
/// 30000, "meanBadMs": 2000, "oneMinusH": 0.8, "oneMinusK": 0.001}}`, a chain that moves in time), `activeQueue` (`{"codel": {"targetMs": 5,
/// "intervalMs": 100}}`), `outages` (`{"random": {"meanIntervalMs": ..., "meanLengthMs": ...}}` or `{"scheduled":
/// [{"startMs": ..., "lengthMs": ...}]}`) and `delaySpikes` (`{"meanIntervalMs": ..., "meanLengthMs": ...,
/// "extraDelayMs": ...}`). Defaults are `LinkDirectionProfile.init`'s. Durations are milliseconds, whole or with
/// a fraction (rounded to the nanosecond). docs/models.md has an example.
public enum LinkProfileFile {
    /// Parses the profiles of a file's bytes, in file order.
    /// - Parameters:
    ///   - data: the file's contents (UTF-8 JSON).
    ///   - file: the path, for messages.
    /// - Returns: the profiles, each valid (`LinkProfile.problems()` empty), names unique and not the catalog's.
    /// - Throws: `LinkProfileFileError` naming the file and the JSON path of the first fault
    ///   (`cells.json: profiles[1].uplink.loss.bernoulli: 1.5 is not in 0...1`), or for a syntax fault its line and
    ///   column (`cells.json: not JSON: line 4, column 31: key "oneWayDelayMs" is given twice in one object`; a
    ///   trailing comma and a file cut short are faults too).
    public static func parse(_ data: Data, file: String) throws -> [LinkProfile] {
        let entries: [Entry]
        let object: Any
        guard !data.isEmpty else {
            throw LinkProfileFileError(file: file, text: "empty file (0 bytes), expected {\"profiles\": [...]}")
        }
        // Foundation accepts a trailing comma and a key given twice (keeping one value silently), and names no place
        // for a file cut short: a strict check first says what and where.
        if let problem = JSONSyntaxCheck.firstProblem(in: [UInt8](data)) {
            throw LinkProfileFileError(file: file, text: "not JSON: \(problem.description)")
        }
        do {
            object = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            // Foundation says where the text stops being JSON in its debug description ("around line 3, column 7").
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw LinkProfileFileError(file: file, text: "not JSON" + (detail.map { " (\($0))" } ?? ""))
        }
        guard object is [Any] || object is [String: Any] else {
            throw LinkProfileFileError(
                file: file, text: "expected {\"profiles\": [...]} or an array of profiles, got a single value")
        }
        do {
            if object is [Any] {
                entries = try JSONDecoder().decode([Entry].self, from: data)
            } else {
                entries = try JSONDecoder().decode(Document.self, from: data).profiles
            }
        } catch let error as DecodingError {
            throw LinkProfileFileError(file: file, text: Self.describe(error))
        } catch let error as LinkProfileFileError {
            throw error
        } catch {
            throw LinkProfileFileError(file: file, text: "not JSON (\(error.localizedDescription))")
        }
        guard !entries.isEmpty else {
            throw LinkProfileFileError(file: file, text: "no profiles (expected {\"profiles\": [...]})")
        }
        var profiles: [LinkProfile] = []
        var seen: Set<String> = []
        for (index, entry) in entries.enumerated() {
            let path = "profiles[\(index)]"
            let profile = entry.profile
            if let problem = profile.problems().first {
                throw LinkProfileFileError(file: file, text: "\(path) \(Self.quoted(profile.name)): \(problem)")
            }
            if let taken = LinkProfile.named(profile.name) {
                throw LinkProfileFileError(
                    file: file, text: "\(path): name '\(profile.name)' is the catalog's '\(taken.name)'; choose another")
            }
            guard seen.insert(profile.name.lowercased()).inserted else {
                throw LinkProfileFileError(file: file, text: "\(path): name '\(profile.name)' is given twice")
            }
            profiles.append(profile)
        }
        return profiles
    }

    /// A profile's name as messages show it: quoted, control characters escaped, cut to 40 characters.
    static func quoted(_ name: String) -> String {
        let escaped = name.unicodeScalars.map { scalar in
            [.control, .format].contains(scalar.properties.generalCategory)
                ? scalar.escaped(asASCII: true) : String(scalar)
        }.joined()
        return "'" + (escaped.count > 40 ? escaped.prefix(40) + "…" : escaped) + "'"
    }

    /// `profiles[0].uplink.rateBitsPerSecond: expected a whole number`: the coding path and what was wrong.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += (text.isEmpty ? "profiles" : "") + "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the file" : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(Self.describe(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(Self.describe(type)), got null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            if let custom = context.underlyingError as? LinkProfileFileError { return custom.text }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        default: "an object or array of the documented shape"
        }
    }

    // MARK: - The file's shape

    struct Document: Decodable {
        var profiles: [Entry]
        init(from decoder: any Decoder) throws {
            try Keys.refuseOthers(decoder, allowed: ["profiles"])
            let container = try decoder.container(keyedBy: Keys.self)
            profiles = try container.decode([Entry].self, forKey: Keys("profiles"))
        }
    }

    struct Entry: Decodable {
        var profile: LinkProfile
        init(from decoder: any Decoder) throws {
            try Keys.refuseOthers(decoder, allowed: ["name", "source", "uplink", "downlink"])
            let container = try decoder.container(keyedBy: Keys.self)
            profile = LinkProfile(
                name: try container.decode(String.self, forKey: Keys("name")),
                source: try container.decode(String.self, forKey: Keys("source")),
                uplink: try container.decode(Direction.self, forKey: Keys("uplink")).profile,
                downlink: try container.decode(Direction.self, forKey: Keys("downlink")).profile)
        }
    }

    struct Direction: Decodable {
        var profile: LinkDirectionProfile
        init(from decoder: any Decoder) throws {
            try Keys.refuseOthers(decoder, allowed: [
                "rateBitsPerSecond", "oneWayDelayMs", "perPacketOverheadBytes", "jitter", "reordersPackets",
                "queueCapacityBytes", "queueCapacityPackets", "loss", "activeQueue", "outages", "delaySpikes",
            ])
            let container = try decoder.container(keyedBy: Keys.self)
            // Built with no checks first: `problems()` reports negative figures by name instead of the
            // initializer's preconditions stopping the program.
            var profile = LinkDirectionProfile(rateBitsPerSecond: 0, oneWayDelay: .zero)
            profile.rateBitsPerSecond = try Keys.integer(container, "rateBitsPerSecond")
            profile.oneWayDelay = try Keys.milliseconds(container, "oneWayDelayMs")
            if let bytes = try Keys.integerIfPresent(container, "perPacketOverheadBytes") {
                profile.perPacketOverheadBytes = bytes
            }
            if let jitter = try container.decodeIfPresent(Jitter.self, forKey: Keys("jitter")) {
                profile.jitter = jitter.model
            }
            if let reorders = try container.decodeIfPresent(Bool.self, forKey: Keys("reordersPackets")) {
                profile.reordersPackets = reorders
            }
            if let bytes = try Keys.integerIfPresent(container, "queueCapacityBytes") {
                profile.queueCapacityBytes = bytes
            }
            profile.queueCapacityPackets = try Keys.integerIfPresent(container, "queueCapacityPackets")
            if let loss = try container.decodeIfPresent(Loss.self, forKey: Keys("loss")) { profile.loss = loss.model }
            if let queue = try container.decodeIfPresent(Queue.self, forKey: Keys("activeQueue")) {
                profile.activeQueue = queue.model
            }
            if let outages = try container.decodeIfPresent(Outages.self, forKey: Keys("outages")) {
                profile.outages = outages.model
            }
            profile.delaySpikes = try container.decodeIfPresent(Spikes.self, forKey: Keys("delaySpikes"))?.model
            self.profile = profile
        }
    }

    struct Jitter: Decodable {
        var model: JitterModel
        init(from decoder: any Decoder) throws {
            let key = try Keys.one(decoder, of: ["uniformMaximumMs", "exponentialMeanMs"])
            let container = try decoder.container(keyedBy: Keys.self)
            let value = try Keys.milliseconds(container, key)
            model = key == "uniformMaximumMs" ? .uniform(maximum: value) : .exponential(mean: value)
        }
    }

    struct Loss: Decodable {
        var model: LossModel
        init(from decoder: any Decoder) throws {
            let key = try Keys.one(decoder, of: ["bernoulli", "gilbertElliott", "gilbertElliottTimed"])
            let container = try decoder.container(keyedBy: Keys.self)
            switch key {
            case "bernoulli": model = .bernoulli(probability: try container.decode(Double.self, forKey: Keys(key)))
            case "gilbertElliott": model = try container.decode(GilbertElliott.self, forKey: Keys(key)).model
            default: model = try container.decode(GilbertElliottTimed.self, forKey: Keys(key)).model
            }
        }
    }

    struct GilbertElliott: Decodable {
        var model: LossModel
        init(from decoder: any Decoder) throws {
            try Keys.refuseOthers(decoder, allowed: ["p", "r", "oneMinusH", "oneMinusK"])
            let container = try decoder.container(keyedBy: Keys.self)
            model = .gilbertElliott(
                p: try container.decode(Double.self, forKey: Keys("p")),
                r: try container.decode(Double.self, forKey: Keys("r")),
                oneMinusH: try container.decode(Double.self, forKey: Keys("oneMinusH")),
                oneMinusK: try container.decode(Double.self, forKey: Keys("oneMinusK")))
        }
    }

    struct GilbertElliottTimed: Decodable {
        var model: LossModel
        init(from decoder: any Decoder) throws {
            try Keys.refuseOthers(decoder, allowed: ["meanGoodMs", "meanBadMs", "oneMinusH", "oneMinusK"])
            let container = try decoder.container(keyedBy: Keys.self)
            model = .gilbertElliottTimed(
                meanGood: try Keys.milliseconds(container, "meanGoodMs"),
                meanBad: try Keys.milliseconds(container, "meanBadMs"),
                oneMinusH: try container.decode(Double.self, forKey: Keys("oneMinusH")),
                oneMinusK: try container.decode(Double.self, forKey: Keys("oneMinusK")))
        }
    }

    struct Queue: Decodable {
        var model: ActiveQueueManagement
        init(from decoder: any Decoder) throws {
            _ = try Keys.one(decoder, of: ["codel"])
            let container = try decoder.container(keyedBy: Keys.self)
            model = try container.decode(CoDel.self, forKey: Keys("codel")).model
        }
    }

    struct CoDel: Decodable {
        var model: ActiveQueueManagement
        init(from decoder: any Decoder) throws {
            try Keys.refuseOthers(decoder, allowed: ["targetMs", "intervalMs"])
            let container = try decoder.container(keyedBy: Keys.self)
            model = .codel(target: try Keys.milliseconds(container, "targetMs"),
                           interval: try Keys.milliseconds(container, "intervalMs"))
        }
    }

    struct Outages: Decodable {
        var model: OutageModel
        init(from decoder: any Decoder) throws {
            let key = try Keys.one(decoder, of: ["random", "scheduled"])
            let container = try decoder.container(keyedBy: Keys.self)
            if key == "random" {
                let random = try container.decode(RandomOutages.self, forKey: Keys(key))
                model = .random(meanInterval: random.meanInterval, meanLength: random.meanLength)
            } else {
                model = .scheduled(try container.decode([Window].self, forKey: Keys(key)).map(\.window))
            }
        }
    }

    struct RandomOutages: Decodable {
        var meanInterval: SimDuration
        var meanLength: SimDuration
        init(from decoder: any Decoder) throws {
            try Keys.refuseOthers(decoder, allowed: ["meanIntervalMs", "meanLengthMs"])
            let container = try decoder.container(keyedBy: Keys.self)
            meanInterval = try Keys.milliseconds(container, "meanIntervalMs")
            meanLength = try Keys.milliseconds(container, "meanLengthMs")
        }
    }

    struct Window: Decodable {
        var window: OutageWindow
        init(from decoder: any Decoder) throws {
            try Keys.refuseOthers(decoder, allowed: ["startMs", "lengthMs"])
            let container = try decoder.container(keyedBy: Keys.self)
            window = OutageWindow(start: try Keys.milliseconds(container, "startMs"),
                                  length: try Keys.milliseconds(container, "lengthMs"))
        }
    }

    struct Spikes: Decodable {
        var model: DelaySpikeModel
        init(from decoder: any Decoder) throws {
            try Keys.refuseOthers(decoder, allowed: ["meanIntervalMs", "meanLengthMs", "extraDelayMs"])
            let container = try decoder.container(keyedBy: Keys.self)
            model = DelaySpikeModel(
                meanInterval: try Keys.milliseconds(container, "meanIntervalMs"),
                meanLength: try Keys.milliseconds(container, "meanLengthMs"),
                extraDelay: try Keys.milliseconds(container, "extraDelayMs"))
        }
    }

    /// Any key, so that a key the format does not have is named instead of ignored.
    struct Keys: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        /// - Throws: `DecodingError.dataCorrupted` naming the first key (in sorted order) not in `allowed`.
        static func refuseOthers(_ decoder: any Decoder, allowed: [String]) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let unknown = container.allKeys.map(\.stringValue).filter { !allowed.contains($0) }.sorted()
            guard let first = unknown.first else { return }
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "unknown key '\(first)'; keys: \(allowed.joined(separator: ", "))"))
        }

        /// The one key the object holds, which must be one of `choices`.
        static func one(_ decoder: any Decoder, of choices: [String]) throws -> String {
            try refuseOthers(decoder, allowed: choices)
            let keys = try decoder.container(keyedBy: Keys.self).allKeys.map(\.stringValue)
            guard keys.count == 1, let key = keys.first else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected one of \(choices.joined(separator: ", "))"))
            }
            return key
        }

        /// A whole number (read as a number and checked, so that `1.5` is named as such rather than as bad JSON).
        static func integer(_ container: KeyedDecodingContainer<Keys>, _ key: String) throws -> Int {
            let value = try container.decode(Double.self, forKey: Keys(key))
            guard value.rounded() == value else {
                throw DecodingError.dataCorruptedError(
                    forKey: Keys(key), in: container, debugDescription: "expected a whole number, got \(value)")
            }
            // Read as a Double: beyond 2^53 whole numbers are no longer exact.
            guard abs(value) <= 9_007_199_254_740_992 else {
                throw DecodingError.dataCorruptedError(
                    forKey: Keys(key), in: container,
                    debugDescription: "\(value) is out of range (at most 9007199254740992)")
            }
            return Int(value)
        }

        static func integerIfPresent(_ container: KeyedDecodingContainer<Keys>, _ key: String) throws -> Int? {
            container.contains(Keys(key)) ? try integer(container, key) : nil
        }

        /// A duration in milliseconds (whole or with a fraction, rounded to the nanosecond).
        static func milliseconds(_ container: KeyedDecodingContainer<Keys>, _ key: String) throws -> SimDuration {
            let value = try container.decode(Double.self, forKey: Keys(key))
            guard value.isFinite, abs(value) < 9e12 else {
                throw DecodingError.dataCorruptedError(
                    forKey: Keys(key), in: container, debugDescription: "\(value) ms is out of range (at most 9e12 ms, about 285 years)")
            }
            return .nanoseconds(Int64((value * 1_000_000).rounded()))
        }
    }
}

/// A fault in a link profile file: the file and the JSON path of what is wrong.
public struct LinkProfileFileError: Error, Hashable, CustomStringConvertible {
    /// The file's path as given.
    public var file: String
    /// What is wrong, starting with the JSON path (`profiles[0].uplink.rateBitsPerSecond: expected a whole number`).
    public var text: String

    public var description: String { "\(file): \(text)" }
}
