import SyncSim
import SyncTrace

/// A decoded capture laid out for replay: per TCP connection of one client, when it opened and closed and its
/// frames as typed packets, in virtual time from the capture's first packet.
struct ReplayTimeline {
    /// One frame of the capture.
    struct Entry {
        var time: SimInstant
        var connection: Int
        var direction: TraceDirection
        var packet: Packet
        /// The frame's bytes in its direction's stream (offset since the first byte ..< end).
        var bytes: Range<Int64> = 0..<0
        /// For a request the capture lost and the replay rebuilt from its answer (`ReplayLostRequests`): the latest
        /// time it can have reached the server (its `time` is the earliest). Nil for a captured frame.
        var reachedServerBy: SimInstant?
    }

    /// A segment the client sent again: when, and the stream bytes it carried.
    struct Retransmission {
        var time: SimInstant
        var bytes: Range<Int64>
    }

    /// A segment that carried payload: when it was captured, its payload bytes, and whether it repeated bytes
    /// already received.
    struct PayloadSegment {
        var time: SimInstant
        var bytes: Int
        var isRetransmission: Bool
    }

    /// One TCP connection of the capture.
    struct Connection {
        /// The capture's connection number (1...).
        var number: Int
        /// The connecting end, `198.18.0.3:32768`. When several users logged in from one address (clients behind
        /// one NAT, or a capture on one host's loopback), the address carries `#n`, the n-th of those users to log
        /// in: `127.0.0.1#2:45075`. Everything downstream takes the part before the colon as the client.
        var client: String
        /// The client part of `client`, before its port: `198.18.0.3`, `127.0.0.1#2`, `[::1]` (an IPv6 address keeps
        /// its brackets: the port follows the last colon).
        var clientAddress: String {
            guard let colon = client.lastIndex(of: ":") else { return client }
            return String(client[..<colon])
        }
        /// The accepting end, `198.18.0.1:5443`.
        var server: String = ""
        /// What the connection was for, from its server address and content.
        var role: Role = .chat
        var opensAt: SimInstant
        /// When it closed (the last packet, if either side sent FIN or RST); nil while open at the capture's end.
        var closesAt: SimInstant?
        /// Frames of both directions in capture-time order.
        var entries: [Entry]
        /// What the TCP layer showed: RST seen from the server, FIN or RST from the client, segments and
        /// retransmitted segments per direction, and reassembly doubts (gaps, anomalies) as `what` lines.
        var tcp = TCPFacts()
    }

    /// What a connection carried: frames of the sync protocol to the chat server, a CDN transfer (`upload`: a photo's
    /// bytes to another host, which are no frames, or plain HTTP on the chat server's port: an upload's POST or PUT,
    /// or a download's GET, as `syncsim serve` takes them), or nothing at all because the server refused it (its SYN
    /// answered by a RST: the server was down).
    enum Role: Equatable {
        case chat
        case upload
        case refused
    }

    /// TCP-level facts of one connection, for the emitter's inference (link loss, resets, doubts).
    struct TCPFacts {
        var serverReset = false
        /// When the server's first RST was captured (nil without one).
        var serverResetAt: SimInstant?
        /// When the client's first FIN or RST was captured (nil without one).
        var clientClosedAt: SimInstant?
        /// When the server's first FIN or RST was captured (nil without one): the server sent nothing on the
        /// connection after it.
        var serverClosedAt: SimInstant?
        /// Whether the server's SYN (the SYN-ACK) was captured.
        var serverSYN = true
        /// Bytes the client sent (gaps excluded).
        var clientBytes: Int64 = 0
        /// Segments the client sent again (its data went unacknowledged for a retransmission timeout).
        var clientRetransmissions = 0
        /// Those segments, timed, in capture order.
        var clientRetransmitted: [Retransmission] = []
        /// When each segment of either direction was captured, in capture order (pure ACKs included).
        var clientSegmentTimes: [SimInstant] = []
        var serverSegmentTimes: [SimInstant] = []
        /// Each direction's segments that carried payload, in capture order: the server's spacing gives the
        /// downlink's rate (`ReplayInference.downlinkRate`), and the runs of retransmissions tell loss in bursts
        /// from loss one segment at a time (`ReplayInference.burstLoss`).
        var clientPayloadSegments: [PayloadSegment] = []
        var serverPayloadSegments: [PayloadSegment] = []
        /// When the server's acknowledgement of the client's bytes moved forward, and up to which stream offset.
        var serverAcknowledged: [(time: SimInstant, offset: Int64)] = []
        var clientReset = false
        var clientFIN = false
        var serverFIN = false
        var sawSYN = true
        var segments = 0
        var retransmittedSegments = 0
        var doubts: [String] = []
        /// Bytes no captured packet carried, client to server and server to client, in stream order: the frames
        /// across them are lost (a request the server got and the capture did not, or an answer).
        var clientGaps: [LostBytes] = []
        var serverGaps: [LostBytes] = []
    }

