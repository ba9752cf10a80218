import SimCore
import SyncProtocol

/// Identifies one chat connection the client asked its driver to open (a fresh id per attempt).
public struct ClientConnectionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "client-conn#\(rawValue)" }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Identifies one photo upload to the CDN the client asked its driver to perform.
public struct UploadID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { "upload#\(rawValue)" }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Identifies a timer the client asked its driver to start. Unknown or stale timers are ignored when they fire.
public struct ClientTimerID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public var description: String { "client-timer#\(rawValue)" }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Something the user does in the app.
public enum UserAction: Hashable, Sendable {
    /// Opens a chat: shows its newest messages.
    case openChat(Int64)
    /// Leaves the open chat.
    case closeChat
    /// Scrolls the open chat up (towards older messages) by this many messages.
    case scrollUp(messages: Int)
    /// Scrolls the open chat down (towards newer messages) by this many messages.
    case scrollDown(messages: Int)
    /// Sends a text message to a chat.
    case sendText(chatId: Int64, text: String)
    /// Sends a photo of `sizeBytes` bytes with a caption: processed, uploaded to the CDN, then sent as a message.
    case sendPhoto(chatId: Int64, sizeBytes: Int, caption: String)
}

/// An input to a client engine, fed by its driver together with the virtual time it happened at.
public enum ClientEvent: Hashable, Sendable {
    /// The app starts (first launch or after a restart): the engine rebuilds itself from its database.
    case start
    /// The chat connection asked for with `ClientAction.connect` is established.
    case connected(ClientConnectionID)
    /// The connection could not be established (no network, refused).
    case connectFailed(ClientConnectionID)
    /// An established connection closed or broke.
    case disconnected(ClientConnectionID)
    /// A whole packet arrived on the chat connection.
    case packetReceived(Packet, on: ClientConnectionID)
    /// A timer started with `ClientAction.startTimer` fired.
    case timerFired(ClientTimerID)
    /// An upload asked for with `ClientAction.upload` finished; `succeeded` is false when it failed or was refused.
    case uploadFinished(UploadID, succeeded: Bool)
    /// The driver reports bytes the client's sockets carried (for metrics), in bytes.
    case bytesTransferred(upBytes: Int, downBytes: Int)
    /// The user did something.
    case user(UserAction)
}

/// What a client engine asks its driver to do.
public enum ClientAction: Hashable, Sendable {
    /// Open a chat connection to the server; answer with `.connected` or `.connectFailed`.
    case connect(ClientConnectionID)
    /// Send a request packet on the chat connection.
    case send(Packet, on: ClientConnectionID)
    /// Close the chat connection.
    case close(ClientConnectionID)
    /// Deliver `.timerFired(id)` at the given instant.
    case startTimer(ClientTimerID, at: SimInstant)
    /// Forget a timer.
    case cancelTimer(ClientTimerID)
    /// Upload `sizeBytes` bytes to the CDN under `token` (a separate connection over the same access link);
    /// answer with `.uploadFinished`.
    case upload(UploadID, token: String, sizeBytes: Int)
}
