import SimCore
import SyncClient
import SyncProtocol
import SyncServer

extension InvariantChecker {
    /// V1 (convergence): call at quiescence (network up, no pending work, the client logged in since the last
    /// server change). The client's chat list names every chat of its user, the newest message it knows there
    /// (chat-list entry or cache) is the server's last, and every loaded history ends there and holds the
    /// server's messages.
    /// - Parameters:
    ///   - client: a registered client.
    ///   - view: the client's view now.
    ///   - server: the server now.
    ///   - now: virtual time.
    /// - Returns: the new findings (at most one per chat).
    @discardableResult
    public func checkConverged(client: String, view: ClientView, server: SyncServer, at now: SimInstant) -> [Finding] {
        guard let ledger = ledgers[client] else { preconditionFailure("unregistered client \(client)") }
        var new: [Finding] = []
        func report(_ chatId: Int64, _ expected: String, _ found: String) {
            new.append(Finding(invariant: .V1, client: client, chatId: chatId, time: now, expected: expected,
                               found: found))
        }
        let memberChats = server.chatIds.filter { server.members(ofChat: $0).contains(ledger.userId) }
        for chatId in memberChats {
            let serverLast = server.summary(ofChat: chatId)?.lastMessage?.id
            guard let entry = view.chatList[chatId] else {
                report(chatId, "chat \(chatId) in the chat list", "it is missing")
                continue
            }
            // The chat list previews the newest message the client knows: its entry's, or a newer cached one (the
            // acknowledgement of its own send, which no push or LOGIN entry carries until the next LOGIN).
            let store = view.chunkStores[chatId]
            let clientLast = [entry.lastMessage?.id, store?.topChunk?.upper].compactMap { $0 }.max()
            if clientLast != serverLast {
                report(chatId, "last message \(serverLast.map(String.init) ?? "none") in the chat list",
                       "\(clientLast.map(String.init) ?? "none")")
                continue
            }
            guard let store, let top = store.topChunk else { continue }
            if let serverLast, top.upper != serverLast {
                report(chatId, "loaded history up to message \(serverLast)", "top chunk \(top)")
                continue
            }
            let serverMessages = server.messages(inChat: chatId)
            let isCached = { (id: Int64) in store.message(id: id) != nil }
            let problems = ChunkChecks.c2Problems(chunks: store.chunks, isCached: isCached, server: serverMessages)
                + ChunkChecks.c3Problems(cached: store.messages, server: serverMessages)
            if let first = problems.first { report(chatId, "loaded history equal to the server's", first) }
        }
        let members = Set(memberChats)
        for chatId in view.chatList.keys.sorted() where !members.contains(chatId) {
            report(chatId, "only chats of user \(ledger.userId) in the chat list", "chat \(chatId)")
        }
        return record(new)
    }

    /// The end-of-run checks for a run that ended with the network up long enough: T5 and V1 for each client.
    /// - Parameters:
    ///   - views: each registered client's view, by name (order does not matter).
    ///   - server: the server now.
    ///   - now: virtual time.
    /// - Returns: the new findings, by client name.
    @discardableResult
    public func checkEndOfRun(views: [String: ClientView], server: SyncServer, at now: SimInstant) -> [Finding] {
        var new: [Finding] = []
        for client in views.keys.sorted() {
            new += checkQueueDrained(client: client, view: views[client]!, at: now)
            new += checkConverged(client: client, view: views[client]!, server: server, at: now)
        }
        return new
    }
}
