import Foundation
import SyncSim
import SyncTrace

/// What a capture shows about each client's link and the server's faults, inferred from frame timing: the facts
/// `ReplayScenarioEmitter` turns into profiles and fault steps. Every inferred step names the packets it came from.
///
/// Rules (all times are capture times at the client's end, where `syncsim run --pcap` and a phone capture sit):
/// - **round-trip time** of a client: the smallest request→response time over its connections (one RTT plus the
///   transmission times and the server's share; the smallest has the least server share).
/// - **profile**: the catalog profile whose RTT (sum of both one-way delays) is nearest; among profiles of equal
///   RTT, the lossy one when more than 1% of the client's segments were retransmissions.
/// - **bursty loss**: when the client's retransmissions come in runs (at least 8, the mean run at least 1.5 times
///   independent loss's 1 / (1 - share), outages left out), the profile's loss becomes the simple Gilbert model
///   estimated from the runs (`BurstLoss`, ReplayInference+BurstLoss.swift).
/// - **link drop**: a request that stays unanswered for more than 3 RTT + 1 s while nothing at all comes from the
///   server on any of the client's connections, on a connection where the client retransmitted (without any
///   retransmission the server acknowledged the request: the link carried it, the answer is the server's fault).
///   The outage starts 30% of an RTT after that request when it was answered late or the server acknowledged it
///   before the silence ended (it got there, the answer not yet sent back), and 1 ms before it when neither (it was
///   lost: a packet the link finished sending before an outage starts still arrives), not before the last frame
///   from the server; it ends 1.5 RTT before the next frame from the server (the
///   retransmission that got through), or at the handshake of a connection opened meanwhile. A RST from the server
///   on the stalled connection makes it `.withReset`, otherwise `.silently`.
///   A timeout retry sent into the silence ends it before its copy the server acknowledged (TCP ACK), or, never
///   acknowledged, was lost in it. After the outage, a connection that lived on but got no frame for more than
///   2 RTT + 1 s while segments from the server came through had a loss burst: `LossBurst` until the next frame.
/// - **lost response**: a MSG_SEND never answered on its connection while that connection kept receiving frames
///   from the server (or whose retry was answered `message.duplicate`), and sent again later with the same cid:
///   `LoseResponses(.msgSend, count: 1)` just before it; a CHAT_HISTORY page never answered and asked again:
///   `LoseResponses(.chatHistory, count: 1)`; a SESSION_INIT, LOGIN or PHOTO_UPLOAD (same `sizeBytes`) the server
///   acknowledged on the TCP level, never answered and asked again: `LoseResponses` for that opcode.
/// - **connectivity lost** (the app told): a FIN from the client into a dead link (sent again, nothing from the
///   server), then no connection attempt for a while: `Connectivity(.lost)` / `.restored` (`connectivityLosses`).
/// - **edits and deletes**, `historyEditLag`: `ReplayEdits` (ReplayInference+Edits.swift).
/// - **answers on a later connection**: the server replies to the device's newest connection (`repliesFollowDevice`).
/// - **error reply**: an error answer to MSG_SEND or CHAT_HISTORY becomes `ErrorReplies(opcode, count: 1)` just
///   before its request.
/// - **slow answer**: a response later than the client's smallest by more than 2 s on a connection that kept
///   receiving other frames becomes `DelayResponses` for that opcode, for one RTT from just before its request
///   (the fault holds requests arriving at the server meanwhile).
struct ReplayInference {
    /// A step the capture suggests, at its capture time, with the packets it came from.
    struct Inferred {
        var time: SimInstant
        var action: Action
        var comment: String
    }

    /// Per client address: RTT (nil without an answered request), retransmitted share of its segments.
    struct ClientLink {
        var address: String
        var roundTrip: SimDuration?
        var retransmittedShare: Double
        var profile: ProfileName
        var comment: String
        /// Set when the client's retransmissions came in bursts (`BurstLoss.isBursty`): the emitter then gives it
        /// `profile`'s delays, rates and buffers with Gilbert-Elliott loss instead of the catalog's.
        var burstLoss: BurstLoss? = nil
    }

    var links: [ClientLink] = []
    /// Fault and link steps, by client address (nil for server-wide steps), in time order.
    var steps: [(client: String?, step: Inferred)] = []
    /// Things the inference could not decide or place: one line each, for a comment and stderr.
    var doubts: [String] = []
    /// Why the server answers on the device's newest connection (`repliesFollowDevice`), nil when the capture
    /// shows no answer on another connection than its request's.
    var repliesFollowDevice: String?

