import SyncSim

/// Runs the sans-IO `SyncServer` behind a real TCP listener on 127.0.0.1: one poll loop, no threads.
///
/// Bytes from each accepted socket go through its transport (`ConnectionTransport`: the field's frames straight on
/// TCP, or WebSocket messages holding them as bytes or JSON), its own `FrameDecoder` and `Packet(frame:)` into the
/// core; the core's sends go through `FrameEncoder` and the transport onto the socket; its timers wait in a list the
/// loop polls against. Time is the wall clock since start (`WallClock`). The loop ends after `duration`, or once `maxConnections` connections were
/// accepted and all of them closed. With a link profile, each connection's bytes are held back by a `LinkShaper` per
/// direction (uplink: client to server; downlink: server to client).
struct RealSocketServer {
    struct Summary {
        var connections = 0
        var framesReceived = 0
        /// Frames whose last byte the socket took (a frame still queued when its connection closed is not counted).
        var framesSent = 0
        /// Frames sent with a compressed payload (flag byte non-zero).
        var framesCompressed = 0
    }

    /// The most bytes a connection may have waiting for its client to read them (`SendQueue`): 80 MiB. A connection
    /// whose client reads so little that more wait is closed (log: `the client read nothing while ... bytes
    /// waited`). It lies above the largest answer serve writes at once, a download (an upload's body is at most
    /// `HTTPUpload.maxBodyBytes`, 64 MiB, plus its head), and far beyond what a client that reads lets pile up.
    static let defaultMaxUnsentBytes = 80 * 1024 * 1024

    /// The most payload bytes (decompressed) serve takes in a MSG_SEND or MSG_EDIT request: 32 KiB. **SyncSim's own
    /// bound** (the field's is not public), beside `SyncServer.maxTextBytes` for the text alone: a message's
    /// attachments and formatting carry keys serve stores untouched, so without it a message with megabytes in an
    /// attachment was stored and every LOGIN of the chat's members then exceeded the 5 MiB frame limit (session 38's
    /// real-client trial). A larger request is answered `proto.payload` and never reaches the server.
    static let maxMessageRequestBytes = 32 * 1024

    /// How long a connection the server is closing (after an HTTP answer, a download, a close frame) may take no
    /// byte of what it still has to write before it is closed anyway: 60 s.
    static let closingStallTimeout = SimDuration.seconds(closingStallSeconds)
    private static let closingStallSeconds: Int64 = 60

    /// A frame queued on a connection: what the frame log and the summary note once its last byte was written.
    private struct QueuedFrame {
        var header: [UInt8]
        var frame: Frame
        var compressed: Bool
        var transportName: String?
    }

    /// A connection the server is closing once its queued bytes are written.
    private struct Closing {
        /// What is being closed, as the log line after the connection's name says it (`downloaded file 3: 20 bytes`,
        /// `closed by the server`), or nil to log nothing once the bytes are out.
        var note: String?
        /// Whether that line ends `; closing it` once the bytes are out (an answered or refused HTTP request).
        var saysClosing = false
        /// When the socket last took bytes (or the closing began).
        var lastProgress: SimInstant
    }

    private struct Connection {
        var fd: Int32
        var id: ServerConnectionID
        var transport = ConnectionTransport.undecided
        var decoder = FrameDecoder()
        /// Encodes the server's frames in the connection's header dialect (`ConnectionTransport.configure`).
        var encoder = FrameEncoder()
        var buffer = ByteReader()
        /// Client-to-server shaping, or nil for none.
        var uplink: LinkShaper?
        /// Server-to-client shaping, or nil for none.
        var downlink: LinkShaper?
        /// Bytes the server sent, waiting for their shaped arrival time.
        var outgoing: [(at: SimInstant, bytes: [UInt8], frame: QueuedFrame?)] = []
        /// Packets the client sent, waiting for their shaped arrival time.
        var incoming: [(at: SimInstant, packets: [Packet])] = []
        /// Bytes the socket has not taken yet, written when poll finds it writable.
        var unsent = SendQueue<QueuedFrame>()
        /// Set once the server closes the connection: it reads no more and closes when `unsent` is written.
        var closing: Closing?
    }

