/// One row of the server's idempotency table: (user, cid) -> the message it created.
public struct IdempotencyEntry: Hashable, Sendable {
    /// The sender.
    public var userId: Int64
    /// The sender's idempotency key.
    public var cid: Int64
    /// The chat the message was stored in.
    public var chatId: Int64
    /// The message the first MSG_SEND with this key created.
    public var messageId: Int64

    /// One row of the table.
    public init(userId: Int64, cid: Int64, chatId: Int64, messageId: Int64) {
        self.userId = userId
        self.cid = cid
        self.chatId = chatId
        self.messageId = messageId
    }
}