    init(_ timeline: ReplayTimeline) {
        let chat = timeline.connections.filter { $0.role == .chat }
        for address in timeline.clientAddresses {
            links.append(Self.link(address: address, connections: chat.filter { Self.address(of: $0) == address }))
        }
        let knownLinks = links
        func roundTripOf(_ address: String) -> SimDuration {
            knownLinks.first { $0.address == address }?.roundTrip ?? .milliseconds(200)
        }
        let serverRestarts = Self.serverRestarts(timeline.connections, oneWay: { address in
            SimDuration(nanoseconds: roundTripOf(address).nanoseconds / 2)
        })
        steps += serverRestarts.map { (nil, $0.step) }
        let resetByRestart = serverRestarts.reduce(into: Set<Int>()) { $0.formUnion($1.resetConnections) }
        doubts += timeline.sharedAddresses
        for address in timeline.clientAddresses {
            let connections = chat.filter { Self.address(of: $0) == address }
            let roundTrip = roundTripOf(address)
            for connection in connections {
                doubts += connection.tcp.doubts
                if !connection.tcp.sawSYN {
                    doubts.append("connection \(connection.number) (\(connection.client)): no handshake in the "
                        + "capture; it was open before the capture started")
                }
            }
            if let index = links.firstIndex(where: { $0.address == address }),
               let changed = Self.profileChanges(connections, lossy: links[index].retransmittedShare > 0.01) {
                links[index].profile = changed.initial
                links[index].comment += "; \(changed.initial.rawValue) from \(changed.comment), then changes"
                steps += changed.changes.map { (address, $0) }
            }
            // Segments from another host (the CDN taking the client's photo uploads) prove the link was up.
            let otherHostArrivals = timeline.connections
                .filter { $0.role == .upload && Self.address(of: $0) == address }
                .flatMap(\.tcp.serverSegmentTimes)
            var drops = Self.linkDrops(connections, roundTrip: roundTrip, resetByServerRestart: resetByRestart,
                                       otherHostArrivals: otherHostArrivals)
            let restarts = Self.appRestarts(connections)
            let serverDown = serverRestarts.map { item -> (from: SimInstant, until: SimInstant) in
                if case .serverRestart(let downtime) = item.step.action {
                    return (item.step.time, Self.shifted(item.step.time, downtime + .seconds(2)))
                }
                return (item.step.time, item.step.time)
            }
            drops += Self.linkResets(connections, roundTrip: roundTrip,
                                     covered: drops.map { ($0.from, $0.until) } + serverDown)
            steps += drops.map { (address, $0.step) }
            // Retransmissions in and just around those outages are theirs, not the link's everyday loss.
            let explained = drops.map {
                (from: Self.shifted($0.from, SimDuration(nanoseconds: -roundTrip.nanoseconds)),
                 until: Self.shifted($0.until, roundTrip * 2))
            }
            let burstLoss = Self.burstLoss(connections, excluding: explained)
            if burstLoss.isBursty, let index = links.firstIndex(where: { $0.address == address }) {
                links[index].burstLoss = burstLoss
            }
            steps += restarts.map { (address, $0) }
            let restartSpans = restarts.map { (from: Self.shifted($0.time, .seconds(-1)), until: Self.shifted($0.time, .seconds(1))) }
            steps += Self.connectivityLosses(connections, roundTrip: roundTrip,
                                             covered: drops.map { ($0.from, $0.until) } + serverDown + restartSpans)
                .map { (address, $0) }
            for connection in connections {
                let faults = Self.serverFaults(connection, later: connections, roundTrip: roundTrip)
                // A lost or error answer was one client's: the fault names it, so another client's request of
                // the same opcode arriving first does not take it (explore-send-while-scrolled-up: alice's send took
                // the error of dave's retry, and the server order changed).
                steps += faults.filter { fault in
                    !drops.contains { fault.time >= $0.from && fault.time <= $0.until }
                }.map { fault in
                    switch fault.action {
                    case .loseResponses, .errorReplies: (address, fault)
                    default: (nil, fault)
                    }
                }
            }
            // Frames on the older connection more than 2 RTT after the newer one's first frame (a newer connection
            // that carried no frame, say SYNs into an outage, overlaps nothing).
            let overlapping = zip(connections, connections.dropFirst()).filter { pair in
                guard let newerFirst = pair.1.entries.first?.time, let olderLast = pair.0.entries.last?.time else {
                    return false
                }
                return pair.0.closesAt.map { $0 > newerFirst } ?? true
                    && olderLast > Self.shifted(newerFirst, roundTrip * 2)
            }
            for pair in overlapping {
                // Logged in as one user on both, the connections are one client's (the older lived on after the
                // newer opened) or two devices of one user; without that, perhaps two clients behind one address.
                let reason = Self.loggedInAlike(pair.0, pair.1)
                    ? "one login on both: the older one lived on after the newer one opened, or two devices of one "
                        + "user?"
                    : "several clients behind one address?"
                doubts.append("connections \(pair.0.number) and \(pair.1.number) from \(address) carry frames at "
                    + "the same time (\(reason)); treated as one client")
            }
        }
        for address in timeline.clientAddresses {
            let connections = chat.filter { Self.address(of: $0) == address }
            let stale = Self.answersOnLaterConnections(connections, roundTrip: roundTripOf(address))
            steps += stale.steps.map { (nil, $0) }
            if repliesFollowDevice == nil { repliesFollowDevice = stale.evidence }
        }
        steps.sort { $0.step.time < $1.step.time }
        steps = Self.mergedDelays(steps, timeline: timeline)
    }

