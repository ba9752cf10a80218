import SimCore
import SyncProtocol
import Testing
@testable import SyncClient

private func message(_ id: Int64) -> ChatMessage { ChatMessage(id: id, time: id, sender: 1, text: "m\(id)") }
private func page(_ ids: ClosedRange<Int64>) -> [ChatMessage] { ids.map(message) }

@Suite struct ChunkStoreTests {
    @Test("a page extends a chunk and a page reaching a neighbour merges the two") func extendAndMerge() {
        var store = ChunkStore()
        store.insertPage(page(20...30), isStartOfHistory: false)
        store.insertPage(page(1...10), isStartOfHistory: true)
        #expect(store.chunks == [Chunk(lower: 1, upper: 10, isStartOfHistory: true),
                                 Chunk(lower: 20, upper: 30, isStartOfHistory: false)])
        store.insertPage(page(25...35), isStartOfHistory: false)
        #expect(store.chunks.last == Chunk(lower: 20, upper: 35, isStartOfHistory: false))
        store.insertPage(page(10...20), isStartOfHistory: false)
        #expect(store.chunks == [Chunk(lower: 1, upper: 35, isStartOfHistory: true)])
        #expect(store.messageIds == Array(1...35))
        #expect(store.invariantViolations().isEmpty)
    }

    @Test("a chunk ending at Int64.max (an id from the server) lists its message ids without overflowing")
    func chunkAtMaximumId() {
        var store = ChunkStore()
        store.insertPage(page((Int64.max - 2)...Int64.max), isStartOfHistory: false)
        guard let chunk = store.topChunk else { Issue.record("no chunk"); return }
        #expect(Array(store.messageIds(in: chunk)) == [Int64.max - 2, Int64.max - 1, Int64.max])
    }

    @Test("a single message outside every chunk opens a chunk of its own with a gap below") func singleOpensChunk() {
        var store = ChunkStore()
        store.insertPage(page(1...10), isStartOfHistory: true)
        store.insertSingle(message(50))
        #expect(store.chunks.count == 2)
        #expect(store.topChunk == Chunk(lower: 50, upper: 50, isStartOfHistory: false))
    }

    @Test("a start-of-history page above cached older messages is not the start (fuzz-client reproducer)")
    func startPageAboveOlderMessages() {
        var store = ChunkStore()
        store.insertSingle(message(25957))
        store.insertPage([message(26058), message(26058)], isStartOfHistory: true)
        #expect(store.chunks == [Chunk(lower: 25957, upper: 25957, isStartOfHistory: false),
                                 Chunk(lower: 26058, upper: 26058, isStartOfHistory: false)])
        #expect(store.invariantViolations().isEmpty)
    }

    @Test("a message below the start-of-history chunk takes the start claim away from it")
    func messageBelowStartChunk() {
        var store = ChunkStore()
        store.insertPage(page(100...110), isStartOfHistory: true)
        store.insertSingle(message(50))
        #expect(store.chunks == [Chunk(lower: 50, upper: 50, isStartOfHistory: false),
                                 Chunk(lower: 100, upper: 110, isStartOfHistory: false)])
        #expect(store.invariantViolations().isEmpty)
    }

    /// Session 41 keeps a store's parts in one copy-on-write box: every write must leave the other copies as they were.
    @Test("a copy of a store is a value: each kind of change to it leaves the original as it was")
    func copiesAreValues() {
        var original = ChunkStore()
        original.insertPage(page(1...3), isStartOfHistory: true)
        original.applyRemoval(messageId: 9, updateTime: 4)
        let snapshot = original
        var grown = original
        grown.insertSingle(message(10))
        var edited = original
        var changed = message(2)
        changed.text = "edited"
        changed.updateTime = 5
        edited.applyChange(changed)
        var cleared = original
        cleared.removeAll()
        #expect(original == snapshot && original.chunks == [Chunk(lower: 1, upper: 3, isStartOfHistory: true)])
        #expect(original.messageIds == [1, 2, 3] && original.tombstones == [9: 4])
        #expect(original.message(id: 2)?.text == "m2" && original.message(id: 10) == nil)
        #expect(grown.messageIds == [1, 2, 3, 10] && edited.message(id: 2)?.text == "edited" && cleared.chunks.isEmpty)
        // The original still grows on its own line: its checkpoint is unchanged by the copies' writes.
        #expect(original.isUnchanged(since: snapshot.checkpoint))
    }

    @Test("an unsorted page with repeated ids is cached sorted, one message per id, the last copy kept")
    func unsortedPageWithRepeats() {
        var store = ChunkStore()
        let late = ChatMessage(id: 7, time: 7, sender: 2, text: "second copy")
        store.insertPage([message(9), message(7), message(8), late], isStartOfHistory: false)
        #expect(store.chunks == [Chunk(lower: 7, upper: 9, isStartOfHistory: false)])
        #expect(store.messageIds == [7, 8, 9])
        #expect(store.message(id: 7) == late)
        #expect(store.invariantViolations().isEmpty)
    }

    @Test("a page bridging two chunks merges them and caches every bridging message") func bridge() {
        var store = ChunkStore()
        store.insertPage(page(1...10), isStartOfHistory: true)
        store.insertPage(page(20...30), isStartOfHistory: false)
        store.insertPage(page(5...25), isStartOfHistory: false)
        #expect(store.chunks == [Chunk(lower: 1, upper: 30, isStartOfHistory: true)])
        #expect((1...30).allSatisfy { store.message(id: Int64($0)) != nil })
    }

    @Test("random page insertions match an oracle of cached ids and known-contiguous ranges",
          arguments: Array(UInt64(1)...UInt64(12)))
    func modelBased(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var serverIds: [Int64] = []
        var id: Int64 = 0
        for _ in 0..<300 {
            id += 1 + Int64(rng.next() % 3)
            serverIds.append(id)
        }
        var store = ChunkStore()
        var cached = Set<Int>()
        var linked = [Bool](repeating: false, count: serverIds.count)
        var isStartKnown = false
        for step in 0..<250 {
            let a = Int(rng.next() % UInt64(serverIds.count))
            if rng.next() % 5 == 0 {
                store.insertSingle(message(serverIds[a]))
                cached.insert(a)
            } else {
                let b = min(serverIds.count - 1, a + Int(rng.next() % 40))
                let isStart = a == 0 && rng.next() % 2 == 0
                store.insertPage(serverIds[a...b].map(message), isStartOfHistory: isStart)
                for index in a...b { cached.insert(index) }
                for index in a..<b { linked[index] = true }
                if isStart { isStartKnown = true }
            }
            var expected: [Chunk] = []
            for index in cached.sorted() {
                if index > 0, linked[index - 1], let last = expected.last, last.upper == serverIds[index - 1] {
                    expected[expected.count - 1].upper = serverIds[index]
                } else {
                    expected.append(Chunk(lower: serverIds[index], upper: serverIds[index],
                                          isStartOfHistory: index == 0 && isStartKnown))
                }
            }
            #expect(store.chunks == expected, "seed \(seed) step \(step)")
            #expect(store.messageIds == cached.sorted().map { serverIds[$0] }, "seed \(seed) step \(step)")
            #expect(store.invariantViolations().isEmpty, "seed \(seed) step \(step)")
            if store.chunks != expected { return }
        }
    }
}
