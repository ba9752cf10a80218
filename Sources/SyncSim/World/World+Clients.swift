// Driving the client engines: launch, events in, actions out, restarts and the background.
extension World {
    /// How long a backgrounded app keeps running before the OS suspends it (our choice, in the range mobile OSes
    /// give an app that asks for no background time: a few seconds).
    static let suspendDelay = SimDuration.seconds(Int64(5))

    /// The first launch of client `index`'s app.
    func launch(_ index: Int) {
        record(clients[index].name, "launch", "generation=\(clients[index].generation)")
        deliver(index, generation: clients[index].generation, .start)
    }

    /// Feeds one event to a client's current engine and performs what it asks; events of an older app generation
    /// are dropped, events to a suspended app wait until it comes back.
    func deliver(_ index: Int, generation: Int, _ event: ClientEvent) {
        guard clients[index].generation == generation else { return }
        if clients[index].isSuspended {
            clients[index].deferredEvents.append(event)
            return
        }
        let registered = clients[index].registered
        if case .packetReceived = event { report(checker.observeClientEvent(registered, event: event, at: now)) }
        // The view cached since the last event shares the engine's storage (its chat histories above all): dropped
        // first, the engine changes its tables in place instead of copying them (a whole message table per push).
        clients[index].cachedView = nil
        let actions = clients[index].handle(event, now: now)
        engineChanged(index)
        report(checker.observeClientActions(registered, actions: actions, at: now))
        let checksTimeouts = clients[index].deferredEventsLeft <= 1
        report(withServer { server in
            checker.afterClientEvent(registered, server: server, at: now, checksTimeouts: checksTimeouts,
                                     view: { checkedView(index) })
        })
        for action in actions { perform(action, client: index, generation: generation) }
    }

    private func perform(_ action: ClientAction, client index: Int, generation: Int) {
        let name = clients[index].name
        switch action {
        case .connect(let connection):
            let socket = network.connect(from: clients[index].host, to: serverHost)
            sockets[socket] = .chatClient(client: index, generation: generation, connection: connection,
                                          isConnected: false)
            clients[index].sockets.append(socket)
            decoders[socket] = StreamDecoder(decoder: keyCacheDecoder.decoderSharingKeyCache())
            record(name, "connect", "\(connection) socket=\(socket.connection)")
            note(index, .connectAttempt)
        case .send(let packet, let connection):
            guard let socket = chatSocket(of: index, generation: generation, connection: connection) else {
                record(name, "send-dropped", "\(connection) \(Self.summary(packet)) (no socket)")
                return
            }
            sendPacket(packet, on: socket, encoder: clients[index].encoder, from: name)
            if packet.cmd == .request { note(index, .request(packet.opcode)) }
        case .close(let connection):
            guard let socket = chatSocket(of: index, generation: generation, connection: connection) else { return }
            record(name, "close", "\(connection)")
            network.close(socket)
        case .startTimer(let timer, let instant):
            let handle = network.schedule(at: max(instant, now)) { [unowned self] in
                enter { fireTimer(timer, client: index, generation: generation) }
            }
            clients[index].timers.set(timer, handle)
        case .cancelTimer(let timer):
            if let handle = clients[index].timers.remove(timer) { network.cancel(handle) }
        case .upload(let upload, let token, let sizeBytes):
            startUpload(upload, token: token, sizeBytes: sizeBytes, client: index, generation: generation)
        }
    }

    private func fireTimer(_ timer: ClientTimerID, client index: Int, generation: Int) {
        guard clients[index].generation == generation else { return }
        clients[index].timers.remove(timer)
        deliver(index, generation: generation, .timerFired(timer))
    }

    /// The live chat socket of a client's connection, or nil.
    func chatSocket(of index: Int, generation: Int, connection: ClientConnectionID) -> SocketID? {
        for socket in clients[index].sockets {
            if case .chatClient(index, generation, connection, _)? = sockets[socket] { return socket }
        }
        return nil
    }

