import SyncClient
import SyncProtocol
import SyncServer

/// Invariant V1 (convergence) as a pure function, for `InvariantChecker` and for a world's "has converged" probe.
public enum ConvergenceChecks {
    /// One chat that has not converged.
    public struct Problem: Hashable, Sendable {
        /// The server chat id.
        public var chatId: Int64
        /// What convergence expects.
        public var expected: String
        /// What the client holds.
        public var found: String
    }

    /// V1: the client's chat list names every chat of its user (and no other), the newest message it knows there
    /// (chat-list entry or cache) is the server's last, and every loaded history ends there and holds the
    /// server's messages.
    ///
    /// The newest cached message counts as the chat list's preview because the acknowledgement of the client's own
    /// send updates the cache, while no push or LOGIN entry carries it until the next LOGIN.
    /// - Parameters:
    ///   - userId: the server user the client logs in as.
    ///   - view: the client's view.
    ///   - server: the server.
    /// - Returns: at most one problem per chat, ascending by chat id; empty when converged.
    /// - Complexity: O(n·log m) per loaded chat for n cached and m server messages.
    public static func v1Problems(userId: Int64, view: ClientView, server: SyncServer) -> [Problem] {
        var problems: [Problem] = []
        func report(_ chatId: Int64, _ expected: String, _ found: String) {
            problems.append(Problem(chatId: chatId, expected: expected, found: found))
        }
        let memberChats = server.chatIds(ofMember: userId)
        for chatId in memberChats {
            let serverLast = server.summary(ofChat: chatId)?.lastMessage?.id
            guard let entry = view.chatList[chatId] else {
                report(chatId, "chat \(chatId) in the chat list", "it is missing")
                continue
            }
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
            let isCached = { (id: Int64) in store.containsMessage(id: id) }
            let differences = ChunkChecks.c2Problems(chunks: store.chunks, isCached: isCached, server: serverMessages)
                + ChunkChecks.c3Problems(cached: store.messages, server: serverMessages)
            if let first = differences.first { report(chatId, "loaded history equal to the server's", first) }
        }
        let members = Set(memberChats)
        for chatId in view.chatList.keys.sorted() where !members.contains(chatId) {
            report(chatId, "only chats of user \(userId) in the chat list", "chat \(chatId)")
        }
        return problems.sorted { $0.chatId < $1.chatId }
    }
}