    /// Whether two connections logged in alike: the same LOGIN token, or LOGIN answers for the same profile id.
    static func loggedInAlike(_ a: ReplayTimeline.Connection, _ b: ReplayTimeline.Connection) -> Bool {
        func logins(_ connection: ReplayTimeline.Connection) -> Set<String> {
            var keys: Set<String> = []
            for entry in connection.entries {
                switch entry.packet.body {
                case .login(let request): keys.insert("token \(request.token)")
                case .loginResponse(let response): keys.insert("user \(response.profile.id)")
                default: break
                }
            }
            return keys
        }
        return !logins(a).isDisjoint(with: logins(b))
    }

    static func address(of connection: ReplayTimeline.Connection) -> String {
        connection.clientAddress
    }

    /// Request→response times of one connection, with the request.
    static func answered(_ connection: ReplayTimeline.Connection)
        -> [(request: ReplayTimeline.Entry, answer: ReplayTimeline.Entry)]
    {
        var pending: [UInt16: ReplayTimeline.Entry] = [:]
        var pairs: [(ReplayTimeline.Entry, ReplayTimeline.Entry)] = []
        for entry in connection.entries {
            if entry.direction == .clientToServer, entry.packet.cmd == .request {
                pending[entry.packet.seq] = entry
            } else if entry.direction == .serverToClient, entry.packet.cmd == .response || entry.packet.cmd == .error,
                      let request = pending.removeValue(forKey: entry.packet.seq) {
                pairs.append((request, entry))
            }
        }
        return pairs
    }

    /// Requests of one connection that got no answer on it, in time order.
    static func unanswered(_ connection: ReplayTimeline.Connection) -> [ReplayTimeline.Entry] {
        var pending: [UInt16: ReplayTimeline.Entry] = [:]
        for entry in connection.entries {
            if entry.direction == .clientToServer, entry.packet.cmd == .request {
                pending[entry.packet.seq] = entry
            } else if entry.direction == .serverToClient, entry.packet.cmd == .response || entry.packet.cmd == .error {
                pending[entry.packet.seq] = nil
            }
        }
        return pending.values.sorted { $0.time < $1.time }
    }

    /// The client's RTT and nearest catalog profile. The RTT is the shortest of its TCP handshakes
    /// (`handshakeRoundTrip`) and its request→answer times: an answer's time also holds the server's processing
    /// and the frames' serialization, a handshake only the path (a 3G client answered after 410 ms had a 202 ms
    /// handshake).
    static func link(address: String, connections: [ReplayTimeline.Connection]) -> ClientLink {
        let pairs = connections.flatMap(answered)
        let fastest = pairs.min { $0.answer.time - $0.request.time < $1.answer.time - $1.request.time }
        let handshake = connections.compactMap { connection in
            handshakeRoundTrip(connection).map { (connection: connection, roundTrip: $0) }
        }.min { $0.roundTrip < $1.roundTrip }
        let segments = connections.reduce(0) { $0 + $1.tcp.segments }
        let retransmitted = connections.reduce(0) { $0 + $1.tcp.retransmittedSegments }
        let share = segments == 0 ? 0 : Double(retransmitted) / Double(segments)
        guard let fastest else {
            return ClientLink(address: address, roundTrip: nil, retransmittedShare: share, profile: .threeG,
                              comment: "no answered request from \(address): profile 3G assumed")
        }
        var roundTrip = fastest.answer.time - fastest.request.time
        var source = "\(fastest.request.packet.opcode) at \(seconds(fastest.request.time)) s on connection "
            + "\(fastest.request.connection)"
        if let handshake, handshake.roundTrip < roundTrip {
            roundTrip = handshake.roundTrip
            source = "handshake of connection \(handshake.connection.number) at \(seconds(handshake.connection.opensAt)) s"
        }
        let rate = downlinkRate(connections, roundTrip: roundTrip)
        let profile = Self.profile(roundTrip: roundTrip, lossy: share > 0.01, downlinkBitsPerSecond: rate?.bitsPerSecond)
        var comment = "RTT \(milliseconds(roundTrip)) ms (\(source)), "
            + "\(retransmitted) of \(segments) segments retransmitted"
        if let rate {
            comment += ", downlink about \(rate.bitsPerSecond / 1000) kbit/s (median spacing of \(rate.pairs) "
                + "back-to-back segments from the server)"
        }
        return ClientLink(address: address, roundTrip: roundTrip, retransmittedShare: share, profile: profile,
                          comment: comment)
    }

    /// A connection's handshake RTT, where the capture shows it unambiguously: from the client's SYN to its first
    /// segment after the server's SYN-ACK (its ACK), which is one RTT wherever the capture was taken (on the phone
    /// the SYN-ACK arrives one RTT after the SYN and the ACK leaves at once; at the server the SYN-ACK leaves at
    /// once and the ACK arrives one RTT later). Nil without both SYNs, or when the client sent its SYN again before
    /// the SYN-ACK (which SYN it answers is unknown: on 2G a SYN is resent after 1 s, before a 1.3 s RTT ends).
    static func handshakeRoundTrip(_ connection: ReplayTimeline.Connection) -> SimDuration? {
        let tcp = connection.tcp
        guard tcp.sawSYN, tcp.serverSYN, let synAck = tcp.serverSegmentTimes.first,
              let syn = tcp.clientSegmentTimes.first, syn <= synAck,
              tcp.clientSegmentTimes.prefix(while: { $0 < synAck }).count <= 1,
              tcp.clientSegmentTimes.count >= 2, tcp.clientSegmentTimes[1] >= synAck else { return nil }
        return tcp.clientSegmentTimes[1] - syn
    }

