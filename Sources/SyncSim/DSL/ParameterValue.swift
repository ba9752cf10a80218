/// One value of an engine or server parameter: an integer, a fraction, a duration, a flag or a word.
public enum ParameterValue: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByStringLiteral
{
    case int(Int)
    case double(Double)
    /// A span of virtual time (a timeout, an interval).
    case duration(SimDuration)
    case bool(Bool)
    case string(String)

    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
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
