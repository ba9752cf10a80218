/// A client parameter a sweep can vary: its name (as `ClientParameters` and scenarios spell it), kind and range.
///
/// Values are parsed from the command line: integers (`30`), fractions (`0.5`) and durations with a unit
/// (`500ms`, `20s`, `1.5s`, `2min`; units `ns`, `us`, `ms`, `s`, `min`, `h`).
public struct SweepParameter: Hashable, Sendable {
    /// What values the parameter takes.
    public enum Kind: Hashable, Sendable {
        /// A whole number in the range; `unit` names what it counts (`messages`, `bytes`).
        case integer(ClosedRange<Int>, unit: String)
        /// A fraction in the range.
        case fraction(ClosedRange<Double>)
        /// A span of virtual time in the range.
        case duration(ClosedRange<SimDuration>)
    }

    /// The name, as `ClientParameters` spells it (`historyPageSize`).
    public var name: String
    /// The values it takes.
    public var kind: Kind
    /// The reference engine's default, as text (`30`, `20s`).
    public var defaultValue: String
    /// Whether the server gets the value too (the frame encoder's compression threshold is used on both ends).
    public var appliesToServer: Bool

    /// The parameters `syncsim sweep --param` accepts, in the order help and errors list them. Defaults are
    /// `ClientParameters`' (field clients' 30 s ping and 20 s request timeout, DESIGN.md §3; OkHttp's 10 s connect
    /// timeout; a 16-bit seq space) and `FrameEncoder.defaultCompressionThresholdBytes` (1024).
    public static let all: [SweepParameter] = [
        SweepParameter(name: "historyPageSize", kind: .integer(1...500, unit: "messages"), defaultValue: "30"),
        SweepParameter(name: "prefetchDistance", kind: .integer(0...500, unit: "messages"), defaultValue: "10"),
        SweepParameter(name: "visibleMessageCount", kind: .integer(1...200, unit: "messages"), defaultValue: "20"),
        SweepParameter(name: "loginChatsCount", kind: .integer(0...10_000, unit: "chats"), defaultValue: "100"),
        SweepParameter(
            name: "compressionThresholdBytes",
            kind: .integer(0...(8 << 20), unit: "bytes"),
            defaultValue: "1024",
            appliesToServer: true
        ),
        SweepParameter(
            name: "requestTimeout",
            kind: .duration(.milliseconds(100)...(.minutes(10))),
            defaultValue: "20s"
        ),
        SweepParameter(name: "pingInterval", kind: .duration(.seconds(1)...(.hours(1))), defaultValue: "30s"),
        SweepParameter(
            name: "pongTimeout",
            kind: .duration(.milliseconds(100)...(.minutes(10))),
            defaultValue: "20s"
        ),
        SweepParameter(
            name: "backoffBase",
            kind: .duration(.milliseconds(10)...(.minutes(10))),
            defaultValue: "1s"
        ),
        SweepParameter(name: "backoffCap", kind: .duration(.milliseconds(100)...(.hours(1))), defaultValue: "60s"),
        SweepParameter(name: "backoffFactor", kind: .fraction(1...10), defaultValue: "2"),
        SweepParameter(name: "backoffJitter", kind: .fraction(0...1), defaultValue: "0.5"),
        SweepParameter(
            name: "connectTimeout",
            kind: .duration(.milliseconds(100)...(.minutes(10))),
            defaultValue: "10s"
        ),
        SweepParameter(name: "seqModulus", kind: .integer(2...65_536, unit: "seqs"), defaultValue: "65536"),
        SweepParameter(name: "initialSeq", kind: .integer(0...65_535, unit: "seq"), defaultValue: "1"),
        SweepParameter(
            name: "taskRetryBase",
            kind: .duration(.milliseconds(10)...(.minutes(10))),
            defaultValue: "1s"
        ),
        SweepParameter(name: "taskRetryCap", kind: .duration(.milliseconds(100)...(.hours(1))), defaultValue: "60s"),
        SweepParameter(name: "maxTaskAttempts", kind: .integer(1...1_000, unit: "attempts"), defaultValue: "10"),
        SweepParameter(
            name: "photoProcessingTime",
            kind: .duration(.zero...(.minutes(10))),
            defaultValue: "2s"
        ),
        SweepParameter(name: "maxConcurrentUploads", kind: .integer(1...64, unit: "uploads"), defaultValue: "1"),
    ]

