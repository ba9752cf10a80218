import CSQLite

/// One SQLite database: the only file that calls into CSQLite (the C library is wrapped once, STYLE.md).
///
/// In memory by default (`":memory:"`); pass a file path to inspect a client's database with the sqlite3 shell.
/// The handle outlives app restarts of the engine that uses it: it plays the role of the phone's flash storage.
/// A class, because its identity is the storage.
public final class SQLiteDatabase {
    private let handle: OpaquePointer?
    // The statement tables are read on every statement a client runs; the class is used from one thread at a time and
    // never hands out access to them, so the dynamic exclusivity checks (a thread-local access set per access) are off.
    @exclusivity(unchecked) private var statements: [String: OpaquePointer] = [:]
    /// Statements kept by slot (`execute(slot:sql:_:)`), prepared on their first run, with their SQL text and their
    /// parameter count (asked of SQLite once, not on every run).
    @exclusivity(unchecked) private var slotStatements: [SlotStatement?] = []
    private typealias SlotStatement = (sql: String, statement: OpaquePointer, parameterCount: Int32)
    /// Whether nothing has been run on this connection since it opened (see `isUntouched`).
    @exclusivity(unchecked) private var hasRunAnything = false
    /// Where the database lives: `":memory:"`, a file path, or an SQLite URI.
    public let path: String

