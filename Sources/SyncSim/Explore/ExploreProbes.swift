import SimCore
import SyncProtocol

/// Probes: small fixed patterns and checks the generator adds to some runs, drawn from their own SimCore stream
/// (`"explore.probes"`), so that a run without a probe's steps is the run the generator drew before probes existed.
///
/// - **Sessions on the server** (every run, no steps): `Never(.serverSessions(client:, count: 2))` per client, a
///   safety check: a LOGIN replaces the device's older connections at once (`replacesOlderSessions`), so the server
///   never holds two logged-in connections of one client (`server-keeps-older-sessions` does, after a half-open
///   connection or a short silent outage). And for each silent outage of a client longer than the server's liveness
///   timeout (`idleTimeout`, 50 s) plus 15 s of slack for packets still in flight, with no other step of that
///   client that may bring its link up or deliver its packets late (`isIsolated`): `Always(.serverSessions(client:,
///   count: 0))` from 65 s after it starts until the link comes back (nothing of the client reaches the server, so
///   its liveness closes the dead connection; `server-no-liveness` never does).
/// - **A long silent outage** (two runs in five): one client's link goes down silently for 70 to 150 s, where it is
///   isolated, so the check above has an outage to judge.
/// - **A stale reply on a new connection** (a third of runs, when the seq space is the default): the server sends a
///   reply whose connection closed to the device's newest connection (`repliesFollowDevice`), and the run gets the
///   pattern of the catalog's `stale-reply-on-new-connection` on a client added for it (with no other step, on
///   3G, 4G or WiFi, in two new one-to-one chats with 20 to 60 messages of history): CHAT_HISTORY answers delayed 8
///   to 20 s, two chat opens on a young connection (the run's first, or the first after an app restart 6 s
///   earlier), then a reset of 1 to 3 s. The new connection's first CHAT_HISTORY then has the seq the stale page
///   has when seqs restart per connection (`seq-restart-per-connection`). The reference engine counts seqs on
///   across connections, so the stale
///   page finds no waiter; not across app launches, so the run's restarts and crashes where a delayed or held reply
///   may still be on its way are dropped.
/// - **A lost send answer, tasks that never give up** (a quarter of runs, unless `--param` sets the task retry
///   parameters): a lost MSG_SEND response with a send right after it, so the retry meets the server's "already
///   exists"; and every client's `maxTaskAttempts` above the attempts the task retry backoff allows in the whole
///   run (`taskAttempts(within: runLength)` + 1), so no task of the reference engine can fail. An engine that takes
///   "already exists" for a failure (`duplicate-is-failure`) then retries that send until the run ends: T5.
extension ExploreGenerator.Builder {
    /// The probes drawn for one run.
    struct Probes {
        var outage = false
        var staleReply = false
        var lostSendAnswer = false
    }

    /// The server's liveness timeout the session checks assume (`ServerKnobs.idleTimeout` default).
    static let serverIdleTimeout = SimDuration.seconds(50)

    /// Slack after the liveness timeout for packets that were already on the way when the link went down.
    static let outageSlack = SimDuration.seconds(15)

    /// Draws the run's probes and adds their steps (call after the kinds' steps, before sorting).
    mutating func addProbes(isStorm: Bool) -> Probes {
        var probeDice = ExploreDice(generator: RandomStreams(runSeed: seed).stream("explore.probes"))
        var probes = Probes()
        let wantsOutage = probeDice.chance(0.4)
        let wantsStaleReply = probeDice.chance(0.35)
        let wantsLostSend = probeDice.chance(0.25)
        if wantsOutage, !isStorm, active >= .seconds(90) { probes.outage = addLongOutage(&probeDice) }
        let defaultSeqs = clients.allSatisfy { $0.parameters["seqModulus"] == nil && $0.parameters["initialSeq"] == nil }
        if wantsStaleReply, !isStorm, defaultSeqs {
            let before = timed.count
            addStaleReply(&probeDice)
            if timed.count > before {
                // An app launch counts seqs afresh in the reference engine too: no stale reply may cross one, so the
                // restarts and crashes where a reply may be late go.
                let late = Self.lateReplyWindows(timed)
                timed.removeAll { step in
                    switch step.action {
                    case .restartApp, .crashApp: late.contains { $0.from <= step.time && step.time <= $0.until }
                    default: false
                    }
                }
                serverParameters["repliesFollowDevice"] = .bool(true)
                probes.staleReply = true
            }
        }
        let overridesRetry = ["maxTaskAttempts", "taskRetryBase", "taskRetryCap"].contains {
            generator.clientParameters[$0] != nil
        }
        if wantsLostSend, !isStorm, !overridesRetry {
            addLostSendAnswer(&probeDice)
            probes.lostSendAnswer = true
        }
        return probes
    }

