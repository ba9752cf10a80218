import SimCore
import SyncClient
import SyncProtocol
import SyncServer

extension InvariantChecker {
    /// Observes a packet a client engine sent (P2; requests only, other packets are ignored).
    ///
    /// A request is over once its response or error was observed, once its timeout passed (`requestTimeout`,
    /// `pongTimeout` for PING, `ClientParameters.maximumHandshakeTimeout` for SESSION_INIT and LOGIN), or once the
    /// client sends on another connection (the old one is gone).
    /// - Parameters:
    ///   - client: a registered client.
    ///   - packet: the packet as the engine produced it.
    ///   - connection: the connection the engine sent it on.
    ///   - now: virtual time.
    /// - Returns: the new findings.
    @discardableResult
    public func observeClientSent(
        client: String, packet: Packet, on connection: ClientConnectionID, at now: SimInstant
    ) -> [Finding] {
        observeClientSent(ledgerIndex(client), packet: packet, on: connection, at: now)
    }

    /// `observeClientSent(client:packet:on:at:)` for the client of ledger `index`.
    func observeClientSent(_ index: Int, packet: Packet, on connection: ClientConnectionID, at now: SimInstant)
        -> [Finding] {
        let client = clientNames[index]
        let new = withLedger(index) { ledger -> [Finding] in
            ledger.hasObservedPackets = true
            guard packet.cmd == .request else { return [] }
            endStaleRequests(&ledger, connection: connection, now: now)
            if case .msgSend(let request) = packet.body {
                ledger.sentCidsToLink.append((packet.seq, request.message.cid))
            }
            var new: [Finding] = []
            if let live = ledger.outstanding[packet.seq], let other = live.first {
                new.append(Finding(invariant: .P2, client: client, time: now,
                                   expected: "seq \(packet.seq) free before reuse",
                                   found: "\(packet.opcode) sent with seq \(packet.seq) while \(other.opcode) sent at "
                                       + "\(other.sentAt) is still in flight"))
            }
            let timeout = ledger.timeout(for: packet.opcode)
            ledger.outstanding[packet.seq, default: []].append(ClientLedger.OutstandingRequest(
                seq: packet.seq, opcode: packet.opcode, connection: connection, sentAt: now, deadline: now + timeout))
            return new
        }
        return new.isEmpty ? [] : record(new)
    }

    /// Observes a packet about to reach a client engine (P1; P4's server times from SESSION_INIT and LOGIN).
    ///
    /// A response or error must match exactly one request in flight by seq and opcode. One that matches none (a
    /// late answer after a timeout) is fine as long as the engine ignores it.
    /// - Parameters:
    ///   - client: a registered client.
    ///   - packet: the packet as decoded for the engine.
    ///   - connection: the connection it arrived on.
    ///   - now: virtual time.
    /// - Returns: the new findings.
    @discardableResult
    public func observeClientReceived(
        client: String, packet: Packet, on connection: ClientConnectionID, at now: SimInstant
    ) -> [Finding] {
        observeClientReceived(ledgerIndex(client), packet: packet, on: connection, at: now)
    }

    /// `observeClientReceived(client:packet:on:at:)` for the client of ledger `index`.
    func observeClientReceived(_ index: Int, packet: Packet, on connection: ClientConnectionID, at now: SimInstant)
        -> [Finding] {
        let new = withLedger(index) { ledger -> [Finding] in
            ledger.hasObservedPackets = true
            let isOpen = !ledger.closedConnections.contains(connection)
            switch packet.body {
            case .loginResponse(let response): ledger.serverTimesReceived.insert(response.time)
            case .sessionInitResponse(let response): ledger.serverTimesReceived.insert(response.time)
            default: break
            }
            guard packet.cmd == .response || packet.cmd == .error else {
                if isOpen { noteDeliveredChanges(&ledger, packet: packet) }
                return []
            }
            // A late packet on an old connection (which the engine ignores) must not end requests on the current
            // one, so only timeouts end requests here. The seq's list is taken out and changed in place (no
            // filtered copies on every response), then put back unless it is empty.
            guard var live = ledger.outstanding.removeValue(forKey: packet.seq) else { return [] }
            live.removeAll { $0.deadline <= now }
            let isMatching = { (request: ClientLedger.OutstandingRequest) in
                request.opcode == packet.opcode && request.connection == connection
            }
            let matchCount = live.count(where: isMatching)
            if matchCount > 1 {
                ledger.outstanding[packet.seq] = live
                let sent = live.filter(isMatching).map { "\($0.sentAt)" }.joined(separator: ", ")
                return [Finding(invariant: .P1, client: clientNames[index], time: now,
                                expected: "\(packet.opcode) response seq \(packet.seq) matching one request",
                                found: "\(matchCount) requests in flight with that seq, sent at \(sent)")]
            }
            if matchCount == 1, let index = live.firstIndex(where: isMatching) {
                live.remove(at: index)
                // An answer's changes count as given (C7) only when it answers a request in flight on its
                // connection: the engine ignores an answer to a request of an earlier connection that the server
                // sent to the device's newest one (`repliesFollowDevice`), and one after its request timed out
                // (found by `syncsim explore`, seed 38101891: a held LOGIN answer of a closed connection, carrying
                // an edit, came 2 ms before the current LOGIN's answer with the same edit).
                if isOpen { noteDeliveredChanges(&ledger, packet: packet) }
            }
            if !live.isEmpty { ledger.outstanding[packet.seq] = live }
            return []
        }
        return new.isEmpty ? [] : record(new)
    }

