import SimCore
import SyncClient
import SyncProtocol
import SyncServer

extension InvariantChecker {
    typealias Report = (InvariantID, Int64?, String, String) -> Void

    /// C1–C5 over the chats whose chunk store changed since the last check.
    ///
    /// Server appends cannot break C2, C3 or C5 for an unchanged store (new ids lie above every cached one), so an
    /// unchanged store is skipped; telling it unchanged is O(1) (`CheckedStore`).
    func checkChunks(_ ledger: inout ClientLedger, view: ClientView, server: SyncServer, report: Report) {
        if !view.localEchoes.isEmpty { checkEchoes(ledger, view: view, report: report) }
        // The chats whose store changed, ascending: on most events none did, and nothing is sorted or allocated; on
        // most of the rest one did (a push), and it needs no array either, and its store is checked as the walk
        // found it (looking it up again by chat hashed the id once more per push).
        var first: (chatId: Int64, store: ChunkStore)?
        var others: [Int64] = []
        for (chatId, store) in view.chunkStores {
            if ledger.isCheckedAndUnchanged(chatId, store) { continue }
            if first == nil { first = (chatId, store) } else { others.append(chatId) }
        }
        guard let first else { return }
        if others.isEmpty {
            return checkChangedStore(first.chatId, first.store, &ledger, server: server, report: report)
        }
        others.append(first.chatId)
        others.sort()
        for chatId in others {
            checkChangedStore(chatId, view.chunkStores[chatId]!, &ledger, server: server, report: report)
        }
    }

    /// C1–C5 over one chat whose store changed since its last check: judged from what it added when it only grew
    /// clean at the top, else over the whole store.
    private func checkChangedStore(
        _ chatId: Int64, _ store: ChunkStore, _ ledger: inout ClientLedger, server: SyncServer, report: Report
    ) {
        // The chat's entry read and replaced in one access (a read, then an assignment, hashed the id twice).
        Self.checkChangedStore(chatId, store, checked: &ledger.checkedStores[chatId], cleanStores: &ledger.cleanStores,
                               server: server, report: report)
    }

    private static func checkChangedStore(
        _ chatId: Int64, _ store: ChunkStore, checked: inout CheckedStore?, cleanStores: inout Set<Int64>,
        server: SyncServer, report: Report
    ) {
        let serverMessages = server.messages(inChat: chatId)
        if let previous = checked, cleanStores.contains(chatId),
           grewClean(from: previous.checkpoint, to: store, server: serverMessages) {
            assert(chunkProblems(store, server: serverMessages, chatId: chatId, in: server).isEmpty,
                   "C1–C5: the check over what the store added passed a store the whole check fails")
            checked = CheckedStore(checkpoint: store.checkpoint)
            return
        }
        let problems = chunkProblems(store, server: serverMessages, chatId: chatId, in: server)
        if problems.isEmpty { cleanStores.insert(chatId) } else { cleanStores.remove(chatId) }
        checked = CheckedStore(checkpoint: store.checkpoint, failedStore: problems.isEmpty ? nil : store)
        for (invariant, expected, problem) in problems { report(invariant, chatId, expected, problem) }
    }

    /// C4 over the local echoes: each shown once, and (with `flagsEchoOfCachedMessage`) none for a cached message.
    private func checkEchoes(_ ledger: ClientLedger, view: ClientView, report: Report) {
        var echoCidsByChat: [Int64: [Int64]] = [:]
        for echo in view.localEchoes { echoCidsByChat[echo.chatId, default: []].append(echo.cid) }
        for chatId in echoCidsByChat.keys.sorted() {
            for problem in ChunkChecks.c4Problems(cachedIds: [], echoCids: echoCidsByChat[chatId]!) {
                report(.C4, chatId, "each local echo once", problem)
            }
            guard options.flagsEchoOfCachedMessage, let store = view.chunkStores[chatId] else { continue }
            let echoed = Set(echoCidsByChat[chatId]!)
            for message in store.messages where message.sender == ledger.userId {
                if let cid = message.cid, echoed.contains(cid) {
                    report(.C4, chatId, "a send shown once",
                           "message \(message.id) cached and still echoed (cid \(cid))")
                }
            }
        }
    }

