import SyncSim
import SyncTrace

/// Turns a capture into a DSL scenario that replays its timeline: one client per captured client address (named
/// after the user it logged in as), a server holding the chats' earlier messages, and the user actions the
/// requests show, each `After` the step before by the capture's gap.
///
/// The mapping: a MSG_SEND becomes `Send` (a re-sent cid only once, and a copy re-sent with a new cid after the
/// first got no answer only once too), a chat's first CHAT_HISTORY `OpenChat` and later ones `ScrollUp` by the page
/// asked for. Link profiles, link drops and server faults come from `ReplayInference` (see its rules). The server's
/// `processingDelay` is the median of each response time less its client's RTT, its `processingJitter` the spread
/// (90th less 10th percentile) of those when at least 50 ms. Expectations: every invariant,
/// convergence, and per chat the server order of the sent texts the capture shows (by the message ids the server
/// gave them), within the capture's length plus three minutes. Steps are `At` the capture time of their packet,
/// each with a comment naming it; doubts about the capture are comments above the scenario.
struct ReplayScenarioEmitter {
    let timeline: ReplayTimeline
    let model: ReplayWorldModel

    /// A scenario with the comments that say where each step came from.
    struct Emission {
        var scenario: Scenario
        /// One comment per step of `scenario.steps`, same order.
        var stepComments: [String]
        /// Comments above the scenario: the inferred link of each client and every doubt.
        var headerComments: [String]
        /// What the emitter could not place (also in `headerComments`), for stderr.
        var unplaced: [String]

        /// The scenario as DSL source with its comments: header lines above, one `// ...` line above each step.
        func source() -> String {
            var lines = headerComments.map { "// " + $0 }
            var stepIndex = 0
            var inTimeline = false
            for line in scenario.dslSource().split(separator: "\n", omittingEmptySubsequences: false) {
                if line == "    }" { inTimeline = false }
                if inTimeline, stepIndex < stepComments.count {
                    lines.append("        // " + stepComments[stepIndex])
                    stepIndex += 1
                }
                lines.append(String(line))
                if line == "    Timeline {" { inTimeline = true }
            }
            return lines.joined(separator: "\n")
        }
    }

    func scenario(named name: String) -> Scenario { emission(named: name).scenario }