    /// Opens (creating if needed) a database.
    /// - Parameter path: `":memory:"` (default), a file path, or a `file:` URI (for example a shared-cache
    ///   in-memory database).
    /// - Throws: `SQLiteError` when SQLite cannot open it.
    public init(path: String = ":memory:") throws {
        self.path = path
        // NOMUTEX: SQLite's "multi-thread" mode for this connection, which then takes no lock of its own around every
        // call (binds, steps, resets: about a tenth of a client's SQLite time in `syncsim-bench scale`). The class is
        // not Sendable, so one database is used from one thread at a time, which is all that mode asks.
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        _ = Self.configured
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: code, message: message, sql: "open \(path)")
        }
        self.handle = handle
    }

    /// SQLite's process-wide settings, made once before the first connection opens (SQLite takes them only before it
    /// initializes). Memory statistics off (`SQLITE_CONFIG_MEMSTATUS`, on by default): with them, every allocation
    /// SQLite makes took a global mutex to count itself, 2% of the instructions of `syncsim-bench scale` (where each
    /// client's every statement allocates its cursors). A connection's own figure, `memoryUsedBytes`, does without.
    private static let configured: Void = { _ = syncsim_sqlite3_config_memstatus(0) }()

    /// Bytes this connection holds on SQLite's heap now: its page cache, schema and prepared statements
    /// (`sqlite3_db_status` with `SQLITE_DBSTATUS_CACHE_USED`, `_SCHEMA_USED` and `_STMT_USED`, as SQLite estimates
    /// them). The connection's own structures (the connection, its pager and b-tree handles) are not counted: about
    /// 9 KB per client database in `syncsim-bench scale`. For memory reports.
    public var memoryUsedBytes: Int {
        var total = 0
        for option in [SQLITE_DBSTATUS_CACHE_USED, SQLITE_DBSTATUS_SCHEMA_USED, SQLITE_DBSTATUS_STMT_USED] {
            var current: Int32 = 0
            var highest: Int32 = 0
            if sqlite3_db_status(handle, option, &current, &highest, 0) == SQLITE_OK { total += Int(current) }
        }
        return total
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        for slot in slotStatements { if let slot { sqlite3_finalize(slot.statement) } }
        sqlite3_close_v2(handle)
    }

    /// Runs a statement that returns no rows.
    /// - Parameter keepsStatement: whether the prepared statement is kept for the next run of the same SQL (the
    ///   default). Pass false for a statement run once (schema setup, loading at launch): a kept statement costs
    ///   1–4 KB of SQLite's heap for as long as the database is open.
    /// - Throws: `SQLiteError` on failure.
    public func execute(_ sql: String, _ bindings: [SQLiteValue] = [], keepsStatement: Bool = true) throws {
        _ = try run(sql, bindings, collect: false, keepsStatement: keepsStatement)
    }

    /// Runs a query.
    /// - Parameter keepsStatement: as for `execute`.
    /// - Returns: the rows, each a list of column values in select order.
    /// - Throws: `SQLiteError` on failure.
    public func query(
        _ sql: String, _ bindings: [SQLiteValue] = [], keepsStatement: Bool = true
    ) throws -> [[SQLiteValue]] {
        try run(sql, bindings, collect: true, keepsStatement: keepsStatement)
    }

    /// Runs a statement that returns no rows, kept prepared in a slot the caller chose, with its parameters bound by
    /// `bind` in order.
    ///
    /// For statements run on every event: the statement is found by its slot, an array index, instead of by hashing
    /// its SQL text, and its values are bound straight from the caller's fields, without an array of `SQLiteValue`s.
    /// It is prepared on its first run (an idle database holds no statement it never ran) and kept until the
    /// database closes.
    /// - Parameters:
    ///   - slot: the statement's index, from 0; one caller's set of statements numbered densely (an enum's raw
    ///     values). A slot always holds the same SQL: another `sql` in a slot already used is a programmer error.
    ///   - sql: the statement.
    ///   - bind: binds every parameter of `sql`, in order (a parameter left unbound is a programmer error).
    /// - Throws: `SQLiteError` on failure.
    public func execute(slot: Int, sql: String, _ bind: (inout SQLiteBindings) -> Void) throws {
        let (statement, parameterCount) = try slotted(slot, sql)
        defer { sqlite3_reset(statement) }
        var bindings = SQLiteBindings(statement: statement)
        bind(&bindings)
        if bindings.code != SQLITE_OK { throw error(bindings.code, sql) }
        precondition(bindings.count == parameterCount,
                     "SQLiteDatabase: \(bindings.count) values bound to \(sql)")
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw error(code, sql) }
    }

    private func slotted(_ slot: Int, _ sql: String) throws -> (statement: OpaquePointer, parameterCount: Int32) {
        hasRunAnything = true
        if slot < slotStatements.count, let kept = slotStatements[slot] {
            precondition(kept.sql == sql, "SQLiteDatabase: slot \(slot) holds \(kept.sql), not \(sql)")
            return (kept.statement, kept.parameterCount)
        }
        let statement = try prepareOnce(sql)
        if slot >= slotStatements.count {
            slotStatements.append(contentsOf: repeatElement(nil, count: slot + 1 - slotStatements.count))
        }
        let parameterCount = sqlite3_bind_parameter_count(statement)
        slotStatements[slot] = (sql, statement, parameterCount)
        return (statement, parameterCount)
    }

    /// The whole database as the bytes of its file (`sqlite3_serialize`), for `restore(image:)`.
    /// - Throws: `SQLiteError` when SQLite cannot serialize it (out of memory).
    public func serialized() throws -> [UInt8] {
        var size: Int64 = 0
        guard let bytes = sqlite3_serialize(handle, "main", &size, 0) else {
            throw SQLiteError(code: SQLITE_NOMEM, message: "cannot serialize", sql: "serialize \(path)")
        }
        defer { sqlite3_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(size)))
    }

    /// Replaces this database's content with a copy of `image`, the bytes of a database file (`serialized()`).
    ///
    /// The pages are copied with SQLite's backup API from a scratch connection holding the image, so this database
    /// keeps its own kind of storage (an in-memory database stays one, with its own page cache). Its page size must
    /// be the image's, or still unset (a database with no tables yet); no transaction may be open.
    /// - Throws: `SQLiteError` when the image is not a database or the copy fails.
    public func restore(image: [UInt8]) throws {
        hasRunAnything = true
        var scratch: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let opened = sqlite3_open_v2(":memory:", &scratch, flags, nil)
        defer { sqlite3_close_v2(scratch) }
        guard opened == SQLITE_OK, let scratch else {
            throw SQLiteError(code: opened, message: "cannot open a scratch database", sql: "restore \(path)")
        }
        guard let buffer = sqlite3_malloc64(UInt64(image.count))?.assumingMemoryBound(to: UInt8.self) else {
            throw SQLiteError(code: SQLITE_NOMEM, message: "out of memory", sql: "restore \(path)")
        }
        buffer.initialize(from: image, count: image.count)
        // FREEONCLOSE: SQLite frees the buffer when the scratch connection closes, or at once if this fails.
        let count = Int64(image.count)
        let loaded = sqlite3_deserialize(scratch, "main", buffer, count, count,
                                         UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY))
        guard loaded == SQLITE_OK else {
            throw SQLiteError(code: loaded, message: String(cString: sqlite3_errmsg(scratch)), sql: "restore \(path)")
        }
        guard let backup = sqlite3_backup_init(handle, "main", scratch, "main") else {
            throw error(sqlite3_errcode(handle), "restore \(path)")
        }
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
            throw error(stepped == SQLITE_DONE ? finished : stepped, "restore \(path)")
        }
    }

    /// Whether no statement has run on this connection since it opened and nothing was restored into it. Every call
    /// into SQLite goes through this class, so a private in-memory database (`":memory:"`) in this state is empty: no
    /// tables, no rows, every header field at its default.
    public var isUntouched: Bool { !hasRunAnything }

    /// Rows inserted, updated or deleted through this connection since it opened (`sqlite3_total_changes64`).
    public var totalRowChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Binds `text` to parameter `position` (from 1) as TEXT of its UTF-8 length, copied by SQLite at once
    /// (`SQLITE_TRANSIENT`). With its length given, a NUL inside the text is kept, where a NUL-terminated copy ended
    /// the text there; and the bytes are read where the string holds them, where passing the `String` as a C string
    /// copied a short one (up to 15 bytes, kept inside the `String` itself) into a new array on every bind.
    /// - Returns: SQLite's result code.
    static func bindText(_ text: String, to statement: OpaquePointer, at position: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes -> Int32 in
            // An empty buffer may have no address, and a null pointer would bind NULL: the empty text is a literal.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(statement, position, "", 0, transientDestructor)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text64(statement, position, $0, UInt64(bytes.count), transientDestructor,
                                    UInt8(SQLITE_UTF8))
            }
        }
    }

    /// Column `column` of the current row as text, all of its bytes (`sqlite3_column_bytes`): a text holding a NUL
    /// comes back whole.
    static func columnText(_ statement: OpaquePointer, _ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// A crash of the app: an open transaction is rolled back, everything committed stays.
    public func crash() {
        if isInTransaction { try? execute("ROLLBACK") }
    }

    private func run(
        _ sql: String, _ bindings: [SQLiteValue], collect: Bool, keepsStatement: Bool
    ) throws -> [[SQLiteValue]] {
        hasRunAnything = true
        // A statement run once is finalized after its run, unless an earlier run kept it.
        let isKept = keepsStatement || statements[sql] != nil
        let statement = isKept ? try prepared(sql) : try prepareOnce(sql)
        defer {
            if isKept {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            } else {
                sqlite3_finalize(statement)
            }
        }
        for (index, value) in bindings.enumerated() {
            let position = Int32(index + 1)
            let code: Int32
            switch value {
            case .integer(let integer): code = sqlite3_bind_int64(statement, position, integer)
            case .text(let text): code = SQLiteDatabase.bindText(text, to: statement, at: position)
            case .null: code = sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw error(code, sql) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw error(code, sql) }
            guard collect else { continue }
            let count = sqlite3_column_count(statement)
            var row: [SQLiteValue] = []
            row.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_NULL: row.append(.null)
                default: row.append(.text(Self.columnText(statement, column)))
                }
            }
            rows.append(row)
        }
        return rows
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        let statement = try prepareOnce(sql)
        statements[sql] = statement
        return statement
    }

    private func prepareOnce(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql) }
        return statement
    }

    private func error(_ code: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// `SQLITE_TRANSIENT`: SQLite copies a bound value before the bind returns.
    private static var transientDestructor: sqlite3_destructor_type {
        unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }
}

