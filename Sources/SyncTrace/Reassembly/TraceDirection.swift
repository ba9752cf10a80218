/// Which way bytes flow on a connection.
public enum TraceDirection: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case clientToServer = "client->server"
    case serverToClient = "server->client"

    public var description: String { rawValue }
}
