// Socket events from SimNet: bytes through the frame decoder into the cores, and connection lifecycle.
extension World {
    func handleSocketEvent(_ event: SocketEvent) {
        if event.host == serverHost, case .accepted = event.kind {
            acceptChatConnection(event.socket)
            return
        }
        guard let role = sockets[event.socket] else { return }
        switch role {
        case .chatClient(let index, let generation, let connection, let isConnected):
            handleChatClient(event, index: index, generation: generation, connection: connection,
                             isConnected: isConnected)
        case .chatServer(let connection):
            handleChatServer(event, connection: connection)
        case .uploadClient:
            handleUploadClient(event)
        case .uploadCDN(let token, let sizeBytes, let receivedBytes, let isAnswered):
            handleUploadCDN(event, token: token, sizeBytes: sizeBytes, receivedBytes: receivedBytes,
                            isAnswered: isAnswered)
        }
    }

    /// Stops tracking a socket (its role, decoder and its place in a client's list).
    func forget(_ socket: SocketID) {
        switch sockets[socket] {
        case .chatClient(let index, _, _, _)?, .uploadClient(let index, _, _, _, _)?:
            clients[index].sockets.removeAll { $0 == socket }
        case .chatServer(let connection)?:
            serverSockets[connection] = nil
        default:
            break
        }
        sockets[socket] = nil
        decoders[socket] = nil
    }

    // MARK: - Chat connections

    private func acceptChatConnection(_ socket: SocketID) {
        guard case .chatClient? = sockets[socket.peer] else {
            // A connection whose client end the world no longer tracks (the app restarted meanwhile).
            network.reset(socket)
            return
        }
        let connection = ServerConnectionID(rawValue: nextServerConnection)
        nextServerConnection += 1
        sockets[socket] = .chatServer(connection)
        serverSockets[connection] = socket
        decoders[socket] = StreamDecoder(decoder: keyCacheDecoder.decoderSharingKeyCache())
        record("server", "accept", "\(connection) socket=\(socket.connection)")
        applyServer(serverHandle(.connectionOpened(connection)))
    }

    private func handleChatClient(
        _ event: SocketEvent, index: Int, generation: Int, connection: ClientConnectionID, isConnected: Bool
    ) {
        switch event.kind {
        case .connected:
            sockets[event.socket] = .chatClient(client: index, generation: generation, connection: connection,
                                                isConnected: true)
            record(clients[index].name, "connected", "\(connection)")
            deliver(index, generation: generation, .connected(connection))
            observe(.connected(client: clients[index].name))
        case .received(let bytes):
            countBytes(socket: event.socket, up: 0, down: bytes.count)
            var packets = decode(bytes, on: event.socket, component: clients[index].name)
            // Each packet moved out in order (reversed, then popped) into the engine's event: iterating copied it.
            if packets.count > 1 { packets.reverse() }
            while let packet = packets.popLast() {
                record(clients[index].name, "rx", receivedSummary(packet))
                let (isPush, cmd, opcode) = (packet.isPush, packet.cmd, packet.opcode)
                deliver(index, generation: generation, .packetReceived(packet, on: connection))
                if isPush { note(index, .push(opcode)) }
                if cmd == .response, opcode == .login { note(index, .login) }
                // A field push travels as cmd 0 with a NOTIF_* opcode; `.push` in a When-step names it either way.
                let command: Command = isPush ? .push : cmd
                observe(.clientReceives(client: clients[index].name, opcode: opcode, command: command))
            }
            recycle(&packets)
        case .closed, .reset, .timedOut:
            record(clients[index].name, "disconnected", "\(connection) \(event.kind)")
            if event.kind == .closed { network.close(event.socket) }
            forget(event.socket)
            deliver(index, generation: generation, isConnected ? .disconnected(connection) : .connectFailed(connection))
            if isConnected { observe(.disconnected(client: clients[index].name)) }
        case .accepted:
            break
        }
    }

    private func handleChatServer(_ event: SocketEvent, connection: ServerConnectionID) {
        switch event.kind {
        case .received(let bytes):
            var packets = decode(bytes, on: event.socket, component: "server")
            if packets.count > 1 { packets.reverse() }
            while let packet = packets.popLast() {
                recordFrame("server", "rx", connection.description, " ", summaryPrefix(packet), Int(packet.seq), "", nil)
                receiveAtServer(packet, on: connection)
            }
            recycle(&packets)
        case .closed, .reset, .timedOut:
            record("server", "disconnected", "\(connection) \(event.kind)")
            if event.kind == .closed { network.close(event.socket) }
            forget(event.socket)
            applyServer(serverHandle(.connectionClosed(connection)))
        case .accepted, .connected:
            break
        }
    }

    /// Feeds bytes to a socket's frame decoder and returns the whole packets; a frame that does not decode is a
    /// protocol violation (reported; the connection is reset, the run goes on).
    private func decode(_ bytes: [UInt8], on socket: SocketID, component: String) -> [Packet] {
        // Decoded in place in the table (taking the stream out and putting it back would copy its buffer).
        guard decoders.contains(socket) else { return [] }
        var packets = decodedPackets
        decodedPackets = []
        do {
            try decoders.modify(socket) { try $0.decode(bytes, into: &packets, cache: &repeatedFrames) }
        } catch {
            decoders[socket] = nil
            report(Violation(
                check: .invariant(.P1), client: component == "server" ? nil : component, time: now,
                expected: "well-formed frames on \(socket)", found: "\(error)"))
            network.reset(socket)
            return packets
        }
        return packets
    }

    /// Hands `decode`'s array back, emptied with its storage kept, for the next segment's packets.
    private func recycle(_ packets: inout [Packet]) {
        packets.removeAllKeepingCapacity()
        decodedPackets = packets
    }

    // MARK: - Uploads

    private func handleUploadClient(_ event: SocketEvent) {
        switch event.kind {
        case .received(let bytes):
            countBytes(socket: event.socket, up: 0, down: bytes.count)
            finishUpload(socket: event.socket, succeeded: bytes.first == 1)
        case .closed, .reset, .timedOut:
            finishUpload(socket: event.socket, succeeded: false, interrupted: true)
            forget(event.socket)
        case .accepted, .connected:
            break
        }
    }

    private func handleUploadCDN(
        _ event: SocketEvent, token: String, sizeBytes: Int, receivedBytes: Int, isAnswered: Bool
    ) {
        switch event.kind {
        case .received(let bytes):
            let received = receivedBytes + bytes.count
            var answered = isAnswered
            if received >= sizeBytes, !isAnswered {
                answered = true
                let accepted = server.receiveUpload(token: token, sizeBytes: received)
                record("cdn", "upload", "token=\(token) bytes=\(received) accepted=\(accepted)")
                network.send([accepted ? 1 : 0], on: event.socket)
                network.close(event.socket)
            }
            sockets[event.socket] = .uploadCDN(token: token, sizeBytes: sizeBytes, receivedBytes: received,
                                               isAnswered: answered)
        case .closed, .reset, .timedOut:
            if event.kind == .closed { network.close(event.socket) }
            forget(event.socket)
        case .accepted, .connected:
            break
        }
    }
}