    var server: SyncServer
    let listener: Int32
    let duration: SimDuration
    let maxConnections: Int?
    /// The link profile every connection is shaped by, or nil for loopback speed.
    let profile: LinkProfile?
    let log: (String) -> Void
    /// Where each frame in and out is written as one JSON line (header in hex, payload decoded), if anywhere. A frame
    /// out is written when its last byte left.
    var frameLog: ((String) -> Void)?
    /// The users a control line may name (`drop alice`), by name; `serve` sets the scenario's.
    var userIdsByName: [String: Int64] = [:]
    /// The users a control line may name, in id order (then name: a user's devices share an id).
    var usersInIdOrder: [(name: String, id: Int64)] {
        userIdsByName.map { (name: $0.key, id: $0.value) }.sorted { ($0.id, $0.name) < ($1.id, $1.name) }
    }
    /// `alice (1), bob (2)`: the users by name and id, in id order.
    var userList: String { usersInIdOrder.map { "\($0.name) (\($0.id))" }.joined(separator: ", ") }
    /// A file descriptor to read control lines from (`drop`, `drop USER_ID`, `drop NAME`), e.g. 0 for standard input.
    var controlDescriptor: Int32?
    /// Whether WebSocket connections agree to a client's permessage-deflate offer (RFC 7692).
    var webSocketDeflate = false
    /// Whether a connection in PyMax 1.x's TCP frames hears of deletes as that client reads them (a NOTIF_MESSAGE
    /// with the removed message, `DeleteNotice.removedMessage`) rather than by `server.knobs.deleteNotice`.
    var deleteNoticeFollowsDialect = true
    /// The most bytes a connection may have waiting for its client to read them (`defaultMaxUnsentBytes`).
    var maxUnsentBytes = RealSocketServer.defaultMaxUnsentBytes

    /// What `encodeForWire` made of a packet.
    enum WireEncoding: Equatable {
        /// The packet's frame and its bytes.
        case frame([UInt8], Frame)
        /// The packet was a response the encoder refused (`reason`: its payload is over the frame limit): an error
        /// response of the same seq and opcode in its place, `proto.payload` with a message naming size and limit.
        case errorInstead([UInt8], Frame, reason: String)
        /// A push (or error answer) the encoder refused: nothing is sent.
        case skipped(reason: String)
    }

    /// Encodes a packet of the core for a connection: a response the encoder refuses (a payload over the 5 MiB frame
    /// limit) is answered with an error instead, so that the client hears why rather than waiting for an answer
    /// that never comes; a push it refuses is skipped.
    static func encodeForWire(_ packet: Packet, encoder: FrameEncoder) -> WireEncoding {
        var bytes: [UInt8] = []
        let frame = Frame(packet: packet)
        do {
            try encoder.encode(frame, into: &bytes)
            return .frame(bytes, frame)
        } catch {
            let reason = (error as? WireError)?.detail ?? "\(error)"
            guard packet.cmd == .response else { return .skipped(reason: reason) }
            let refusal = Frame(packet: Packet(
                cmd: .error, seq: packet.seq, opcode: packet.opcode,
                body: .error(ErrorPayload(error: "proto.payload",
                                          message: "the answer to \(packet.opcode) cannot be sent: \(reason)"))))
            guard (try? encoder.encode(refusal, into: &bytes)) != nil else { return .skipped(reason: reason) }
            return .errorInstead(bytes, refusal, reason: reason)
        }
    }

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
        var controlBuffer: [UInt8] = []
        // The bytes of stored uploads, for downloads (`HTTPDownload`): photos by photo id, files, videos and voice
        // messages by their slot's id.
        var photoBytes: [Int64: [UInt8]] = [:]
        var mediaBytes: [Int64: [UInt8]] = [:]
        let end = SimInstant.start + duration
        let maxUnsentBytes = self.maxUnsentBytes
        defer {
            for connection in connections { PosixSocket.close(connection.fd) }
            PosixSocket.close(listener)
        }

