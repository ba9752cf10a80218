import SyncSim
import SyncTrace

/// App restarts and server restarts, inferred from a capture (the other rules are on `ReplayInference`).
///
/// - **app restart**: a client's connection whose first request has the seq of the client's very first request
///   (a new engine starts its seq space afresh, where a reconnect of the same engine goes on counting) after a
///   connection that had gone past it. `RestartApp` where the client closed the old connection (FIN), `CrashApp`
///   where it reset it (RST, as the OS does for a killed process); without either, just before the new connection
///   opened. The new LOGIN's `chatsSync` (the last sync the new engine read back from its database) is in the comment.
/// - **server restart**: the server reset established connections of at least two clients at the same moment
///   (within 300 ms once each client's one-way delay is taken off), or of one client whose next attempts were
///   refused (SYN answered by RST). `ServerRestart` at that moment; the downtime runs to halfway between the
///   arrival of the last refused SYN and the first accepted one (to half the time to the first accepted SYN when
///   none was refused).
extension ReplayInference {
    /// The client requests of a connection, in capture order.
    static func requests(_ connection: ReplayTimeline.Connection) -> [ReplayTimeline.Entry] {
        connection.entries.filter { $0.direction == .clientToServer && $0.packet.cmd == .request }
    }

    /// App restarts of one client, from its chat connections in opening order.
    static func appRestarts(_ connections: [ReplayTimeline.Connection]) -> [Inferred] {
        let withRequests = connections.filter { !requests($0).isEmpty }
        guard let launchSeq = withRequests.first.flatMap({ requests($0).first?.packet.seq }) else { return [] }
        var found: [Inferred] = []
        for (previous, next) in zip(withRequests, withRequests.dropFirst()) {
            let before = requests(previous), after = requests(next)
            guard let first = after.first, first.packet.seq == launchSeq, let last = before.last,
                  before.count > 1 || last.packet.seq != launchSeq, last.packet.seq &+ 1 != first.packet.seq
            else { continue }
            // The old engine's socket closed by its OS at the restart: the new engine connects at once.
            let closedAt = previous.tcp.clientClosedAt.flatMap {
                $0 <= shifted(next.opensAt, .milliseconds(1)) && next.opensAt - $0 <= .seconds(1) ? $0 : nil
            }
            let crash = closedAt != nil && previous.tcp.clientReset
            let time = closedAt ?? shifted(next.opensAt, .milliseconds(-1))
            var how = "connection \(next.number) opened at \(seconds(next.opensAt)) s starts again at seq "
                + "\(first.packet.seq) (connection \(previous.number) had reached seq \(last.packet.seq))"
            if let login = after.first(where: { if case .login = $0.packet.body { true } else { false } }),
               case .login(let request) = login.packet.body {
                how += ", its LOGIN at \(seconds(login.time)) s carries chatsSync \(request.chatsSync)"
            }
            how += closedAt == nil ? "; connection \(previous.number) was not closed by the client first"
                : "; connection \(previous.number): \(crash ? "RST" : "FIN") from the client at \(seconds(time)) s"
            found.append(Inferred(time: time,
                                  action: crash ? .crashApp(client: address(of: previous))
                                      : .restartApp(client: address(of: previous)),
                                  comment: how))
        }
        return found
    }