/// The values of one run of a slotted statement (`SQLiteDatabase.execute(slot:sql:_:)`), bound in parameter order.
public struct SQLiteBindings {
    fileprivate let statement: OpaquePointer
    /// Parameters bound so far.
    fileprivate private(set) var count: Int32 = 0
    /// The first failing bind's result code, or `SQLITE_OK`.
    fileprivate private(set) var code = SQLITE_OK

    fileprivate init(statement: OpaquePointer) {
        self.statement = statement
    }

    /// Binds the next parameter to an INTEGER.
    public mutating func bind(_ value: Int64) {
        count += 1
        note(sqlite3_bind_int64(statement, count, value))
    }

    /// Binds the next parameter to a TEXT (copied by SQLite).
    public mutating func bind(_ value: String) {
        count += 1
        note(SQLiteDatabase.bindText(value, to: statement, at: count))
    }

    /// Binds the next parameter to an INTEGER, or NULL for nil.
    public mutating func bind(_ value: Int64?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Binds the next parameter to a TEXT, or NULL for nil.
    public mutating func bind(_ value: String?) {
        if let value { bind(value) } else { bindNull() }
    }

    /// Binds the next parameter to NULL.
    public mutating func bindNull() {
        count += 1
        note(sqlite3_bind_null(statement, count))
    }

    private mutating func note(_ result: Int32) {
        if result != SQLITE_OK && code == SQLITE_OK { code = result }
    }
}
