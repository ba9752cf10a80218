import SimCore
import SyncProtocol

/// The client's tables (messages, chunks, chats, contacts, tasks, sync state) over one `SQLiteDatabase`.
///
/// Every write of one engine event happens inside one transaction (`begin`/`commit`), so a crash loses at most
/// the event in progress. The transaction is opened by the event's first write: an event that writes nothing (a
/// ping, a timer that finds nothing to do) costs no BEGIN and COMMIT. A private in-memory database (every client of
/// a simulated world) runs each write on its own instead (see `init`): the same rows at every event's end, where the
/// world can crash an app. The database must hold the client schema
/// (`ClientDatabase.open(path:)` checks a user's file and throws); after that, a failing statement is a programmer
/// error in our own schema, so it stops.
struct ClientStore {
    let database: SQLiteDatabase
    /// Whether `begin()` was called and no write has opened the transaction yet. Held in the store itself (the
    /// writes are mutating), not in a box shared by copies: it is read on every event, and that box, an object of
    /// its own per client, was a cache miss on every event at thousands of clients (most of the engine's own time
    /// on a PING). A copy of the store must not write: the engine holds the only one.
    private var isTransactionRequested = false
    /// Whether each write commits on its own (SQLite's autocommit) rather than inside the event's transaction: for a
    /// private in-memory database, which has no rollback journal (see `init`).
    private let writesAlone: Bool

    /// The chunk and tombstone rows as last written or loaded, by chat (shared by copies of the store, as the
    /// database is): `replaceChunks` and `replaceTombstones` write only the rows that changed.
    private let written = WrittenRows()

    // This box is read on every write, from one thread, and never lends its fields out across a call that could
    // reach it again: the dynamic exclusivity checks are off, as in `SQLiteDatabase`.
    final class WrittenRows {
        @exclusivity(unchecked) var chunks: [Int64: [Chunk]] = [:]
        /// The mark of the history whose chunks' rows `chunks` holds, by chat, when `replaceChunks(of:chatId:)`
        /// wrote them: a later history grown from it changed no chunk below its newest.
        @exclusivity(unchecked) var chunkMarks: [Int64: ChunkStore.ChunkMark] = [:]
        @exclusivity(unchecked) var tombstones: [Int64: [Int64: Int64]] = [:]
        /// Whether `chunks` and `tombstones` hold every stored row (`loadHistories` read them all): a chat missing
        /// from them has none, and its first write needs no DELETE of what might be stored.
        @exclusivity(unchecked) var holdsEveryRow = false
        /// The members of each chat row written through this store: a later save with the same members updates the
        /// row's time and last message alone (`save(_: ChatSummary)`).
        @exclusivity(unchecked) var chatMembers: [Int64: [Int64]] = [:]
    }

    /// The statements of every event, each kept prepared in its slot of the database (see
    /// `SQLiteDatabase.execute(slot:sql:_:)`): found by index instead of by hashing their text.
    enum Statement: Int, CaseIterable {
        case begin, commit, saveMessage, saveMessageChange, deleteTombstone, saveTombstone, insertTombstone
        case deletePendingEdits, insertPendingEdit, deleteChunk, insertChunk, saveChat, saveContact, saveTask, setSync
        case updateChat

        var sql: String {
            switch self {
            case .begin: "BEGIN IMMEDIATE"
            case .commit: "COMMIT"
            case .saveMessage: "INSERT OR REPLACE INTO messages VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            case .saveMessageChange: "INSERT OR REPLACE INTO messageChanges VALUES (?, ?, ?, ?)"
            case .deleteTombstone: "DELETE FROM tombstones WHERE chatId = ? AND id = ?"
            case .saveTombstone: "INSERT OR REPLACE INTO tombstones VALUES (?, ?, ?)"
            case .insertTombstone: "INSERT INTO tombstones VALUES (?, ?, ?)"
            case .deletePendingEdits: "DELETE FROM pendingEdits WHERE chatId = ?"
            case .insertPendingEdit: "INSERT INTO pendingEdits VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            case .deleteChunk: "DELETE FROM chunks WHERE chatId = ? AND lower = ?"
            case .insertChunk: "INSERT INTO chunks VALUES (?, ?, ?, ?)"
            case .saveChat: "INSERT OR REPLACE INTO chats VALUES (?, ?, ?, ?)"
            case .saveContact: "INSERT OR REPLACE INTO contacts VALUES (?, ?)"
            case .saveTask: "INSERT OR REPLACE INTO tasks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            case .setSync: "INSERT OR REPLACE INTO sync VALUES (?, ?)"
            case .updateChat: "UPDATE chats SET modified = ?, lastMessageId = ? WHERE id = ?"
            }
        }
    }

