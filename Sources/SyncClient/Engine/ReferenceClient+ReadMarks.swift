import SimCore
import SyncProtocol

// Read marks: the newest message seen per chat, sent with CHAT_MARK only when it advances past what the server has,
// one at a time per chat, kept in the database while offline and sent once after LOGIN.
extension ReferenceClient {
    private static let seenKeyPrefix = "readMark."
    private static let acknowledgedKeyPrefix = "readMarkAcknowledged."

    /// The read marks stored in the sync table, by chat id.
    func loadReadMarks() -> [Int64: ReadMark] {
        var marks: [Int64: ReadMark] = [:]
        for (key, value) in store.syncEntries(prefix: Self.seenKeyPrefix) {
            if let chatId = Int64(key.dropFirst(Self.seenKeyPrefix.count)) { marks[chatId, default: ReadMark()].seen = value }
        }
        for (key, value) in store.syncEntries(prefix: Self.acknowledgedKeyPrefix) {
            if let chatId = Int64(key.dropFirst(Self.acknowledgedKeyPrefix.count)) {
                marks[chatId, default: ReadMark()].acknowledged = value
            }
        }
        return marks
    }

    /// The user saw message `id` of a chat: the mark advances (and is stored) only past what was seen before.
    mutating func markSeen(chatId: Int64, _ id: Int64) {
        var mark = readMarks[chatId] ?? ReadMark()
        guard id > mark.seen, id > mark.acknowledged else { return }
        mark.seen = id
        readMarks[chatId] = mark
        store.setSync(Self.seenKeyPrefix + String(chatId), id)
        sendReadMark(chatId: chatId)
    }

    /// Sends every stored mark the server does not have yet (after LOGIN), in chat id order.
    mutating func sendReadMarks() {
        for chatId in readMarks.keys.sorted() { sendReadMark(chatId: chatId) }
    }

    /// Sends a chat's mark when online, ahead of the server's and none is in flight; a newer mark seen meanwhile
    /// goes out when the one in flight is answered.
    mutating func sendReadMark(chatId: Int64) {
        guard case .online = state, var mark = readMarks[chatId], mark.seen > mark.acknowledged,
              mark.inFlight == nil else { return }
        // The field's CHAT_MARK: the newest message read and when, in the device's epoch milliseconds.
        let readAt = parameters.deviceEpochMilliseconds + now.nanosecondsSinceStart / 1_000_000
        let request = ChatMarkRequest(chatId: chatId, messageId: mark.seen, mark: readAt)
        guard sendRequest(.chatMark, .chatMark(request), purpose: .chatMark(chatId: chatId, mark: mark.seen)) else {
            return
        }
        mark.inFlight = mark.seen
        readMarks[chatId] = mark
    }

    /// The server acknowledged a mark: store it and send a newer one seen meanwhile.
    mutating func readMarkAcknowledged(chatId: Int64, _ value: Int64) {
        var mark = readMarks[chatId] ?? ReadMark()
        mark.inFlight = nil
        consecutiveReadMarkFailures = 0
        if value > mark.acknowledged {
            mark.acknowledged = value
            store.setSync(Self.acknowledgedKeyPrefix + String(chatId), value)
        }
        readMarks[chatId] = mark
        sendReadMark(chatId: chatId)
    }

    /// A CHAT_MARK failed: the mark stays stored. After a disconnect the next LOGIN sends it; after an error or a
    /// timeout it is sent again after the backed-off wait of a failed page (`retryDelay(afterConsecutiveFailures:)`),
    /// counted over every chat's marks. Before, it waited for the next LOGIN, which on a healthy connection may be
    /// hours away: one refusal left the user's other devices and the peer showing the chat unread (round 37's field
    /// sequences, `mark-error-once`).
    mutating func readMarkFailed(chatId: Int64, _ failure: Failure) {
        readMarks[chatId]?.inFlight = nil
        guard failure != .disconnected else { return }
        consecutiveReadMarkFailures += 1
        startRetryTimer(.readMarkRetry, afterFailures: consecutiveReadMarkFailures)
    }
}
