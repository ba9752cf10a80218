import SimCore
import SyncProtocol

/// The client's tables (messages, chunks, chats, contacts, tasks, sync state) over one `SQLiteDatabase`.
///
/// Every write of one engine event happens inside one transaction (`begin`/`commit`), so a crash loses at most
/// the event in progress. The transaction is opened by the event's first write: an event that writes nothing (a
/// ping, a timer that finds nothing to do) costs no BEGIN and COMMIT. The database must hold the client schema
/// (`ClientDatabase.open(path:)` checks a user's file and throws); after that, a failing statement is a programmer
/// error in our own schema, so it stops.
struct ClientStore {
    let database: SQLiteDatabase
    /// Whether `begin()` was called and no write has opened the transaction yet (shared by copies of the store,
    /// as the database is).
    private let transaction = PendingTransaction()

    /// The chunk and tombstone rows as last written or loaded, by chat (shared by copies of the store, as the
    /// database is): `replaceChunks` and `replaceTombstones` write only the rows that changed.
    private let written = WrittenRows()

    final class PendingTransaction {
        var isRequested = false
    }

    final class WrittenRows {
        var chunks: [Int64: [Chunk]] = [:]
        var tombstones: [Int64: [Int64: Int64]] = [:]
    }

    init(database: SQLiteDatabase) {
        self.database = database
        do {
            try ClientDatabase.prepare(database)
        } catch {
            preconditionFailure("\(error); open a user's database file with ClientDatabase.open(path:), which throws")
        }
    }

    /// Starts the event's transaction; BEGIN IMMEDIATE goes out with the first write.
    func begin() {
        precondition(!transaction.isRequested && !database.isInTransaction, "client store: transaction already open")
        transaction.isRequested = true
    }

    /// Ends the event's transaction: COMMIT when a write opened it, nothing otherwise.
    func commit() {
        if transaction.isRequested {
            transaction.isRequested = false
        } else {
            run("COMMIT")
        }
    }

    func save(_ message: ChatMessage, chatId: Int64) {
        let token = message.attaches?.first { $0.type == "PHOTO" }?.photoToken
        run("INSERT OR REPLACE INTO messages VALUES (?, ?, ?, ?, ?, ?, ?)", [
            .integer(chatId), .integer(message.id), .integer(message.time), .integer(message.sender),
            .text(message.text), message.cid.map(SQLiteValue.integer) ?? .null, token.map(SQLiteValue.text) ?? .null,
        ])
        if let status = message.status {
            run("INSERT OR REPLACE INTO messageChanges VALUES (?, ?, ?, ?)", [
                .integer(chatId), .integer(message.id), .text(status), .integer(message.updateTime ?? 0),
            ])
        }
    }

    /// Makes the chat's tombstone rows `tombstones`. Rows known to be stored already are left alone: after every
    /// push the engine re-states the chat's tombstones, and rewriting them all was statements for nothing.
    func replaceTombstones(_ tombstones: [Int64: Int64], chatId: Int64) {
        guard let previous = written.tombstones[chatId] else {
            run("DELETE FROM tombstones WHERE chatId = ?", [.integer(chatId)], keepsStatement: false)
            for id in tombstones.keys.sorted() {
                run("INSERT INTO tombstones VALUES (?, ?, ?)", [
                    .integer(chatId), .integer(id), .integer(tombstones[id]!),
                ])
            }
            written.tombstones[chatId] = tombstones
            return
        }
        guard previous != tombstones else { return }
        for id in previous.keys.sorted() where tombstones[id] == nil {
            run("DELETE FROM tombstones WHERE chatId = ? AND id = ?", [.integer(chatId), .integer(id)])
        }
        for id in tombstones.keys.sorted() where previous[id] != tombstones[id] {
            run("INSERT OR REPLACE INTO tombstones VALUES (?, ?, ?)", [
                .integer(chatId), .integer(id), .integer(tombstones[id]!),
            ])
        }
        written.tombstones[chatId] = tombstones
    }

    func replacePendingEdits(_ edits: [Int64: ChatMessage], chatId: Int64) {
        run("DELETE FROM pendingEdits WHERE chatId = ?", [.integer(chatId)])
        for id in edits.keys.sorted() {
            let message = edits[id]!
            let token = message.attaches?.first { $0.type == "PHOTO" }?.photoToken
            run("INSERT INTO pendingEdits VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", [
                .integer(chatId), .integer(message.id), .integer(message.time), .integer(message.sender),
                .text(message.text), message.cid.map(SQLiteValue.integer) ?? .null,
                token.map(SQLiteValue.text) ?? .null, .text(message.status ?? ChatMessage.edited),
                .integer(message.updateTime ?? 0),
            ])
        }
    }

