/// One value of an engine or server parameter: an integer, a fraction, a duration, a flag or a word.
public enum ParameterValue: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByStringLiteral
{
    /// A whole number (a count, a size in bytes).
    case int(Int)
    /// A fraction or other real number (a probability, a factor).
    case double(Double)
    /// A span of virtual time (a timeout, an interval).
    case duration(SimDuration)
    /// A flag.
    case bool(Bool)
    /// A word (a mode or strategy name).
    case string(String)

    /// An integer literal becomes `.int`.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal becomes `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A Boolean literal becomes `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// A string literal becomes `.string`.
    public init(stringLiteral value: String) { self = .string(value) }

    /// A plain rendering: `20`, `0.5`, `20s`, `true`, `lz4`.
    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .duration(let value): value.description
        case .bool(let value): String(value)
        case .string(let value): value
        }
    }

    /// The integer, or nil when the value is not one.
    public var intValue: Int? { if case .int(let value) = self { value } else { nil } }

    /// The duration, or nil when the value is not one.
    public var durationValue: SimDuration? { if case .duration(let value) = self { value } else { nil } }
}