        func logFrame(_ direction: String, _ id: ServerConnectionID, header: [UInt8], frame: Frame,
                      transportName: String?) {
            guard let frameLog else { return }
            var line = "{\"t\":\(clock.now.nanosecondsSinceStart / 1_000_000),\"dir\":\"\(direction)\",\"conn\":\(id.rawValue),"
            if let transportName { line += "\"transport\":\"\(transportName)\"," }
            line += "\"header\":\"" + header.map { String($0, radix: 16).leftPadded(to: 2) }.joined() + "\","
            line += "\"cmd\":\(frame.cmd.rawValue),\"seq\":\(frame.seq),\"opcode\":\(frame.opcode.rawValue),"
            line += "\"opcodeName\":\"\(frame.opcode)\",\"payload\":"
            JSONWriter.write(frame.payload, into: &line)
            frameLog(line + "}")
        }

        func position(of id: ServerConnectionID) -> Int? { connections.firstIndex { $0.id == id } }

        /// Closes a connection's socket at once, dropping what it still had to write; the core hears of it unless
        /// it closed the connection itself (or heard already).
        func closeNow(_ id: ServerConnectionID, now: SimInstant) {
            guard let index = position(of: id) else { return }
            let tellServer = connections[index].closing == nil
            PosixSocket.close(connections[index].fd)
            connections.remove(at: index)
            if tellServer { perform(server.handle(.connectionClosed(id), now: now)) }
        }

        /// Says in the log that packets a client sent (each logged `in` when it was decoded) are not handled: their
        /// connection is closing (or closed) before the core took them. Before session 39 they vanished without a word.
        func logDropped(_ packets: [Packet], on id: ServerConnectionID) {
            for packet in packets {
                log("serve: \(id): \(packet.opcode) (cmd \(packet.cmd.rawValue), seq \(packet.seq)) dropped: "
                    + "the connection is closing")
            }
        }

        /// Hands packets a client sent to the core, in order, while their connection is open: once it is closing (a
        /// packet before made the server close it, a control line dropped it), the rest are dropped and logged so.
        func deliver(_ packets: [Packet], on id: ServerConnectionID, now: SimInstant) {
            for (number, packet) in packets.enumerated() {
                guard let index = position(of: id), connections[index].closing == nil else {
                    logDropped(Array(packets[number...]), on: id)
                    return
                }
                perform(server.handle(.packetReceived(packet, on: id), now: now))
            }
        }

        /// Writes what the socket of connection `id` takes of its queued bytes now, without waiting; then closes a
        /// closing connection that has written all, or a connection whose write failed or whose client let more
        /// than `maxUnsentBytes` pile up.
        func flush(_ id: ServerConnectionID) {
            guard let index = position(of: id) else { return }
            let fd = connections[index].fd
            var queue = SendQueue<QueuedFrame>()
            swap(&queue, &connections[index].unsent)
            var failure: SocketError?
            var wrote = false
            let (written, failed) = queue.drain { bytes, offset in
                do {
                    let count = try PosixSocket.write(fd, bytes, from: offset)
                    if count > 0 { wrote = true }
                    return count
                } catch {
                    failure = error as? SocketError
                    return nil
                }
            }
            swap(&queue, &connections[index].unsent)
            let now = clock.now
            if wrote { connections[index].closing?.lastProgress = now }
            for queued in written {
                summary.framesSent += 1
                if queued.compressed { summary.framesCompressed += 1 }
                logFrame("out", id, header: queued.header, frame: queued.frame, transportName: queued.transportName)
            }
            let waiting = connections[index].unsent.byteCount
            let note = connections[index].closing?.note.map { " \($0)" } ?? ""
            if failed {
                // A client that closed its socket and is gone: what it was still sent cannot reach it; no news.
                if connections[index].closing.map({ $0.note != nil }) ?? true {
                    let reason = failure?.reason ?? "failed"
                    log("serve: \(id)\(note): write failed (\(reason)) with \(waiting) bytes unwritten; closing it")
                }
                closeNow(id, now: now)
            } else if waiting > maxUnsentBytes {
                log("serve: \(id)\(note): \(waiting) bytes wait for the client to read them, more than the "
                    + "\(maxUnsentBytes)-byte cap; closing it")
                closeNow(id, now: now)
            } else if waiting == 0, let closing = connections[index].closing {
                if let text = closing.note {
                    log("serve: \(id) \(text)" + (closing.saysClosing ? "; closing it" : ""))
                }
                closeNow(id, now: now)
            }
        }