    init(database: SQLiteDatabase) {
        self.database = database
        writesAlone = database.path == ":memory:"
        do {
            try ClientDatabase.prepare(database)
            if writesAlone {
                // No rollback journal for a private in-memory database: every page an event changed was first copied
                // into an in-memory journal, a fifth of the instructions of a push received. Nothing ever rolls back:
                // each event's transaction is committed before `handle` returns (so an app restart, which rolls back
                // an open transaction, never finds one), and a failed statement stops the engine (so no statement is
                // ever unwound). A file keeps SQLite's default journal, and with it the crash safety of a real file.
                try database.execute("PRAGMA journal_mode = OFF", keepsStatement: false)
                // Without a journal a transaction buys nothing but batching, and costs two statements of its own per
                // event (BEGIN and COMMIT, each a program, registers and a lock to run): a push received wrote two rows
                // with four statements. The writes of an event still happen all within `handle`, in order, so the
                // rows at the end of every event (all a crash of the app can find) are the same.
            }
        } catch {
            preconditionFailure("\(error); open a user's database file with ClientDatabase.open(path:), which throws")
        }
    }

    /// Starts the event's transaction; BEGIN IMMEDIATE goes out with the first write, which also checks that no
    /// other transaction is open (an event that writes nothing asks SQLite nothing).
    mutating func begin() {
        precondition(!isTransactionRequested, "client store: transaction already open")
        isTransactionRequested = true
    }

    /// Ends the event's transaction: COMMIT when a write opened it, nothing otherwise.
    mutating func commit() {
        if isTransactionRequested {
            isTransactionRequested = false
        } else if !writesAlone {
            run(.commit) { _ in }
        }
    }

    mutating func save(_ message: ChatMessage, chatId: Int64) {
        run(.saveMessage) {
            Self.bindMessageColumns(message, chatId: chatId, to: &$0)
            Self.bindPhotoDetails(message, to: &$0)
        }
        if let status = message.status {
            run(.saveMessageChange) {
                $0.bind(chatId)
                $0.bind(message.id)
                $0.bind(status)
                $0.bind(message.updateTime ?? 0)
            }
        }
    }

    /// Makes the chat's tombstone rows `tombstones`. Rows known to be stored already are left alone: after every
    /// push the engine re-states the chat's tombstones, and rewriting them all was statements for nothing.
    mutating func replaceTombstones(_ tombstones: [Int64: Int64], chatId: Int64) {
        guard let previous = written.tombstones[chatId] ?? (written.holdsEveryRow ? [:] : nil) else {
            runOnce("DELETE FROM tombstones WHERE chatId = ?", [.integer(chatId)])
            for id in tombstones.keys.sorted() {
                run(.insertTombstone) {
                    $0.bind(chatId)
                    $0.bind(id)
                    $0.bind(tombstones[id]!)
                }
            }
            written.tombstones[chatId] = tombstones
            return
        }
        guard previous != tombstones else { return }
        for id in previous.keys.sorted() where tombstones[id] == nil {
            run(.deleteTombstone) {
                $0.bind(chatId)
                $0.bind(id)
            }
        }
        for id in tombstones.keys.sorted() where previous[id] != tombstones[id] {
            run(.saveTombstone) {
                $0.bind(chatId)
                $0.bind(id)
                $0.bind(tombstones[id]!)
            }
        }
        written.tombstones[chatId] = tombstones
    }

    /// Binds the columns a message row and a pending edit row share: chatId, id, time, sender, text, cid and the
    /// photo token of its first PHOTO attachment.
    private static func bindMessageColumns(_ message: ChatMessage, chatId: Int64, to bindings: inout SQLiteBindings) {
        bindings.bind(chatId)
        bindings.bind(message.id)
        bindings.bind(message.time)
        bindings.bind(message.sender)
        bindings.bind(message.text)
        bindings.bind(message.cid)
        bindings.bind(message.attaches?.first { $0.type == "PHOTO" }?.photoToken)
    }