    /// Bytes of one direction's stream that the capture lacks (a `StreamGap` not cut by the snap length).
    struct LostBytes {
        /// The first missing byte's stream offset, and how many are missing.
        var offset: Int64
        var length: Int64
        /// The packet at which the reader gave up waiting for them, and its time.
        var packetNumber: Int
        var time: SimInstant
        var end: Int64 { offset + length }
        /// "82 bytes missing at offset 2027 (packet 94, 0.610s)": the packet and time at which the reader gave up.
        var description: String { "\(length) bytes missing at offset \(offset) (packet \(packetNumber), \(time))" }
    }

    /// The connections in opening order.
    var connections: [Connection]
    /// Frames that decoded but are not a packet the cores take, by connection, as `what` lines.
    var skippedFrames: [String] = []
    /// The last capture instant, in virtual time.
    var end: SimInstant
    /// Whether the capture broke off inside a record and was read up to there (`--keep-truncated`): its
    /// connections' last frames may be missing.
    var brokeOff = false
    /// One line per address that several users logged in from, naming the clients it was split into.
    var sharedAddresses: [String] = []

    /// Lays out a decoded capture.
    /// - Parameter client: keep only connections from this client address (`198.18.0.3`); nil keeps all.
    init(_ decoding: TraceDecoder.Decoding, client: String? = nil) {
        let first = decoding.trace.connections.map(\.firstTimestamp).min()
            ?? CaptureTimestamp(nanosecondsSinceEpoch: 0)
        func instant(_ timestamp: CaptureTimestamp) -> SimInstant {
            SimInstant(nanosecondsSinceStart: max(0, timestamp.nanoseconds(since: first)))
        }
        var connections: [Connection] = []
        var skipped: [String] = []
        var end = SimInstant.start
        // The chat server: the address the first connection that carries frames goes to. Frameless connections to
        // another address are uploads (photos to the CDN).
        let chatServer = decoding.connections.first { !$0.frames.isEmpty }?.connection.server.address.description
        for item in decoding.connections {
            let trace = item.connection
            if let client, trace.client.address.description != client { continue }
            var role = Role.chat
            if item.frames.isEmpty, trace.serverToClient.sawRST, !trace.serverToClient.sawSYN,
               trace.clientToServer.byteCount == 0 {
                role = .refused
            } else if item.frames.isEmpty, let chatServer, trace.server.address.description != chatServer {
                role = .upload
            } else if item.httpRequestLine != nil {
                // Plain HTTP on the chat server's own address (`syncsim serve` takes uploads and downloads on its
                // port): a POST or PUT of a photo, file or video, or a GET of one (MaxBridge 1.8.0's `get_file`).
                role = .upload
            }
            var entries: [Entry] = []
            for frame in item.frames {
                guard let packet = try? Packet(frame: frame.decoded.frame) else {
                    skipped.append("connection \(trace.number) frame \(frame.decoded.number) \(frame.opcode)")
                    continue
                }
                entries.append(Entry(time: instant(frame.timestamp), connection: trace.number,
                                     direction: frame.direction, packet: packet, bytes: frame.capturedBytes))
            }
            let isClosed = trace.clientToServer.sawFIN || trace.clientToServer.sawRST
                || trace.serverToClient.sawFIN || trace.serverToClient.sawRST
            end = max(end, instant(trace.lastTimestamp))
            var facts = TCPFacts()
            facts.serverReset = trace.serverToClient.sawRST
            facts.clientReset = trace.clientToServer.sawRST
            facts.clientFIN = trace.clientToServer.sawFIN
            facts.serverFIN = trace.serverToClient.sawFIN
            facts.sawSYN = trace.clientToServer.sawSYN
            facts.serverSYN = trace.serverToClient.sawSYN
            facts.serverResetAt = trace.serverToClient.firstRSTTimestamp.map(instant)
            facts.clientClosedAt = [trace.clientToServer.firstRSTTimestamp, trace.clientToServer.firstFINTimestamp]
                .compactMap { $0 }.map(instant).min()
            facts.serverClosedAt = [trace.serverToClient.firstRSTTimestamp, trace.serverToClient.firstFINTimestamp]
                .compactMap { $0 }.map(instant).min()
            facts.clientBytes = trace.clientToServer.byteCount
            facts.clientRetransmissions = trace.clientToServer.retransmittedSegmentCount
            facts.serverAcknowledged = trace.clientToServer.acknowledgements.map { (instant($0.timestamp), $0.offset) }
            facts.clientSegmentTimes = trace.clientToServer.segmentTimes.map { instant($0.timestamp) }
            facts.serverSegmentTimes = trace.serverToClient.segmentTimes.map { instant($0.timestamp) }
            func payloadSegments(_ direction: TCPStreamTrace) -> [PayloadSegment] {
                direction.segmentTimes.filter { $0.payloadLength > 0 }.map {
                    PayloadSegment(time: instant($0.timestamp), bytes: $0.payloadLength,
                                   isRetransmission: $0.isRetransmission)
                }
            }
            facts.clientPayloadSegments = payloadSegments(trace.clientToServer)
            facts.serverPayloadSegments = payloadSegments(trace.serverToClient)
            facts.clientRetransmitted = trace.clientToServer.retransmissions.map {
                Retransmission(time: instant($0.timestamp), bytes: $0.offset..<($0.offset + max(0, $0.length)))
            }
            facts.segments = trace.clientToServer.segmentCount + trace.serverToClient.segmentCount
            facts.retransmittedSegments = trace.clientToServer.retransmittedSegmentCount
                + trace.serverToClient.retransmittedSegmentCount
            // A refused attempt or an upload carries no frames by nature: what the frame reader says of it is no doubt.
            for direction in [TraceDirection.clientToServer, .serverToClient] where role == .chat {
                let stream = trace.stream(direction)
                let lost = stream.gaps.filter { $0.cause == .notCaptured }.map {
                    LostBytes(offset: $0.offset, length: $0.length, packetNumber: $0.packetNumber,
                              time: instant($0.timestamp))
                }
                if direction == .clientToServer { facts.clientGaps = lost } else { facts.serverGaps = lost }
                for gap in stream.gaps {
                    facts.doubts.append("connection \(trace.number) \(direction): \(gap.length) bytes missing at offset "
                        + "\(gap.offset) (packet \(gap.packetNumber)); frames across it are lost")
                }
                for anomaly in stream.anomalies {
                    facts.doubts.append("connection \(trace.number) \(direction): \(anomaly)")
                }
            }
            for issue in item.issues where role == .chat {
                facts.doubts.append("connection \(trace.number): \(issue)")
            }
            connections.append(Connection(
                number: trace.number, client: trace.client.description, server: trace.server.description, role: role,
                opensAt: instant(trace.firstTimestamp), closesAt: isClosed ? instant(trace.lastTimestamp) : nil,
                entries: entries, tcp: facts))
        }
        let ordered = connections.sorted { ($0.opensAt, $0.number) < ($1.opensAt, $1.number) }
        (self.connections, self.sharedAddresses) = Self.separatingUsers(ordered)
        self.skippedFrames = skipped
        self.end = end
        brokeOff = decoding.trace.truncation != nil
    }

