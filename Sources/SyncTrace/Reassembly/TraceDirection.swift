/// Which way bytes flow on a connection.
public enum TraceDirection: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Bytes the client sends to the server.
    case clientToServer = "client->server"
    /// Bytes the server sends to the client.
    case serverToClient = "server->client"

    public var description: String { rawValue }
}