    /// C1–C5 over one chat's whole store, as (invariant, expected, problem) in report order.
    static func chunkProblems(
        _ store: ChunkStore, server serverMessages: [ChatMessage], chatId: Int64, in server: SyncServer
    ) -> [(InvariantID, String, String)] {
        var problems: [(InvariantID, String, String)] = []
        let ids = store.messageIds
        for problem in ChunkChecks.c1Problems(chunks: store.chunks, cachedIds: ids) {
            problems.append((.C1, "sorted, disjoint chunks that describe the cache", problem))
        }
        // Closures written as arguments: non-escaping, so `store` and `server` are not copied into a heap context.
        for problem in ChunkChecks.c2Problems(
            chunks: store.chunks, isCached: { store.containsMessage(id: $0) }, server: serverMessages) {
            problems.append((.C2, "every server message inside a chunk cached", problem))
        }
        for problem in ChunkChecks.c3Problems(
            cached: store.messages, server: serverMessages,
            versions: { server.versions(ofMessage: $0, inChat: chatId) }) {
            problems.append((.C3, "cached messages equal to the server's", problem))
        }
        for problem in ChunkChecks.c4Problems(cachedIds: ids, echoCids: []) {
            problems.append((.C4, "each message id once", problem))
        }
        for problem in ChunkChecks.c5Problems(chunks: store.chunks, server: serverMessages) {
            problems.append((.C5, "no server message older than a start-of-history chunk", problem))
        }
        return problems
    }

    /// Whether `store`, grown from the store of checkpoint `previous` (which passed C1–C5 with no problem), passes
    /// them too, judged from what it added alone; false means "not shown", and the caller runs the whole check.
    ///
    /// Shown when the store only grew at the top: the same cached messages unchanged, new ids above every old one,
    /// the same chunks but the newest, which kept its lower bound and flag and may have grown upwards, and new
    /// chunks above it. The server's history of a chat only grows upwards (a new message's id is above every
    /// stored one; edits and removals add versions), so what held for the old part still holds: C1 and C4 are
    /// checked over the new ids and chunks, C2 over the ranges the chunks newly cover, C3 over the new messages,
    /// and C5 cannot change (the oldest chunk and the server's oldest message are the same). Debug builds run the
    /// whole check as well and stop if it disagrees. Per push received, this is work in the size of the push
    /// instead of the size of the chat's history (which grows with the run).
    ///
    /// That the old messages and chunks are unchanged comes from the store's own bookkeeping
    /// (`ChunkStore.hasOnlyGrown(since:)`: every cached message kept unchanged, every chunk but the newest kept in
    /// place), in O(1); that no new id lies below the old ones, from the old newest id's position.
    ///
    /// C3 here compares the new messages with the server's newest versions only: a new message cached in an
    /// earlier version (an edit the client has not seen yet) is "not shown", and the whole check, which looks the
    /// versions up, decides. (Looking them up here took the server itself into the closure, a copy of all its
    /// tables on every push checked.)
    static func grewClean(
        from previous: ChunkStore.Checkpoint, to store: ChunkStore, server serverMessages: [ChatMessage]
    ) -> Bool {
        let ids = store.messageIds
        let chunks = store.chunks
        let oldIdCount = previous.messageCount
        guard let oldTop = previous.topChunk, store.hasOnlyGrown(since: previous), ids.count >= oldIdCount,
              chunks.count >= previous.chunkCount, oldIdCount == 0 || ids[oldIdCount - 1] == previous.newestId
        else { return false }
        let top = chunks[previous.chunkCount - 1]
        guard top.lower == oldTop.lower, top.isStartOfHistory == oldTop.isStartOfHistory, top.upper >= oldTop.upper
        else { return false }
        // New ids strictly ascending, above every old one (the old top chunk's upper bound is the newest old id).
        let added = ids[oldIdCount...]
        var last = oldTop.upper
        for id in added {
            guard id > last else { return false }
            last = id
        }
        // C1: the grown top chunk's upper bound is cached; new chunks are non-empty, ascending, disjoint, not
        // start-of-history, with cached bounds; every new id lies in the grown top chunk or a new chunk.
        func isAdded(_ id: Int64) -> Bool { store.containsMessage(id: id) && id > oldTop.upper }
        guard top.upper == oldTop.upper || isAdded(top.upper) else { return false }
        var below = top.upper
        for chunk in chunks[previous.chunkCount...] {
            guard chunk.lower > below, chunk.lower <= chunk.upper, !chunk.isStartOfHistory,
                  isAdded(chunk.lower), isAdded(chunk.upper) else { return false }
            below = chunk.upper
        }
        var chunkIndex = previous.chunkCount - 1
        for id in added {
            while chunkIndex < chunks.count && chunks[chunkIndex].upper < id { chunkIndex += 1 }
            guard chunkIndex < chunks.count, chunks[chunkIndex].lower <= id else { return false }
        }
        // C2 over the newly covered ranges: above the old top bound inside the top chunk, and the new chunks. Each
        // passed where it lies: gathering them into an array was an allocation on every push checked.
        func isCached(_ id: Int64) -> Bool { store.containsMessage(id: id) }
        guard ChunkChecks.c2Problems(
                chunks: CollectionOfOne(Chunk(lower: oldTop.upper, upper: top.upper, isStartOfHistory: false)),
                isCached: isCached, server: serverMessages).isEmpty,
              ChunkChecks.c2Problems(chunks: chunks[previous.chunkCount...], isCached: isCached,
                                     server: serverMessages).isEmpty
        else { return false }
        // C3 over the new messages, against the server's newest versions (see above): the store keeps its messages
        // in the order of its ids, so the new ones are the slice after the old count (copying each into a new array
        // cost an allocation and a retain of its strings per push).
        return ChunkChecks.c3Problems(cached: store.messages[oldIdCount...], server: serverMessages).isEmpty
    }