    /// Server restarts, from every client's connections; `oneWay` gives a client address's one-way delay.
    static func serverRestarts(_ connections: [ReplayTimeline.Connection], oneWay: (String) -> SimDuration)
        -> [(step: Inferred, resetConnections: Set<Int>)]
    {
        // Resets of established connections by the server alone (a link going down with a reset resets both ends),
        // as the server's moment: capture time less the downlink's one-way delay.
        let resets = connections.compactMap { connection -> (at: SimInstant, seen: SimInstant, connection: Int,
                                                              address: String)? in
            guard connection.role == .chat, !connection.entries.isEmpty, !connection.tcp.clientReset,
                  let seen = connection.tcp.serverResetAt else { return nil }
            let address = address(of: connection)
            return (shifted(seen, .zero - oneWay(address)), seen, connection.number, address)
        }.sorted { ($0.at, $0.connection) < ($1.at, $1.connection) }
        let refused = connections.filter { $0.role == .refused }
        var found: [(step: Inferred, resetConnections: Set<Int>)] = []
        var index = 0
        while index < resets.count {
            var cluster = [resets[index]]
            while index + cluster.count < resets.count,
                  resets[index + cluster.count].at - resets[index].at <= .milliseconds(300) {
                cluster.append(resets[index + cluster.count])
            }
            index += cluster.count
            let moment = cluster[0].at
            let addresses = Set(cluster.map(\.address))
            let refusedAfter = refused.filter { $0.opensAt >= shifted(moment, .milliseconds(-300))
                && $0.opensAt < shifted(moment, .minutes(5)) }
            guard addresses.count >= 2 || !refusedAfter.isEmpty else { continue }
            let lastRefused = refusedAfter.map { shifted($0.opensAt, oneWay(address(of: $0))) }.max()
            let firstAccepted = connections.filter { $0.role == .chat && $0.opensAt > moment }
                .map { shifted($0.opensAt, oneWay(address(of: $0))) }
                .filter { lastRefused == nil || $0 > lastRefused! }.min()
            var downtime: SimDuration
            var how: String
            switch (lastRefused, firstAccepted) {
            case (let refusedArrival?, let acceptedArrival?):
                downtime = (refusedArrival - moment) + SimDuration(nanoseconds: (acceptedArrival - refusedArrival)
                    .nanoseconds / 2)
                how = "\(refusedAfter.count) connection attempts refused (SYN answered by RST) until "
                    + "\(seconds(refusedAfter.map(\.opensAt).max()!)) s"
            case (let refusedArrival?, nil):
                downtime = (refusedArrival - moment) + .seconds(1)
                how = "\(refusedAfter.count) connection attempts refused, none accepted in the capture"
            case (nil, let acceptedArrival?):
                downtime = SimDuration(nanoseconds: (acceptedArrival - moment).nanoseconds / 2)
                how = "no attempt refused; the next connection accepted"
            case (nil, nil):
                downtime = .seconds(1)
                how = "no later connection in the capture"
            }
            downtime = max(ReplayScenarioEmitter.rounded(downtime), .milliseconds(1))
            let which = cluster.map { "connection \($0.connection) at \(seconds($0.seen)) s" }.joined(separator: ", ")
            found.append((Inferred(time: moment, action: .serverRestart(downtime: downtime),
                                   comment: "RST from the server on \(which) (less the one-way delay: "
                                       + "\(seconds(moment)) s); \(how)"),
                          Set(cluster.map(\.connection))))
        }
        return found
    }
}

extension ReplayInference {
    /// Link changes of one client (a handover from Wi-Fi to EDGE, say): each connection's smallest
    /// request→response time, mapped to the nearest catalog profile; where a later connection's RTT is off by a
    /// factor of 1.8 or more from the current profile's and maps to another profile, `ChangeProfile` just before it
    /// opened. Returns the profile of the first connection with an answer and the changes.
    static func profileChanges(_ connections: [ReplayTimeline.Connection], lossy: Bool)
        -> (initial: ProfileName, comment: String, changes: [Inferred])?
    {
        var current: (profile: ProfileName, roundTrip: SimDuration, connection: Int)?
        var initial: (ProfileName, String)?
        var changes: [Inferred] = []
        for connection in connections {
            guard let fastest = answered(connection).map({ $0.answer.time - $0.request.time }).min(),
                  fastest > .zero else { continue }
            let profile = Self.profile(roundTrip: fastest, lossy: lossy)
            guard let now = current else {
                current = (profile, fastest, connection.number)
                initial = (profile, "RTT \(milliseconds(fastest)) ms on its first connection \(connection.number)")
                continue
            }
            let ratio = Double(fastest.nanoseconds) / Double(max(1, now.roundTrip.nanoseconds))
            guard profile != now.profile, ratio >= 1.8 || ratio <= 1 / 1.8 else { continue }
            changes.append(Inferred(
                time: shifted(connection.opensAt, .milliseconds(-1)), action: .changeProfile(client: "", profile: profile),
                comment: "connection \(connection.number) opened at \(seconds(connection.opensAt)) s answers in "
                    + "\(milliseconds(fastest)) ms, connection \(now.connection) in \(milliseconds(now.roundTrip)) ms"))
            current = (profile, fastest, connection.number)
        }
        guard let initial, !changes.isEmpty else { return nil }
        return (initial.0, initial.1, changes)
    }
}