        /// Queues bytes on connection `id` (behind what waits) and writes what the socket takes now.
        func write(_ bytes: [UInt8], frame: QueuedFrame? = nil, on id: ServerConnectionID) {
            guard let index = position(of: id) else { return }
            connections[index].unsent.append(bytes, tag: frame)
            flush(id)
        }

        /// Closes connection `id` once what it has to write (its shaped bytes too: a close is not shaped, what the
        /// server sent before it goes out first, now) and `last` are written; it reads nothing more. `note` is
        /// logged then (`serve: conn#N <note>`).
        func close(_ id: ServerConnectionID, after last: [UInt8], note: String?, now: SimInstant) {
            guard let index = position(of: id) else { return }
            // What the client sent that its shaped uplink still holds is never handled now (a closing connection
            // reads nothing more); left queued, its arrival time woke the loop at once, over and over, until the
            // close ended (a busy loop under `--profile`, session 38's real-client trial).
            logDropped(connections[index].incoming.flatMap(\.packets), on: id)
            connections[index].incoming.removeAll()
            for pending in connections[index].outgoing {
                connections[index].unsent.append(pending.bytes, tag: pending.frame)
            }
            connections[index].outgoing.removeAll()
            connections[index].unsent.append(last)
            if connections[index].closing == nil {
                connections[index].closing = Closing(note: note, lastProgress: now)
            }
            flush(id)
        }

        /// Closes a connection on the operator's word, as a server dropping it would (no FIN from the client).
        func drop(_ index: Int, now: SimInstant) {
            let id = connections[index].id
            log("serve: \(id) dropped on the control channel")
            closeNow(id, now: now)
        }

        /// The client closed its connection (its socket, or a WebSocket close frame). A close is not shaped: what
        /// the client sent before it reaches the server first, now. What the server still has to write is written
        /// before the socket is closed (a close frame's echo; a client that only shut its sending half still reads).
        func closedByClient(_ id: ServerConnectionID, now: SimInstant) {
            guard let index = position(of: id), connections[index].closing == nil else { return }
            let pending = connections[index].incoming.flatMap(\.packets)
            connections[index].incoming.removeAll()
            deliver(pending, on: id, now: now)
            guard let index = position(of: id), connections[index].closing == nil else { return }
            connections[index].closing = Closing(note: nil, lastProgress: now)
            log("serve: \(id) closed by the client")
            perform(server.handle(.connectionClosed(id), now: now))
            close(id, after: [], note: nil, now: now)
        }

        /// Closes a connection whose client broke the protocol, after writing `answer` (an HTTP error or a WebSocket
        /// close frame; nothing on TCP), or whose upload or download was answered. The core hears of it now; the
        /// log line (`what`) is written once the answer's last byte left.
        func refuse(_ index: Int, _ what: String, answer: [UInt8], now: SimInstant) {
            let id = connections[index].id
            guard connections[index].closing == nil else { return }
            connections[index].closing = Closing(note: what, saysClosing: true, lastProgress: now)
            perform(server.handle(.connectionClosed(id), now: now))
            close(id, after: answer, note: nil, now: now)
        }

