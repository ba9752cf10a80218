import SimCore
import SyncProtocol

/// What the server core asks its driver to do.
public enum ServerAction: Hashable, Sendable {
    /// Send a packet (response, error or push) on a connection.
    case send(Packet, on: ServerConnectionID)
    /// Close a connection.
    case close(ServerConnectionID)
    /// Deliver `ServerEvent.timerFired(id)` at the given instant.
    case startTimer(ServerTimerID, at: SimInstant)
    /// Forget a timer started earlier; firing it later is harmless (the core ignores unknown timers).
    case cancelTimer(ServerTimerID)
}