    /// The bottleneck rate of the client's downlink: for each data segment from the server that arrived less than
    /// half an RTT after the one before on its connection (queued behind it at the bottleneck, so spaced by its own
    /// serialization time) and carried at least 200 bytes, its bytes plus 40 of IP and TCP header over that spacing;
    /// the median of those, from 3 pairs on (nil with fewer).
    static func downlinkRate(_ connections: [ReplayTimeline.Connection], roundTrip: SimDuration)
        -> (bitsPerSecond: Int, pairs: Int)?
    {
        var rates: [Double] = []
        for connection in connections {
            let segments = connection.tcp.serverPayloadSegments
            for (before, segment) in zip(segments, segments.dropFirst()) {
                let spacing = segment.time - before.time
                guard spacing > .zero, spacing.nanoseconds < roundTrip.nanoseconds / 2, segment.bytes >= 200 else {
                    continue
                }
                rates.append(Double((segment.bytes + 40) * 8) * 1e9 / Double(spacing.nanoseconds))
            }
        }
        guard rates.count >= 3 else { return nil }
        return (Int(rates.sorted()[rates.count / 2].rounded()), rates.count)
    }

    /// The catalog profile whose RTT is nearest `roundTrip`; the lossy twin of equal RTT when `lossy`. With a
    /// measured downlink rate, among the profiles whose RTT is nearly as near (within 20% of `roundTrip` of the
    /// nearest), the one whose downlink rate is nearest on a log scale.
    static func profile(roundTrip: SimDuration, lossy: Bool, downlinkBitsPerSecond: Int? = nil) -> ProfileName {
        let candidates = LinkProfile.catalog.filter { $0.uplink.rateBitsPerSecond > 0 }
        let target = roundTrip.nanoseconds
        func rtt(_ profile: LinkProfile) -> Int64 {
            profile.uplink.oneWayDelay.nanoseconds + profile.downlink.oneWayDelay.nanoseconds
        }
        func isLossy(_ profile: LinkProfile) -> Bool { profile.name.lowercased().contains("loss") }
        var best = candidates.min { a, b in
            let da = abs(rtt(a) - target), db = abs(rtt(b) - target)
            if da != db { return da < db }
            return isLossy(a) == lossy && isLossy(b) != lossy
        }!
        if let measured = downlinkBitsPerSecond, measured > 0 {
            let slack = abs(rtt(best) - target) + target / 5
            func distance(_ profile: LinkProfile) -> Double {
                abs(log(Double(profile.downlink.rateBitsPerSecond) / Double(measured)))
            }
            let near = candidates.filter { abs(rtt($0) - target) <= slack && isLossy($0) == isLossy(best) }
            if let byRate = near.min(by: { distance($0) < distance($1) }), distance(byRate) + 0.1 < distance(best) {
                best = byRate
            }
        }
        // The 2G-rural profile is lossy by itself; EDGE has a lossy twin.
        if !lossy, isLossy(best), let plain = candidates.first(where: { rtt($0) == rtt(best) && !isLossy($0) }) {
            return ProfileName(rawValue: plain.name)
        }
        return ProfileName(rawValue: best.name)
    }

