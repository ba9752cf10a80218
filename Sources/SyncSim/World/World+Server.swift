// Driving the server core: requests in (with the world's own faults), actions out.
extension World {
    /// A request reached the server: injected error replies and lost responses apply here, the rest is the core's.
    func receiveAtServer(_ packet: Packet, on connection: ServerConnectionID) {
        if packet.cmd == .request, !triggers.isEmpty, let name = clientName(ofServerConnection: connection) {
            observe(.serverReceives(opcode: packet.opcode, client: name))
        }
        if packet.cmd == .request, FaultState.take(from: &faults.errorsToReply, opcode: packet.opcode,
                                                   client: clientOfServerConnection(connection)) {
            record("server", "fault-error-reply", "\(connection) \(Self.summary(packet))")
            let body = Packet.Body.error(ErrorPayload(error: "server.injected",
                                                      message: "injected error for \(packet.opcode)"))
            sendFromServer(Packet(cmd: .error, seq: packet.seq, opcode: packet.opcode, body: body), on: connection)
            return
        }
        if packet.cmd == .request, FaultState.take(from: &faults.responsesToLose, opcode: packet.opcode,
                                                   client: clientOfServerConnection(connection)) {
            faults.lostResponses.insert(.init(connection: connection, seq: packet.seq, opcode: packet.opcode))
        }
        applyServer(serverHandle(.packetReceived(packet, on: connection)))
    }

    /// Feeds one event to the server core, then runs the server-side invariant checks.
    func serverHandle(_ event: ServerEvent) -> [ServerAction] {
        let actions = server.handle(event, now: now)
        report(withServer { checker.afterServerEvent(server: $0, at: now) })
        return actions
    }

    /// Runs `body` with the server core in place. Passing `server` (a stored property of this class) as an argument
    /// copied the whole struct, a retain and a release of each of its tables, on every event the checker saw; the
    /// inout access hands the checker the stored value itself. `body` must not touch `server` otherwise.
    @inline(__always)
    func withServer<Result>(_ body: (inout SyncServer) -> Result) -> Result {
        body(&server)
    }

    /// Performs the server core's actions.
    func applyServer(_ actions: [ServerAction]) {
        for action in actions {
            switch action {
            case .send(let packet, let connection):
                sendFromServer(packet, on: connection)
            case .close(let connection):
                guard let socket = serverSockets[connection] else { continue }
                record("server", "close", "\(connection)")
                network.close(socket)
            case .startTimer(let timer, let instant):
                serverTimers[timer] = network.schedule(at: max(instant, now)) { [unowned self] in
                    enter {
                        guard serverTimers.removeValue(forKey: timer) != nil else { return }
                        applyServer(serverHandle(.timerFired(timer)))
                    }
                }
            case .cancelTimer(let timer):
                if let handle = serverTimers.removeValue(forKey: timer) { network.cancel(handle) }
            }
        }
    }

    private func sendFromServer(_ packet: Packet, on connection: ServerConnectionID) {
        guard let socket = serverSockets[connection] else { return }
        if packet.cmd == .response || packet.cmd == .error {
            let key = FaultState.LostResponse(connection: connection, seq: packet.seq, opcode: packet.opcode)
            if !faults.lostResponses.isEmpty, faults.lostResponses.remove(key) != nil {
                record("server", "fault-lose-response", "\(connection) \(Self.summary(packet))")
                return
            }
            if holdIfAsked(packet, on: connection) { return }
        }
        // Captured by value by the delayed sends below: a `var` captured by reference lived in a heap box, allocated
        // on every packet the server sent, delayed or not.
        var copies = 1
        // The push's client, looked up once (two table lookups) instead of once per fault kind.
        let pushClient = packet.isPush ? clientOfServerConnection(connection) : nil
        if let client = pushClient {
            if draw(faults.pushLoss, client: client) {
                record("server", "fault-push-lost", "\(connection) \(Self.summary(packet))")
                return
            }
            if draw(faults.pushDuplication, client: client) { copies = 2 }
        }
        if let client = pushClient, let delay = pushDelay(for: client) {
            // Later pushes on the connection never overtake a delayed one.
            let at = max(now + delay, faults.pushReleaseTimes[connection] ?? now)
            faults.pushReleaseTimes[connection] = at
            record("server", "push-delayed", "\(connection) \(Self.summary(packet)) until=\(at)")
            network.schedule(at: at) { [unowned self, copies] in
                enter {
                    guard let socket = serverSockets[connection] else { return }
                    for _ in 0..<copies {
                        sendPacket(packet, on: socket, encoder: serverEncoder, from: "server", countsBytes: false,
                                   reusesLastEncoding: packet.isPush)
                    }
                }
            }
            return
        }
        if packet.isPush, !faults.pushReleaseTimes.isEmpty, let pending = faults.pushReleaseTimes[connection],
           pending > now {
            network.schedule(at: pending) { [unowned self, copies] in
                enter {
                    guard let socket = serverSockets[connection] else { return }
                    for _ in 0..<copies {
                        sendPacket(packet, on: socket, encoder: serverEncoder, from: "server", countsBytes: false,
                                   reusesLastEncoding: packet.isPush)
                    }
                }
            }
            return
        }
        for _ in 0..<copies {
            sendPacket(packet, on: socket, encoder: serverEncoder, from: "server", countsBytes: false,
                       reusesLastEncoding: packet.isPush)
        }
        if packet.cmd == .response || packet.cmd == .error, !triggers.isEmpty,
           let name = clientName(ofServerConnection: connection) {
            observe(.serverAnswers(opcode: packet.opcode, client: name))
        }
    }

    /// Whether a push fault period covering `client` fires now (one draw per active period, in order).
    private func draw(_ periods: [(client: Int?, probability: Double, until: SimInstant)], client: Int) -> Bool {
        var fires = false
        for period in periods where now < period.until && (period.client == nil || period.client == client) {
            if faultGenerator.nextBernoulli(period.probability) { fires = true }
        }
        return fires
    }

    /// The server process restarts: connections drop with an RST (its OS resets them), requests being processed
    /// are lost, data stays; SYNs are refused for `downtime`.
    func restartServer(downtime: SimDuration) {
        record("server", "restart", "downtime=\(downtime)")
        for action in serverHandle(.restart) {
            switch action {
            case .close(let connection):
                if let socket = serverSockets[connection] {
                    network.reset(socket)
                    forget(socket)
                }
            case .cancelTimer(let timer):
                if let handle = serverTimers.removeValue(forKey: timer) { network.cancel(handle) }
            case .send, .startTimer:
                break
            }
        }
        faults.lostResponses = []
        network.setAcceptsConnections(false, on: serverHost)
        network.schedule(after: downtime) { [unowned self] in
            enter {
                record("server", "accepting")
                network.setAcceptsConnections(true, on: serverHost)
            }
        }
    }
}