    /// Who a connection logged in as: the profile id of its first LOGIN answer (`user 2`), else the token of its
    /// first LOGIN request (`token token-bob`), or the user another connection's LOGIN answer showed that token is
    /// (`usersByToken`: a connection whose LOGIN answer was lost is still that user's); nil for a connection without
    /// LOGIN.
    static func identity(of connection: Connection, usersByToken: [String: Int64] = [:]) -> String? {
        for entry in connection.entries {
            if case .loginResponse(let response) = entry.packet.body { return "user \(response.profile.id)" }
        }
        for entry in connection.entries {
            if case .login(let request) = entry.packet.body {
                return usersByToken[request.token].map { "user \($0)" } ?? "token \(request.token)"
            }
        }
        return nil
    }

    /// The user each LOGIN token logged in as, from connections that show both the LOGIN and its answer.
    static func usersByToken(_ connections: [Connection]) -> [String: Int64] {
        var users: [String: Int64] = [:]
        for connection in connections {
            var tokens: [UInt16: String] = [:]
            for entry in connection.entries {
                switch entry.packet.body {
                case .login(let request): tokens[entry.packet.seq] = request.token
                case .loginResponse(let response):
                    if let token = tokens[entry.packet.seq], users[token] == nil { users[token] = response.profile.id }
                default: break
                }
            }
        }
        return users
    }