    /// Makes the chat's chunk rows `chunks` (keyed by chat and lower bound). Rows known to be stored already are
    /// left alone: a push received usually moves one chunk's upper bound, one row, where the whole list was deleted
    /// and inserted again.
    func replaceChunks(_ chunks: [Chunk], chatId: Int64) {
        guard let previous = written.chunks[chatId] else {
            run("DELETE FROM chunks WHERE chatId = ?", [.integer(chatId)], keepsStatement: false)
            for chunk in chunks { insert(chunk, chatId: chatId) }
            written.chunks[chatId] = chunks
            return
        }
        guard previous != chunks else { return }
        // Rows before the first difference stay; of the rest (usually one or two chunks), rows no longer wanted go
        // and new ones come. The rows are unique (the primary key), so nothing in the rest repeats the prefix.
        var same = 0
        while same < previous.count && same < chunks.count && previous[same] == chunks[same] { same += 1 }
        let old = previous[same...]
        let new = chunks[same...]
        for chunk in old where !new.contains(chunk) {
            run("DELETE FROM chunks WHERE chatId = ? AND lower = ?", [.integer(chatId), .integer(chunk.lower)])
        }
        for chunk in new where !old.contains(chunk) { insert(chunk, chatId: chatId) }
        written.chunks[chatId] = chunks
    }

    /// A plain INSERT, as before: two chunks with one lower bound still stop the engine on the primary key.
    private func insert(_ chunk: Chunk, chatId: Int64) {
        run("INSERT INTO chunks VALUES (?, ?, ?, ?)", [
            .integer(chatId), .integer(chunk.lower), .integer(chunk.upper), .integer(chunk.isStartOfHistory ? 1 : 0),
        ])
    }

    func save(_ summary: ChatSummary) {
        run("INSERT OR REPLACE INTO chats VALUES (?, ?, ?, ?)", [
            .integer(summary.id), .text(summary.members.map(String.init).joined(separator: ",")),
            .integer(summary.modified), summary.lastMessage.map { .integer($0.id) } ?? .null,
        ])
    }

    func save(_ contact: Contact) {
        run("INSERT OR REPLACE INTO contacts VALUES (?, ?)", [.integer(contact.id), .text(contact.name)])
    }