        func control(_ line: Substring, now: SimInstant) {
            guard let command = ControlLine(line) else {
                log("serve: unknown control line '\(line)'; known: drop, drop USER_ID, drop NAME")
                return
            }
            let userId: Int64?
            switch command {
            case .dropAll: userId = nil
            case .dropUser(let id): userId = id
            case .dropUserNamed(let name):
                guard let id = userIdsByName[name] else {
                    log("serve: '\(line)': no user named '\(name)'; users: " + userList)
                    return
                }
                userId = id
            }
            let logged = Dictionary(server.openConnections.map { ($0.connection, $0.userId) }, uniquingKeysWith: { a, _ in a })
            var dropped = 0
            for index in connections.indices.reversed() where connections[index].closing == nil {
                let owner = logged[connections[index].id] ?? nil
                if userId == nil || owner == userId {
                    drop(index, now: now)
                    dropped += 1
                }
            }
            if dropped == 0 {
                log("serve: '\(line)': no open connection" + (userId.map { " of user \($0)" } ?? "") + " to drop")
            }
        }

        /// Encodes `packet` in the connection's dialect (`encodeForWire`), logging a refused answer or push.
        func encode(_ packet: Packet, on index: Int) -> (bytes: [UInt8], frame: Frame)? {
            let id = connections[index].id
            switch Self.encodeForWire(packet, encoder: connections[index].encoder) {
            case .frame(let bytes, let frame):
                return (bytes, frame)
            case .errorInstead(let bytes, let frame, let reason):
                log("serve: \(id): the answer to \(packet.opcode) (seq \(packet.seq)) cannot be encoded (\(reason)); "
                    + "answered with error proto.payload")
                return (bytes, frame)
            case .skipped(let reason):
                let what = packet.cmd == .response ? "the answer to \(packet.opcode)"
                    : packet.cmd == .error ? "a \(packet.opcode) error answer" : "a \(packet.opcode) push"
                log("serve: \(id): \(what) (seq \(packet.seq)) cannot be encoded (\(reason)); skipped")
                return nil
            }
        }

        func perform(_ actions: [ServerAction]) {
            for action in actions {
                switch action {
                case .send(let packet, let id):
                    guard let index = position(of: id), connections[index].closing == nil,
                          let encoded = encode(packet, on: index) else { continue }
                    let (bytes, frame) = encoded
                    let transport = connections[index].transport
                    let wire = transport.wrap(bytes, frame: frame)
                    let queued = QueuedFrame(
                        header: Array(bytes.prefix(FrameHeader.byteCount)), frame: frame,
                        compressed: bytes[6] != 0 && !transport.answersInJSON, transportName: transport.logName)
                    if connections[index].downlink != nil {
                        let at = connections[index].downlink!.arrival(ofBytes: wire.count, at: clock.now)
                        connections[index].outgoing.append((at, wire, queued))
                    } else {
                        write(wire, frame: queued, on: id)
                    }
                case .close(let id):
                    guard let index = position(of: id), connections[index].closing == nil else { continue }
                    connections[index].closing = Closing(note: "closed by the server", lastProgress: clock.now)
                    close(id, after: connections[index].transport.closing, note: nil, now: clock.now)
                case .startTimer(let id, let at):
                    timers.append((id, at))
                case .cancelTimer(let id):
                    timers.removeAll { $0.id == id }
                }
            }
        }

