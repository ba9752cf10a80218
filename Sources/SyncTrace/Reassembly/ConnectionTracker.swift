/// Sorts TCP segments into connections by their address/port pair and reassembles both directions of each.
///
/// Connections keep the order of their first packet. A SYN on a pair whose previous connection is closed (FIN
/// both ways, or RST) starts a new connection, so a reused port pair yields two connections.
struct ConnectionTracker {
    private struct Key: Hashable {
        var low: TCPEndpoint
        var high: TCPEndpoint
        init(_ a: TCPEndpoint, _ b: TCPEndpoint) {
            (low, high) = a < b ? (a, b) : (b, a)
        }
    }

    private struct Connection {
        var client: TCPEndpoint
        var server: TCPEndpoint
        var firstPacketNumber: Int
        var firstTimestamp: CaptureTimestamp
        var lastTimestamp: CaptureTimestamp
        var packetCount = 0
        var clientToServer = StreamReassembler()
        var serverToClient = StreamReassembler()

        var isClosed: Bool {
            clientToServer.isReset || serverToClient.isReset || (clientToServer.isClosed && serverToClient.isClosed)
        }
    }

    /// Connections in first-packet order; `index` only finds them (its order never reaches the output).
    private var connections: [Connection] = []
    private var index: [Key: Int] = [:]

    mutating func receive(_ segment: TCPSegment) {
        let key = Key(segment.source, segment.destination)
        let isOpeningSYN = segment.flags.contains(.syn) && !segment.flags.contains(.ack)
        var position = index[key]
        if let existing = position, isOpeningSYN, connections[existing].isClosed,
            connections[existing].client == segment.source,
            connections[existing].clientToServer.baseSeq != segment.seq &+ 1
        {
            position = nil
        }
        if position == nil {
            position = connections.count
            index[key] = position
            connections.append(Self.open(segment))
        }
        let at = position!
        connections[at].packetCount += 1
        connections[at].lastTimestamp = max(connections[at].lastTimestamp, segment.timestamp)
        let fromClient = segment.source == connections[at].client
        if fromClient {
            connections[at].clientToServer.receive(segment)
            if segment.flags.contains(.ack) {
                connections[at].serverToClient.acknowledge(
                    segment.ack, packetNumber: segment.packetNumber, timestamp: segment.timestamp)
            }
        } else {
            connections[at].serverToClient.receive(segment)
            if segment.flags.contains(.ack) {
                connections[at].clientToServer.acknowledge(
                    segment.ack, packetNumber: segment.packetNumber, timestamp: segment.timestamp)
            }
        }
    }

    private static func open(_ segment: TCPSegment) -> Connection {
        let sourceIsClient: Bool
        if segment.flags.contains(.syn) {
            sourceIsClient = !segment.flags.contains(.ack)
        } else if segment.source.port != segment.destination.port {
            sourceIsClient = segment.source.port > segment.destination.port
        } else {
            sourceIsClient = true
        }
        return Connection(
            client: sourceIsClient ? segment.source : segment.destination,
            server: sourceIsClient ? segment.destination : segment.source,
            firstPacketNumber: segment.packetNumber,
            firstTimestamp: segment.timestamp,
            lastTimestamp: segment.timestamp
        )
    }

    /// Ends the capture and returns every connection, in first-packet order.
    mutating func finish() -> [TCPConnectionTrace] {
        connections.indices.map { position in
            var connection = connections[position]
            connection.clientToServer.finish()
            connection.serverToClient.finish()
            return TCPConnectionTrace(
                number: position + 1, client: connection.client, server: connection.server,
                firstPacketNumber: connection.firstPacketNumber, firstTimestamp: connection.firstTimestamp,
                lastTimestamp: connection.lastTimestamp, packetCount: connection.packetCount,
                clientToServer: connection.clientToServer.trace, serverToClient: connection.serverToClient.trace
            )
        }
    }
}