    func emission(named name: String) -> Emission {
        var scenario = Scenario(name, summary: "replays a captured timeline (syncsim replay --emit-scenario)",
                                seeds: [1]) {}
        let inference = ReplayInference(timeline)
        var header: [String] = []
        var unplaced: [String] = []
        let clientNames = clientNamesByAddress()
        let chatNames = chatNamesById(clientNames: clientNames)
        let shares = responseShares(inference)
        var serverParameters: ParameterSet = [:]
        if let median = shares.isEmpty ? nil : shares[shares.count / 2], median >= .milliseconds(1) {
            serverParameters["processingDelay"] = .duration(.milliseconds(median.nanoseconds / 1_000_000))
        }
        // The spread of the server's share (90th less 10th percentile) as processing jitter, from 50 ms on.
        if shares.count >= 4 {
            let spread = shares[shares.count * 9 / 10] - shares[shares.count / 10]
            if spread >= .milliseconds(50) {
                serverParameters["processingJitter"] = .duration(.milliseconds(spread.nanoseconds / 1_000_000))
                header.append("server: processing \(ReplayInference.milliseconds(shares[shares.count / 2])) ms, "
                    + "jitter \(ReplayInference.milliseconds(spread)) ms (spread of \(shares.count) answer times)")
            }
        }
        let history = model.history.compactMap { chat in
            chatNames[chat.chatId].map { ChatHistorySeed(chat: $0, messages: chat.messages.count) }
        }
        scenario.server = ServerSpec(parameters: serverParameters, history: history)
        scenario.clients = clientNames.map { client in
            let link = inference.links.first { $0.address == client.address }
            header.append("\(client.name) (\(client.address)): \(link?.profile.rawValue ?? "3G") from "
                + (link?.comment ?? "nothing"))
            return ClientSpec(name: client.name, profile: link?.profile ?? .threeG)
        }
        scenario.chats = chatNames.keys.sorted().compactMap { id in
            guard let chat = model.chats.first(where: { $0.id == id }), let name = chatNames[id],
                  name != chat.members.compactMap({ model.name(ofUser: $0) }).joined(separator: "+") else { return nil }
            return ChatSpec(name: name, members: chat.members.compactMap { memberId in
                clientNames.first { $0.userId == memberId }?.name
            })
        }
        var timed: [(time: SimInstant, action: Action, comment: String)] = []
        var openedChats: Set<String> = []
        var sentCids: Set<Int64> = []
        // Sends per (client, chat, text) whose copy got no answer: a later copy with a new cid is a re-send.
        var unansweredSends: [String: Int64] = [:]
        var sendsByChat: [String: [(cid: Int64, text: String, client: String)]] = [:]
        // Outage starts per client address, for placing sends that waited in the queue.
        let outageStarts = inference.steps.compactMap { item -> (String, SimInstant)? in
            guard let address = item.client, case .outage = item.step.action else { return nil }
            return (address, item.step.time)
        }
        var queueOpenedAt: [String: SimInstant] = [:]
        for connection in timeline.connections {
            guard let client = clientNames.first(where: { connection.client.hasPrefix($0.address + ":") }) else {
                unplaced.append("connection \(connection.number) from \(connection.client): no client to give it to")
                continue
            }
            let lost = Set(ReplayInference.unanswered(connection).map(\.packet.seq))
            for entry in connection.entries where entry.direction == .clientToServer {
                let at = "connection \(connection.number) seq \(entry.packet.seq) at "
                    + "\(ReplayInference.seconds(entry.time)) s"
                switch entry.packet.body {
                case .msgSend(let request):
                    guard let chat = chatNames[request.chatId] else {
                        unplaced.append("\(at): MSG_SEND to chat \(request.chatId), which no chat of the capture lists")
                        continue
                    }
                    guard sentCids.insert(request.message.cid).inserted else { continue }
                    let key = "\(client.name)\u{1F}\(chat)\u{1F}\(request.message.text)"
                    if let earlier = unansweredSends[key] {
                        unplaced.append("\(at): MSG_SEND \(request.message.text.debugDescription) again with a new "
                            + "cid \(request.message.cid) (first cid \(earlier) got no answer): kept as one Send; "
                            + "the capture's engine re-sends with a fresh cid")
                        continue
                    }
                    if lost.contains(entry.packet.seq) { unansweredSends[key] = request.message.cid }
                    sendsByChat[chat, default: []].append((request.message.cid, request.message.text, client.name))
                    // Sent the instant a frame from the server arrived: it waited in the engine's queue, so the user
                    // sent it earlier, at the latest when the queue started (the last send the user made, or a
                    // second into the last outage before it).
                    let arrivedJustBefore = connection.entries.contains {
                        $0.direction == .serverToClient && $0.time <= entry.time
                            && entry.time - $0.time < .milliseconds(1)
                    }
                    var placed = entry.time
                    var comment = "MSG_SEND cid \(request.message.cid), \(at)"
                    if arrivedJustBefore {
                        let outage = outageStarts.filter { $0.0 == client.address && $0.1 < entry.time }.map(\.1).max()
                        let opened = [queueOpenedAt[client.name], outage.map { min(entry.time, $0 + .seconds(1)) }]
                            .compactMap { $0 }.max()
                        if let opened {
                            let previous = timed.last { if case .sendText(client.name, _, _) = $0.action { true } else { false } }
                            placed = max(opened, previous.map { $0.time + .milliseconds(1) } ?? opened)
                            placed = min(placed, entry.time)
                            comment += " (went out the instant a frame from the server arrived: it waited in the "
                                + "queue; placed when the queue started)"
                        }
                    } else {
                        queueOpenedAt[client.name] = entry.time
                    }
                    timed.append((placed, .sendText(client: client.name, chat: chat, text: request.message.text),
                                  comment))
                case .chatHistory(let request):
                    guard let chat = chatNames[request.chatId] else { continue }
                    if openedChats.insert("\(client.name) \(chat)").inserted {
                        timed.append((entry.time, .openChat(client: client.name, chat: chat),
                                      "first CHAT_HISTORY of \(chat), \(at)"))
                    } else {
                        timed.append((entry.time, .scroll(client: client.name, chat: chat, direction: .up,
                                                          messages: max(1, request.backward)),
                                      "CHAT_HISTORY backward \(request.backward), \(at)"))
                    }
                default:
                    break
                }
            }
        }
        for (address, inferred) in inference.steps {
            var action = inferred.action
            if case .outage(_, let duration, let mode) = action {
                guard let name = clientNames.first(where: { $0.address == address })?.name else { continue }
                action = .outage(client: name, duration: duration, mode: mode)
            }
            timed.append((inferred.time, action, inferred.comment))
        }
        header += inference.doubts.map { "doubt: " + $0 }
        unplaced += inference.doubts
        header += unplaced.filter { !inference.doubts.contains($0) }.map { "not placed: " + $0 }
        timed = timed.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        scenario.steps = timed.map { item in
            Step(timing: .at(Self.rounded(item.time.sinceStart)), action: item.action, location: .generated)
        }
        let deadline = Self.wholeMinutes(after: timeline.end.sinceStart)
        var eventually = [Eventually(within: deadline, .converged)]
        for chat in sendsByChat.keys.sorted() {
            let sends = sendsByChat[chat]!
            guard Set(sends.map(\.text)).count == sends.count else {
                header.append("no serverOrder for \(chat): the same text was sent twice")
                continue
            }
            let order = serverOrder(of: sends.map(\.cid))
            let texts = sends.enumerated().sorted { a, b in
                let ia = order[a.element.cid] ?? .max, ib = order[b.element.cid] ?? .max
                return (ia, a.offset) < (ib, b.offset)
            }.map(\.element.text)
            eventually.append(Eventually(within: deadline, .serverOrder(chat: chat, texts: texts)))
        }
        scenario.expectations = Expectations(invariants: InvariantID.allCases, eventually: eventually)
        return Emission(scenario: scenario, stepComments: timed.map(\.comment), headerComments: header,
                        unplaced: unplaced)
    }