    /// Encodes a packet through the real codec and queues its bytes on a socket. `countsBytes` false: a server
    /// socket, which counts nothing (see `countBytes`), so its role is not looked up.
    ///
    /// With `reusesLastEncoding` (the server's pushes, with the server's encoder) a push identical to the last one
    /// sent that way (`Packet.isIdenticalPush(to:)`: the same bytes, not only `==`) is sent as that push's bytes,
    /// with its trace line, instead of being built, encoded and described again: a chat's push goes to every member
    /// as the same frame.
    func sendPacket(_ packet: Packet, on socket: SocketID, encoder: FrameEncoder, from component: String,
                    countsBytes: Bool = true, reusesLastEncoding: Bool = false) {
        let bytes: [UInt8]
        // nil: the record is written piece by piece (`recordFrame`), no push keeps it.
        let traceDetail: String?
        let compressionSavedBytes: Int?
        if reusesLastEncoding, let last = lastServerPush, packet.isIdenticalPush(to: last.packet) {
            bytes = last.bytes
            traceDetail = last.traceDetail
            compressionSavedBytes = last.compressionSavedBytes
            assert(bytes == (try? encoder.encode(Frame(packet: packet))), "a reused push encodes differently")
        } else {
            let frame = Frame(packet: packet)
            do {
                bytes = try encoder.encode(frame)
            } catch {
                report(Violation(
                    check: .invariant(.P1), client: component == "server" ? nil : component, time: now,
                    expected: "an encodable \(packet.opcode) frame", found: "\(error)"))
                return
            }
            // Compressed: what LZ4 saved, for the uncompressed byte metrics.
            compressionSavedBytes = bytes.count > 6 && bytes[6] != 0
                ? FrameHeader.byteCount + frame.payload.messagePackBytes().count - bytes.count : nil
            // Only a push that may be sent again keeps a copy of its packet and its detail's string (`summary(packet)`
            // from its kept prefix: the opcode and command not described again).
            if reusesLastEncoding {
                let detail = Self.detail(summaryPrefix(packet), "", "", Int(packet.seq), " bytes=", bytes.count)
                traceDetail = detail
                lastServerPush = EncodedPacket(packet: packet, bytes: bytes, traceDetail: detail,
                                               compressionSavedBytes: compressionSavedBytes)
            } else {
                traceDetail = nil
            }
        }
        let accepted = network.send(bytes, on: socket)
        if let traceDetail {
            record(component, accepted ? "tx" : "tx-lost", traceDetail)
        } else {
            recordFrame(component, accepted ? "tx" : "tx-lost", summaryPrefix(packet), "", "", Int(packet.seq),
                        " bytes=", bytes.count)
        }
        if accepted, countsBytes { countBytes(socket: socket, up: bytes.count, down: 0) }
        if accepted, let saved = compressionSavedBytes {
            if component == "server" { compressionSavedDown += saved } else { compressionSavedUp += saved }
        }
    }

    /// Adds bytes a client's socket carried to its unreported byte counters (sent when queued, received when
    /// delivered in order; the server's sockets count nothing, the client's end counts both directions).
    func countBytes(socket: SocketID, up: Int, down: Int) {
        let index: Int
        switch sockets[socket] {
        case .chatClient(let client, _, _, _)?, .uploadClient(let client, _, _, _, _)?: index = client
        default: return
        }
        clients[index].unreportedBytesUp += up
        clients[index].unreportedBytesDown += down
    }

    /// Reports the bytes counted since the last report to the client's engine (`.bytesTransferred`).
    func reportBytes(_ index: Int) {
        let up = clients[index].unreportedBytesUp
        let down = clients[index].unreportedBytesDown
        guard up > 0 || down > 0, !clients[index].isSuspended else { return }
        clients[index].unreportedBytesUp = 0
        clients[index].unreportedBytesDown = 0
        deliver(index, generation: clients[index].generation, .bytesTransferred(upBytes: up, downBytes: down))
    }

    // MARK: - Uploads

