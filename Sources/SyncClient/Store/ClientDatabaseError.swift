/// A client database that cannot be used: not SQLite, another application's file, or a layout we did not write.
///
/// Each names the file and what was expected, for example `client database /tmp/a.sqlite: table tasks is
/// "CREATE TABLE tasks (id INTEGER)", expected "CREATE TABLE tasks (...)"`.
public struct ClientDatabaseError: Error, Hashable, CustomStringConvertible {
    private enum Code: Hashable {
        case cannotOpen(detail: String)
        case notADatabase(detail: String)
        case otherApplication(applicationId: Int64)
        case foreignTables([String])
        case unknownVersion(found: Int64, newest: Int)
        case missingTable(String, expected: String)
        case extraTable(String)
        case differentTable(String, found: String, expected: String)
        /// `row`: the rowid, or in a table without one its primary key, `(chatId 5, id 7)`.
        case badValue(table: String, row: String, column: String, found: String, expected: String)
        case sqlite(detail: String)
    }

    private let code: Code
    /// The database's path or URI, as given to `SQLiteDatabase`.
    public let path: String

    private init(_ code: Code, path: String) {
        self.code = code
        self.path = path
    }

    static func cannotOpen(_ path: String, _ detail: String) -> Self { Self(.cannotOpen(detail: detail), path: path) }
    static func notADatabase(_ path: String, _ detail: String) -> Self {
        Self(.notADatabase(detail: detail), path: path)
    }
    static func otherApplication(_ path: String, applicationId: Int64) -> Self {
        Self(.otherApplication(applicationId: applicationId), path: path)
    }
    static func foreignTables(_ path: String, _ tables: [String]) -> Self { Self(.foreignTables(tables), path: path) }
    static func unknownVersion(_ path: String, found: Int64, newest: Int) -> Self {
        Self(.unknownVersion(found: found, newest: newest), path: path)
    }
    static func missingTable(_ path: String, _ table: String, expected: String) -> Self {
        Self(.missingTable(table, expected: expected), path: path)
    }
    static func extraTable(_ path: String, _ table: String) -> Self { Self(.extraTable(table), path: path) }
    static func differentTable(_ path: String, _ table: String, found: String, expected: String) -> Self {
        Self(.differentTable(table, found: found, expected: expected), path: path)
    }
    static func badValue(
        _ path: String, table: String, row: String, column: String, found: String, expected: String
    ) -> Self {
        Self(.badValue(table: table, row: row, column: column, found: found, expected: expected), path: path)
    }
    static func sqlite(_ path: String, _ detail: String) -> Self { Self(.sqlite(detail: detail), path: path) }

    public var description: String {
        let what: String
        switch code {
        case .cannotOpen(let detail): what = "cannot open: \(detail)"
        case .notADatabase(let detail): what = "not an SQLite database (\(detail))"
        case .otherApplication(let id):
            what = "application_id \(id) belongs to another application, expected \(ClientDatabase.applicationId) "
                + "(a SyncSim client database) or 0 (an empty file)"
        case .foreignTables(let tables):
            what = "holds tables \(tables.joined(separator: ", ")) but no SyncSim client stamp, "
                + "expected an empty file or a SyncSim client database"
        case .unknownVersion(let found, let newest):
            what = "schema version (user_version) \(found) is not one this client knows (0 to \(newest))"
        case .missingTable(let table, let expected): what = "table \(table) is missing, expected \"\(expected)\""
        case .extraTable(let table): what = "table \(table) is not part of the client schema"
        case .differentTable(let table, let found, let expected):
            what = "table \(table) is \"\(found)\", expected \"\(expected)\""
        case .badValue(let table, let row, let column, let found, let expected):
            what = "table \(table) row \(row): column \(column) holds \(found), expected \(expected)"
        case .sqlite(let detail): what = detail
        }
        return "client database \(path): \(what)"
    }
}
