/// The client's database schema, and opening a database with it: a fresh file gets the schema, a file written by an
/// earlier client is migrated, anything else is refused with a `ClientDatabaseError`.
///
/// A client database carries two stamps in its SQLite header: `application_id` (`applicationId`, so another
/// application's file is told apart) and `user_version` (the schema version: how many `migrations` ran).
public enum ClientDatabase {
    /// The `application_id` of a SyncSim client database: the bytes "SynC".
    public static let applicationId: Int64 = 0x5379_6E43

    /// One table, as created.
    struct Table {
        var name: String
        var columns: String
        /// Whether the table has no rowid (`WITHOUT ROWID`): its rows live in its primary key's b-tree.
        var isWithoutRowid = false
        /// The statement that creates it, which is also the `sql` SQLite keeps for it in `sqlite_master`.
        var createStatement: String {
            "CREATE TABLE \(name) (\(columns))" + (isWithoutRowid ? " WITHOUT ROWID" : "")
        }
    }

    /// The columns of the `messages` table (its first two forms).
    private static let messageColumns = "chatId INTEGER NOT NULL, id INTEGER NOT NULL, time INTEGER NOT NULL, "
        + "sender INTEGER NOT NULL, text TEXT NOT NULL, cid INTEGER, photoToken TEXT, PRIMARY KEY (chatId, id)"

    /// What the server says of a message's first photo beside its token (`Attach`): id, URL, width and height.
    private static let photoColumns = "photoId INTEGER, photoBaseUrl TEXT, photoWidth INTEGER, photoHeight INTEGER"

    /// Migration `i` takes `user_version` `i` to `i + 1`; each adds tables, or gives a table a new form (a table
    /// named again), whose rows it keeps.
    static let migrations: [[Table]] = [
        [
            Table(name: "messages", columns: messageColumns),
            Table(name: "chunks", columns: "chatId INTEGER NOT NULL, lower INTEGER NOT NULL, upper INTEGER NOT NULL, "
                + "isStartOfHistory INTEGER NOT NULL, PRIMARY KEY (chatId, lower)"),
            Table(name: "chats", columns: "id INTEGER PRIMARY KEY, members TEXT NOT NULL, modified INTEGER NOT NULL, "
                + "lastMessageId INTEGER"),
            Table(name: "tasks", columns: "id INTEGER PRIMARY KEY, kind TEXT NOT NULL, state TEXT NOT NULL, "
                + "chatId INTEGER NOT NULL, text TEXT NOT NULL, sizeBytes INTEGER NOT NULL, cid INTEGER NOT NULL, "
                + "photoToken TEXT, dependsOn INTEGER, attempts INTEGER NOT NULL, nextAttemptAt INTEGER NOT NULL, "
                + "enqueuedAt INTEGER NOT NULL, lastError TEXT, messageId INTEGER"),
            Table(name: "sync", columns: "key TEXT PRIMARY KEY, value INTEGER NOT NULL"),
        ],
        [
            Table(name: "contacts", columns: "id INTEGER PRIMARY KEY, name TEXT NOT NULL"),
        ],
        [
            // Edits and deletes (C7): a changed message's status and version, and removals of uncached messages.
            Table(name: "messageChanges", columns: "chatId INTEGER NOT NULL, id INTEGER NOT NULL, "
                + "status TEXT NOT NULL, updateTime INTEGER NOT NULL, PRIMARY KEY (chatId, id)"),
            Table(name: "tombstones", columns: "chatId INTEGER NOT NULL, id INTEGER NOT NULL, "
                + "updateTime INTEGER NOT NULL, PRIMARY KEY (chatId, id)"),
        ],
        [
            // Edited versions of messages not cached yet (C7), kept across app restarts as tombstones are (found by
            // `syncsim explore`: an edit pushed before its message was lost with the app, and a lagging page then
            // served the old text for good).
            Table(name: "pendingEdits", columns: "chatId INTEGER NOT NULL, id INTEGER NOT NULL, time INTEGER NOT NULL, "
                + "sender INTEGER NOT NULL, text TEXT NOT NULL, cid INTEGER, photoToken TEXT, status TEXT NOT NULL, "
                + "updateTime INTEGER NOT NULL, PRIMARY KEY (chatId, id)"),
        ],
        [
            // Every message received is an insert: with a rowid, into the table's b-tree and into its primary key's
            // index, two b-trees per push; without one, into the primary key's b-tree alone.
            Table(name: "messages", columns: messageColumns, isWithoutRowid: true),
        ],
        [
            // A photo as readers get it (`_type`, `photoId`, `baseUrl`, `width`, `height`): a message reloaded after
            // a restart equals the server's.
            Table(name: "messages", columns: "chatId INTEGER NOT NULL, id INTEGER NOT NULL, time INTEGER NOT NULL, "
                + "sender INTEGER NOT NULL, text TEXT NOT NULL, cid INTEGER, photoToken TEXT, \(photoColumns), "
                + "PRIMARY KEY (chatId, id)", isWithoutRowid: true),
            Table(name: "pendingEdits", columns: "chatId INTEGER NOT NULL, id INTEGER NOT NULL, time INTEGER NOT NULL, "
                + "sender INTEGER NOT NULL, text TEXT NOT NULL, cid INTEGER, photoToken TEXT, status TEXT NOT NULL, "
                + "updateTime INTEGER NOT NULL, \(photoColumns), PRIMARY KEY (chatId, id)"),
        ],
        [
            // Every attachment of a message that has more than one, or one that is no photo (an album of photos
            // kept only its first before): `attachesData`, the MessagePack of the `attaches` array in hex.
            Table(name: "messages", columns: "chatId INTEGER NOT NULL, id INTEGER NOT NULL, time INTEGER NOT NULL, "
                + "sender INTEGER NOT NULL, text TEXT NOT NULL, cid INTEGER, photoToken TEXT, \(photoColumns), "
                + "attachesData TEXT, PRIMARY KEY (chatId, id)", isWithoutRowid: true),
            Table(name: "pendingEdits", columns: "chatId INTEGER NOT NULL, id INTEGER NOT NULL, time INTEGER NOT NULL, "
                + "sender INTEGER NOT NULL, text TEXT NOT NULL, cid INTEGER, photoToken TEXT, status TEXT NOT NULL, "
                + "updateTime INTEGER NOT NULL, \(photoColumns), attachesData TEXT, PRIMARY KEY (chatId, id)"),
        ],
    ]

