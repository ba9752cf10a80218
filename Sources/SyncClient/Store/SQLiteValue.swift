/// A value bound to or read from an SQLite statement.
public enum SQLiteValue: Hashable, Sendable {
    /// A 64-bit signed INTEGER.
    case integer(Int64)
    /// A UTF-8 TEXT value.
    case text(String)
    /// SQL NULL.
    case null

    /// The integer, or nil for another type.
    public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// The text, or nil for another type.
    public var text: String? { if case .text(let value) = self { value } else { nil } }
}
