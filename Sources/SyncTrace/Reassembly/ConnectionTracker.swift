/// Sorts TCP segments into connections by their address/port pair and reassembles both directions of each.
///
/// Connections keep the order of their first packet. An opening SYN (no ACK) on a pair already seen starts a new
/// connection unless it repeats the ISN of its sender's stream (a retransmitted SYN): a reused port pair yields
/// two connections whether or not the capture saw the first one close (a FIN both ways or a RST), as Wireshark
/// splits a conversation at such a SYN ("TCP Port numbers reused"). Without it the second connection's bytes
/// fell outside the first's sequence space, and its frames were lost or read as a gap of megabytes.
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
    }

    /// Connections in first-packet order; `index` only finds them (its order never reaches the output).
    private var connections: [Connection] = []
    private var index: [Key: Int] = [:]

    mutating func receive(_ segment: TCPSegment) {
        let key = Key(segment.source, segment.destination)
        let isOpeningSYN = segment.flags.contains(.syn) && !segment.flags.contains(.ack)
        var position = index[key]
        if let existing = position, isOpeningSYN {
            let senderStream =
                connections[existing].client == segment.source
                ? connections[existing].clientToServer : connections[existing].serverToClient
            if let base = senderStream.baseSeq, base != segment.seq &+ 1 { position = nil }
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
