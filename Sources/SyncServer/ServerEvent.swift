import SimCore
import SyncProtocol

/// An input to the server core, fed by its driver together with the virtual time it happened at.
public enum ServerEvent: Hashable, Sendable {
    /// A client's connection was accepted (the TCP handshake completed).
    case connectionOpened(ServerConnectionID)
    /// A whole packet arrived on a connection.
    case packetReceived(Packet, on: ServerConnectionID)
    /// The connection closed (FIN, RST, or the driver noticed it is gone).
    case connectionClosed(ServerConnectionID)
    /// A timer started with `ServerAction.startTimer` fired.
    case timerFired(ServerTimerID)
    /// The server process restarts: every connection drops, requests being processed are lost, data stays.
    case restart
}