    /// Each table of the newest schema, in its newest form, in the order of the migration that created it.
    static var tables: [Table] {
        var newest: [String: Table] = [:]
        for table in migrations.joined() { newest[table.name] = table }
        var seen: Set<String> = []
        return migrations.joined().compactMap { seen.insert($0.name).inserted ? newest[$0.name] : nil }
    }

    /// The page size of a database this client creates, in bytes (see `prepare`).
    static let pageSizeBytes = 512

    /// The schema version this client writes (`user_version`).
    public static var schemaVersion: Int { migrations.count }

    /// Opens (creating if needed) a client database and makes sure it holds the client schema.
    /// - Parameter path: `":memory:"`, a file path, or a `file:` URI.
    /// - Returns: the database, ready for `ReferenceClient`.
    /// Unlike `prepare`, it also reads every row once: a value of the wrong type, or a task kind or state this
    /// client does not know, is refused here rather than stopping the engine that loads it.
    /// - Throws: `ClientDatabaseError` when the file cannot be opened, is not SQLite, belongs to another
    ///   application, holds tables other than the client schema, or a value the schema does not allow.
    public static func open(path: String = ":memory:") throws -> SQLiteDatabase {
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path)
        } catch {
            throw ClientDatabaseError.cannotOpen(path, "\(error)")
        }
        try prepare(database, checksValues: true)
        return database
    }

    /// Checks a database's stamps and tables, creating or migrating the schema when they allow it.
    ///
    /// Nothing is written unless the checks pass; creating or migrating is one transaction.
    /// - Parameter database: an open database.
    /// - Throws: `ClientDatabaseError` (see `open(path:)`).
    public static func prepare(_ database: SQLiteDatabase) throws {
        try prepare(database, checksValues: false)
    }

    private static func prepare(_ database: SQLiteDatabase, checksValues: Bool) throws {
        let path = database.path
        if path == ":memory:" && database.isUntouched {
            // A private in-memory database nothing ran on is empty: the checks below would read both stamps as 0 and
            // no table, and find no value to refuse (three statements parsed per new client for that).
            try copyEmpty(into: database)
            return
        }
        let applicationId: Int64
        let version: Int64
        let tables: [(name: String, sql: String)]
        do {
            applicationId = try database.query("PRAGMA application_id", keepsStatement: false)
                .first?.first?.integer ?? 0
            version = try database.query("PRAGMA user_version", keepsStatement: false).first?.first?.integer ?? 0
            tables = try database.query("""
                SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                """, keepsStatement: false).map { ($0[0].text ?? "", $0[1].text ?? "") }
        } catch let error as SQLiteError where error.code == sqliteNotADatabase {
            throw ClientDatabaseError.notADatabase(path, error.message)
        } catch {
            throw ClientDatabaseError.sqlite(path, "\(error)")
        }
        if applicationId == 0 && version == 0 {
            guard tables.isEmpty else { throw ClientDatabaseError.foreignTables(path, tables.map(\.name)) }
        } else if applicationId != Self.applicationId {
            throw ClientDatabaseError.otherApplication(path, applicationId: applicationId)
        } else if version < 0 || version > schemaVersion {
            throw ClientDatabaseError.unknownVersion(path, found: version, newest: schemaVersion)
        }
        try checkTables(tables, version: Int(version), path: path)
        if checksValues {
            do {
                try checkValues(database)
            } catch let error as ClientDatabaseError {
                throw error
            } catch {
                throw ClientDatabaseError.sqlite(path, "\(error)")
            }
        }
        guard version < schemaVersion else { return }
        if version == 0 && path == ":memory:" {
            try copyEmpty(into: database)
            return
        }
        try create(database, from: Int(version))
    }

    /// Gives a new private in-memory database (every client of a simulated world) a copy of a database created once
    /// per process by `create`: the same pages. Creating the schema parsed and ran nine CREATE TABLEs per client (with
    /// SQLite's nested updates of `sqlite_master`), about 2 million instructions, more than a client's first hundred
    /// events; the copy is a few pages.
    private static func copyEmpty(into database: SQLiteDatabase) throws {
        do {
            try database.restore(image: try emptyImage.get())
        } catch {
            throw ClientDatabaseError.sqlite(database.path, "\(error)")
        }
    }

    /// The bytes of a new in-memory database prepared by `create` (`SQLiteDatabase.serialized()`), made on first use.
    private static let emptyImage = Result<[UInt8], any Error>(catching: {
        let database = try SQLiteDatabase()
        try create(database, from: 0)
        return try database.serialized()
    })

    /// Creates the tables of the migrations from `version` on (0: a fresh database) and stamps the database.
    private static func create(_ database: SQLiteDatabase, from version: Int) throws {
        let path = database.path
        do {
            // A fresh database gets 512-byte pages, SQLite's smallest (its default is 4 KiB): a client holds a few
            // hundred small rows in fifteen b-trees, mostly one page each, and with thousands of in-memory
            // databases per run their pages were most of an idle client's memory (1 KiB pages: 8 KB more per
            // client, no faster). Ignored by SQLite once a database has tables.
            if version == 0 { try database.execute("PRAGMA page_size = \(Self.pageSizeBytes)", keepsStatement: false) }
            // Statements run once are not kept (see `SQLiteDatabase.execute`): they were most of an idle client's
            // SQLite memory.
            try database.execute("BEGIN IMMEDIATE", keepsStatement: false)
            let pending = Array(migrations[version...].joined())
            var existing = Set(migrations[..<version].joined().map(\.name))
            for (index, table) in pending.enumerated() {
                // A table given a newer form by a later migration is made in that form only.
                if pending[(index + 1)...].contains(where: { $0.name == table.name }) { continue }
                if existing.contains(table.name) {
                    // A new form of an existing table: a new table under its name, with its rows. (Renaming the new
                    // table instead would change the statement SQLite keeps for it, which `checkTables` compares.)
                    let old = "\(table.name)_old"
                    try database.execute("ALTER TABLE \(table.name) RENAME TO \(old)", keepsStatement: false)
                    try database.execute(table.createStatement, keepsStatement: false)
                    // Its rows keep their columns; columns the new form adds start NULL.
                    let columns = try database.query("SELECT name FROM pragma_table_info(?)", [.text(old)],
                                                     keepsStatement: false).compactMap { $0[0].text }
                        .joined(separator: ", ")
                    try database.execute("INSERT INTO \(table.name) (\(columns)) SELECT \(columns) FROM \(old)",
                                         keepsStatement: false)
                    try database.execute("DROP TABLE \(old)", keepsStatement: false)
                } else {
                    try database.execute(table.createStatement, keepsStatement: false)
                    existing.insert(table.name)
                }
            }
            try database.execute("PRAGMA application_id = \(Self.applicationId)", keepsStatement: false)
            try database.execute("PRAGMA user_version = \(schemaVersion)", keepsStatement: false)
            try database.execute("COMMIT", keepsStatement: false)
        } catch {
            database.crash()
            throw ClientDatabaseError.sqlite(path, "\(error)")
        }
    }

    /// Values the loaders rely on: each column holds its declared type (or NULL where allowed), and task kinds
    /// and states are ones this client knows. One query per column, each stopping at the first bad row.
    private static func checkValues(_ database: SQLiteDatabase) throws {
        let path = database.path
        let known: [String: [String]] = [
            "tasks.kind": TaskRecord.Kind.allCases.map(\.rawValue),
            "tasks.state": TaskRecord.State.allCases.map(\.rawValue),
        ]
        for table in tables {
            let columns = try database.query(
                "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", [.text(table.name)],
                keepsStatement: false)
            // A row is named by its rowid, or in a table without one by its primary key.
            let keyColumns = columns.filter { ($0[3].integer ?? 0) > 0 }
                .sorted { ($0[3].integer ?? 0) < ($1[3].integer ?? 0) }.compactMap { $0[0].text }
            let row = table.isWithoutRowid
                ? "'(' || " + keyColumns.map { "'\($0) ' || quote(\($0))" }.joined(separator: " || ', ' || ")
                    + " || ')'"
                : "rowid"
            func named(_ value: SQLiteValue) -> String { value.integer.map(String.init) ?? value.text ?? "?" }
            let table = table.name
            for column in columns {
                guard let name = column[0].text, let type = column[1].text else { continue }
                var types = [type == "INTEGER" ? "integer" : "text"]
                // Key columns are never NULL in a table we wrote, whatever SQLite would allow.
                if column[2].integer == 0 && column[3].integer == 0 { types.append("null") }
                let allowed = types.map { "'\($0)'" }.joined(separator: ", ")
                let bad = try database.query(
                    "SELECT \(row), typeof(\(name)), quote(\(name)) FROM \(table) WHERE typeof(\(name)) NOT IN "
                        + "(\(allowed)) LIMIT 1", keepsStatement: false)
                if let row = bad.first {
                    throw ClientDatabaseError.badValue(
                        path, table: table, row: named(row[0]), column: name,
                        found: "\(row[2].text ?? "?") (\(row[1].text ?? "?"))",
                        expected: types.joined(separator: " or "))
                }
                guard let values = known["\(table).\(name)"] else { continue }
                let list = values.map { "'\($0)'" }.joined(separator: ", ")
                let unknown = try database.query(
                    "SELECT \(row), quote(\(name)) FROM \(table) WHERE \(name) NOT IN (\(list)) LIMIT 1",
                    keepsStatement: false)
                if let row = unknown.first {
                    throw ClientDatabaseError.badValue(
                        path, table: table, row: named(row[0]), column: name, found: row[1].text ?? "?",
                        expected: "one of " + values.joined(separator: ", "))
                }
            }
        }
    }

    /// SQLite's `SQLITE_NOTADB`: the file is not a database.
    private static let sqliteNotADatabase: Int32 = 26

    /// The tables must be exactly those of schema `version`, each as created.
    private static func checkTables(_ tables: [(name: String, sql: String)], version: Int, path: String) throws {
        var expected: [String: String] = [:]
        for table in migrations[..<version].joined() { expected[table.name] = table.createStatement }
        for (name, sql) in tables {
            guard let statement = expected.removeValue(forKey: name) else {
                throw ClientDatabaseError.extraTable(path, name)
            }
            guard sql == statement else {
                throw ClientDatabaseError.differentTable(path, name, found: sql, expected: statement)
            }
        }
        if let (name, statement) = expected.min(by: { $0.key < $1.key }) {
            throw ClientDatabaseError.missingTable(path, name, expected: statement)
        }
    }
}
