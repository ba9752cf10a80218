import SimCore

/// Something that happened to a socket, for the application on its host.
public struct SocketEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// The host accepted a connection from `peer` (handshake complete on the acceptor's side).
        case accepted(peer: HostID)
        /// The handshake completed on the initiator's side.
        case connected
        /// In-order bytes arrived (each byte exactly once, in the order it was sent).
        case received([UInt8])
        /// The peer closed its side (FIN received): no more bytes will arrive.
        case closed
        /// The connection was reset (RST received, or refused).
        case reset
        /// Retransmissions gave up: the retry limit was reached (the peer or the path is gone).
        case timedOut
    }

    /// When it happened.
    public var time: SimInstant
    /// The host whose application should handle it.
    public var host: HostID
    /// The socket it concerns.
    public var socket: SocketID
    /// What happened.
    public var kind: Kind

    /// An event for the application on `host`.
    public init(time: SimInstant, host: HostID, socket: SocketID, kind: Kind) {
        self.time = time
        self.host = host
        self.socket = socket
        self.kind = kind
    }

    /// `1.234s conn0.initiator received 32 bytes`.
    public var description: String {
        switch kind {
        case .accepted(let peer): return "\(time) \(socket) accepted from \(peer)"
        case .connected: return "\(time) \(socket) connected"
        case .received(let bytes): return "\(time) \(socket) received \(bytes.count) bytes"
        case .closed: return "\(time) \(socket) closed"
        case .reset: return "\(time) \(socket) reset"
        case .timedOut: return "\(time) \(socket) timed out"
        }
    }
}
