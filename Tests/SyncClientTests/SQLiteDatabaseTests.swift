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

    @Test("bad SQL throws an error naming the statement") func badSQL() throws {
        let database = try SQLiteDatabase()
        #expect(throws: SQLiteError.self) { try database.execute("SELEC nonsense") }
    }
}
