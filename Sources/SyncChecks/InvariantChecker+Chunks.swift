import SimCore
import SyncClient
import SyncProtocol
import SyncServer

extension InvariantChecker {
    typealias Report = (InvariantID, Int64?, String, String) -> Void

    /// C1–C5 over the chats whose chunk store changed since the last check.
    ///
    /// Server appends cannot break C2, C3 or C5 for an unchanged store (new ids lie above every cached one), so an
    /// unchanged store is skipped; comparing it with its last copy is cheap because both share storage.
    func checkChunks(_ ledger: inout ClientLedger, view: ClientView, server: SyncServer, report: Report) {
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
        for chatId in view.chunkStores.keys.sorted() {
            let store = view.chunkStores[chatId]!
            if ledger.checkedStores[chatId] == store { continue }
            ledger.checkedStores[chatId] = store
            let serverMessages = server.messages(inChat: chatId)
            let ids = store.messageIds
            for problem in ChunkChecks.c1Problems(chunks: store.chunks, cachedIds: ids) {
                report(.C1, chatId, "sorted, disjoint chunks that describe the cache", problem)
            }
            let isCached = { (id: Int64) in store.message(id: id) != nil }
            for problem in ChunkChecks.c2Problems(chunks: store.chunks, isCached: isCached, server: serverMessages) {
                report(.C2, chatId, "every server message inside a chunk cached", problem)
            }
            let versions = { (id: Int64) in server.versions(ofMessage: id, inChat: chatId) }
            for problem in ChunkChecks.c3Problems(cached: store.messages, server: serverMessages, versions: versions) {
                report(.C3, chatId, "cached messages equal to the server's", problem)
            }
            for problem in ChunkChecks.c4Problems(cachedIds: ids, echoCids: []) {
                report(.C4, chatId, "each message id once", problem)
            }
            for problem in ChunkChecks.c5Problems(chunks: store.chunks, server: serverMessages) {
                report(.C5, chatId, "no server message older than a start-of-history chunk", problem)
            }
        }
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
}