    private func startUpload(_ upload: UploadID, token: String, sizeBytes: Int, client index: Int, generation: Int) {
        let socket = network.connect(from: clients[index].host, to: cdnHost)
        sockets[socket] = .uploadClient(client: index, generation: generation, upload: upload, sizeBytes: sizeBytes,
                                        isFinished: false)
        clients[index].sockets.append(socket)
        sockets[socket.peer] = .uploadCDN(token: token, sizeBytes: sizeBytes, receivedBytes: 0, isAnswered: false)
        clients[index].uploadsInFlight += 1
        record(clients[index].name, "upload-start", "\(upload) token=\(token) bytes=\(sizeBytes)")
        note(index, .uploadStarted)
        network.send([UInt8](repeating: 0, count: max(0, sizeBytes)), on: socket)
        countBytes(socket: socket, up: sizeBytes, down: 0)
    }

    /// Ends an upload on the client side once: tells the engine and closes the socket.
    /// - Parameter interrupted: the connection broke before the CDN answered (`.uploadInterrupted`).
    func finishUpload(socket: SocketID, succeeded: Bool, interrupted: Bool = false) {
        guard case .uploadClient(let index, let generation, let upload, let size, false)? = sockets[socket] else {
            return
        }
        sockets[socket] = .uploadClient(client: index, generation: generation, upload: upload, sizeBytes: size,
                                        isFinished: true)
        clients[index].uploadsInFlight -= 1
        record(clients[index].name, "upload-finished", "\(upload) succeeded=\(succeeded)")
        network.close(socket)
        deliver(index, generation: generation,
                interrupted ? .uploadInterrupted(upload) : .uploadFinished(upload, succeeded: succeeded))
    }

    // MARK: - App lifecycle

    /// The app is closed and reopened (`crash`: it dies at once, its open transaction rolled back): the engine,
    /// its timers and sockets go; a new engine starts from the same database.
    func restartApp(_ index: Int, crash: Bool) {
        let name = clients[index].name
        record(name, crash ? "crash" : "restart", "generation=\(clients[index].generation + 1)")
        reportBytes(index)
        // A suspended app's timers are stopped, so its requests cannot time out before it is killed (found by
        // `syncsim explore`).
        report(checker.appWillRestart(client: name, view: view(index), server: server, at: now,
                                      isSuspended: clients[index].isSuspended))
        if crash { clients[index].database.crash() }
        clients[index].previousMetrics.append(clients[index].engineMetrics)
        for entry in clients[index].timers.entries { network.cancel(entry.handle) }
        if let handle = clients[index].suspendTimer { network.cancel(handle) }
        clients[index].suspendTimer = nil
        clients[index].isInBackground = false
        clients[index].isSuspended = false
        clients[index].deferredEvents = []
        clients[index].shownChatId = nil
        for socket in clients[index].sockets {
            switch sockets[socket] {
            case .chatClient?:
                // A killed process's sockets are closed by its OS: FIN for a clean exit, RST for a crash.
                if crash { network.reset(socket) } else { network.close(socket) }
            case .uploadClient(_, _, _, _, let isFinished)?:
                if !isFinished { clients[index].uploadsInFlight -= 1 }
                network.reset(socket)
            default:
                break
            }
            forget(socket)
        }
        clients[index].sockets = []
        clients[index].generation += 1
        clients[index].rebuildEngine()
        engineChanged(index)
        deliver(index, generation: clients[index].generation, .start)
    }

    /// The app goes to the background: after `suspendDelay` the OS suspends it (see `suspend(_:)`).
    func background(_ index: Int) {
        guard !clients[index].isInBackground else { return }
        clients[index].isInBackground = true
        record(clients[index].name, "background")
        let generation = clients[index].generation
        clients[index].suspendTimer = network.schedule(after: Self.suspendDelay) { [unowned self] in
            enter { suspend(index, generation: generation) }
        }
    }

    /// The OS suspends a backgrounded app, as phones do: its chat socket is closed (the server sees a FIN), its
    /// timers stop (they fire late, on resume) and no event reaches the engine until the app comes back.
    private func suspend(_ index: Int, generation: Int) {
        guard clients[index].generation == generation, clients[index].isInBackground else { return }
        clients[index].suspendTimer = nil
        reportBytes(index)
        record(clients[index].name, "suspend")
        clients[index].isSuspended = true
        for socket in clients[index].sockets {
            if case .chatClient(_, _, let connection, _)? = sockets[socket] {
                network.close(socket)
                forget(socket)
                clients[index].deferredEvents.append(.disconnected(connection))
            }
        }
    }

