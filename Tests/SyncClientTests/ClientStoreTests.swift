import SyncProtocol
import Testing
@testable import SyncClient

private func message(_ id: Int64) -> ChatMessage { ChatMessage(id: id, time: id, sender: 1, text: "m\(id)") }

@Suite struct ClientStoreTests {
    /// Writes what `history` holds for chat 7 in one event, as the engine does after a change.
    private func write(_ history: ChunkStore, to store: ClientStore) {
        store.begin()
        for message in history.messages { store.save(message, chatId: 7) }
        store.replaceChunks(history.chunks, chatId: 7)
        store.commit()
    }

    private func chunkRows(_ database: SQLiteDatabase) throws -> [[SQLiteValue]] {
        try database.query("SELECT lower, upper, isStartOfHistory FROM chunks WHERE chatId = 7 ORDER BY lower")
    }

    @Test("a chunk of one message has no row and comes back from its message; other chunks keep their rows")
    func chunksOfOneMessage() throws {
        let database = try SQLiteDatabase()
        let store = ClientStore(database: database)
        var history = ChunkStore()
        history.insertPage([message(10), message(11), message(12)], isStartOfHistory: true)
        history.insertSingle(message(20))
        history.insertSingle(message(30))
        #expect(history.chunks.count == 3)
        write(history, to: store)
        #expect(try chunkRows(database) == [[.integer(10), .integer(12), .integer(1)]])
        #expect(ClientStore(database: database).loadHistories()[7] == history)

        // A page joining 20 and 30 gives them one row; a later push opens a chunk of one message again.
        history.insertPage([message(20), message(25), message(30)], isStartOfHistory: false)
        history.insertSingle(message(40))
        write(history, to: store)
        #expect(try chunkRows(database)
                    == [[.integer(10), .integer(12), .integer(1)], [.integer(20), .integer(30), .integer(0)]])
        #expect(ClientStore(database: database).loadHistories()[7] == history)

        // A page bridging everything leaves one row; a restarted store (nothing written yet) rewrites the chat's rows.
        history.insertPage([message(12), message(20), message(30), message(40)], isStartOfHistory: false)
        let restarted = ClientStore(database: database)
        write(history, to: restarted)
        #expect(try chunkRows(database) == [[.integer(10), .integer(40), .integer(1)]])
        #expect(ClientStore(database: database).loadHistories()[7] == history)
    }

    @Test("a chunk of one message that starts the history keeps its row")
    func startOfHistoryOfOneMessage() throws {
        let database = try SQLiteDatabase()
        let store = ClientStore(database: database)
        var history = ChunkStore()
        history.insertPage([message(5)], isStartOfHistory: true)
        history.insertSingle(message(9))
        write(history, to: store)
        #expect(try chunkRows(database) == [[.integer(5), .integer(5), .integer(1)]])
        #expect(ClientStore(database: database).loadHistories()[7] == history)
    }
}
