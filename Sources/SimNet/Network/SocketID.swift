import SimCore

/// One end of a connection, as the application on its host holds it.
///
/// A connection has two sockets: the initiator's (returned by `Network.connect`) and the acceptor's (announced
/// with a `.accepted` event). `peer` names the other end.
public struct SocketID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Twice the connection number, plus one for the acceptor.
    public let rawValue: Int

    /// The socket with raw value `rawValue` (twice the connection number, plus one for the acceptor).
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The connection's number, in `connect` order.
    public var connection: Int { rawValue >> 1 }

    /// Whether this is the end that called `connect`.
    public var isInitiator: Bool { rawValue & 1 == 0 }

    /// The other end of the same connection.
    public var peer: SocketID { SocketID(rawValue: rawValue ^ 1) }

    /// `conn3.initiator` or `conn3.acceptor`.
    public var description: String { "conn\(connection).\(isInitiator ? "initiator" : "acceptor")" }

    public static func < (lhs: SocketID, rhs: SocketID) -> Bool { lhs.rawValue < rhs.rawValue }
}
