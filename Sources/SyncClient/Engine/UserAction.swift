/// Something the user does in the app.
public enum UserAction: Hashable, Sendable {
    /// Opens a chat: shows its newest messages.
    case openChat(Int64)
    /// Leaves the open chat.
    case closeChat
    /// Marks a chat read up to its newest cached message (the engine decides when to send CHAT_MARK).
    case markRead(chatId: Int64)
    /// Scrolls the open chat up (towards older messages) by this many messages.
    case scrollUp(messages: Int)
    /// Scrolls the open chat down (towards newer messages) by this many messages.
    case scrollDown(messages: Int)
    /// Sends a text message to a chat.
    case sendText(chatId: Int64, text: String)
    /// Sends a photo of `sizeBytes` bytes with a caption: processed, uploaded to the CDN, then sent as a message.
    case sendPhoto(chatId: Int64, sizeBytes: Int, caption: String)
}