    /// The client's outages: silences where it had a request out for longer than `stallAfter` allows and nothing
    /// came from the server on any of its connections. Each runs from the first stalled request plus 30% of the
    /// RTT (from just before it when it was neither answered nor acknowledged: it was lost) to 1.5 RTT before the
    /// next frame from the server (a late answer on the same connection: the retransmission that got through left then), or to the handshake of a connection opened during it.
    /// A silence during which segments from another host kept arriving (the CDN acknowledging the client's own
    /// photo uploads) is no outage: the link was up, and the request waited behind those uploads in the client's
    /// uplink queue (GPRS: 20 kbit/s up), which the emitted scenario's uploads reproduce by themselves.
    /// - Parameters:
    ///   - resetByServerRestart: connections a server restart reset; a stall on them is that restart's.
    ///   - otherHostArrivals: when segments from the client's other hosts (uploads) were captured.
    static func linkDrops(_ connections: [ReplayTimeline.Connection], roundTrip: SimDuration,
                          resetByServerRestart: Set<Int> = [], otherHostArrivals: [SimInstant] = [])
        -> [(from: SimInstant, until: SimInstant, step: Inferred)]
    {
        let arrivals = connections.flatMap { connection in
            connection.entries.filter { $0.direction == .serverToClient }
        }.sorted { ($0.time, $0.connection) < ($1.time, $1.connection) }
        var answerTime: [String: SimInstant] = [:]
        for connection in connections {
            for pair in answered(connection) {
                answerTime["\(connection.number) \(pair.request.packet.seq) \(pair.request.time.nanosecondsSinceStart)"]
                    = pair.answer.time
            }
        }
        let stallAfter = roundTrip * 3 + .seconds(1)
        let requests = connections.flatMap { connection in
            connection.entries.filter { $0.direction == .clientToServer && $0.packet.cmd == .request }
        }.sorted { $0.time < $1.time }
        var drops: [(from: SimInstant, until: SimInstant, step: Inferred)] = []
        var covered = SimInstant.start
        for request in requests where request.time >= covered {
            let answer = answerTime["\(request.connection) \(request.packet.seq) \(request.time.nanosecondsSinceStart)"]
            if let answer, answer - request.time <= stallAfter { continue }
            // The client never sent a segment again on that connection: the server acknowledged the request, so the
            // link carried it; the missing answer is the server's (a lost or held answer), no outage.
            let stalled = connections.first { $0.number == request.connection }
            if stalled?.tcp.clientRetransmissions == 0 { continue }
            // Nothing from the server on any connection between soon after the request and the next arrival.
            let next = arrivals.first { $0.time > shifted(request.time, .milliseconds(1)) }
            guard let next, next.time - request.time > stallAfter else {
                if next == nil {
                    covered = .init(nanosecondsSinceStart: .max)
                }
                continue
            }
            // Whether the request got through: answered late on its connection, or acknowledged by the server before
            // the silence ended. Then the outage began on the way back, 30% of an RTT after it (past its uplink
            // queue, the answer not yet sent). Neither: it was lost, so the outage began before it left (a packet
            // the link finished sending before an outage still arrives, so a later start would deliver it), though
            // not over the last frame that came from the server.
            let requestAcknowledged = answer != nil || (stalled?.tcp.serverAcknowledged.contains {
                $0.offset >= request.bytes.upperBound && $0.time > request.time && $0.time < next.time
            } ?? true)
            let lastHeard = arrivals.last { $0.time <= request.time }?.time
            let from = requestAcknowledged
                ? shifted(request.time, SimDuration(nanoseconds: roundTrip.nanoseconds * 3 / 10))
                : max(shifted(request.time, .milliseconds(-1)), lastHeard.map { shifted($0, .milliseconds(1)) } ?? .start)
            // Half an RTT of margin: the retransmission that got through must not fall just inside the outage.
            var until = shifted(next.time, .zero - roundTrip - SimDuration(nanoseconds: roundTrip.nanoseconds / 2))
            var how = "next frame from the server at \(seconds(next.time)) s on connection \(next.connection)"
            if let fresh = connections.first(where: { $0.number == next.connection }), fresh.opensAt > request.time {
                let firstFromClient = fresh.entries.first { $0.direction == .clientToServer }?.time ?? fresh.opensAt
                until = max(fresh.opensAt, shifted(firstFromClient, .zero - roundTrip))
                how = "connection \(fresh.number) opened at \(seconds(fresh.opensAt)) s, first request at "
                    + "\(seconds(firstFromClient)) s"
            }
            // A MSG_SEND the client sent into the silence on the same connection (a timeout retry): the capture cannot
            // tell whether it got through; end the outage just before it, so the retry reaches the server as it may
            // have (re-send bugs show only then).
            // The server's acknowledgement tells whether the retry got through: the silence ended before the copy
            // of its bytes the server acknowledged (the last the client sent before that ACK); never acknowledged, the
            // retry was lost in the silence, which then went on over it.
            if let retry = requests.first(where: {
                $0.connection == request.connection && $0.time > from && $0.time < until && $0.packet.opcode == .msgSend
            }), let carrier = connections.first(where: { $0.number == retry.connection }) {
                let acknowledged = carrier.tcp.serverAcknowledged.first {
                    $0.offset >= retry.bytes.upperBound && $0.time > retry.time
                }
                if let acknowledged {
                    let copies = [retry.time] + carrier.tcp.clientRetransmitted.filter {
                        $0.time > retry.time && $0.time < acknowledged.time && $0.bytes.overlaps(retry.bytes)
                    }.map(\.time)
                    let through = copies.max()!
                    until = min(until, shifted(through, .milliseconds(-1)))
                    how += "; the MSG_SEND seq \(retry.packet.seq) sent into the silence at \(seconds(retry.time)) s "
                        + "was acknowledged by the server at \(seconds(acknowledged.time)) s: ends before its copy of "
                        + "\(seconds(through)) s"
                } else {
                    how += "; the MSG_SEND seq \(retry.packet.seq) sent into the silence at \(seconds(retry.time)) s "
                        + "was never acknowledged by the server: lost in it"
                }
            }
            if otherHostArrivals.contains(where: { $0 > from && $0 < until }) { continue }
            covered = next.time
            guard until > shifted(from, .milliseconds(1)), !resetByServerRestart.contains(request.connection) else {
                continue
            }
            let reset = stalled?.tcp.serverReset ?? false
            let closedBy = reset ? "RST from the server" : stalled?.tcp.clientReset == true ? "RST from the client"
                : stalled?.tcp.clientFIN == true ? "FIN from the client" : "no FIN or RST"
            // After the outage's end the connection lived on (frames resumed on it, no new connection) but no
            // frame came for longer than 2 RTT + 1 s although segments from the server did (ACKs, data held behind
            // a lost one): the link carried some packets and lost others, a loss burst from the outage's end to the
            // next frame, at the share of the client's segments in that span it had to send again.
            let survived = next.connection == request.connection
                && !connections.contains { $0.opensAt > request.time && $0.opensAt < next.time }
            let inside = connections.flatMap { $0.tcp.serverSegmentTimes }.filter {
                $0 > until && $0 < shifted(next.time, .milliseconds(-1))
            }
            var burst: (step: Inferred, until: SimInstant)?
            if !reset, survived, let firstInside = inside.first,
               Double((next.time - until).nanoseconds) > 2 * Double(roundTrip.nanoseconds) + 1e9 {
                let sent = connections.flatMap { $0.tcp.clientSegmentTimes }.filter { $0 >= until && $0 < next.time }
                let again = connections.flatMap { $0.tcp.clientRetransmitted }.filter {
                    $0.time >= until && $0.time < next.time
                }.count
                let share = sent.isEmpty ? 0.5 : Double(again) / Double(sent.count)
                let lossRate = min(0.9, max(0.1, (share * 20).rounded() / 20))
                burst = (Inferred(
                    time: until,
                    action: .lossBurst(client: request.packet.opcode.description,
                                       duration: ReplayScenarioEmitter.rounded(next.time - until), lossRate: lossRate),
                    comment: "connection \(request.connection): after the outage, no frame from the server until "
                        + "\(seconds(next.time)) s on the same connection, but \(inside.count) segment(s) from the server "
                        + "came through meanwhile (the first at \(seconds(firstInside)) s): a loss burst; \(again) of "
                        + "the client's \(sent.count) segments in it were sent again"), next.time)
            }
            let step = Inferred(
                time: from,
                action: .outage(client: request.packet.opcode.description,
                                duration: ReplayScenarioEmitter.rounded(until - from),
                                mode: reset ? .withReset : .silently),
                comment: "connection \(request.connection): \(request.packet.opcode) seq \(request.packet.seq) at "
                    + "\(seconds(request.time)) s "
                    + (answer.map { "answered only at \(seconds($0)) s" } ?? "never answered")
                    + ", nothing from the server until then; \(how); connection \(request.connection): \(closedBy)")
            drops.append((from, burst?.until ?? until, step))
            if let burst { drops.append((burst.step.time, burst.until, burst.step)) }
        }
        return drops
    }

