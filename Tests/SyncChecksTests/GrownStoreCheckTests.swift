import SimCore
import SyncProtocol
import SyncServer
import Testing
@testable import SyncChecks
@testable import SyncClient

/// C1–C5 over what a store added (`InvariantChecker.grewClean`) against the whole check, on stores that grew from a
/// clean one by pushes: the grown-store check says clean exactly when the whole check finds nothing it would miss.
@Suite struct GrownStoreCheckTests {
    /// Chat 100 (members 1, 2) with `count` messages from user 2.
    static func server(count: Int) -> SyncServer {
        var server = SyncServer(generator: RandomStreams(runSeed: 1).stream("server"))
        server.addUser(id: 1, name: "alice", token: "t")
        server.addUser(id: 2, name: "bob", token: "u")
        server.addChat(id: 100, members: [1, 2], now: .start)
        server.seedHistory(chatId: 100, sender: 2, texts: (0..<count).map { "m\($0)" }, now: .start)
        return server
    }

    static func grewClean(_ previous: ChunkStore, _ store: ChunkStore, _ server: SyncServer) -> Bool {
        InvariantChecker.grewClean(from: previous.checkpoint, to: store, server: server.messages(inChat: 100))
    }

    static func wholeCheckClean(_ store: ChunkStore, _ server: SyncServer) -> Bool {
        InvariantChecker.chunkProblems(store, server: server.messages(inChat: 100), chatId: 100, in: server).isEmpty
    }

    @Test("pushes that open chunks or extend the top one are checked over what they added") func pushes() {
        let server = Self.server(count: 8)
        let all = server.messages(inChat: 100)
        var previous = ChunkStore()
        previous.insertPage(Array(all[0..<3]), isStartOfHistory: true)
        #expect(Self.wholeCheckClean(previous, server))
        for message in all[3...] {
            var store = previous
            store.insertSingle(message)
            #expect(Self.wholeCheckClean(store, server))
            #expect(Self.grewClean(previous, store, server))
            previous = store
        }
        // A page that bridges the pushed chunks merges them: not growth at the top, so the whole check runs.
        var merged = previous
        merged.insertPage(Array(all[2...]), isStartOfHistory: false)
        #expect(!Self.grewClean(previous, merged, server))
        #expect(Self.wholeCheckClean(merged, server))
    }

    @Test("growth that breaks C1, C2 or C3, or changes an old message, is left to the whole check") func broken() {
        let server = Self.server(count: 6)
        let all = server.messages(inChat: 100)
        var previous = ChunkStore()
        previous.insertPage(Array(all[0..<3]), isStartOfHistory: true)
        // C2: the top chunk grows over a server message the cache lacks.
        var skipping = previous
        skipping.insertPage([all[2], all[4]], isStartOfHistory: false)
        #expect(!Self.wholeCheckClean(skipping, server))
        #expect(!Self.grewClean(previous, skipping, server))
        // C3: a new message the server does not hold.
        var unknown = previous
        unknown.insertSingle(ChatMessage(id: all[5].id + 10, time: 1, sender: 2, text: "ghost"))
        #expect(!Self.wholeCheckClean(unknown, server))
        #expect(!Self.grewClean(previous, unknown, server))
        // C3: a new message cached with other text.
        var altered = previous
        var changed = all[4]
        changed.text = "altered"
        altered.insertSingle(changed)
        #expect(!Self.wholeCheckClean(altered, server))
        #expect(!Self.grewClean(previous, altered, server))
        // An old message changed in place, with a new one on top: not growth alone.
        var edited = previous
        var old = all[1]
        old.text = "edited"
        old.updateTime = 5
        edited.insertPage([all[0], old, all[2]], isStartOfHistory: true)
        edited.insertSingle(all[3])
        #expect(!Self.grewClean(previous, edited, server))
    }

    @Test("a new message cached in a version the server has since edited is left to the whole check, which passes it")
    func earlierVersion() {
        var server = Self.server(count: 6)
        let all = server.messages(inChat: 100)
        var previous = ChunkStore()
        previous.insertPage(Array(all[0..<3]), isStartOfHistory: true)
        _ = server.edit(chatId: 100, messageId: all[3].id, editor: 2, text: "edited", now: .start + .seconds(Int64(1)))
        var store = previous
        store.insertSingle(all[3])
        #expect(!Self.grewClean(previous, store, server))
        #expect(Self.wholeCheckClean(store, server))
    }

    @Test("the store's bookkeeping: growth keeps the line, anything else or a copy growing apart leaves it")
    func checkpoints() {
        let server = Self.server(count: 6)
        let all = server.messages(inChat: 100)
        var base = ChunkStore()
        base.insertPage(Array(all[0..<3]), isStartOfHistory: true)
        let mark = base.checkpoint
        #expect(base.isUnchanged(since: mark) && base.hasOnlyGrown(since: mark))
        // Two copies grow apart from one store: each has grown from it, neither from the other.
        var first = base
        first.insertSingle(all[3])
        var second = base
        var other = all[3]
        other.text = "other"
        second.insertSingle(other)
        #expect(first.hasOnlyGrown(since: mark) && !first.isUnchanged(since: mark))
        #expect(!second.hasOnlyGrown(since: first.checkpoint) && !first.hasOnlyGrown(since: second.checkpoint))
        #expect(!Self.grewClean(second, first, server) && !Self.grewClean(first, second, server))
        // A cached message changed in place, or removed: not growth.
        var edited = first
        var changed = all[1]
        changed.text = "edited"
        changed.updateTime = 5
        let applied = edited.applyChange(changed)
        #expect(applied)
        #expect(!edited.hasOnlyGrown(since: first.checkpoint))
        var removed = first
        let removal = removed.applyRemoval(messageId: all[0].id, updateTime: 5)
        #expect(removal)
        #expect(!removed.hasOnlyGrown(since: first.checkpoint))
        // The same message stored again changes nothing; a tombstone is not growth but is seen as a change.
        var same = first
        same.insertSingle(all[3])
        #expect(same.isUnchanged(since: first.checkpoint))
        var tombstoned = first
        tombstoned.applyRemoval(messageId: all[5].id, updateTime: 5)
        #expect(tombstoned.hasOnlyGrown(since: first.checkpoint) && !tombstoned.isUnchanged(since: first.checkpoint))
        // A store restored from its rows, or cleared, is on a line of its own.
        let restored = ChunkStore(chunks: first.chunks, messages: first.messages)
        #expect(restored == first && !restored.hasOnlyGrown(since: first.checkpoint))
        var cleared = first
        cleared.removeAll()
        #expect(!cleared.hasOnlyGrown(since: first.checkpoint))
        // A page that merges older chunks is not growth; one above the newest chunk is.
        var gapped = base
        gapped.insertSingle(all[4])
        let gappedMark = gapped.checkpoint
        var bridged = gapped
        bridged.insertPage(Array(all[2...4]), isStartOfHistory: false)
        #expect(!bridged.hasOnlyGrown(since: gappedMark))
        var above = gapped
        above.insertSingle(all[5])
        #expect(above.hasOnlyGrown(since: gappedMark))
    }
}