    /// One client's link down silently for 70 to 150 s (clipped to the active phase), at the first of 24 drawn
    /// (client, time) pairs with no other link step of that client near it; false when none is free.
    mutating func addLongOutage(_ probeDice: inout ExploreDice) -> Bool {
        let latest = Int(active.nanoseconds / 1_000_000) - 71_000
        for _ in 0..<24 {
            let client = probeDice.pick(clients).name
            let start = SimDuration.milliseconds(Int64(probeDice.int(500...max(500, latest))))
            let stop = end(of: start, lasting: probeDice.milliseconds(70_000...150_000))
            guard Self.isIsolated(client, from: start, until: stop, in: timed) else { continue }
            timed.append((start, .outage(client: client, duration: stop - start, mode: .silently)))
            return true
        }
        return false
    }

    /// Where a delayed or held reply may still be on its way: from a second before a `DelayResponses` or
    /// `HoldResponses` starts to 5 s after the last reply it may hold back leaves (a hold until a step label: the
    /// whole run); likewise while a client's link holds its packets back (a `Clog` until its `Release`, the whole run
    /// without one; a `DelaySpike`): a request an app sent before it crashed reaches the server after the relaunch,
    /// and its reply follows the device to the new process (explore seed 38608584: a page asked into a clog, the app
    /// crashed, the released request's answer met the relaunched app's request of the same seq; C3).
    static func lateReplyWindows(_ steps: [(time: SimDuration, action: Action)]) -> [(from: SimDuration, until: SimDuration)] {
        steps.compactMap { step in
            switch step.action {
            case .clog(let client):
                let release = steps.filter {
                    if case .release(client) = $0.action { $0.time >= step.time } else { false }
                }.map(\.time).min()
                return (step.time - .seconds(1), (release ?? .hours(100)) + .seconds(5))
            case .delaySpike(_, let extra, let duration):
                return (step.time - .seconds(1), step.time + duration + extra + .seconds(5))
            case .delayResponses(_, let extra, let duration, _):
                return (step.time - .seconds(1), step.time + duration + extra + .seconds(5))
            case .holdResponses(_, _, .time(let until)):
                return (step.time - .seconds(1), max(step.time, until) + .seconds(5))
            case .holdResponses:
                return (.zero, .hours(100))
            default:
                return nil
            }
        }
    }

    /// Whether an app restart or crash falls in a `lateReplyWindows` window.
    static func restartMeetsLateReply(_ steps: [(time: SimDuration, action: Action)]) -> Bool {
        let windows = lateReplyWindows(steps)
        return steps.contains { step in
            switch step.action {
            case .restartApp, .crashApp: windows.contains { $0.from <= step.time && step.time <= $0.until }
            default: false
            }
        }
    }

    /// Whether no link step of `client` (`isLinkStep`) is in effect from 75 s before `from` (a delay spike's packets
    /// may arrive up to a minute and 15 s after it starts) up to `until`.
    static func isIsolated(
        _ client: String, from: SimDuration, until: SimDuration, in steps: [(time: SimDuration, action: Action)]
    ) -> Bool {
        steps.allSatisfy { candidate in
            guard isLinkStep(candidate.action, of: client) else { return true }
            var end = candidate.time
            switch candidate.action {
            case .outage(_, let duration, _): end = candidate.time + duration
            case .delaySpike(_, let extra, let duration): end = candidate.time + duration + extra
            default: break
            }
            return end < from - .seconds(75) || candidate.time > until
        }
    }

