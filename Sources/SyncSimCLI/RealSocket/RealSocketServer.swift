import SyncSim

/// Runs the sans-IO `SyncServer` behind a real TCP listener on 127.0.0.1: one poll loop, no threads.
///
/// Bytes from each accepted socket go through its own `FrameDecoder` and `Packet(frame:)` into the core; the core's
/// sends go through `FrameEncoder` onto the socket; its timers wait in a list the loop polls against. Time is the
/// wall clock since start (`WallClock`). The loop ends after `duration`, or once `maxConnections` connections were
/// accepted and all of them closed. With a link profile, each connection's bytes are held back by a `LinkShaper` per
/// direction (uplink: client to server; downlink: server to client).
struct RealSocketServer {
    struct Summary {
        var connections = 0
        var framesReceived = 0
        var framesSent = 0
    }

    private struct Connection {
        var fd: Int32
        var id: ServerConnectionID
        var decoder = FrameDecoder()
        var buffer = ByteReader()
        /// Client-to-server shaping, or nil for none.
        var uplink: LinkShaper?
        /// Server-to-client shaping, or nil for none.
        var downlink: LinkShaper?
        /// Bytes the server sent, waiting for their shaped arrival time.
        var outgoing: [(at: SimInstant, bytes: [UInt8])] = []
        /// Packets the client sent, waiting for their shaped arrival time.
        var incoming: [(at: SimInstant, packets: [Packet])] = []
    }

    var server: SyncServer
    let listener: Int32
    let duration: SimDuration
    let maxConnections: Int?
    /// The link profile every connection is shaped by, or nil for loopback speed.
    let profile: LinkProfile?
    let log: (String) -> Void

    /// The port the listener is bound to.
    var port: UInt16 { PosixSocket.localPort(listener) }

    /// - Throws: `SocketError` when the port cannot be bound.
    init(server: SyncServer, port: UInt16, duration: SimDuration, maxConnections: Int?, profile: LinkProfile? = nil,
         log: @escaping (String) -> Void) throws {
        self.profile = profile
        self.server = server
        self.listener = try PosixSocket.listen(port: port)
        self.duration = duration
        self.maxConnections = maxConnections
        self.log = log
    }

    mutating func run() -> Summary {
        let clock = WallClock()
        let encoder = FrameEncoder()
        var connections: [Connection] = []
        var timers: [(id: ServerTimerID, at: SimInstant)] = []
        var summary = Summary()
        var nextId = 1
        let end = SimInstant.start + duration
        defer {
            for connection in connections { PosixSocket.close(connection.fd) }
            PosixSocket.close(listener)
        }

        func perform(_ actions: [ServerAction]) {
            for action in actions {
                switch action {
                case .send(let packet, let id):
                    guard let index = connections.firstIndex(where: { $0.id == id }) else { continue }
                    var bytes: [UInt8] = []
                    guard (try? encoder.encode(Frame(packet: packet), into: &bytes)) != nil else { continue }
                    if connections[index].downlink != nil {
                        let at = connections[index].downlink!.arrival(ofBytes: bytes.count, at: clock.now)
                        connections[index].outgoing.append((at, bytes))
                        summary.framesSent += 1
                    } else if (try? PosixSocket.writeAll(connections[index].fd, bytes)) != nil {
                        summary.framesSent += 1
                    }
                case .close(let id):
                    guard let index = connections.firstIndex(where: { $0.id == id }) else { continue }
                    // A close is not shaped: what the server sent before it goes out first, now.
                    for pending in connections[index].outgoing {
                        _ = try? PosixSocket.writeAll(connections[index].fd, pending.bytes)
                    }
                    PosixSocket.close(connections[index].fd)
                    connections.remove(at: index)
                    log("serve: \(id) closed by the server")
                case .startTimer(let id, let at):
                    timers.append((id, at))
                case .cancelTimer(let id):
                    timers.removeAll { $0.id == id }
                }
            }
        }

        while clock.now < end {
            if let maxConnections, summary.connections >= maxConnections, connections.isEmpty, timers.isEmpty {
                break
            }
            let shaped = connections.flatMap { $0.outgoing.map(\.at) + $0.incoming.map(\.at) }
            let wake = (timers.map(\.at) + shaped).min().map { min($0, end) } ?? end
            let readable = PosixSocket.poll([listener] + connections.map(\.fd),
                                            timeoutMilliseconds: clock.milliseconds(until: wake, cap: 100))
            let now = clock.now
            for (index, timer) in timers.enumerated().reversed() where timer.at <= now {
                timers.remove(at: index)
                perform(server.handle(.timerFired(timer.id), now: now))
            }
            for index in connections.indices {
                while let first = connections[index].outgoing.first, first.at <= now {
                    connections[index].outgoing.removeFirst()
                    _ = try? PosixSocket.writeAll(connections[index].fd, first.bytes)
                }
            }
            for id in connections.map(\.id) {
                while let index = connections.firstIndex(where: { $0.id == id }),
                      let first = connections[index].incoming.first, first.at <= now {
                    connections[index].incoming.removeFirst()
                    for packet in first.packets { perform(server.handle(.packetReceived(packet, on: id), now: now)) }
                }
            }
            if readable.contains(listener), maxConnections.map({ summary.connections < $0 }) ?? true,
               let fd = PosixSocket.accept(listener) {
                let id = ServerConnectionID(rawValue: nextId)
                nextId += 1
                summary.connections += 1
                connections.append(Connection(
                    fd: fd, id: id, uplink: profile.map { LinkShaper(direction: $0.uplink) },
                    downlink: profile.map { LinkShaper(direction: $0.downlink) }))
                log("serve: \(id) accepted")
                perform(server.handle(.connectionOpened(id), now: now))
            }
            for fd in readable where fd != listener {
                guard let index = connections.firstIndex(where: { $0.fd == fd }) else { continue }
                let id = connections[index].id
                switch PosixSocket.read(fd) {
                case .wouldBlock:
                    continue
                case .closed:
                    // A close is not shaped: what the client sent before it reaches the server first, now.
                    let pending = connections[index].incoming.flatMap(\.packets)
                    connections[index].incoming.removeAll()
                    for packet in pending { perform(server.handle(.packetReceived(packet, on: id), now: now)) }
                    guard let index = connections.firstIndex(where: { $0.id == id }) else { continue }
                    PosixSocket.close(fd)
                    connections.remove(at: index)
                    log("serve: \(id) closed by the client")
                    perform(server.handle(.connectionClosed(id), now: now))
                case .bytes(let bytes):
                    var decoder = connections[index].decoder
                    var buffer = connections[index].buffer
                    buffer.append(contentsOf: bytes)
                    var packets: [Packet] = []
                    do {
                        defer {
                            connections[index].decoder = decoder
                            connections[index].buffer = buffer
                        }
                        while let frame = try decoder.decode(&buffer) {
                            summary.framesReceived += 1
                            if let packet = try? Packet(frame: frame) { packets.append(packet) }
                        }
                    } catch {
                        log("serve: \(id) sent bytes that are not frames (\(error)); closing it")
                        PosixSocket.close(fd)
                        connections.remove(at: index)
                        perform(server.handle(.connectionClosed(id), now: now))
                        continue
                    }
                    if connections[index].uplink != nil {
                        let at = connections[index].uplink!.arrival(ofBytes: bytes.count, at: now)
                        connections[index].incoming.append((at, packets))
                        continue
                    }
                    for packet in packets { perform(server.handle(.packetReceived(packet, on: id), now: now)) }
                }
            }
        }
        return summary
    }
}
