import SimCore
import SyncProtocol

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
