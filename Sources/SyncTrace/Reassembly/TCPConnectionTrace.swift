/// A TCP connection found in a capture, both directions reassembled.
///
/// The client is the side that sent the first SYN; without a handshake in the capture, the side with the higher
/// port (ties: the sender of the first packet seen), unless its frames show otherwise (`TraceDecoder.decode(_:)`).
public struct TCPConnectionTrace: Hashable, Sendable {
    /// 1-based, in the order the connections' first packets appear in the capture.
    public var number: Int
    /// The side that opened the connection (see the type's summary).
    public var client: TCPEndpoint
    /// The other side.
    public var server: TCPEndpoint
    /// Number of the connection's first packet.
    public var firstPacketNumber: Int
    /// Capture time of the first packet.
    public var firstTimestamp: CaptureTimestamp
    /// Capture time of the latest packet.
    public var lastTimestamp: CaptureTimestamp
    /// Packets of this connection, both directions.
    public var packetCount: Int
    /// Bytes the client sent.
    public var clientToServer: TCPStreamTrace
    /// Bytes the server sent.
    public var serverToClient: TCPStreamTrace
    /// The TLS session when the connection carried TLS and was decrypted with a key log (`TLSDecryption`): then
    /// the two streams hold the decrypted application data. Nil for a plain connection.
    public var tls: TLSSession?

    /// A connection from its fields.
    public init(
        number: Int, client: TCPEndpoint, server: TCPEndpoint, firstPacketNumber: Int,
        firstTimestamp: CaptureTimestamp, lastTimestamp: CaptureTimestamp, packetCount: Int,
        clientToServer: TCPStreamTrace, serverToClient: TCPStreamTrace
    ) {
        self.number = number
        self.client = client
        self.server = server
        self.firstPacketNumber = firstPacketNumber
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
        self.packetCount = packetCount
        self.clientToServer = clientToServer
        self.serverToClient = serverToClient
    }

    /// The same connection with client and server (and their streams) exchanged: a connection captured without its
    /// handshake whose frames show the roles the other way round (`TraceDecoder.decode(_:)`).
    public var withRolesSwapped: TCPConnectionTrace {
        var swapped = self
        swapped.client = server
        swapped.server = client
        swapped.clientToServer = serverToClient
        swapped.serverToClient = clientToServer
        return swapped
    }

    /// The direction's reassembled stream.
    public func stream(_ direction: TraceDirection) -> TCPStreamTrace {
        switch direction {
        case .clientToServer: clientToServer
        case .serverToClient: serverToClient
        }
    }
}