    /// Lost responses, error replies and slow answers on one connection.
    /// - Parameter later: the client's connections, where a retry of a lost MSG_SEND (same cid) is looked for.
    static func serverFaults(_ connection: ReplayTimeline.Connection, later: [ReplayTimeline.Connection],
                             roundTrip: SimDuration) -> [Inferred] {
        var found: [Inferred] = []
        let fromServer = connection.entries.filter { $0.direction == .serverToClient }.map(\.time)
        for request in unanswered(connection) {
            // A CHAT_HISTORY asked again (the same page) later, while the connection kept receiving or answered
            // the new ask: its answer was lost.
            if case .chatHistory(let asked) = request.packet.body {
                let again = later.flatMap(\.entries).filter { entry in
                    guard entry.time > request.time, entry.direction == .clientToServer,
                          case .chatHistory(let next) = entry.packet.body else { return false }
                    return next.chatId == asked.chatId && next.from == asked.from && next.forward == asked.forward
                        && next.backward == asked.backward
                }.min { $0.time < $1.time }
                guard let again else { continue }
                let keptReceiving = fromServer.contains { $0 > shifted(request.time, roundTrip * 2) && $0 < again.time }
                let answeredOnSame = again.connection == connection.number
                    && answered(connection).contains { $0.request.packet.seq == again.packet.seq
                        && $0.request.time == again.time }
                guard keptReceiving || answeredOnSame else { continue }
                found.append(Inferred(
                    time: shifted(request.time, .milliseconds(-1)),
                    action: .loseResponses(opcode: .chatHistory, count: 1),
                    comment: "connection \(connection.number) (\(connection.client)): CHAT_HISTORY seq "
                        + "\(request.packet.seq) at \(seconds(request.time)) s got no answer and was asked again "
                        + "(connection \(again.connection) seq \(again.packet.seq) at \(seconds(again.time)) s) while "
                        + "the connection kept working"))
                continue
            }
            // A SESSION_INIT, LOGIN or PHOTO_UPLOAD (of the same size) the server acknowledged (its TCP ACK: the link
            // carried it) and never answered, asked again later: the answer was lost (a connection that dies has
            // its requests unacknowledged, which `linkDrops` looks at).
            if [.sessionInit, .login, .photoUpload].contains(request.packet.opcode) {
                let acknowledged = connection.tcp.serverAcknowledged.first {
                    $0.offset >= request.bytes.upperBound && $0.time > request.time
                }
                let again = later.flatMap(\.entries).filter { entry in
                    guard entry.time > request.time, entry.direction == .clientToServer,
                          entry.packet.opcode == request.packet.opcode else { return false }
                    if case .photoUpload(let asked) = request.packet.body, case .photoUpload(let next) = entry.packet.body {
                        return asked.sizeBytes == next.sizeBytes
                    }
                    return true
                }.min { $0.time < $1.time }
                guard let acknowledged, let again else { continue }
                found.append(Inferred(
                    time: shifted(request.time, .milliseconds(-1)),
                    action: .loseResponses(opcode: request.packet.opcode, count: 1),
                    comment: "connection \(connection.number) (\(connection.client)): \(request.packet.opcode) seq "
                        + "\(request.packet.seq) at \(seconds(request.time)) s, acknowledged by the server at "
                        + "\(seconds(acknowledged.time)) s, got no answer and was asked again (connection "
                        + "\(again.connection) seq \(again.packet.seq) at \(seconds(again.time)) s)"))
                continue
            }
            // Only a MSG_SEND retried with the same cid is taken for a lost answer: other requests without an
            // answer are the connection dying, which `linkDrops` looks at.
            guard case .msgSend(let send) = request.packet.body else { continue }
            let retried = later.contains { other in
                other.entries.contains { entry in
                    guard entry.time > request.time, case .msgSend(let again) = entry.packet.body else { return false }
                    return again.message.cid == send.message.cid
                }
            }
            let keptReceiving = fromServer.contains {
                $0 > shifted(request.time, roundTrip * 2) && $0 < shifted(request.time, .seconds(60))
            }
            // The retry answered "already stored under this cid": the first copy reached the server and was
            // stored, so its answer was lost on the way back (whether or not other frames arrived meanwhile).
            let duplicate = retried ? duplicateAnswer(toRetryOf: send.message.cid, after: request.time, in: later) : nil
            guard retried, keptReceiving || duplicate != nil else { continue }
            let why = duplicate.map {
                "; its retry (connection \($0.connection) seq \($0.packet.seq)) was answered message.duplicate at "
                    + "\(seconds($0.time)) s: the first copy was stored"
            } ?? " while the server kept sending on the connection"
            found.append(Inferred(
                time: shifted(request.time, .milliseconds(-1)),
                action: .loseResponses(opcode: request.packet.opcode, count: 1),
                comment: "connection \(connection.number) (\(connection.client)): \(request.packet.opcode) seq "
                    + "\(request.packet.seq) at \(seconds(request.time)) s got no answer" + why))
        }
        for pair in answered(connection) {
            let opcode = pair.request.packet.opcode
            // "Already stored under this cid" is the server's own answer to a retried send, no fault to inject.
            var isDuplicate = false
            if case .error(let payload) = pair.answer.packet.body, payload.error == ErrorPayload.duplicateMessageCode {
                isDuplicate = true
            }
            if pair.answer.packet.cmd == .error, !isDuplicate,
               opcode == .msgSend || opcode == .chatHistory || opcode == .login {
                found.append(Inferred(
                    time: shifted(pair.request.time, .milliseconds(-1)), action: .errorReplies(opcode: opcode, count: 1),
                    comment: "connection \(connection.number) (\(connection.client)): error answer to \(opcode) seq "
                        + "\(pair.request.packet.seq) at \(seconds(pair.answer.time)) s"))
            }
            let extra = pair.answer.time - pair.request.time - roundTrip
            if extra > .seconds(2), opcode == .msgSend || opcode == .chatHistory,
               fromServer.contains(where: { $0 > shifted(pair.request.time, roundTrip) && $0 < pair.answer.time }) {
                found.append(Inferred(
                    time: shifted(pair.request.time, .milliseconds(-1)),
                    action: .delayResponses(opcode: opcode, extraDelay: ReplayScenarioEmitter.rounded(extra),
                                            duration: arrivalWindow(roundTrip)),
                    comment: "connection \(connection.number) (\(connection.client)): \(opcode) seq "
                        + "\(pair.request.packet.seq) answered \(milliseconds(extra)) ms later than the RTT while "
                        + "other frames arrived"))
            }
        }
        return found
    }

