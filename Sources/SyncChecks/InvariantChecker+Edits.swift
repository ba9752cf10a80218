import SyncClient
import SyncProtocol

extension InvariantChecker {
    /// Records the changed message versions (edits, removals) a packet delivers to a client (C7).
    func noteDeliveredChanges(_ ledger: inout ClientLedger, packet: Packet) {
        func note(_ chatId: Int64, _ id: Int64, version: Int64, isRemoved: Bool) {
            guard version > 0 else { return }
            if let known = ledger.deliveredChanges[chatId]?[id], known.version >= version { return }
            ledger.deliveredChanges[chatId, default: [:]][id] = (version, isRemoved)
        }
        func note(_ chatId: Int64, _ message: ChatMessage) {
            note(chatId, message.id, version: message.version, isRemoved: message.isRemoved)
        }
        switch packet.body {
        case .notifMessage(let push):
            // Most pushes carry a message never changed (version 0): nothing to note, and nothing else read.
            if push.message.version > 0 { note(push.chatId, push.message) }
        case .notifMsgDelete(let push):
            for id in push.messageIds { note(push.chatId, id, version: push.updateTime ?? 0, isRemoved: true) }
        case .loginResponse(let response):
            for chat in response.chats { if let last = chat.lastMessage { note(chat.id, last) } }
            for chatId in response.messages.keys.sorted() {
                for message in response.messages[chatId]! { note(chatId, message) }
            }
        case .msgSendResponse(let response): note(response.chatId, response.message)
        default: break
        }
    }

    /// C7: every cached message is at least as new as the newest edit or removal of it the client was given,
    /// whether that change arrived before or after the message itself.
    func checkEdits(_ ledger: ClientLedger, view: ClientView, report: Report) {
        // Most clients never had an edit delivered: no sort of an empty key list on each of their events.
        guard !ledger.deliveredChanges.isEmpty else { return }
        for chatId in ledger.deliveredChanges.keys.sorted() {
            guard let store = view.chunkStores[chatId] else { continue }
            let changes = ledger.deliveredChanges[chatId]!
            for id in changes.keys.sorted() {
                guard let cached = store.message(id: id) else { continue }
                let change = changes[id]!
                if cached.version < change.version || (change.isRemoved && !cached.isRemoved) {
                    report(.C7, chatId, "message \(id) at least as new as its \(change.isRemoved ? "removal" : "edit") "
                           + "at \(change.version) ms",
                           "message \(id) cached in its version of \(cached.version) ms: \"\(cached.text)\"")
                }
            }
        }
    }
}
