import Foundation
import SimCore
import Testing
@testable import SyncClient

/// A fresh temporary file path, removed by `body`'s end.
private func withTemporaryPath(_ name: String, _ body: (String) throws -> Void) rethrows {
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("syncsim-\(name)-\(ProcessInfo.processInfo.processIdentifier).sqlite").path
    try? FileManager.default.removeItem(atPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    try body(path)
}

/// What `ClientDatabase.open(path:)` throws, as its description (nil when it does not throw).
private func openError(_ path: String) -> String? {
    do {
        _ = try ClientDatabase.open(path: path)
        return nil
    } catch {
        #expect(error is ClientDatabaseError)
        return "\(error)"
    }
}

@Suite struct ClientDatabaseTests {
    @Test("a new file gets the client schema and both stamps, and opens again") func freshFile() throws {
        try withTemporaryPath("fresh") { path in
            let database = try ClientDatabase.open(path: path)
            #expect(try database.query("PRAGMA application_id") == [[.integer(ClientDatabase.applicationId)]])
            #expect(try database.query("PRAGMA user_version") == [[.integer(Int64(ClientDatabase.schemaVersion))]])
            var client = ReferenceClient(parameters: ClientParameters(token: "t"), database: database,
                                         generator: SeededGenerator(seed: 1))
            _ = client.handle(.start, now: .start)
            _ = client.handle(.user(.sendText(chatId: 5, text: "kept")), now: .start)
            let reopened = try ClientDatabase.open(path: path)
            #expect(try reopened.query("SELECT text FROM tasks") == [[.text("kept")]])
        }
    }

    @Test("a new in-memory database, copied from a template, holds what creating the schema writes") func template() throws {
        let copied = try SQLiteDatabase()
        try ClientDatabase.prepare(copied)
        // A shared-cache URI is in memory too, but not ":memory:": its schema is created statement by statement.
        let created = try SQLiteDatabase(path: "file:client-template-test?mode=memory&cache=shared")
        try ClientDatabase.prepare(created)
        // One a statement ran on first is checked (stamps, tables) before it gets the copy.
        let checked = try SQLiteDatabase()
        try checked.execute("SELECT 1")
        #expect(!checked.isUntouched)
        try ClientDatabase.prepare(checked)
        let schema = "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY name"
        for other in [created, checked] {
            for pragma in ["page_size", "application_id", "user_version", "journal_mode", "page_count"] {
                #expect(try copied.query("PRAGMA \(pragma)") == other.query("PRAGMA \(pragma)"), "\(pragma)")
            }
            #expect(try copied.query(schema) == other.query(schema))
        }
        #expect(try copied.query(schema).filter { $0[0] == .text("table") }.count
                    == ClientDatabase.tables.count)
        #expect(copied.totalRowChanges == 0)
        // The copy is an ordinary database: the engine writes, a restarted engine reads back.
        var client = ReferenceClient(parameters: ClientParameters(token: "t"), database: copied,
                                     generator: SeededGenerator(seed: 1))
        _ = client.handle(.start, now: .start)
        _ = client.handle(.user(.sendText(chatId: 5, text: "kept")), now: .start)
        var restarted = ReferenceClient(parameters: ClientParameters(token: "t"), database: copied,
                                        generator: SeededGenerator(seed: 2))
        _ = restarted.handle(.start, now: .start)
        #expect(restarted.view.tasks.map(\.text) == ["kept"])
    }

    @Test("an older database is migrated: it gains the later tables, its messages keep their rows in the newest form",
          arguments: [1, 4, 5, 6])
    func migration(version: Int) throws {
        try withTemporaryPath("migrate-\(version)") { path in
            let old = try SQLiteDatabase(path: path)
            var tables: [String: ClientDatabase.Table] = [:]
            for table in ClientDatabase.migrations[..<version].joined() { tables[table.name] = table }
            for name in tables.keys.sorted() { try old.execute(tables[name]!.createStatement) }
            try old.execute("INSERT INTO messages (chatId, id, time, sender, text, cid, photoToken) "
                            + "VALUES (5, 7, 70, 1, 'kept', NULL, 'photo-3')")
            try old.execute("PRAGMA application_id = \(ClientDatabase.applicationId)")
            try old.execute("PRAGMA user_version = \(version)")
            let database = try ClientDatabase.open(path: path)
            #expect(try database.query("PRAGMA user_version") == [[.integer(Int64(ClientDatabase.schemaVersion))]])
            #expect(try database.query("SELECT count(*) FROM contacts") == [[.integer(0)]])
            // Version 6's photo columns and version 7's attachesData start NULL.
            #expect(try database.query(
                "SELECT chatId, id, text, photoToken, photoId, photoBaseUrl, attachesData FROM messages")
                        == [[.integer(5), .integer(7), .text("kept"), .text("photo-3"), .null, .null, .null]])
            let schema = "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name"
            #expect(try database.query(schema) == ClientDatabase.tables.sorted { $0.name < $1.name }
                .map { [.text($0.name), .text($0.createStatement)] })
            // Migrated, it opens again as a database of the newest schema.
            #expect(throws: Never.self) { try ClientDatabase.open(path: path) }
        }
    }

    @Test("a bad value in a table without rowid names its row by primary key") func badValueByKey() throws {
        try withTemporaryPath("values-key") { path in
            let database = try ClientDatabase.open(path: path)
            try database.execute("INSERT INTO messages (chatId, id, time, sender, text) VALUES (5, 7, 70, 'someone', 'text')")
            let message = try #require(openError(path))
            #expect(message.hasPrefix("client database \(path): table messages row (chatId 5, id 7): column sender "
                                      + "holds 'someone' (text), expected integer"), "\(message)")
        }
    }

    @Test("a file with another application's tables is refused, named, and left as it was")
    func foreignLayout() throws {
        try withTemporaryPath("foreign") { path in
            let other = try SQLiteDatabase(path: path)
            try other.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
            let message = try #require(openError(path))
            #expect(message == "client database \(path): holds tables users but no SyncSim client stamp, "
                + "expected an empty file or a SyncSim client database")
            #expect(try other.query("SELECT name FROM sqlite_master") == [[.text("users")]])
        }
    }

    @Test("a client file whose table layout differs is refused, naming the table and its expected form")
    func clashingTable() throws {
        try withTemporaryPath("clash") { path in
            _ = try ClientDatabase.open(path: path)
            let database = try SQLiteDatabase(path: path)
            try database.execute("DROP TABLE tasks")
            try database.execute("CREATE TABLE tasks (id INTEGER PRIMARY KEY)")
            let message = try #require(openError(path))
            #expect(message.hasPrefix("client database \(path): table tasks is \"CREATE TABLE tasks (id INTEGER "
                + "PRIMARY KEY)\", expected \"CREATE TABLE tasks (id INTEGER PRIMARY KEY, kind TEXT NOT NULL"))
        }
    }

    @Test("stamps of another application or of an unknown schema version are refused", arguments: [
        ("PRAGMA application_id = 42", "application_id 42 belongs to another application"),
        ("PRAGMA user_version = 99", "schema version (user_version) 99 is not one this client knows (0 to "),
        ("PRAGMA user_version = -1", "schema version (user_version) -1 is not one this client knows (0 to "),
    ])
    func stamps(pragma: String, expected: String) throws {
        try withTemporaryPath("stamps-\(pragma.filter { $0.isLetter || $0.isNumber || $0 == "-" })") { path in
            _ = try ClientDatabase.open(path: path)
            try SQLiteDatabase(path: path).execute(pragma)
            let message = try #require(openError(path))
            #expect(message.hasPrefix("client database \(path): \(expected)"), "\(message)")
        }
    }

    @Test("a value the loaders cannot read is refused, naming table, row, column and what was expected", arguments: [
        ("UPDATE tasks SET kind = 'bogus'",
         "table tasks row 1: column kind holds 'bogus', expected one of send-text, "),
        ("UPDATE tasks SET attempts = 'many'",
         "table tasks row 1: column attempts holds 'many' (text), expected integer"),
        ("UPDATE tasks SET lastError = x'00ff'",
         "table tasks row 1: column lastError holds X'00FF' (blob), expected text or null"),
    ])
    func badValues(statement: String, expected: String) throws {
        try withTemporaryPath("values-\(statement.filter(\.isLetter))") { path in
            var client = ReferenceClient(parameters: ClientParameters(token: "t"),
                                         database: try ClientDatabase.open(path: path),
                                         generator: SeededGenerator(seed: 1))
            _ = client.handle(.start, now: .start)
            _ = client.handle(.user(.sendText(chatId: 5, text: "queued")), now: .start)
            try SQLiteDatabase(path: path).execute(statement)
            let message = try #require(openError(path))
            #expect(message.hasPrefix("client database \(path): \(expected)"), "\(message)")
        }
    }

    @Test("a garbage file is refused as not an SQLite database") func garbageFile() throws {
        try withTemporaryPath("garbage") { path in
            var generator = SeededGenerator(seed: 3)
            let bytes = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let message = try #require(openError(path))
            #expect(message.hasPrefix("client database \(path): not an SQLite database"), "\(message)")
        }
    }

    @Test("a path that cannot be opened is refused with the path") func unopenable() {
        let path = "/nonexistent-syncsim-directory/client.sqlite"
        let message = openError(path)
        #expect(message?.hasPrefix("client database \(path): cannot open") == true, "\(message ?? "no error")")
    }
}