    /// The app comes back: what happened while it was suspended reaches the engine in order.
    func foreground(_ index: Int) {
        guard clients[index].isInBackground else { return }
        record(clients[index].name, "foreground")
        clients[index].isInBackground = false
        if let handle = clients[index].suspendTimer { network.cancel(handle) }
        clients[index].suspendTimer = nil
        guard clients[index].isSuspended else { return }
        clients[index].isSuspended = false
        let events = clients[index].deferredEvents
        clients[index].deferredEvents = []
        // Found by `syncsim explore` (seed 168): a half-open socket's `.disconnected` came first, and P3 judged the
        // requests whose timeout timers were still to come.
        for (position, event) in events.enumerated() {
            clients[index].deferredEventsLeft = events.count - position
            deliver(index, generation: clients[index].generation, event)
        }
        clients[index].deferredEventsLeft = 0
    }

    /// The client's chat connection end on the server, mapped back to the client, or nil.
    func clientOfServerConnection(_ connection: ServerConnectionID) -> Int? {
        guard let socket = serverSockets[connection], case .chatClient(let index, _, _, _)? = sockets[socket.peer]
        else { return nil }
        return index
    }

    /// `MSG_SEND request seq=5`, for trace lines.
    static func summary(_ packet: Packet) -> String {
        "\(packet.opcode) \(packet.cmd) seq=\(packet.seq)"
    }

    /// `summary(packet)` up to its seq number, `MSG_SEND request seq=`: kept per opcode and command (below opcode
    /// 256), so a frame's trace detail does not describe them again.
    func summaryPrefix(_ packet: Packet) -> String {
        let raw = Int(packet.opcode.rawValue)
        guard raw < 256 else { return "\(packet.opcode) \(packet.cmd) seq=" }
        let slot = raw << 2 | Int(packet.cmd.rawValue)
        if let prefix = summaryPrefixes[slot] { return prefix }
        let prefix = "\(packet.opcode) \(packet.cmd) seq="
        summaryPrefixes[slot] = prefix
        return prefix
    }

    /// `first + separator + second + number + label + last` (`last` and its label only when `last` is given), the
    /// numbers in decimal as `String(_:)` spells them, built into one string of its final size. The frames' trace
    /// details were interpolations, which appended piece by piece and grew the string (about 450 instructions per
    /// piece, three or four pieces per frame).
    static func detail(_ first: String, _ separator: StaticString, _ second: String, _ number: Int,
                       _ label: StaticString, _ last: Int?) -> String {
        var first = first
        var second = second
        return first.withUTF8 { first in
            second.withUTF8 { second in
                // Each number takes at most 20 digits and a sign.
                let capacity = first.count + separator.utf8CodeUnitCount + second.count + label.utf8CodeUnitCount + 42
                return String(unsafeUninitializedCapacity: capacity) { out in
                    var count = 0
                    func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                        for byte in bytes {
                            out[count] = byte
                            count += 1
                        }
                    }
                    put(first)
                    separator.withUTF8Buffer(put)
                    put(second)
                    count = TraceRing.writeDecimal(number, into: out, at: count)
                    if let last {
                        label.withUTF8Buffer(put)
                        count = TraceRing.writeDecimal(last, into: out, at: count)
                    }
                    return count
                }
            }
        }
    }

    /// `summary(packet)` for a client's `rx` line, the same string again while the header fields repeat: every
    /// member of a chat receives its pushes as `NOTIF_MESSAGE request seq=0`.
    func receivedSummary(_ packet: Packet) -> String {
        if let last = lastReceivedSummary, last.opcode == packet.opcode, last.cmd == packet.cmd,
           last.seq == packet.seq {
            return last.text
        }
        let text = Self.detail(summaryPrefix(packet), "", "", Int(packet.seq), "", nil)
        lastReceivedSummary = (packet.opcode, packet.cmd, packet.seq, text)
        return text
    }
}