    /// The server's message id of each cid the capture shows stored (MSG_SEND answers, pushes, history pages).
    private func serverOrder(of cids: [Int64]) -> [Int64: Int64] {
        let wanted = Set(cids)
        var ids: [Int64: Int64] = [:]
        func note(_ message: ChatMessage) {
            if let cid = message.cid, wanted.contains(cid) { ids[cid] = min(ids[cid] ?? .max, message.id) }
        }
        for entry in timeline.entries where entry.direction == .serverToClient {
            switch entry.packet.body {
            case .msgSendResponse(let response): note(response.message)
            case .notifMessage(let push): note(push.message)
            case .chatHistoryResponse(let response): response.messages.forEach(note)
            default: break
            }
        }
        return ids
    }

    /// The deadline for the emitted expectations: the capture's length rounded up to whole minutes, plus three
    /// (time for the re-sends and catch-up the capture may end before); held below SimDuration's end.
    static func wholeMinutes(after duration: SimDuration) -> SimDuration {
        let minute: Int64 = 60_000_000_000
        return .minutes(min(max(0, duration.nanoseconds) / minute + 4, Int64.max / minute - 1))
    }

    /// The server's share of each response time: the time less its client's RTT, sorted; stalled answers left out.
    private func responseShares(_ inference: ReplayInference) -> [SimDuration] {
        var shares: [SimDuration] = []
        for connection in timeline.connections {
            let address = ReplayInference.address(of: connection)
            guard let roundTrip = inference.links.first(where: { $0.address == address })?.roundTrip else { continue }
            // An answer later than 3 RTT + 1 s waited out an outage or a fault, not the server's processing.
            shares += ReplayInference.answered(connection).map { $0.answer.time - $0.request.time - roundTrip }
                .filter { $0 <= roundTrip * 2 + .seconds(1) }
        }
        return shares.sorted()
    }

    /// Client addresses with the user name each logged in as (`client1`... when the capture has no LOGIN answer).
    private func clientNamesByAddress() -> [(address: String, name: String, userId: Int64?)] {
        timeline.clientAddresses.enumerated().map { index, address in
            let userId = model.userIdByClient.first { $0.client == address }?.userId
            let name = userId.flatMap(model.name(ofUser:)) ?? "client\(index + 1)"
            return (address, Self.identifier(name), userId)
        }
    }

    /// Chat names: members joined by `+` (`alice+bob`) when every member is a captured client, else `chat<id>`.
    private func chatNamesById(clientNames: [(address: String, name: String, userId: Int64?)]) -> [Int64: String] {
        var names: [Int64: String] = [:]
        for chat in model.chats {
            let members = chat.members.map { id in clientNames.first { $0.userId == id }?.name }
            if members.count >= 2, members.allSatisfy({ $0 != nil }) {
                names[chat.id] = members.compactMap { $0 }.joined(separator: "+")
            } else {
                names[chat.id] = "chat\(chat.id)"
            }
        }
        return names
    }

    /// A gap rounded to whole milliseconds (the DSL prints milliseconds at the finest).
    /// Capture times may be anything (a corrupt timestamp): no `+ 500_000` that overflows near Int64.max, and the
    /// result stays within what `SimDuration.milliseconds` can hold.
    static func rounded(_ duration: SimDuration) -> SimDuration {
        let (whole, rest) = duration.nanoseconds.quotientAndRemainder(dividingBy: 1_000_000)
        return .milliseconds(min(max(0, whole + (rest >= 500_000 ? 1 : 0)), Int64.max / 1_000_000))
    }

    /// A client name the DSL and chat names accept: letters, digits, `-` and `_`.
    static func identifier(_ text: String) -> String {
        let kept = text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" }
        return kept.isEmpty ? "client" : String(kept)
    }
}