    /// Gives each user logged in from a shared address a client of its own (`address#n`, n in first-login order),
    /// since a client is what the capture's users do, not where their packets come from. A connection at such an
    /// address without LOGIN (a refused attempt, an upload, one that closed early) goes to the user of the latest
    /// connection from there that opened before it, else the first user. Addresses with one user are unchanged.
    /// - Parameter connections: in opening order.
    /// - Returns: the connections, and one line per shared address.
    static func separatingUsers(_ connections: [Connection]) -> (connections: [Connection], notes: [String]) {
        func split(_ client: String) -> (address: String, port: String) {
            guard let colon = client.lastIndex(of: ":") else { return (client, "") }
            return (String(client[..<colon]), String(client[client.index(after: colon)...]))
        }
        var identities: [String: [String]] = [:]
        var addresses: [String] = []
        let users = usersByToken(connections)
        for connection in connections {
            let address = split(connection.client).address
            if identities[address] == nil { identities[address] = []; addresses.append(address) }
            if let identity = identity(of: connection, usersByToken: users), !identities[address]!.contains(identity) {
                identities[address]!.append(identity)
            }
        }
        var notes: [String] = []
        for address in addresses where identities[address]!.count > 1 {
            let named = identities[address]!.enumerated().map { "\(address)#\($0.offset + 1) (\($0.element))" }
            notes.append("\(identities[address]!.count) users logged in from \(address) (one NAT, or one host): "
                + "treated as clients " + named.joined(separator: ", "))
        }
        guard !notes.isEmpty else { return (connections, []) }
        var result = connections
        var latest: [String: Int] = [:]
        for index in result.indices {
            let (address, port) = split(result[index].client)
            let known = identities[address]!
            guard known.count > 1 else { continue }
            let number: Int
            if let identity = identity(of: result[index], usersByToken: users),
               let position = known.firstIndex(of: identity) {
                number = position + 1
                latest[address] = number
            } else {
                number = latest[address] ?? 1
            }
            result[index].client = "\(address)#\(number):\(port)"
        }
        return (result, notes)
    }

    /// Every frame of every connection in time order (ties by connection, then capture order).
    var entries: [Entry] {
        connections.flatMap(\.entries).enumerated()
            .sorted { ($0.element.time, $0.element.connection, $0.offset) < ($1.element.time, $1.element.connection,
                                                                              $1.offset) }
            .map(\.element)
    }

    /// The client addresses in first-connection order (`198.18.0.3`, or `127.0.0.1#2` for the second user behind a
    /// shared address), from connections to the chat server.
    var clientAddresses: [String] {
        var seen: [String] = []
        for connection in connections where connection.role != .upload {
            let address = connection.clientAddress
            if !seen.contains(address) { seen.append(address) }
        }
        return seen
    }
}