        var stopSignals = StopSignals()
        defer { stopSignals.restore() }
        while clock.now < end {
            if let maxConnections, summary.connections >= maxConnections, connections.isEmpty, timers.isEmpty {
                break
            }
            if let signal = stopSignals.take() {
                log("serve: \(signal) received; stopping")
                break
            }
            let shaped = connections.flatMap { $0.outgoing.map(\.at) + $0.incoming.map(\.at) }
            let wake = (timers.map(\.at) + shaped).min().map { min($0, end) } ?? end
            // A closing connection reads nothing more; one with queued bytes waits to be writable.
            // The listener only while connections are still accepted: past `--max-connections`, a client waiting in
            // the listen queue kept it readable, and the loop spun until the end.
            let accepting = maxConnections.map { summary.connections < $0 } ?? true
            let reading = (accepting ? [listener] : []) + connections.filter { $0.closing == nil }.map(\.fd)
                + (controlDescriptor.map { [$0] } ?? [])
            let ready = PosixSocket.poll(reading: reading,
                                         writing: connections.filter { !$0.unsent.isEmpty }.map(\.fd),
                                         timeoutMilliseconds: clock.milliseconds(until: wake, cap: 100))
            let readable = ready.readable
            let now = clock.now
            for id in connections.filter({ ready.writable.contains($0.fd) }).map(\.id) { flush(id) }
            for connection in connections {
                guard let closing = connection.closing, now - closing.lastProgress >= Self.closingStallTimeout
                else { continue }
                log("serve: \(connection.id)" + (closing.note.map { " \($0)" } ?? "")
                    + ": the client took no byte for \(Self.closingStallSeconds) s while "
                    + "\(connection.unsent.byteCount) bytes waited; closing it")
                closeNow(connection.id, now: now)
            }
            if let controlDescriptor, readable.contains(controlDescriptor) {
                switch PosixSocket.read(controlDescriptor) {
                case .bytes(let bytes):
                    controlBuffer += bytes
                    while let newline = controlBuffer.firstIndex(of: 10) {
                        let line = String(decoding: controlBuffer[..<newline], as: UTF8.self)
                        controlBuffer.removeSubrange(...newline)
                        control(Substring(line).trimmingWhitespace, now: now)
                    }
                case .closed:
                    self.controlDescriptor = nil
                case .wouldBlock:
                    break
                }
            }
            for (index, timer) in timers.enumerated().reversed() where timer.at <= now {
                timers.remove(at: index)
                perform(server.handle(.timerFired(timer.id), now: now))
            }
            for id in connections.map(\.id) {
                var released = false
                while let index = position(of: id), let first = connections[index].outgoing.first, first.at <= now {
                    connections[index].outgoing.removeFirst()
                    connections[index].unsent.append(first.bytes, tag: first.frame)
                    released = true
                }
                if released { flush(id) }
            }
            for id in connections.map(\.id) {
                while let index = position(of: id), connections[index].closing == nil,
                      let first = connections[index].incoming.first, first.at <= now {
                    connections[index].incoming.removeFirst()
                    deliver(first.packets, on: id, now: now)
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
            for fd in readable where fd != listener && fd != controlDescriptor {
                guard let index = connections.firstIndex(where: { $0.fd == fd }), connections[index].closing == nil
                else { continue }
                let id = connections[index].id
                switch PosixSocket.read(fd) {
                case .wouldBlock:
                    continue
                case .closed:
                    closedByClient(id, now: now)
                case .bytes(let received):
                    // Any bytes are activity for the idle check: a WebSocket ping, part of a frame.
                    server.noteActivity(on: id, now: now)
                    let unwrapped: ConnectionTransport.Unwrapped
                    let wasUndecided = if case .undecided = connections[index].transport { true } else { false }
                    do {
                        unwrapped = try connections[index].transport.unwrap(received, encoder: encoder,
                                                                            webSocketDeflate: webSocketDeflate)
                    } catch {
                        refuse(index, "broke its transport (\(error))", answer: error.answer, now: now)
                        continue
                    }
                    if wasUndecided {
                        var connection = connections[index]
                        connection.transport.configure(&connection.decoder, &connection.encoder)
                        connections[index] = connection
                        if case .tcpPymax1 = connections[index].transport {
                            log("serve: \(id) speaks PyMax 1.x's TCP frames (version 11, cmd u16, seq u8)")
                            if deleteNoticeFollowsDialect { server.setDeleteNotice(.removedMessage, of: id) }
                        }
                    }
                    if let upload = unwrapped.upload {
                        switch upload.target {
                        case .photo(let photoId):
                            let token = server.cdn.token(photoId: photoId)
                            let again = token.map { server.cdn.hasUpload(token: $0) } ?? false
                            let stored = !again && (token.map {
                                server.receiveUpload(token: $0, sizeBytes: upload.sizeBytes)
                            } ?? false)
                            if stored { photoBytes[photoId] = upload.bytes }
                            let outcome = stored ? "stored under \(token!)"
                                : again ? "refused, photo \(photoId) was uploaded before (409)"
                                : "refused, no PHOTO_UPLOAD asked for it"
                            refuse(index, "uploaded photo \(photoId) (\(upload.sizeBytes) bytes): " + outcome,
                                   answer: again ? HTTPUpload.answerAlreadyUploaded(slot: "photo \(photoId)")
                                       : HTTPUpload.answer(photoId: photoId, token: stored ? token : nil),
                                   now: now)
                        case .media(let id):
                            let again = server.mediaUpload(id: id)?.sizeBytes != nil
                            let pushes = again ? nil : server.receiveMediaUpload(id: id, fileName: upload.fileName,
                                                                                 sizeBytes: upload.sizeBytes)
                            let kind = server.mediaUpload(id: id).map { "\($0.kind)" } ?? "upload"
                            if pushes != nil { mediaBytes[id] = upload.bytes }
                            let outcome = pushes != nil ? "stored"
                                : again ? "refused, slot \(id) was uploaded to before (409)"
                                : "refused, no FILE_UPLOAD or VIDEO_UPLOAD asked for it"
                            refuse(index, "uploaded \(kind) \(id) (\(upload.sizeBytes) bytes"
                                       + (upload.fileName.map { ", '\($0)'" } ?? "") + "): " + outcome,
                                   answer: again ? HTTPUpload.answerAlreadyUploaded(slot: "slot \(id)")
                                       : HTTPUpload.answer(mediaId: id, stored: pushes != nil),
                                   now: now)
                            // The uploader hears the bytes were processed (NOTIF_ATTACH) after its answer.
                            if let pushes { perform(pushes) }
                        }
                        continue
                    }
                    if let download = unwrapped.download {
                        var bytes: [UInt8]?
                        var fileName: String?
                        switch download.kind {
                        case .photo:
                            bytes = photoBytes[download.id]
                        case .file, .video:
                            // A file's address serves a file, a video's a video (or video note, or voice message).
                            if let upload = server.mediaUpload(id: download.id),
                               (upload.kind == .file) == (download.kind == .file) {
                                bytes = mediaBytes[download.id]
                                fileName = download.kind == .file ? upload.fileName : nil
                            }
                        }
                        refuse(index, (download.headOnly ? "HEAD of " : "downloaded ")
                                   + "\(download.kind.rawValue) \(download.id): "
                                   + (bytes.map { "\($0.count) bytes" } ?? "nothing uploaded under that id, 404"),
                               answer: HTTPDownload.answer(kind: download.kind, id: download.id, bytes: bytes,
                                                           fileName: fileName, headOnly: download.headOnly),
                               now: now)
                        continue
                    }
                    for answer in unwrapped.writes { write(answer, on: id) }
                    guard let index = position(of: id), connections[index].closing == nil else { continue }
                    if let path = unwrapped.upgradedPath {
                        log("serve: \(id) upgraded to WebSocket (\(path))"
                            + (unwrapped.agreedExtension.map { ", agreed: \($0)" } ?? ""))
                    }
                    if unwrapped.frameBytes.isEmpty {
                        if unwrapped.closedByClient { closedByClient(id, now: now) }
                        continue
                    }
                    let bytes = unwrapped.frameBytes
                    var decoder = connections[index].decoder
                    var buffer = connections[index].buffer
                    buffer.append(contentsOf: bytes)
                    var packets: [Packet] = []
                    var refusals: [Packet] = []
                    var unreadable: (any Error)?
                    decoding: while true {
                        let decoded: DecodedFrame
                        do {
                            guard let next = try decoder.decodeFrame(&buffer) else { break decoding }
                            decoded = next
                        } catch {
                            // A sound header around a payload that does not decode (invalid UTF-8 in a string, bad
                            // MessagePack, a corrupt compressed block): the header's length still says where the next
                            // frame begins, so the frame is answered `proto.payload`, as a payload of the wrong shape
                            // is, and the connection kept (before session 39 it was closed). Only a frame that cannot
                            // be delimited (its header broken) ends the connection.
                            guard let header = decoder.skipFrameWithUndecodablePayload(&buffer) else {
                                unreadable = error
                                break decoding
                            }
                            summary.framesReceived += 1
                            let detail = (error as? WireError)?.detail ?? "\(error)"
                            let text = "\(header.opcode) payload cannot be read: \(detail)"
                            log("serve: \(id) \(text) (cmd \(header.cmd.rawValue), seq \(header.seq)); "
                                + (header.cmd == .request ? "answered proto.payload" : "dropped"))
                            if header.cmd == .request {
                                refusals.append(Packet(cmd: .error, seq: header.seq, opcode: header.opcode,
                                                       body: .error(ErrorPayload(error: "proto.payload", message: text))))
                            }
                            continue decoding
                        }
                        summary.framesReceived += 1
                        let header = (try? decoded.header.bytes()) ?? []
                        logFrame("in", id, header: header, frame: decoded.frame,
                                 transportName: connections[index].transport.logName)
                        let frame = decoded.frame
                        if frame.cmd == .request, frame.opcode == .msgSend || frame.opcode == .msgEdit,
                           decoded.payloadByteCount > Self.maxMessageRequestBytes {
                            let text = "\(frame.opcode) payload of \(decoded.payloadByteCount) bytes exceeds the "
                                + "server's limit of \(Self.maxMessageRequestBytes) bytes"
                            log("serve: \(id) \(text); refused")
                            refusals.append(Packet(cmd: .error, seq: frame.seq, opcode: frame.opcode,
                                                   body: .error(ErrorPayload(error: "proto.payload", message: text))))
                            continue decoding
                        }
                        if let packet = try? Packet(frame: decoded.frame) { packets.append(packet) }
                    }
                    connections[index].decoder = decoder
                    connections[index].buffer = buffer
                    if let unreadable {
                        // The frames before the unreadable one were logged `in`; they are not handled now.
                        logDropped(packets, on: id)
                        refuse(index, "sent bytes that are not frames (\(unreadable))",
                               answer: connections[index].transport.refusal(reason: "\(unreadable)"), now: now)
                        continue
                    }
                    if !refusals.isEmpty { perform(refusals.map { .send($0, on: id) }) }
                    guard let index = position(of: id) else { continue }
                    if connections[index].uplink != nil {
                        let at = connections[index].uplink!.arrival(ofBytes: received.count, at: now)
                        connections[index].incoming.append((at, packets))
                    } else {
                        deliver(packets, on: id, now: now)
                    }
                    if unwrapped.closedByClient { closedByClient(id, now: now) }
                }
            }
        }
        for connection in connections where !connection.unsent.isEmpty {
            log("serve: \(connection.id): stopping with \(connection.unsent.byteCount) bytes not written yet")
        }
        return summary
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Substring {
    /// The text without leading and trailing whitespace.
    var trimmingWhitespace: Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}

/// A line of `serve --control-stdin`: `drop` (every connection), `drop USER_ID` or `drop NAME` (that user's, by the
/// id or name serve printed at start). Anything else, `drop 1 2` too, is no control line: it must not drop every
/// connection by accident.
enum ControlLine: Equatable {
    case dropAll
    case dropUser(Int64)
    case dropUserNamed(String)

    init?(_ line: Substring) {
        let words = line.split(separator: " ")
        guard words.first == "drop" else { return nil }
        switch words.count {
        case 1: self = .dropAll
        case 2:
            if let id = Int64(words[1]) { self = .dropUser(id) } else { self = .dropUserNamed(String(words[1])) }
        default: return nil
        }
    }
}
