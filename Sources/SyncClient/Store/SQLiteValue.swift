/// A value bound to or read from an SQLite statement.
public enum SQLiteValue: Hashable, Sendable {
    case integer(Int64)
    case text(String)
    case null

    /// The integer, or nil for another type.
    public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// The text, or nil for another type.
    public var text: String? { if case .text(let value) = self { value } else { nil } }
}
