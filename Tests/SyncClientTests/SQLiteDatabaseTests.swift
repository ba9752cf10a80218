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

    @Test("bad SQL throws an error naming the statement") func badSQL() throws {
        let database = try SQLiteDatabase()
        #expect(throws: SQLiteError.self) { try database.execute("SELEC nonsense") }
    }
}