    func save(_ task: TaskRecord) {
        run("INSERT OR REPLACE INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [
            .integer(task.id), .text(task.kind.rawValue), .text(task.state.rawValue), .integer(task.chatId),
            .text(task.text), .integer(Int64(task.sizeBytes)), .integer(task.cid),
            task.photoToken.map(SQLiteValue.text) ?? .null, task.dependsOn.map(SQLiteValue.integer) ?? .null,
            .integer(Int64(task.attempts)), .integer(task.nextAttemptAt.nanosecondsSinceStart),
            .integer(task.enqueuedAt.nanosecondsSinceStart), task.lastError.map(SQLiteValue.text) ?? .null,
            task.messageId.map(SQLiteValue.integer) ?? .null,
        ])
    }

    func setSync(_ key: String, _ value: Int64) {
        run("INSERT OR REPLACE INTO sync VALUES (?, ?)", [.text(key), .integer(value)])
    }

    func sync(_ key: String) -> Int64? {
        rows("SELECT value FROM sync WHERE key = ?", [.text(key)]).first?[0].integer
    }

    /// Every sync entry whose key starts with `prefix`, ascending by key.
    func syncEntries(prefix: String) -> [(key: String, value: Int64)] {
        rows("SELECT key, value FROM sync WHERE substr(key, 1, ?) = ? ORDER BY key",
             [.integer(Int64(prefix.utf8.count)), .text(prefix)])
            .compactMap { row in row[0].text.flatMap { key in row[1].integer.map { (key, $0) } } }
    }

    /// Every chat's history cache, rebuilt from its rows.
    func loadHistories() -> [Int64: ChunkStore] {
        var messages: [Int64: [ChatMessage]] = [:]
        let sql = """
            SELECT m.chatId, m.id, m.time, m.sender, m.text, m.cid, m.photoToken, c.status, c.updateTime
              FROM messages m LEFT JOIN messageChanges c ON c.chatId = m.chatId AND c.id = m.id
             ORDER BY m.chatId, m.id
            """
        for row in rows(sql) {
            let attaches = row[6].text.map { [Attach.photo(token: $0)] }
            let message = ChatMessage(id: row[1].integer!, time: row[2].integer!, sender: row[3].integer!,
                                      text: row[4].text!, cid: row[5].integer, attaches: attaches,
                                      status: row[7].text, updateTime: row[8].integer)
            messages[row[0].integer!, default: []].append(message)
        }
        var tombstones: [Int64: [Int64: Int64]] = [:]
        for row in rows("SELECT chatId, id, updateTime FROM tombstones") {
            tombstones[row[0].integer!, default: [:]][row[1].integer!] = row[2].integer!
        }
        var pendingEdits: [Int64: [Int64: ChatMessage]] = [:]
        let pendingSQL = "SELECT chatId, id, time, sender, text, cid, photoToken, status, updateTime FROM pendingEdits"
        for row in rows(pendingSQL) {
            let attaches = row[6].text.map { [Attach.photo(token: $0)] }
            let message = ChatMessage(id: row[1].integer!, time: row[2].integer!, sender: row[3].integer!,
                                      text: row[4].text!, cid: row[5].integer, attaches: attaches,
                                      status: row[7].text, updateTime: row[8].integer)
            pendingEdits[row[0].integer!, default: [:]][message.id] = message
        }
        var chunks: [Int64: [Chunk]] = [:]
        for row in rows("SELECT chatId, lower, upper, isStartOfHistory FROM chunks ORDER BY chatId, lower") {
            chunks[row[0].integer!, default: []].append(
                Chunk(lower: row[1].integer!, upper: row[2].integer!, isStartOfHistory: row[3].integer! != 0))
        }
        var histories: [Int64: ChunkStore] = [:]
        for chatId in Set(messages.keys).union(chunks.keys).union(tombstones.keys).union(pendingEdits.keys) {
            histories[chatId] = ChunkStore(chunks: chunks[chatId] ?? [], messages: messages[chatId] ?? [],
                                           tombstones: tombstones[chatId] ?? [:],
                                           pendingEdits: pendingEdits[chatId] ?? [:])
        }
        return histories
    }

    func loadChats(histories: [Int64: ChunkStore]) -> [Int64: ChatSummary] {
        var chats: [Int64: ChatSummary] = [:]
        for row in rows("SELECT id, members, modified, lastMessageId FROM chats") {
            let id = row[0].integer!
            let members = row[1].text!.split(separator: ",").compactMap { Int64($0) }
            let last = row[3].integer.flatMap { histories[id]?.message(id: $0) }
            chats[id] = ChatSummary(id: id, members: members, modified: row[2].integer!, lastMessage: last)
        }
        return chats
    }

    /// Every stored contact, ascending by id.
    func loadContacts() -> [Contact] {
        rows("SELECT id, name FROM contacts ORDER BY id").map { Contact(id: $0[0].integer!, name: $0[1].text!) }
    }

    func loadTasks() -> [Int64: TaskRecord] {
        var tasks: [Int64: TaskRecord] = [:]
        let sql = """
            SELECT id, kind, state, chatId, text, sizeBytes, cid, photoToken, dependsOn, attempts, nextAttemptAt,
              enqueuedAt, lastError, messageId FROM tasks ORDER BY id
            """
        for row in rows(sql) {
            let task = TaskRecord(
                id: row[0].integer!, kind: TaskRecord.Kind(rawValue: row[1].text!)!,
                state: TaskRecord.State(rawValue: row[2].text!)!, chatId: row[3].integer!, text: row[4].text!,
                sizeBytes: Int(row[5].integer!), cid: row[6].integer!, photoToken: row[7].text,
                dependsOn: row[8].integer, attempts: Int(row[9].integer!),
                nextAttemptAt: SimInstant(nanosecondsSinceStart: row[10].integer!),
                enqueuedAt: SimInstant(nanosecondsSinceStart: row[11].integer!), lastError: row[12].text,
                messageId: row[13].integer)
            tasks[task.id] = task
        }
        return tasks
    }

    /// - Parameter keepsStatement: false for a statement run once per chat and launch (the first write of a
    ///   chat's chunks or tombstones), as for `SQLiteDatabase.execute`.
    private func run(_ sql: String, _ bindings: [SQLiteValue] = [], keepsStatement: Bool = true) {
        if transaction.isRequested {
            transaction.isRequested = false
            run("BEGIN IMMEDIATE")
        }
        do {
            try database.execute(sql, bindings, keepsStatement: keepsStatement)
        } catch {
            preconditionFailure("client store: \(error)")
        }
    }

    /// A query run at launch (loading the tables, the sync entries): its statement is not kept (see
    /// `SQLiteDatabase.query`), which was most of an idle client's SQLite memory.
    private func rows(_ sql: String, _ bindings: [SQLiteValue] = []) -> [[SQLiteValue]] {
        do {
            return try database.query(sql, bindings, keepsStatement: false)
        } catch {
            preconditionFailure("client store: \(error)")
        }
    }
}