    /// Observes an event about to reach a client engine: a received packet goes to `observeClientReceived`.
    /// - Returns: the new findings.
    @discardableResult
    public func observeClientEvent(client: String, event: ClientEvent, at now: SimInstant) -> [Finding] {
        guard case .packetReceived(let packet, let connection) = event else { return [] }
        return observeClientReceived(ledgerIndex(client), packet: packet, on: connection, at: now)
    }

    /// `observeClientEvent(client:event:at:)` for a client as `register` returned it.
    @discardableResult
    public func observeClientEvent(_ client: RegisteredClient, event: ClientEvent, at now: SimInstant) -> [Finding] {
        guard case .packetReceived(let packet, let connection) = event else { return [] }
        return observeClientReceived(client.index, packet: packet, on: connection, at: now)
    }

    /// Observes the actions a client engine returned: each sent packet goes to `observeClientSent`, in order.
    /// - Returns: the new findings.
    @discardableResult
    public func observeClientActions(client: String, actions: [ClientAction], at now: SimInstant) -> [Finding] {
        guard !actions.isEmpty else { return [] }
        return observeClientActions(RegisteredClient(index: ledgerIndex(client)), actions: actions, at: now)
    }

    /// `observeClientActions(client:actions:at:)` for a client as `register` returned it.
    @discardableResult
    public func observeClientActions(_ client: RegisteredClient, actions: [ClientAction], at now: SimInstant)
        -> [Finding] {
        var new: [Finding] = []
        guard !actions.isEmpty else { return new }
        let index = client.index
        for action in actions {
            switch action {
            case .send(let packet, let connection):
                let found = observeClientSent(index, packet: packet, on: connection, at: now)
                if !found.isEmpty { new += found }
            case .close(let connection):
                withLedger(index) { _ = $0.closedConnections.insert(connection) }
            default:
                break
            }
        }
        return new
    }

    /// Ends requests sent on another connection (it closed) or past their timeout.
    private func endStaleRequests(_ ledger: inout ClientLedger, connection: ClientConnectionID, now: SimInstant) {
        guard !ledger.outstanding.isEmpty else { return }
        // Each seq's list is independent of the others: changed in place, in any order, and the emptied ones
        // removed after (no sorted key list and no filtered copy per seq on every request sent).
        // (An index walk: `indices` would hold a second reference to the table, and the first change would copy it.)
        var emptied: [UInt16] = []
        var index = ledger.outstanding.startIndex
        while index != ledger.outstanding.endIndex {
            ledger.outstanding.values[index].removeAll { $0.connection != connection || $0.deadline <= now }
            if ledger.outstanding.values[index].isEmpty { emptied.append(ledger.outstanding.keys[index]) }
            ledger.outstanding.formIndex(after: &index)
        }
        for seq in emptied { ledger.outstanding[seq] = nil }
    }

    /// P2 over the view's table, P3 (nothing stays in flight past its timeout) and P4: last-sync never goes
    /// backwards, never runs ahead of the server clock, and (when packets are observed) is a server time the client
    /// received in a response.
    func checkRequestsAndLastSync(
        _ ledger: inout ClientLedger, view: ClientView, server: SyncServer, now: SimInstant,
        checksTimeouts: Bool = true, report: Report
    ) {
        // Pairwise (a handful of requests is in flight): no array or set built on every event.
        let requests = view.inFlightRequests
        if requests.indices.contains(where: { i in requests[..<i].contains { $0.seq == requests[i].seq } }) {
            let seqs = requests.map(\.seq)
            report(.P2, nil, "distinct seqs in flight", "seqs \(seqs.map(String.init).joined(separator: ", "))")
        }
        for request in view.inFlightRequests where checksTimeouts {
            let deadline = request.sentAt + ledger.timeout(for: request.opcode)
            if deadline < now {
                report(.P3, nil, "\(request.opcode) seq \(request.seq) answered or timed out by \(deadline)",
                       "still in flight at \(now)")
            }
        }
        let value = view.lastSyncMilliseconds
        defer { ledger.lastSyncMilliseconds = max(ledger.lastSyncMilliseconds, value) }
        guard value != ledger.lastSyncMilliseconds else { return }
        if value < ledger.lastSyncMilliseconds {
            report(.P4, nil, "last-sync at or after \(ledger.lastSyncMilliseconds) ms", "\(value) ms (backwards)")
        }
        let serverNow = server.serverTimeMilliseconds(at: now)
        if value > serverNow {
            report(.P4, nil, "last-sync at or before the server clock \(serverNow) ms",
                   "\(value) ms (ahead by \(value - serverNow) ms)")
        } else if ledger.hasObservedPackets, value != 0, !ledger.serverTimesReceived.contains(value) {
            report(.P4, nil, "last-sync taken from a server time in a response",
                   "\(value) ms, which no SESSION_INIT or LOGIN response carried")
        }
    }
}