    /// Binds what the server said of the message's first PHOTO attachment beside its token: id, base URL, width
    /// and height (NULL each when absent), then `attachesData` (every attachment, when there is more than a photo).
    private static func bindPhotoDetails(_ message: ChatMessage, to bindings: inout SQLiteBindings) {
        let photo = message.attaches?.first { $0.type == "PHOTO" }
        bindings.bind(photo?.photoId)
        bindings.bind(photo?.baseUrl)
        bindings.bind(photo?.width.map(Int64.init))
        bindings.bind(photo?.height.map(Int64.init))
        bindings.bind(attachesData(of: message))
    }

    /// What the `attachesData` column holds: nil for no attachment or a single photo (the photo columns hold it),
    /// else the MessagePack bytes of every attachment, in lowercase hex.
    static func attachesData(of message: ChatMessage) -> String? {
        guard let attaches = message.attaches, !attaches.isEmpty,
              attaches.count > 1 || attaches[0].type != "PHOTO",
              let value = try? MessagePackEncoder().encode(attaches) else { return nil }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        for byte in value.messagePackBytes() {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 15)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// The attachments `attachesData` wrote, or nil when `text` is no such hex (then the photo columns are read).
    static func attaches(fromData text: String) -> [Attach]? {
        func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        guard let value = try? MessagePackValue(messagePack: bytes),
              let attaches = try? MessagePackDecoder().decode([Attach].self, from: value) else { return nil }
        return attaches
    }

    /// The attachments of a message row: all of them from `attachesData` (`details`' fifth value) when it holds
    /// them, else its photo, from the token (`token`) and the columns `bindPhotoDetails` wrote (`details`' first
    /// four values), or nil for none.
    private static func attaches(token: SQLiteValue, details: ArraySlice<SQLiteValue>) -> [Attach]? {
        if let data = details[details.startIndex + 4].text, let all = attaches(fromData: data) { return all }
        guard let token = token.text else { return nil }
        let values = Array(details)
        return [Attach(type: "PHOTO", photoToken: token, photoId: values[0].integer, baseUrl: values[1].text,
                       width: values[2].integer.map { Int($0) }, height: values[3].integer.map { Int($0) })]
    }

    mutating func replacePendingEdits(_ edits: [Int64: ChatMessage], chatId: Int64) {
        run(.deletePendingEdits) { $0.bind(chatId) }
        for id in edits.keys.sorted() {
            let message = edits[id]!
            run(.insertPendingEdit) {
                Self.bindMessageColumns(message, chatId: chatId, to: &$0)
                $0.bind(message.status ?? ChatMessage.edited)
                $0.bind(message.updateTime ?? 0)
                Self.bindPhotoDetails(message, to: &$0)
            }
        }
    }

    /// Whether a chunk has a row of its own. A chunk of one message that does not claim the start of history has
    /// none: `loadHistories` gives every cached message that lies in no stored chunk a chunk of its own, which is
    /// what it was (every cached message lies in exactly one chunk, and a chunk's bounds are cached). A push
    /// received above every chunk opens such a chunk, and its row was a statement per push (a fifth of the
    /// push's SQLite work) for a fact the message row already gives.
    static func hasRow(_ chunk: Chunk) -> Bool { chunk.lower != chunk.upper || chunk.isStartOfHistory }

    /// Makes the chat's chunk rows those of `chunks` that have one (`hasRow`; keyed by chat and lower bound). Rows
    /// known to be stored already are left alone: a push received usually changes no row (it opens a chunk of one
    /// message) or moves one chunk's upper bound, one row, where the whole list was deleted and inserted again.
    mutating func replaceChunks(_ chunks: [Chunk], chatId: Int64) {
        written.chunkMarks[chatId] = nil
        guard let previous = written.chunks[chatId] ?? (written.holdsEveryRow ? [] : nil) else {
            runOnce("DELETE FROM chunks WHERE chatId = ?", [.integer(chatId)])
            var rows: [Chunk] = []
            for chunk in chunks where Self.hasRow(chunk) {
                insert(chunk, chatId: chatId)
                rows.append(chunk)
            }
            written.chunks[chatId] = rows
            return
        }
        replaceChunks(chunks, from: 0, sameRows: 0, previous: previous, chatId: chatId)
    }

    /// `replaceChunks(history.chunks, chatId:)`, looking only at the chunks that may have changed since the rows were
    /// last written from a history this one grew from: a push opens a chunk at the top of its chat, and the walk
    /// over every chunk below it, to find that none changed, grew with the run.
    mutating func replaceChunks(of history: ChunkStore, chatId: Int64) {
        if let mark = written.chunkMarks[chatId],
           let previous = written.chunks[chatId] ?? (written.holdsEveryRow ? [] : nil),
           let start = history.firstChunkChanged(since: mark) {
            // `previous` is the rows of the marked history's chunks, in order; all but its newest chunk are
            // `history`'s chunks below `start`, so their rows are `previous` but the newest chunk's row, if it had one.
            let sameRows = previous.count - (mark.topChunk.map(Self.hasRow) == true ? 1 : 0)
            if sameRows >= 0 {
                replaceChunks(history.chunks, from: start, sameRows: sameRows, previous: previous, chatId: chatId)
                written.chunkMarks[chatId] = history.chunkMark
                return
            }
        }
        replaceChunks(history.chunks, chatId: chatId)
        written.chunkMarks[chatId] = history.chunkMark
    }

    /// Writes the rows of `chunks` given that those of `chunks[..<start]` are `previous[..<sameRows]`.
    private mutating func replaceChunks(_ chunks: [Chunk], from start: Int, sameRows: Int, previous: [Chunk],
                                        chatId: Int64) {
        // Rows before the first difference stay; of the rest (usually none, or one or two chunks), rows no longer
        // wanted go and new ones come. The rows are unique (the primary key), so nothing in the rest repeats the
        // prefix. One pass finds the difference; the rows written are an array of their own (not the engine's
        // chunk list, which a push would then copy whole to append to it).
        var same = sameRows
        var index = start
        while index < chunks.endIndex {
            let chunk = chunks[index]
            if Self.hasRow(chunk) {
                guard same < previous.count, previous[same] == chunk else { break }
                same += 1
            }
            index += 1
        }
        let new = chunks[index...].filter(Self.hasRow)
        guard same < previous.count || !new.isEmpty else { return }
        let old = previous[same...]
        for chunk in old where !new.contains(chunk) {
            run(.deleteChunk) {
                $0.bind(chatId)
                $0.bind(chunk.lower)
            }
        }
        for chunk in new where !old.contains(chunk) { insert(chunk, chatId: chatId) }
        written.chunks[chatId] = Array(previous[..<same]) + new
    }

    /// A plain INSERT, as before: two chunks with one lower bound still stop the engine on the primary key.
    private mutating func insert(_ chunk: Chunk, chatId: Int64) {
        run(.insertChunk) {
            $0.bind(chatId)
            $0.bind(chunk.lower)
            $0.bind(chunk.upper)
            $0.bind(Int64(chunk.isStartOfHistory ? 1 : 0))
        }
    }

    mutating func save(_ summary: ChatSummary) {
        if written.chatMembers[summary.id] == summary.members {
            // The row is there with these members (chat rows are never deleted): a push changes only the chat's
            // time and last message, and the row was replaced whole, its members' text bound and copied again.
            run(.updateChat) {
                $0.bind(summary.modified)
                $0.bind(summary.lastMessage?.id)
                $0.bind(summary.id)
            }
            return
        }
        let members = summary.members.map(String.init).joined(separator: ",")
        written.chatMembers[summary.id] = summary.members
        run(.saveChat) {
            $0.bind(summary.id)
            $0.bind(members)
            $0.bind(summary.modified)
            $0.bind(summary.lastMessage?.id)
        }
    }

    mutating func save(_ contact: Contact) {
        run(.saveContact) {
            $0.bind(contact.id)
            $0.bind(contact.name)
        }
    }

    mutating func save(_ task: TaskRecord) {
        run(.saveTask) {
            $0.bind(task.id)
            $0.bind(task.kind.rawValue)
            $0.bind(task.state.rawValue)
            $0.bind(task.chatId)
            $0.bind(task.text)
            $0.bind(Int64(task.sizeBytes))
            $0.bind(task.cid)
            $0.bind(task.photoToken)
            $0.bind(task.dependsOn)
            $0.bind(Int64(task.attempts))
            $0.bind(task.nextAttemptAt.nanosecondsSinceStart)
            $0.bind(task.enqueuedAt.nanosecondsSinceStart)
            $0.bind(task.lastError)
            $0.bind(task.messageId)
        }
    }

    mutating func setSync(_ key: String, _ value: Int64) {
        run(.setSync) {
            $0.bind(key)
            $0.bind(value)
        }
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
            SELECT m.chatId, m.id, m.time, m.sender, m.text, m.cid, m.photoToken, c.status, c.updateTime,
                   m.photoId, m.photoBaseUrl, m.photoWidth, m.photoHeight, m.attachesData
              FROM messages m LEFT JOIN messageChanges c ON c.chatId = m.chatId AND c.id = m.id
             ORDER BY m.chatId, m.id
            """
        for row in rows(sql) {
            let attaches = Self.attaches(token: row[6], details: row[9...13])
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
        let pendingSQL = """
            SELECT chatId, id, time, sender, text, cid, photoToken, status, updateTime,
                   photoId, photoBaseUrl, photoWidth, photoHeight, attachesData FROM pendingEdits
            """
        for row in rows(pendingSQL) {
            let attaches = Self.attaches(token: row[6], details: row[9...13])
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
        // The rows as stored: a chat's first write after launch changes only the rows that differ (it was a DELETE
        // of the chat's rows, a statement prepared and finalized per chat and launch, and every row again).
        written.chunks = chunks
        written.chunkMarks = [:]
        written.tombstones = tombstones
        written.holdsEveryRow = true
        var histories: [Int64: ChunkStore] = [:]
        for chatId in Set(messages.keys).union(chunks.keys).union(tombstones.keys).union(pendingEdits.keys) {
            histories[chatId] = ChunkStore(chunks: Self.withChunksOfOne(chunks[chatId] ?? [],
                                                                        messages: messages[chatId] ?? []),
                                           messages: messages[chatId] ?? [],
                                           tombstones: tombstones[chatId] ?? [:],
                                           pendingEdits: pendingEdits[chatId] ?? [:])
        }
        return histories
    }

    /// The chunk rows of a chat (ascending by lower bound) with a chunk of its own for every message (ascending by
    /// id) that lies in none of them: the chunks that have no row (see `hasRow`).
    static func withChunksOfOne(_ rows: [Chunk], messages: [ChatMessage]) -> [Chunk] {
        var chunks = rows
        var next = 0
        // The highest upper bound of the rows passed so far, nil before the first: Int64.min as "none" was also a
        // message id, and a message with that id got no chunk (fuzz-client, after a restart: C1).
        var reach: Int64?
        for message in messages {
            while next < rows.count && rows[next].lower <= message.id {
                reach = max(reach ?? rows[next].upper, rows[next].upper)
                next += 1
            }
            if reach.map({ $0 < message.id }) ?? true {
                chunks.append(Chunk(lower: message.id, upper: message.id, isStartOfHistory: false))
            }
        }
        return chunks
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

    /// Every stored task, ascending by id.
    func loadTasks() -> [TaskRecord] {
        var tasks: [TaskRecord] = []
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
            tasks.append(task)
        }
        return tasks
    }

    /// A statement of every event, kept in its slot; the first write of an event opens its transaction.
    private mutating func run(_ statement: Statement, _ bind: (inout SQLiteBindings) -> Void) {
        openRequestedTransaction()
        do {
            try database.execute(slot: statement.rawValue, sql: statement.sql, bind)
        } catch {
            preconditionFailure("client store: \(error)")
        }
    }

    /// A statement run once per chat and launch (the first write of a chat's chunks or tombstones): not kept, as
    /// for `SQLiteDatabase.execute(_:_:keepsStatement:)`.
    private mutating func runOnce(_ sql: String, _ bindings: [SQLiteValue]) {
        openRequestedTransaction()
        do {
            try database.execute(sql, bindings, keepsStatement: false)
        } catch {
            preconditionFailure("client store: \(error)")
        }
    }

    private mutating func openRequestedTransaction() {
        guard isTransactionRequested else { return }
        isTransactionRequested = false
        // Without a BEGIN to follow there is nothing to nest, and asking SQLite was a call into a cold connection.
        if writesAlone { return }
        precondition(!database.isInTransaction, "client store: transaction already open")
        do {
            try database.execute(slot: Statement.begin.rawValue, sql: Statement.begin.sql) { _ in }
        } catch {
            preconditionFailure("client store: \(error)")
        }
    }

    /// A query run at launch (loading the tables, the sync entries): its statement is not kept (see
    /// `SQLiteDatabase.query`), which was most of an idle client's SQLite memory.
    ///
    /// A private in-memory database that no row was ever written to has none to give: the query is not prepared
    /// (a new client's first launch ran seven queries, each parsed, over empty tables).
    private func rows(_ sql: String, _ bindings: [SQLiteValue] = []) -> [[SQLiteValue]] {
        if database.path == ":memory:" && database.totalRowChanges == 0 { return [] }
        do {
            return try database.query(sql, bindings, keepsStatement: false)
        } catch {
            preconditionFailure("client store: \(error)")
        }
    }
}