    /// The catalog's `stale-reply-on-new-connection` pattern on one client (the caller turns `repliesFollowDevice`
    /// on).
    mutating func addStaleReply(_ probeDice: inout ExploreDice) {
        // A client of its own, with no other step: its first requests after each LOGIN are the pattern's, as in
        // the catalog scenario, whatever the other clients do. It joins two new one-to-one chats with history, so
        // a page filed under the wrong chat shows.
        guard clients.count < ExploreGenerator.names.count else { return }
        let client = ExploreGenerator.names[clients.count]
        // A fast link makes the pattern's timing likely; with `--profiles` the user's choice holds.
        let profile = probeDice.pick(generator.linkProfiles == nil ? [ProfileName.threeG, .fourG, .wifi] : startProfiles)
        var parameters: ParameterSet = [:]
        for entry in generator.clientParameters.entries { parameters[entry.key] = entry.value }
        clients.append(ClientSpec(name: client, profile: profile, parameters: parameters))
        profilesUsed.append(profile)
        let peers = [clients[0].name, clients[1].name]
        for peer in peers {
            chats.append(("\(peer)+\(client)", [peer, client], false))
            history.append(ChatHistorySeed(chat: "\(peer)+\(client)", messages: probeDice.int(20...60)))
        }
        let first = "\(peers[0])+\(client)"
        let second = "\(peers[1])+\(client)"
        // The run's first connection (before the first PING at 30 s), or the first after an app restart 6 s
        // earlier.
        let activeMilliseconds = Int(active.nanoseconds / 1_000_000)
        var start = SimDuration.milliseconds(Int64(probeDice.int(2_000...12_000)))
        if probeDice.chance(0.4), activeMilliseconds > 40_000 {
            start = .milliseconds(Int64(probeDice.int(10_000...(activeMilliseconds - 25_000))))
            timed.append((start - .seconds(6), .restartApp(client: client)))
        }
        let delay = probeDice.milliseconds(8_000...20_000)
        timed.append((start, .delayResponses(opcode: .chatHistory, extraDelay: delay,
                                             duration: end(of: start, lasting: .seconds(40)) - start)))
        timed.append((start + .seconds(1), .openChat(client: client, chat: first)))
        timed.append((start + .milliseconds(2_500), .openChat(client: client, chat: second)))
        let resetAt = start + probeDice.milliseconds(3_500...5_000)
        let reset = end(of: resetAt, lasting: probeDice.milliseconds(1_000...3_000)) - resetAt
        timed.append((resetAt, .outage(client: client, duration: reset, mode: .withReset)))
    }

    /// A lost MSG_SEND response and a send right after it (its retry meets "already exists").
    mutating func addLostSendAnswer(_ probeDice: inout ExploreDice) {
        let chat = probeDice.pick(chats)
        let member = probeDice.pick(chat.members)
        let latest = Int(active.nanoseconds / 1_000_000) - 3_000
        let at = SimDuration.milliseconds(Int64(probeDice.int(500...max(500, latest))))
        texts += 1
        timed.append((at, .loseResponses(opcode: .msgSend, count: 1)))
        timed.append((at + probeDice.milliseconds(500...2_000), .sendText(client: member, chat: chat.name,
                                                                          text: "m\(texts)")))
    }

    /// Gives every client a `maxTaskAttempts` no task can reach within `runLength`: one more than the attempts
    /// whose shortest retry delays fit in it.
    mutating func raiseTaskAttempts(runLength: SimDuration) {
        for index in clients.indices {
            var unlimited = clients[index].parameters
            unlimited["maxTaskAttempts"] = .int(1_000_000)
            let most = Self.taskAttempts(within: runLength, parameters: unlimited) + 1
            clients[index].parameters["maxTaskAttempts"] = .int(max(most, 10))
        }
    }

    /// The session checks: never two logged-in connections of a client; none during a long, isolated silent
    /// outage once the liveness timeout has passed.
    func sessionChecks(steps: [Step]) -> [Always] {
        var checks = clients.map {
            Always(.serverSessions(client: $0.name, count: 2), isNegated: true, from: nil, until: nil,
                   location: .generated)
        }
        let timedSteps: [(time: SimDuration, action: Action)] = steps.compactMap {
            guard case .at(let time) = $0.timing else { return nil }
            return (time, $0.action)
        }
        for (index, step) in timedSteps.enumerated() {
            let client: String
            let stop: SimDuration
            switch step.action {
            case .outage(let name, let duration, .silently):
                client = name
                stop = step.time + duration
            case .linkDown(let name, .silently):
                guard let up = timedSteps[(index + 1)...].first(where: {
                    if case .linkUp(name) = $0.action { true } else { false }
                }) else { continue }
                client = name
                stop = up.time
            default:
                continue
            }
            let from = step.time + Self.serverIdleTimeout + Self.outageSlack
            guard stop > from + .seconds(1) else { continue }
            var others = timedSteps
            others.remove(at: index)
            if let up = others.firstIndex(where: { $0.time == stop && $0.action == .linkUp(client: client) }) {
                others.remove(at: up)
            }
            guard Self.isIsolated(client, from: step.time, until: stop, in: others) else { continue }
            checks.append(Always(.serverSessions(client: client, count: 0), isNegated: false, from: .time(from),
                                 until: .time(stop), location: .generated))
        }
        return checks
    }

    /// Whether `action` may bring `client`'s link up or deliver its packets late (down, up, delay, clog, profile,
    /// and the OS's connectivity reports, which take the link down and up too: seed 500142).
    static func isLinkStep(_ action: Action, of client: String) -> Bool {
        switch action {
        case .linkDown(let name, _), .linkUp(let name), .outage(let name, _, _), .delaySpike(let name, _, _),
            .clog(let name), .release(let name), .changeProfile(let name, _), .connectivity(let name, _):
            name == client
        default:
            false
        }
    }
}