    /// Answers that arrived on a later connection of the client than their request (no request with that seq and
    /// opcode on it, an unanswered one on an earlier connection): the server sends a reply to the device's newest
    /// connection. Each such answer came late: `DelayResponses` for its opcode from just before its request, by
    /// its delay less the RTT.
    static func answersOnLaterConnections(_ connections: [ReplayTimeline.Connection], roundTrip: SimDuration)
        -> (steps: [Inferred], evidence: String?)
    {
        var steps: [Inferred] = []
        var evidence: String?
        for (index, connection) in connections.enumerated() {
            let own = Set(connection.entries.filter { $0.direction == .clientToServer }.map(\.packet.seq))
            for entry in connection.entries where entry.direction == .serverToClient
                && (entry.packet.cmd == .response || entry.packet.cmd == .error) && !own.contains(entry.packet.seq) {
                let request = connections[..<index].reversed().lazy.compactMap { earlier in
                    unanswered(earlier).last {
                        $0.packet.seq == entry.packet.seq && $0.packet.opcode == entry.packet.opcode
                    }
                }.first
                guard let request, request.time < entry.time else { continue }
                let what = "\(entry.packet.opcode) seq \(entry.packet.seq) asked on connection \(request.connection) at "
                    + "\(seconds(request.time)) s, answered on connection \(connection.number) at \(seconds(entry.time)) s"
                evidence = evidence ?? what
                let extra = entry.time - request.time - roundTrip
                guard extra > .seconds(1) else { continue }
                steps.append(Inferred(
                    time: shifted(request.time, .milliseconds(-1)),
                    action: .delayResponses(opcode: entry.packet.opcode, extraDelay: ReplayScenarioEmitter.rounded(extra),
                                            duration: arrivalWindow(roundTrip)),
                    comment: what + " (\(milliseconds(extra)) ms later than the RTT)"))
            }
        }
        return (steps, evidence)
    }

