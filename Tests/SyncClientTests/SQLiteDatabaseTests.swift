import Testing
@testable import SyncClient

@Suite struct SQLiteDatabaseTests {
    @Test("a crash rolls back the open transaction and keeps what was committed") func crash() throws {
        let database = try SQLiteDatabase()
        try database.execute("CREATE TABLE t (x INTEGER)")
        try database.execute("INSERT INTO t VALUES (?)", [.integer(1)])
        try database.execute("BEGIN")
        try database.execute("INSERT INTO t VALUES (?)", [.integer(2)])
        #expect(database.isInTransaction)
        database.crash()
        #expect(try database.query("SELECT x FROM t") == [[.integer(1)]])
    }

    /// Session 41 turned SQLite's process-wide memory statistics off; the scale benchmark reads each connection's
    /// own figure instead.
    @Test("a connection's SQLite bytes count its pages, schema and statements, and grow with its rows")
    func memoryUsed() throws {
        let database = try SQLiteDatabase()
        try database.execute("CREATE TABLE t (x INTEGER, text TEXT)")
        let empty = database.memoryUsedBytes
        #expect(empty > 0)
        for row in 0..<2_000 {
            let text = String(repeating: "x", count: 100)
            try database.execute("INSERT INTO t VALUES (?, ?)", [.integer(Int64(row)), .text(text)])
        }
        #expect(database.memoryUsedBytes > empty + 100_000)
    }

    /// Texts were bound as C strings until session 43: a NUL ended the stored text there, so a message holding one
    /// came back cut short after an app restart.
    @Test("texts are stored whole: empty, short, long, non-ASCII, and with a NUL inside, bound both ways")
    func textsWhole() throws {
        let database = try SQLiteDatabase()
        try database.execute("CREATE TABLE t (id INTEGER, x TEXT)")
        let texts = ["", "m1", "a\u{0}b", String(repeating: "long ", count: 40) + "\u{0}end", "привет 👋", "\u{0}"]
        for (index, text) in texts.enumerated() {
            try database.execute("INSERT INTO t VALUES (?, ?)", [.integer(Int64(index)), .text(text)])
            try database.execute(slot: 0, sql: "INSERT INTO t VALUES (?, ?)") {
                $0.bind(Int64(100 + index))
                $0.bind(text)
            }
        }
        let rows = try database.query("SELECT id, x, length(CAST(x AS BLOB)) FROM t ORDER BY id")
        #expect(rows.map { $0[1] } == (texts + texts).map { .text($0) })
        #expect(rows.map { $0[2] } == (texts + texts).map { .integer(Int64($0.utf8.count)) })
        #expect(try database.query("SELECT count(*) FROM t WHERE x IS NULL") == [[.integer(0)]])
    }

    @Test("bad SQL throws an error naming the statement") func badSQL() throws {
        let database = try SQLiteDatabase()
        #expect(throws: SQLiteError.self) { try database.execute("SELEC nonsense") }
    }
}
