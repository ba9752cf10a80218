import SimCore
import SyncProtocol

/// Identifies one client connection to the server; the driver (world, replayer) allocates them.
public struct ServerConnectionID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    public var description: String { "conn#\(rawValue)" }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Identifies a timer the server asked its driver to start (a delayed response being processed).
public struct ServerTimerID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int64

    public init(rawValue: Int64) { self.rawValue = rawValue }

    public var description: String { "server-timer#\(rawValue)" }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

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
