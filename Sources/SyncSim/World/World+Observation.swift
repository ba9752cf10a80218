// What the world observes for expectations without changing the run: protocol events that fire `When` steps, the
// per-client log behind windowed metrics, and the moments labelled steps ran. Nothing here appends trace records
// unless a scenario uses `When`, `Check` or the field actions below.

/// One thing a client did on the wire, for `WindowMetrics`.
struct ClientObservation {
    enum Kind {
        case request(Opcode)
        case connectAttempt
        case login
        case uploadStarted
        case push(Opcode)
    }

    var time: SimInstant
    var kind: Kind
}

extension ProtocolEvent.Kind {
    /// The same event for "any client" (`from: nil`) or "any command", when the pattern allows one.
    var wildcard: ProtocolEvent.Kind? {
        switch self {
        case .serverReceives(let opcode, _?): .serverReceives(opcode: opcode, client: nil)
        case .serverAnswers(let opcode, _?): .serverAnswers(opcode: opcode, client: nil)
        case .clientReceives(let client, let opcode, _?): .clientReceives(client: client, opcode: opcode, command: nil)
        default: nil
        }
    }
}

extension World {
    /// Notes a protocol event and runs the `When` steps whose occurrence it is, in the order written.
    func observe(_ event: ProtocolEvent.Kind) {
        guard !triggers.isEmpty else { return }
        var patterns = [event]
        if let wildcard = event.wildcard { patterns.append(wildcard) }
        for pattern in patterns { triggerCounts[pattern, default: 0] += 1 }
        for position in triggers.indices where !firedTriggers.contains(position) {
            let trigger = triggers[position]
            guard patterns.contains(trigger.event.kind),
                  triggerCounts[trigger.event.kind] == trigger.event.occurrence else { continue }
            firedTriggers.insert(position)
            perform(ScheduledStep(time: now, index: trigger.index, step: trigger.step), isTriggered: true)
        }
    }

    /// Appends to client `index`'s observation log.
    func note(_ index: Int, _ kind: ClientObservation.Kind) {
        observations[index].append(ClientObservation(time: now, kind: kind))
    }

    /// The name of the client behind a server connection, or nil.
    func clientName(ofServerConnection connection: ServerConnectionID) -> String? {
        clientOfServerConnection(connection).map { clients[$0].name }
    }

    /// The trace tail up to `instant`: at most `options.traceWindow` records.
    func tail(upTo instant: SimInstant) -> [String] {
        traceTail.lines(upTo: instant, count: options.traceWindow)
    }

    // MARK: - Field actions

    /// A `Check` step: the condition must hold now.
    func checkpoint(_ condition: Condition, step: ScheduledStep) {
        guard !condition.isSatisfied(in: self) else { return }
        report(Violation(
            check: .checkpoint(condition.description), client: condition.clients?.first, chat: condition.chat,
            time: now, expected: "\(condition) at \(now) (\(step.step.location))", found: "false at \(now)",
            lastStep: StepReference(step)))
    }

    /// A post from a device outside the simulation: stored now, pushed to every member's connection.
    func postFromOtherDevice(_ index: Int, chatId: Int64, text: String) {
        record("server", "post-other-device", "user=\(clients[index].userId) chat=\(chatId)")
        let actions = server.post(chatId: chatId, sender: clients[index].userId, text: text, now: now)
        report(checker.afterServerEvent(server: server, at: now))
        applyServer(actions)
    }

    /// Holds responses to `opcode` until `until`; a fixed time schedules the release, a label waits for its step.
    func holdResponses(_ opcode: Opcode, client: Int?, until: Moment) {
        faults.holds.append(FaultState.ResponseHold(opcode: opcode, client: client, until: until))
        let position = faults.holds.count - 1
        switch until {
        case .time(let offset):
            let at = max(now, .start + offset)
            network.schedule(at: at) { [unowned self] in enter { releaseHold(position) } }
        case .step(let label):
            if monitor.instant(ofStep: label) != nil { releaseHold(position) }
        }
    }

    /// Releases the holds waiting for the step labelled `label`.
    func releaseHolds(waitingFor label: String) {
        for position in faults.holds.indices where faults.holds[position].until == .step(label) {
            releaseHold(position)
        }
    }

    /// Sends a hold's responses in the order they were held, on connections still open. A response whose
    /// connection closed meanwhile is lost, or, with the server's `repliesFollowDevice`, goes to the newest
    /// connection of the same user and device, as a delayed response would (`SyncServer.followingConnection`).
    func releaseHold(_ position: Int) {
        guard !faults.holds[position].isReleased else { return }
        faults.holds[position].isReleased = true
        let held = faults.holds[position].packets
        faults.holds[position].packets = []
        record("server", "hold-released", "\(faults.holds[position].opcode) responses=\(held.count)")
        for (packet, heldOn, device) in held {
            var connection = heldOn
            if serverSockets[heldOn] == nil, let device,
               let following = server.followingConnection(device.userId, device.deviceId) {
                connection = following
                record("server", "hold-follows-device", "\(heldOn) -> \(following) \(Self.summary(packet))")
            }
            guard let socket = serverSockets[connection] else { continue }
            sendPacket(packet, on: socket, encoder: serverEncoder, from: "server")
            if let name = clientName(ofServerConnection: connection) {
                observe(.serverAnswers(opcode: packet.opcode, client: name))
            }
        }
    }

    /// Whether an active hold takes this response (then it is kept for later).
    func holdIfAsked(_ packet: Packet, on connection: ServerConnectionID) -> Bool {
        guard !faults.holds.isEmpty else { return false }
        let client = clientOfServerConnection(connection)
        for position in faults.holds.indices {
            let hold = faults.holds[position]
            guard !hold.isReleased, hold.opcode == packet.opcode, hold.client == nil || hold.client == client else {
                continue
            }
            faults.holds[position].packets.append((packet, connection, server.device(of: connection)))
            record("server", "hold-response", "\(connection) \(Self.summary(packet))")
            return true
        }
        return false
    }

    /// The extra delay active push-delay periods give a push to `client` now, or nil when none applies.
    func pushDelay(for client: Int) -> SimDuration? {
        let active = faults.pushDelays.filter { $0.client == client && now < $0.until }
        guard !active.isEmpty else { return nil }
        return active.reduce(SimDuration.zero) { $0 + $1.extraDelay }
    }

    /// The OS reports the network lost or back: the link goes down silently or up, and the engine is told.
    func connectivity(_ index: Int, _ change: ConnectivityChange) {
        let host = clients[index].host
        switch change {
        case .lost: network.inject(.down(resetting: .none), on: host)
        case .restored: network.inject(.up, on: host)
        }
        deliver(index, generation: clients[index].generation, .connectivityChanged(isAvailable: change == .restored))
    }
}
