import SimCore
import SyncProtocol
import Testing
@testable import SyncClient

private func message(_ id: Int64) -> ChatMessage { ChatMessage(id: id, time: id, sender: 1, text: "m\(id)") }

/// The chunk rows of chat 7 as stored, ascending by lower bound.
private func chunkRows(_ database: SQLiteDatabase) throws -> [Chunk] {
    try database.query("SELECT lower, upper, isStartOfHistory FROM chunks WHERE chatId = 7 ORDER BY lower").map {
        Chunk(lower: $0[0].integer!, upper: $0[1].integer!, isStartOfHistory: $0[2].integer! != 0)
    }
}

/// Writes `history`'s chunks for chat 7 in one event, the way the engine does after a change (`of:` looks only at
/// the chunks that may have changed since the last write from a history it grew from).
private func write(_ history: ChunkStore, to store: inout ClientStore) {
    store.begin()
    store.replaceChunks(of: history, chatId: 7)
    store.commit()
}

@Suite struct ChunkRowsGrowthTests {
    /// Pushes above the top, pages that grow, bridge or start the history, a message in a gap, an older copy that
    /// grows, and the cache cleared: after each, the rows are those of every chunk that has one.
    @Test("rows written from the chunks a grown history changed are the rows of all its chunks", arguments: 1...40)
    func rowsMatchEveryChunk(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let database = try SQLiteDatabase()
        var store = ClientStore(database: database)
        if seed.isMultiple(of: 2) { _ = store.loadHistories() }
        var history = ChunkStore()
        var older: ChunkStore?
        var nextId: Int64 = 1_000
        for step in 0..<60 {
            switch generator.next() % 8 {
            case 0, 1, 2:
                nextId += Int64(1 + generator.next() % 5)
                history.insertSingle(message(nextId))
            case 3:
                let top = nextId
                nextId += Int64(1 + generator.next() % 4)
                history.insertPage((top...nextId).map(message), isStartOfHistory: false)
            case 4:
                let low = Int64(generator.next() % UInt64(nextId))
                let high = min(nextId, low + Int64(generator.next() % 40))
                history.insertPage((low...high).map(message), isStartOfHistory: generator.next() % 4 == 0)
            case 5:
                history.insertSingle(message(Int64(generator.next() % UInt64(nextId))))
            case 6:
                if let copy = older {
                    // An older copy grows: a line of its own, so nothing of the last write's mark holds for it.
                    history = copy
                    nextId += 1
                    history.insertSingle(message(nextId))
                    older = nil
                } else {
                    older = history
                }
            default:
                if step % 20 == 19 { history.removeAll() }
            }
            write(history, to: &store)
            #expect(try chunkRows(database) == history.chunks.filter(ClientStore.hasRow), "seed \(seed), step \(step)")
        }
    }

    @Test("a push above ordered chunks opens a chunk at the top; unordered ones take the general path")
    func pushAboveTheChunks() {
        var empty = ChunkStore()
        empty.insertSingle(message(.min))
        #expect(empty.chunks == [Chunk(lower: .min, upper: .min, isStartOfHistory: false)])

        // Rows of a broken database: two overlapping chunks, and a start claimed by the second.
        let broken = ChunkStore(chunks: [Chunk(lower: 1, upper: 5, isStartOfHistory: false),
                                         Chunk(lower: 3, upper: 8, isStartOfHistory: true)],
                                messages: [1, 3, 5, 8].map(message))
        var pushed = broken
        pushed.insertSingle(message(20))
        var paged = broken
        paged.insertPage([message(20)], isStartOfHistory: false)
        #expect(pushed == paged)
        #expect(pushed.chunks.filter(\.isStartOfHistory).isEmpty, "the general path clears the misplaced start")
    }
}