extension ReplayInference {
    /// Link resets: the client opened a new connection while its previous one was neither closed (no FIN or RST
    /// from either side on the wire) nor stalled on a request: the link went down with a reset, which closes the
    /// sockets at both ends without a packet (an app restart closes the old socket with a FIN or RST). `LinkDown(for:, .withReset)` from a
    /// second before that connection's first SYN (the engine's reconnect delay; after the old connection's last
    /// packet) to just before the SYN that got through (one RTT before the handshake ended: the SYNs before it were
    /// lost, the capture shows them as retransmissions).
    /// - Parameter covered: spans other rules already explain (outages, server restarts), left alone.
    static func linkResets(_ connections: [ReplayTimeline.Connection], roundTrip: SimDuration,
                           covered: [(from: SimInstant, until: SimInstant)])
        -> [(from: SimInstant, until: SimInstant, step: Inferred)]
    {
        var found: [(from: SimInstant, until: SimInstant, step: Inferred)] = []
        let withFrames = connections.filter { !$0.entries.isEmpty }
        for (previous, next) in zip(withFrames, withFrames.dropFirst()) {
            let tcp = previous.tcp
            guard !tcp.serverReset, !tcp.clientReset, !tcp.clientFIN, !tcp.serverFIN,
                  let lastOld = previous.entries.last?.time, next.opensAt > lastOld,
                  !covered.contains(where: { $0.until >= shifted(next.opensAt, .seconds(-2)) && $0.from <= next.opensAt })
            else { continue }
            // The first attempt after the old connection's last packet: an app restart in between may have left
            // attempts of the old engine without frames.
            let firstAttempt = connections.first { $0.opensAt > lastOld && $0.opensAt <= next.opensAt } ?? next
            let handshakeDone = next.entries.first { $0.direction == .clientToServer }?.time ?? next.opensAt
            let from = max(lastOld, shifted(firstAttempt.opensAt, .seconds(-1)))
            let until = max(shifted(from, .milliseconds(1)), shifted(handshakeDone, .zero - roundTrip - .milliseconds(1)))
            found.append((from, until, Inferred(
                time: from,
                action: .outage(client: "", duration: ReplayScenarioEmitter.rounded(until - from), mode: .withReset),
                comment: "connection \(previous.number) left open without FIN or RST (last packet at "
                    + "\(seconds(lastOld)) s) when connection \(firstAttempt.number) opened at "
                    + "\(seconds(firstAttempt.opensAt)) s; the handshake of connection \(next.number) ended at "
                    + "\(seconds(handshakeDone)) s")))
        }
        return found
    }

    /// `historyPageSize` from the client's first CHAT_HISTORY for the newest page (`from` the largest time): the
    /// reference engine asks for a page of that size there (and one more message elsewhere).
    static func historyPageSize(_ connections: [ReplayTimeline.Connection]) -> (Int, String)? {
        for connection in connections {
            for entry in connection.entries where entry.direction == .clientToServer {
                if case .chatHistory(let request) = entry.packet.body, request.from == .max, request.backward > 0 {
                    return (request.backward, "historyPageSize \(request.backward) from the newest-page CHAT_HISTORY "
                        + "on connection \(connection.number) at \(seconds(entry.time)) s")
                }
            }
        }
        return nil
    }
}

extension ReplayInference {
    /// Connectivity the app was told it lost: the client closed a connection with FIN (no app restart: the next
    /// connection goes on counting seqs) into a dead link: it sent the FIN again after more than an RTT while nothing
    /// at all came from the server on any of its connections (the server never acknowledged it). An engine closes its
    /// socket without a request pending and then stays away only when the OS says the network is gone: it tries
    /// again only when told it is back, so the next connection's first SYN marks that. `Connectivity(.lost)` at the
    /// FIN and `Connectivity(.restored)` just before that SYN (a `LinkDown` the engine is not told of would have it
    /// retry its sends on the dead connection, and send into the silence the capture shows empty; explore-failed-
    /// send-checks-server's send then got through at once, where the original's waited offline).
    /// - Parameter covered: spans other rules already explain (outages, restarts), left alone.
    static func connectivityLosses(_ connections: [ReplayTimeline.Connection], roundTrip: SimDuration,
                                   covered: [(from: SimInstant, until: SimInstant)]) -> [Inferred] {
        var found: [Inferred] = []
        let fromServer = connections.flatMap(\.tcp.serverSegmentTimes)
        for connection in connections where connection.tcp.clientFIN && !connection.tcp.clientReset {
            guard let fin = connection.tcp.clientClosedAt,
                  let next = connections.first(where: { $0.opensAt > fin }),
                  next.opensAt - fin > roundTrip * 3 + .seconds(1),
                  !covered.contains(where: { $0.from <= next.opensAt && $0.until >= fin }) else { continue }
            // The FIN sent again after more than an RTT, nothing from the server from the FIN to the last resend.
            let resent = connection.tcp.clientSegmentTimes.filter { $0 > shifted(fin, roundTrip) && $0 < next.opensAt }
            guard let lastResend = resent.last,
                  !fromServer.contains(where: { $0 > fin && $0 <= lastResend }) else { continue }
            // No frame on any of the client's connections from the FIN until the next one opened.
            guard !connections.contains(where: { other in
                other.entries.contains { $0.time > fin && $0.time < next.opensAt }
            }) else { continue }
            found.append(Inferred(
                time: fin, action: .connectivity(client: "", change: .lost),
                comment: "connection \(connection.number): FIN from the client at \(seconds(fin)) s, sent again "
                    + "\(resent.count) time(s) until \(seconds(lastResend)) s with nothing from the server; no "
                    + "connection attempt until \(seconds(next.opensAt)) s: the app was told the network was gone"))
            found.append(Inferred(
                time: shifted(next.opensAt, .milliseconds(-1)), action: .connectivity(client: "", change: .restored),
                comment: "connection \(next.number) opened at \(seconds(next.opensAt)) s after the FIN of connection "
                    + "\(connection.number) at \(seconds(fin)) s went unanswered: the network was back"))
        }
        return found
    }
}