    /// C6 (liveness): call after the user scrolled a chat to the top with a working network and the loads ended.
    /// - Parameters:
    ///   - client: a registered client.
    ///   - chatId: the chat scrolled.
    ///   - view: the client's view now.
    ///   - server: the server now.
    ///   - now: virtual time.
    /// - Returns: the new findings.
    @discardableResult
    public func checkScrolledToTop(
        client: String, chatId: Int64, view: ClientView, server: SyncServer, at now: SimInstant
    ) -> [Finding] {
        let chunks = view.chunkStores[chatId]?.chunks ?? []
        let problems = ChunkChecks.c6Problems(chunks: chunks, server: server.messages(inChat: chatId))
        return record(problems.map {
            Finding(invariant: .C6, client: client, chatId: chatId, time: now,
                    expected: "one start-of-history chunk covering the chat", found: $0)
        })
    }

    /// V2 (liveness): call after the user scrolled the open chat down by at least as many messages as it holds, with
    /// a working network and the loads ended, when no message reached the chat since: the newest message the server
    /// holds that is not removed is on screen (or one newer: an own message shown below the chunk). Nothing is
    /// judged when every message of the chat is removed.
    /// - Parameters:
    ///   - client: a registered client.
    ///   - chatId: the chat scrolled.
    ///   - view: the client's view now.
    ///   - server: the server now.
    ///   - now: virtual time.
    /// - Returns: the new findings.
    @discardableResult
    public func checkScrolledToBottom(
        client: String, chatId: Int64, view: ClientView, server: SyncServer, at now: SimInstant
    ) -> [Finding] {
        guard let newest = server.messages(inChat: chatId).last(where: { !$0.isRemoved })?.id else { return [] }
        let shown = view.openChatId == chatId ? view.visibleMessageIds : []
        guard (shown.max() ?? .min) < newest else { return [] }
        let found = view.openChatId == chatId
            ? "on screen \(shown.first.map { "\($0)" } ?? "nothing")...\(shown.last.map { "\($0)" } ?? "")"
            : "the chat is not open"
        return record([Finding(invariant: .V2, client: client, chatId: chatId, time: now,
                               expected: "message \(newest) (the newest) on screen", found: found)])
    }
}
