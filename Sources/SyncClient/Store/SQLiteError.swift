/// An SQLite failure: the result code, SQLite's message and the statement.
public struct SQLiteError: Error, Hashable, CustomStringConvertible {
    /// SQLite's result code (`SQLITE_ERROR`, ...).
    public var code: Int32
    /// SQLite's message for the failure.
    public var message: String
    /// The statement that failed (or `open <path>`).
    public var sql: String

    public var description: String { "sqlite error \(code) (\(message)) in: \(sql)" }
}
