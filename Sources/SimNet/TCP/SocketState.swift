import SimCore

/// A socket's state as its application sees it.
public enum SocketState: Hashable, Sendable {
    /// The handshake is under way.
    case connecting
    /// Established; both directions open.
    case open
    /// Established, but one side has sent FIN.
    case closing
    /// Closed, reset, timed out, or abandoned.
    case closed
}