    /// The `message.duplicate` error answering a later MSG_SEND with `cid` (a retry), if the capture shows one.
    static func duplicateAnswer(toRetryOf cid: Int64, after time: SimInstant,
                                in connections: [ReplayTimeline.Connection]) -> ReplayTimeline.Entry? {
        for connection in connections {
            for pair in answered(connection) where pair.request.time > time {
                guard case .msgSend(let again) = pair.request.packet.body, again.message.cid == cid,
                      case .error(let payload) = pair.answer.packet.body,
                      payload.error == ErrorPayload.duplicateMessageCode else { continue }
                return pair.answer
            }
        }
        return nil
    }

    /// Slow answers of one opcode in a row (each `DelayResponses` within 30 s of the last, delays within 25% of
    /// each other) are one slow spell of the server: one `DelayResponses` from the first to the end of the last,
    /// so requests the replayed engine makes at other moments in between are held as the captured ones were. Not
    /// merged over a request of that opcode answered in less than half the delay (the server was fast then).
    static func mergedDelays(_ steps: [(client: String?, step: Inferred)], timeline: ReplayTimeline)
        -> [(client: String?, step: Inferred)]
    {
        let pairs = timeline.connections.filter { $0.role == .chat }.flatMap(answered)
        var result: [(client: String?, step: Inferred)] = []
        var open: [Opcode: Int] = [:]
        for item in steps {
            guard item.client == nil, case .delayResponses(let opcode, let extra, let duration, nil) = item.step.action else {
                result.append(item)
                continue
            }
            if let index = open[opcode], case .delayResponses(_, let spellExtra, let spellDuration, nil) =
                result[index].step.action {
                let start = result[index].step.time
                let spellEnd = shifted(start, spellDuration)
                let close = item.step.time - spellEnd <= .seconds(30)
                // In Double: a corrupt capture's delays may be near Int64's end.
                let similar = abs(Double(extra.nanoseconds) - Double(spellExtra.nanoseconds)) * 4
                    <= Double(spellExtra.nanoseconds)
                let end = shifted(item.step.time, duration)
                let fastInside = pairs.contains {
                    $0.request.packet.opcode == opcode && $0.request.time > start && $0.request.time < end
                        && ($0.answer.time - $0.request.time).nanoseconds < spellExtra.nanoseconds / 2
                }
                if close, similar, !fastInside {
                    result[index].step.action = .delayResponses(opcode: opcode, extraDelay: spellExtra,
                                                                duration: ReplayScenarioEmitter.rounded(end - start))
                    result[index].step.comment += "; the same slow spell: " + item.step.comment
                    continue
                }
            }
            open[opcode] = result.count
            result.append(item)
        }
        return result
    }

    /// How long a `DelayResponses` placed 1 ms before a request stays on: the fault holds requests *arriving at the
    /// server* meanwhile, and the request arrives a one-way delay (plus its transmission) after the capture saw it
    /// leave; one RTT covers that, and 2 ms more cover the millisecond the window opens early and the rounding
    /// (another request of that opcode sent within it is held too). On WiFi's 2 ms RTT a window of one RTT closed
    /// the instant the request arrived, and the request went undelayed (explore-given-up-send-stored-late).
    static func arrivalWindow(_ roundTrip: SimDuration) -> SimDuration {
        ReplayScenarioEmitter.rounded(roundTrip) + .milliseconds(2)
    }

    static func milliseconds(_ duration: SimDuration) -> Int64 { duration.nanoseconds / 1_000_000 }

    /// `instant + duration`, held within 0...Int64.max nanoseconds (a corrupt capture's times must not trap).
    static func shifted(_ instant: SimInstant, _ duration: SimDuration) -> SimInstant {
        let (sum, overflow) = instant.nanosecondsSinceStart.addingReportingOverflow(duration.nanoseconds)
        if overflow { return SimInstant(nanosecondsSinceStart: duration.nanoseconds > 0 ? .max : 0) }
        return SimInstant(nanosecondsSinceStart: max(0, sum))
    }

    /// A capture time as seconds with millisecond precision: `51.690`.
    static func seconds(_ instant: SimInstant) -> String {
        let ms = instant.nanosecondsSinceStart / 1_000_000
        let fraction = String(ms % 1000)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
