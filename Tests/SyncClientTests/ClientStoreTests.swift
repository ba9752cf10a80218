import Foundation
import SyncProtocol
import Testing
@testable import SyncClient

private func message(_ id: Int64) -> ChatMessage { ChatMessage(id: id, time: id, sender: 1, text: "m\(id)") }

@Suite struct ClientStoreTests {
    /// Writes what `history` holds for chat 7 in one event, as the engine does after a change.
    private func write(_ history: ChunkStore, to store: inout ClientStore) {
        store.begin()
        for message in history.messages { store.save(message, chatId: 7) }
        store.replaceChunks(history.chunks, chatId: 7)
        store.commit()
    }

    private func chunkRows(_ database: SQLiteDatabase) throws -> [[SQLiteValue]] {
        try database.query("SELECT lower, upper, isStartOfHistory FROM chunks WHERE chatId = 7 ORDER BY lower")
    }

    /// Found by fuzz-client (Fuzz/Regressions/fuzz-client/c1-chunk-of-one-at-int64-min): Int64.min stood for "no
    /// row passed yet", so after a restart a message with that id lay in no chunk (C1).
    @Test("a message with id Int64.min gets its chunk of one back at launch, as any other")
    func chunkOfOneAtSmallestId() throws {
        let database = try SQLiteDatabase()
        var store = ClientStore(database: database)
        var history = ChunkStore()
        history.insertSingle(message(.min))
        history.insertPage([message(5), message(6)], isStartOfHistory: false)
        write(history, to: &store)
        let loaded = try #require(ClientStore(database: database).loadHistories()[7])
        #expect(loaded.chunks == history.chunks)
        #expect(ClientStore.withChunksOfOne([Chunk(lower: .min, upper: 3, isStartOfHistory: true)],
                                            messages: [message(.min), message(3)])
                == [Chunk(lower: .min, upper: 3, isStartOfHistory: true)])
    }

    @Test("a photo message comes back after a restart as the server sent it: token, id, URL, width and height; an album and a service message with every attachment")
    func photoDetailsKept() throws {
        let database = try SQLiteDatabase()
        var store = ClientStore(database: database)
        var history = ChunkStore()
        var photo = message(8)
        photo.attaches = [Attach(type: "PHOTO", photoToken: "photo-2", photoId: 2,
                                 baseUrl: "https://cdn.syncsim.invalid/photo/2", width: 0, height: 0)]
        var bare = message(9)
        bare.attaches = [.photo(token: "photo-3")]
        var album = message(10)
        album.attaches = [.photo(token: "photo-4"), photo.attaches![0], .photo(token: "photo-5")]
        var service = message(11)
        service.attaches = [.control(event: "new", chatType: "CHAT", title: "Team", userIds: [2, 3])]
        history.insertPage([photo, bare, album, service, message(12)], isStartOfHistory: true)
        write(history, to: &store)
        #expect(ClientStore(database: database).loadHistories()[7] == history)
        #expect(ClientStore.attachesData(of: photo) == nil && ClientStore.attachesData(of: message(12)) == nil)
        #expect(ClientStore.attaches(fromData: "zz") == nil && ClientStore.attaches(fromData: "9") == nil)
    }

    /// Session 41: a save with the members already written updates the row's time and last message alone; one with
    /// new members replaces the row. Both must read back as saved after a restart.
    @Test("a chat row saved again, with the same members and then with others, reads back as last saved")
    func chatRowSavedAgain() throws {
        let database = try SQLiteDatabase()
        var store = ClientStore(database: database)
        var history = ChunkStore()
        history.insertPage([message(1), message(2), message(3)], isStartOfHistory: true)
        write(history, to: &store)
        for (members, modified, last) in [([1, 2], 10, 1), ([1, 2], 20, 2), ([1, 2, 3], 30, 3), ([1, 2, 3], 25, 2)]
            as [([Int64], Int64, Int64)] {
            store.begin()
            store.save(ChatSummary(id: 7, members: members, modified: modified, lastMessage: message(last)))
            store.commit()
            // An in-memory database commits each write on its own: no transaction is left open.
            #expect(!database.isInTransaction)
        }
        let reloaded = ClientStore(database: database)
        let chats = reloaded.loadChats(histories: reloaded.loadHistories())
        #expect(chats[7] == ChatSummary(id: 7, members: [1, 2, 3], modified: 25, lastMessage: message(2)))
        #expect(try database.query("SELECT count(*) FROM chats").first?.first?.integer == 1)
    }

    @Test("a file database keeps the event's transaction: one write leaves it open until commit")
    func fileDatabaseTransaction() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncsim-store-\(ProcessInfo.processInfo.processIdentifier).db").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try ClientDatabase.open(path: path)
        var store = ClientStore(database: database)
        store.begin()
        store.save(message(1), chatId: 7)
        #expect(database.isInTransaction)
        store.commit()
        #expect(!database.isInTransaction)
    }

    @Test("a chunk of one message has no row and comes back from its message; other chunks keep their rows")
    func chunksOfOneMessage() throws {
        let database = try SQLiteDatabase()
        var store = ClientStore(database: database)
        var history = ChunkStore()
        history.insertPage([message(10), message(11), message(12)], isStartOfHistory: true)
        history.insertSingle(message(20))
        history.insertSingle(message(30))
        #expect(history.chunks.count == 3)
        write(history, to: &store)
        #expect(try chunkRows(database) == [[.integer(10), .integer(12), .integer(1)]])
        #expect(ClientStore(database: database).loadHistories()[7] == history)

        // A page joining 20 and 30 gives them one row; a later push opens a chunk of one message again.
        history.insertPage([message(20), message(25), message(30)], isStartOfHistory: false)
        history.insertSingle(message(40))
        write(history, to: &store)
        #expect(try chunkRows(database)
                    == [[.integer(10), .integer(12), .integer(1)], [.integer(20), .integer(30), .integer(0)]])
        #expect(ClientStore(database: database).loadHistories()[7] == history)

        // A page bridging everything leaves one row; a restarted store (nothing written yet) rewrites the chat's rows.
        history.insertPage([message(12), message(20), message(30), message(40)], isStartOfHistory: false)
        var restarted = ClientStore(database: database)
        write(history, to: &restarted)
        #expect(try chunkRows(database) == [[.integer(10), .integer(40), .integer(1)]])
        #expect(ClientStore(database: database).loadHistories()[7] == history)
    }

    @Test("a store that loaded the rows writes a chat's first change as a difference; the rows end as a full rewrite leaves them")
    func loadedStoreWritesTheDifference() throws {
        let database = try SQLiteDatabase()
        var history = ChunkStore()
        history.insertPage([message(10), message(11), message(12)], isStartOfHistory: true)
        history.insertPage([message(20), message(21)], isStartOfHistory: false)
        var first = ClientStore(database: database)
        write(history, to: &first)
        // A row of a chunk of one message (as databases written before such chunks lost their rows hold) and a
        // tombstone.
        try database.execute("INSERT INTO messages (chatId, id, time, sender, text) VALUES (7, 30, 30, 1, 'm30')")
        try database.execute("INSERT INTO chunks VALUES (7, 30, 30, 0)")
        try database.execute("INSERT INTO tombstones VALUES (7, 3, 50)")

        var relaunched = ClientStore(database: database)
        var loaded = try #require(relaunched.loadHistories()[7])
        #expect(loaded.tombstones == [3: 50])
        // The page moves the upper bound of [20...21]; the chunk [30...30] keeps its place but has no row any more.
        loaded.insertPage([message(21), message(22)], isStartOfHistory: false)
        relaunched.begin()
        relaunched.save(message(22), chatId: 7)
        relaunched.replaceChunks(loaded.chunks, chatId: 7)
        relaunched.replaceTombstones([5: 99], chatId: 7)
        relaunched.commit()
        #expect(try chunkRows(database)
                    == [[.integer(10), .integer(12), .integer(1)], [.integer(20), .integer(22), .integer(0)]])
        #expect(try database.query("SELECT id, updateTime FROM tombstones WHERE chatId = 7")
                    == [[.integer(5), .integer(99)]])
        let reloaded = try #require(ClientStore(database: database).loadHistories()[7])
        #expect(reloaded.chunks == loaded.chunks)
        #expect(reloaded.messages == loaded.messages)
        #expect(reloaded.tombstones == [5: 99])
    }

    @Test("a chunk of one message that starts the history keeps its row")
    func startOfHistoryOfOneMessage() throws {
        let database = try SQLiteDatabase()
        var store = ClientStore(database: database)
        var history = ChunkStore()
        history.insertPage([message(5)], isStartOfHistory: true)
        history.insertSingle(message(9))
        write(history, to: &store)
        #expect(try chunkRows(database) == [[.integer(5), .integer(5), .integer(1)]])
        #expect(ClientStore(database: database).loadHistories()[7] == history)
    }
}