    /// A parameter; `appliesToServer` also hands its value to the server.
    public init(name: String, kind: Kind, defaultValue: String, appliesToServer: Bool = false) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.appliesToServer = appliesToServer
    }

    /// The parameter called `name`.
    /// - Throws: `SweepError` listing the valid names.
    public static func named(_ name: String) throws -> SweepParameter {
        guard let found = all.first(where: { $0.name == name }) else {
            throw SweepError.invalid(
                Suggestion.unknown("parameter", name, among: all.map(\.name), listedAs: "valid parameters"))
        }
        return found
    }

    /// What the parameter's values are, for errors and help: `an integer in 1...500 (messages)`.
    public var expectation: String {
        switch kind {
        case .integer(let range, let unit): "an integer in \(range.lowerBound)...\(range.upperBound) (\(unit))"
        case .fraction(let range): "a number in \(range.lowerBound)...\(range.upperBound)"
        case .duration(let range):
            "a duration in \(range.lowerBound)...\(range.upperBound) with a unit (500ms, 20s, 2min)"
        }
    }

    /// The unit of the parameter's axis in charts: `messages`, `bytes`, `time`, or empty for a fraction.
    public var unit: String {
        switch kind {
        case .integer(_, let unit): unit
        case .fraction: ""
        case .duration: "time"
        }
    }

    /// Parses one value.
    /// - Throws: `SweepError` naming the parameter, the text and what was expected.
    public func parse(_ text: String) throws -> ParameterValue {
        let failure = SweepError.invalid("parameter \(name): expected \(expectation), got '\(text)'")
        switch kind {
        case .integer(let range, _):
            guard let value = Int(text), range.contains(value) else { throw failure }
            return .int(value)
        case .fraction(let range):
            guard let value = Double(text), value.isFinite, range.contains(value) else { throw failure }
            return .double(value)
        case .duration(let range):
            guard let value = Self.duration(text), range.contains(value) else { throw failure }
            return .duration(value)
        }
    }

    /// Parses `500ms`, `20s`, `1.5s`, `2min` or `2m`, `1h`, `250us`, `10ns` exactly (no floating point); nil otherwise.
    public static func duration(_ text: String) -> SimDuration? {
        let units: [(suffix: String, nanoseconds: Int64)] = [
            ("ns", 1), ("us", 1_000), ("ms", 1_000_000), ("min", 60_000_000_000), ("s", 1_000_000_000),
            ("h", 3_600_000_000_000), ("m", 60_000_000_000),
        ]
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
        let number = text.dropLast(unit.suffix.count)
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].allSatisfy(\.isASCII),
            let whole = Int64(parts[0]), whole >= 0
        else { return nil }
        var nanoseconds = whole.multipliedReportingOverflow(by: unit.nanoseconds)
        guard !nanoseconds.overflow else { return nil }
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 18, fraction.allSatisfy({ $0.isASCII && $0.isNumber }),
                let digits = Int64(fraction)
            else { return nil }
            var scale: Int64 = 1
            for _ in 0..<fraction.count { scale *= 10 }
            let scaled = digits.multipliedReportingOverflow(by: unit.nanoseconds)
            guard !scaled.overflow, scaled.partialValue % scale == 0 else { return nil }
            nanoseconds = nanoseconds.partialValue.addingReportingOverflow(scaled.partialValue / scale)
            guard !nanoseconds.overflow else { return nil }
        }
        return SimDuration(nanoseconds: nanoseconds.partialValue)
    }
}
