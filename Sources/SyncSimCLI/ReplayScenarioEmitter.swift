import SyncSim
import SyncTrace

/// Turns a capture into a DSL scenario that replays its timeline: one client per captured client address (named
/// after the user it logged in as), a server holding the chats' earlier messages, and the user actions the
/// requests show, each `After` the step before by the capture's gap.
///
/// The mapping: a MSG_SEND becomes `Send` (a re-sent cid only once, and a copy re-sent with a new cid after the
/// first got no answer only once too), a chat's first CHAT_HISTORY `OpenChat` and later ones `ScrollUp` by the page
/// asked for. Link profiles, link drops and server faults come from `ReplayInference` (see its rules), edits and
/// deletes (`EditMessage`, `DeleteMessage`, `historyEditLag`) from `ReplayEdits`. The server's
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
        // The server's share of the answer times: its median as `processingDelay`; when they spread (90th less 10th
        // percentile) by 50 ms or more, that spread as `processingJitter`, which the server adds to the delay, so the
        // delay is then the 10th percentile: the drawn times span the 10th to the 90th percentile.
        var delay = shares.isEmpty ? nil : shares[shares.count / 2]
        var jitter: SimDuration?
        if shares.count >= 4 {
            let low = shares[shares.count / 10]
            let spread = shares[shares.count * 9 / 10] - low
            if spread >= .milliseconds(50) {
                delay = low
                jitter = spread
                header.append("server: processing \(ReplayInference.milliseconds(shares[shares.count / 2])) ms "
                    + "(median), \(ReplayInference.milliseconds(low)) ms plus up to "
                    + "\(ReplayInference.milliseconds(spread)) ms of jitter (10th to 90th percentile of "
                    + "\(shares.count) answer times)")
            }
        }
        if let delay, delay >= .milliseconds(1) {
            serverParameters["processingDelay"] = .duration(.milliseconds(delay.nanoseconds / 1_000_000))
        }
        if let jitter { serverParameters["processingJitter"] = .duration(.milliseconds(jitter.nanoseconds / 1_000_000)) }
        if let why = inference.repliesFollowDevice {
            serverParameters["repliesFollowDevice"] = .bool(true)
            header.append("server: replies follow the device to its newest connection (\(why))")
        }
        // Edits and deletes the capture shows, and the server's lagging history pages (ReplayInference+Edits.swift).
        let edits = ReplayEdits(timeline: timeline, model: model, clients: clientNames, chatNames: chatNames,
                                oneWay: { address in
                                    let roundTrip = inference.links.first { $0.address == address }?.roundTrip
                                    return SimDuration(nanoseconds: (roundTrip ?? .milliseconds(200)).nanoseconds / 2)
                                })
        if let lag = edits.historyEditLag {
            serverParameters["historyEditLag"] = .duration(lag)
        }
        header += edits.notes
        let posts = otherDevicePosts(clientNames: clientNames, chatNames: chatNames)
        let history = model.history.compactMap { chat -> ChatHistorySeed? in
            let count = chat.messages.count - posts.filter { $0.chatId == chat.chatId }.count
            guard count > 0 else { return nil }
            return chatNames[chat.chatId].map { ChatHistorySeed(chat: $0, messages: count) }
        }
        scenario.server = ServerSpec(parameters: serverParameters, history: history)
        scenario.clients = clientNames.map { client in
            let link = inference.links.first { $0.address == client.address }
            header.append("\(client.name) (\(client.address)): \(link?.profile.rawValue ?? "3G") from "
                + (link?.comment ?? "nothing"))
            var profile = link?.profile ?? .threeG
            if let burstLoss = link?.burstLoss,
               let bursty = Self.burstyProfile(base: profile, client: client.name, burstLoss: burstLoss,
                                               taken: scenario.linkProfiles) {
                scenario.linkProfiles.append(bursty.profile)
                header.append("\(client.name): loss found bursty, \(bursty.comment); link profile "
                    + "\(bursty.profile.name) (\(profile.rawValue) with that loss)")
                profile = ProfileName(rawValue: bursty.profile.name)
            }
            let own = timeline.connections.filter { $0.client.hasPrefix(client.address + ":") }
            let (parameters, why) = Self.engineParameters(own.filter { $0.role == .chat },
                                                          uploads: own.filter { $0.role == .upload })
            header += why.map { "\(client.name): \($0)" }
            return ClientSpec(name: client.name, profile: profile, parameters: parameters,
                              user: Self.deviceUser(client.name))
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
        // The step of each (client, chat)'s last user action on its history, for the pages the engine chains to it.
        var historyStep: [String: Int] = [:]
        var sentCids: Set<Int64> = []
        // Where each send's step was placed, by cid, so that an edit or delete of its message comes after it.
        var sendStepAt: [Int64: SimInstant] = [:]
        // Sends per (client, chat, text) whose copy got no answer: a later copy with a new cid is a re-send.
        var unansweredSends: [String: Int64] = [:]
        var sendsByChat: [String: [(cid: Int64, text: String, client: String)]] = [:]
        // Photo counts of the multi-photo sends, by chat and caption, for their `Always(.photosComplete)` checks.
        var photoCounts: [String: [String: [Int]]] = [:]
        // Outage starts per client address, for placing sends that waited in the queue.
        let outageStarts = inference.steps.compactMap { item -> (String, SimInstant)? in
            guard let address = item.client, case .outage = item.step.action else { return nil }
            return (address, item.step.time)
        }
        var queueOpenedAt: [String: SimInstant] = [:]
        // CHAT_HISTORY pages (client, chat, from, forward, backward) asked and not answered yet.
        var unansweredPages: Set<String> = []
        // When the user's last send (the one that opened the queue) was answered, nil without an answer.
        var lastSendAnswer: [String: SimInstant?] = [:]
        let restartTimes = inference.steps.compactMap { item -> (String, SimInstant)? in
            guard let address = item.client else { return nil }
            switch item.step.action {
            case .restartApp, .crashApp: return (address, item.step.time)
            default: return nil
            }
        }
        // PHOTO_UPLOAD requests already given to a photo send, by connection number and seq.
        var claimedUploads: Set<String> = []
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
                    let photos = request.message.attaches.filter { $0.type == "PHOTO" }
                    let others = request.message.attaches.map(\.type).filter { $0 != "PHOTO" }
                    if !others.isEmpty {
                        // Said, so a scenario without them is not taken for the whole capture.
                        unplaced.append("\(at): the \(others.joined(separator: ", ")) attachment"
                            + (others.count == 1 ? "" : "s") + " of MSG_SEND \(request.message.text.debugDescription)"
                            + " by \(client.name): the DSL sends text and photos only; placed without "
                            + (others.count == 1 ? "it" : "them"))
                    }
                    photoCounts[chat, default: [:]][request.message.text, default: []].append(photos.count)
                    if !photos.isEmpty {
                        sendsByChat[chat, default: []].append((request.message.cid, request.message.text, client.name))
                        let photo = photoSend(entry, client: client, chat: chat, text: request.message.text,
                                              photos: photos, claimed: &claimedUploads)
                        timed.append(photo)
                        sendStepAt[request.message.cid] = photo.time
                        // The user's last send: a text queued behind the photo was sent after it.
                        queueOpenedAt[client.name] = max(queueOpenedAt[client.name] ?? .start, photo.time)
                        continue
                    }
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
                        var opened = [queueOpenedAt[client.name], outage.map { min(entry.time, $0 + .seconds(1)) }]
                            .compactMap { $0 }.max()
                        // The user's previous send was still unanswered when the silence began: this one waited
                        // behind it (the engine sends a chat's messages one at a time), not for the link; the user
                        // may have made it any time after that send; the earliest is taken (an engine that does
                        // not wait shows then).
                        if let outage, let previous = queueOpenedAt[client.name], previous < outage,
                           (lastSendAnswer[client.name] ?? nil).map({ $0 > outage }) ?? true {
                            opened = previous
                            comment += " (waited behind the send of \(ReplayInference.seconds(previous)) s, unanswered "
                                + "when the silence began)"
                        }
                        // Nothing else to go by but an app restart before it: queued offline before the restart
                        // (a second before it, after the last frame the client's old engine exchanged).
                        if opened == nil, let restart = restartTimes.filter({ $0.0 == client.address && $0.1 < entry.time })
                            .map(\.1).max() {
                            let lastFrame = timeline.connections.filter { $0.client.hasPrefix(client.address + ":") }
                                .flatMap(\.entries).map(\.time).filter { $0 < restart }.max()
                            opened = max(ReplayInference.shifted(restart, .seconds(-1)),
                                         lastFrame.map { ReplayInference.shifted($0, .milliseconds(1)) } ?? .start)
                        }
                        // An app restart after the queue started and before the send went out: the send waited
                        // in the old engine's queue and survived the restart (the new engine sent it at once after
                        // LOGIN), so the user made it before the restart.
                        var beforeRestart: SimInstant?
                        let queueStart = [queueOpenedAt[client.name], outage].compactMap { $0 }.max() ?? opened
                        if let start = opened, let queueStart, let restart = restartTimes.filter({
                            $0.0 == client.address && $0.1 > queueStart && $0.1 < entry.time
                        }).map(\.1).min() {
                            beforeRestart = ReplayInference.shifted(restart, .milliseconds(-1))
                            opened = max(min(start, ReplayInference.shifted(restart, .milliseconds(-500))),
                                         outage.map { ReplayInference.shifted($0, .milliseconds(1)) } ?? .start)
                        }
                        if let opened {
                            // After the user's previous send, a photo's included: the engine sends a chat's messages
                            // in the order the user made them.
                            let previous = timed.filter {
                                switch $0.action {
                                case .sendText(client.name, _, _), .sendPhoto(client.name, _, _, _),
                                     .sendPhotos(client.name, _, _, _, _): true
                                default: false
                                }
                            }.map(\.time).max()
                            placed = max(opened, previous.map { $0 + .milliseconds(1) } ?? opened)
                            placed = min(placed, beforeRestart ?? entry.time, entry.time)
                            comment += " (went out the instant a frame from the server arrived: it waited in the "
                                + "queue; placed when the queue started"
                                + (beforeRestart == nil ? ")" : ", before the app restart it survived)")
                        }
                    } else {
                        queueOpenedAt[client.name] = entry.time
                        lastSendAnswer[client.name] = ReplayInference.answered(connection).first {
                            $0.request.packet.seq == entry.packet.seq && $0.request.time == entry.time
                        }?.answer.time
                    }
                    sendStepAt[request.message.cid] = placed
                    timed.append((placed, .sendText(client: client.name, chat: chat, text: request.message.text),
                                  comment))
                case .chatHistory(let request):
                    guard let chat = chatNames[request.chatId] else { continue }
                    let key = "\(client.name) \(chat)"
                    // The same page asked again after an earlier ask went unanswered: the engine's retry (after its
                    // request timeout or a reconnect), no user action.
                    let page = "\(client.name) \(request.chatId) \(request.from) \(request.forward) \(request.backward)"
                    if unansweredPages.contains(page) {
                        header.append("\(at): CHAT_HISTORY of \(chat) asks again a page that went unanswered: the "
                            + "engine's retry, no user action")
                        if !lost.contains(entry.packet.seq) { unansweredPages.remove(page) }
                        continue
                    }
                    if lost.contains(entry.packet.seq) { unansweredPages.insert(page) }
                    // Sent the instant a frame from the server arrived: the engine asked on its own (the next page
                    // of a scroll, a catch-up after LOGIN or a push): part of the user's last action in the chat.
                    let chained = connection.entries.contains {
                        $0.direction == .serverToClient && $0.time <= entry.time
                            && entry.time - $0.time < .milliseconds(1)
                    }
                    // The newest page asked the instant a `message.duplicate` answer arrived: the engine learns the
                    // message it stored no answer for that way (its own request, no user action; an OpenChat here
                    // would load the page even when the engine would not).
                    let afterDuplicate = connection.entries.contains {
                        guard $0.direction == .serverToClient, $0.time <= entry.time,
                              entry.time - $0.time < .milliseconds(1), case .error(let payload) = $0.packet.body
                        else { return false }
                        return payload.error == ErrorPayload.duplicateMessageCode
                    }
                    if afterDuplicate, !openedChats.contains(key) {
                        header.append("\(at): CHAT_HISTORY of \(chat) asked the instant a message.duplicate answer "
                            + "arrived: the engine's own, no OpenChat")
                        continue
                    }
                    if openedChats.insert(key).inserted {
                        historyStep[key] = timed.count
                        timed.append((entry.time, .openChat(client: client.name, chat: chat),
                                      "first CHAT_HISTORY of \(chat), \(at)"))
                    } else if chained, let index = historyStep[key] {
                        if case .scroll(let name, let chat, let direction, let messages) = timed[index].action {
                            timed[index].action = .scroll(client: name, chat: chat, direction: direction,
                                                          messages: messages + max(1, request.backward))
                            timed[index].comment += "; then backward \(request.backward) at "
                                + "\(ReplayInference.seconds(entry.time)) s"
                        }
                    } else {
                        historyStep[key] = timed.count
                        timed.append((entry.time, .scroll(client: client.name, chat: chat, direction: .up,
                                                          messages: max(1, request.backward)),
                                      "CHAT_HISTORY backward \(request.backward), \(at)"))
                    }
                case .groupCreate, .chatMembersUpdate, .chatLeave, .chatUpdate, .profile, .msgReaction,
                     .msgCancelReaction, .contactUpdate, .config, .folderUpdate, .foldersDelete,
                     .chatLink where entry.packet.opcode == .chatJoin:
                    // Changes the server keeps that no DSL step makes: said, so a scenario that leaves them out is
                    // not taken for the whole capture.
                    let what = if case .groupCreate = entry.packet.body {
                        "group creation (MSG_SEND without chatId)"
                    } else {
                        "\(entry.packet.opcode)"
                    }
                    unplaced.append("\(at): \(what) by \(client.name): the DSL has no step for it")
                default:
                    break
                }
            }
        }
        Self.keepSendOrder(&timed)
        for post in posts {
            // Its text as the capture showed it, unless a captured MSG_SEND of the chat has that text too: the
            // serverOrder and photosComplete checks name messages by text.
            let taken = photoCounts[post.chat]?[post.message.text] != nil
            let text = taken ? "\(post.message.text) (message \(post.message.id))" : post.message.text
            timed.append((post.time, .postFromOtherDevice(client: post.client, chat: post.chat, text: text),
                          "NOTIF_MESSAGE of message \(post.message.id) first seen at "
                            + "\(ReplayInference.seconds(post.firstSeen)) s, stored by no captured MSG_SEND: "
                            + "\(post.client) posted it from a device the capture does not show"
                            + (taken ? "; renamed: a captured MSG_SEND of the chat has its text" : "")))
        }
        for (address, inferred) in inference.steps {
            var action = inferred.action
            if let address {
                // The inference names a client by its address: the scenario by the user it logged in as.
                guard let name = clientNames.first(where: { $0.address == address })?.name else {
                    unplaced.append("\(inferred.comment): no client at \(address)")
                    continue
                }
                switch action {
                case .outage(_, let duration, let mode): action = .outage(client: name, duration: duration, mode: mode)
                case .lossBurst(_, let duration, let rate):
                    action = .lossBurst(client: name, duration: duration, lossRate: rate)
                case .restartApp: action = .restartApp(client: name)
                case .crashApp: action = .crashApp(client: name)
                case .changeProfile(_, let profile): action = .changeProfile(client: name, profile: profile)
                case .connectivity(_, let change): action = .connectivity(client: name, change: change)
                case .loseResponses(let opcode, let count, _):
                    action = .loseResponses(opcode: opcode, count: count, client: name)
                case .errorReplies(let opcode, let count, _):
                    action = .errorReplies(opcode: opcode, count: count, client: name)
                default: break
                }
            }
            timed.append((inferred.time, action, inferred.comment))
        }
        timed += pushFaults(clientNames: clientNames)
        timed += Self.changesAfterTheirSends(edits, sendStepAt: sendStepAt, clients: scenario.clients,
                                             server: serverParameters, linkProfiles: scenario.linkProfiles)
        unplaced += edits.unplaced
        let doubts = inference.doubts + edits.doubts
        header += doubts.map { "doubt: " + $0 }
        unplaced += doubts
        header += unplaced.filter { !doubts.contains($0) }.map { "not placed: " + $0 }
        timed = timed.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
            .map(\.element)
        scenario.steps = timed.map { item in
            Step(timing: .at(Self.rounded(item.time.sinceStart)), action: item.action, location: .generated)
        }
        var deadline = Self.wholeMinutes(after: timeline.end.sinceStart)
        // The run lasts until the expectations' deadline (a send the capture ends on must get its time to finish), so a
        // capture of a day and a half offline runs a day and a half: an expectation due after the run's end is checked
        // at the end, too early. A week at most, expectations included: a corrupt capture time must not make a run of
        // years.
        if deadline > Self.longestRun {
            header.append("the capture ends at \(timeline.end.sinceStart): the run and its expectations stop at "
                + "\(Self.longestRun)")
            deadline = Self.longestRun
        }
        scenario.runLength = max(scenario.runLength, deadline)
        // Made by code: their location names no scenario line (`SourceLocation.generated`).
        var eventually = [Eventually(within: deadline, .converged, fileID: "<generated>", line: 0)]
        for chat in sendsByChat.keys.sorted() {
            let sends = sendsByChat[chat]!
            guard Set(sends.map(\.text)).count == sends.count else {
                header.append("no serverOrder for \(chat): the same text was sent twice")
                continue
            }
            let order = serverOrder(of: sends.map(\.cid))
            // A message the capture shows edited or deleted no longer has its sent text on the server: it is left
            // out of the order (the edit and delete steps replay the change).
            let changed = Set(edits.changes.filter { chatNames[$0.chatId] == chat }.map(\.messageId))
            let left = sends.filter { order[$0.cid].map(changed.contains) ?? false }
            if !left.isEmpty {
                header.append("serverOrder of \(chat) leaves out "
                    + left.map { $0.text.debugDescription }.joined(separator: ", ") + ": edited or deleted in the capture")
            }
            let kept = sends.filter { send in !left.contains { $0.cid == send.cid } }
            let sorted = kept.enumerated().sorted { a, b in
                let ia = order[a.element.cid] ?? .max, ib = order[b.element.cid] ?? .max
                return (ia, a.offset) < (ib, b.offset)
            }.map(\.element)
            // One order per sender: a client's own sends keep their order (the engine's promise), while how two
            // clients' sends interleave follows retry backoffs and link timing the run draws anew
            // (explore-send-while-scrolled-up: alice's send got through between two backoffs of dave's).
            var senders: [String] = []
            for send in sorted where !senders.contains(send.client) { senders.append(send.client) }
            for sender in senders {
                let texts = sorted.filter { $0.client == sender }.map(\.text)
                eventually.append(Eventually(within: deadline, .serverOrder(chat: chat, texts: texts),
                                             fileID: "<generated>", line: 0))
            }
        }
        scenario.expectations = Expectations(invariants: InvariantID.allCases, eventually: eventually,
                                             metricBounds: failedTaskBound(sentCids: sentCids, header: &header),
                                             always: Self.photosComplete(photoCounts))
        return Emission(scenario: scenario, stepComments: timed.map(\.comment), headerComments: header,
                        unplaced: unplaced)
    }

    /// The messages the capture first shows in a push (`ReplayWorldModel.pushedFirst`) whose sender is a captured
    /// client, as posts from another device of that client (`PostFromOtherDevice`) in place of history seeded
    /// before the run: a message that arrived while a client was offline is then one the client missed, with the gap
    /// it left, as in the capture (hours-offline-small-login: 200 posts during alice's three hours offline were
    /// seeded as history she could have had, and merge-skips-bridge and gap-ignored-after-login went unseen). Each is
    /// placed at the server time it was stored (its `time` less the rebuilt server's epoch), never after its first
    /// push nor before the start.
    private func otherDevicePosts(clientNames: [(address: String, name: String, userId: Int64?)],
                                  chatNames: [Int64: String])
        -> [(time: SimInstant, firstSeen: SimInstant, chatId: Int64, chat: String, client: String, message: ChatMessage)]
    {
        model.pushedFirst.compactMap { pushed in
            guard let chat = chatNames[pushed.chatId],
                  let client = clientNames.first(where: { $0.userId == pushed.message.sender })?.name,
                  model.chats.first(where: { $0.id == pushed.chatId })?.members.contains(pushed.message.sender) ?? false
            else { return nil }
            let storedAt = pushed.message.time - model.epochMilliseconds
            let latest = max(.start, ReplayInference.shifted(pushed.time, .milliseconds(-1)))
            var time = latest
            if storedAt >= 0, storedAt < latest.nanosecondsSinceStart / 1_000_000 {
                time = SimInstant(nanosecondsSinceStart: storedAt * 1_000_000)
            }
            return (time, pushed.time, pushed.chatId, chat, client, pushed.message)
        }
    }

    /// An `Always(.photosComplete)` for each caption the capture sends with several photos: the engine sends a photo
    /// message once all its uploads are done, so every message of that caption on the server carries them all (the
    /// check explore's generator writes for its `SendPhotos`). A caption sent with other photo counts too, or as a
    /// text, or empty, names no one message and gets none. `counts`: chat -> caption -> the photo count of each
    /// MSG_SEND (0 for a text).
    static func photosComplete(_ counts: [String: [String: [Int]]]) -> [Always] {
        var checks: [Always] = []
        for chat in counts.keys.sorted() {
            for caption in counts[chat]!.keys.sorted() where !caption.isEmpty {
                let photos = Set(counts[chat]![caption]!)
                guard photos.count == 1, let count = photos.first, count > 1 else { continue }
                checks.append(Always(.photosComplete(chat: chat, caption: caption, photos: count)))
            }
        }
        return checks
    }

    /// The engine sends a client's messages to a chat in the order the user made them, so a send the capture shows
    /// before another of the same client and chat was made before it. A photo's time comes from its first upload,
    /// and uploads can run in another order (a refused upload tried again later): walking back from the last send,
    /// a step not before the next one of its client and chat moves to just before it (explore-upload-refused-token-
    /// renewed: photo p28's upload at 217 s came before those of p4 ... p48, which the server stored before p28).
    /// `timed` holds each client's sends to a chat in the capture's MSG_SEND order.
    static func keepSendOrder(_ timed: inout [(time: SimInstant, action: Action, comment: String)]) {
        var nextSend: [String: (time: SimInstant, caption: String)] = [:]
        for index in timed.indices.reversed() {
            let key: String
            let caption: String
            switch timed[index].action {
            case .sendText(let client, let chat, let text), .sendPhoto(let client, let chat, _, let text),
                 .sendPhotos(let client, let chat, _, _, let text):
                key = client + "\u{1F}" + chat
                caption = text
            default:
                continue
            }
            if let next = nextSend[key], timed[index].time >= next.time {
                timed[index].time = max(.start, ReplayInference.shifted(next.time, .milliseconds(-1)))
                timed[index].comment += "; placed before \(next.caption.debugDescription), which the capture sends after "
                    + "it (the engine keeps a chat's sends in the order they were made)"
            }
            nextSend[key] = (timed[index].time, caption)
        }
    }

    /// A photo message as `SendPhoto` (`SendPhotos` for several photos): the user picked it the engine's photo
    /// processing time (2 s, `ClientParameters.photoProcessingTime`'s default) before the client's first
    /// PHOTO_UPLOAD for it. That is the earliest PHOTO_UPLOAD of the client not given to an earlier photo and no later
    /// than the one whose token the message carries (the ones between were attempts a reconnect or restart cut
    /// short); the size is that request's `sizeBytes`.
    private func photoSend(_ send: ReplayTimeline.Entry, client: (address: String, name: String, userId: Int64?),
                           chat: String, text: String, photos: [Attach], claimed: inout Set<String>)
        -> (time: SimInstant, action: Action, comment: String)
    {
        let tokens = Set(photos.compactMap(\.photoToken))
        var uploads: [(key: String, entry: ReplayTimeline.Entry, token: String?)] = []
        for connection in timeline.connections where connection.role == .chat
            && connection.client.hasPrefix(client.address + ":") {
            // Each answer with the request it answers (the latest one with its seq before it): a seq comes round
            // again on a connection (a small seq space), and a token read by seq alone went to every request with
            // that seq, the last answer's (explore-upload-refused-token-renewed: p28's photo-9 was read as photo-15,
            // so p28 seemed to have no upload and took the later photos' uploads for its own).
            var tokenOf: [String: String] = [:]
            for pair in ReplayInference.answered(connection) {
                if case .photoUploadResponse(let response) = pair.answer.packet.body {
                    tokenOf["\(pair.request.packet.seq) \(pair.request.time.nanosecondsSinceStart)"] = response.photoToken
                }
            }
            for entry in connection.entries where entry.direction == .clientToServer {
                if case .photoUpload = entry.packet.body {
                    let at = "\(entry.packet.seq) \(entry.time.nanosecondsSinceStart)"
                    uploads.append(("\(connection.number) " + at, entry, tokenOf[at]))
                }
            }
        }
        uploads.sort { ($0.entry.time, $0.entry.connection) < ($1.entry.time, $1.entry.connection) }
        func size(_ upload: (key: String, entry: ReplayTimeline.Entry, token: String?)) -> Int? {
            if case .photoUpload(let request) = upload.entry.packet.body { return request.sizeBytes.map { max(1, $0) } }
            return nil
        }
        // The uploads whose token the message carries give its photos' sizes; earlier attempts for the same photos
        // (refused, or cut off by a reconnect) asked with the same size. Without a token in the capture, every
        // upload not given to an earlier message up to the send is taken for this one.
        let tokened = uploads.filter { $0.token.map(tokens.contains) ?? false }
        let tokenTime = tokened.last?.entry.time ?? send.time
        let tokenedSizes = Set(tokened.compactMap(size))
        let mine = uploads.filter { upload in
            !claimed.contains(upload.key) && upload.entry.time <= tokenTime
                && (tokened.isEmpty || tokened.contains { $0.key == upload.key }
                    || size(upload).map(tokenedSizes.contains) == true)
        }
        claimed.formUnion(mine.map(\.key))
        let at = "connection \(send.connection) seq \(send.packet.seq) at \(ReplayInference.seconds(send.time)) s"
        var bytes = 100_000
        var comment = "MSG_SEND with \(photos.count) photo(s), \(at)"
        var start = send.time
        if let first = mine.first, case .photoUpload(let request) = first.entry.packet.body {
            let announced = tokened.compactMap(size).first ?? request.sizeBytes.map { max(1, $0) }
            bytes = announced ?? bytes
            start = first.entry.time
            comment += "; first PHOTO_UPLOAD for it on connection \(first.entry.connection) seq "
                + "\(first.entry.packet.seq) at \(ReplayInference.seconds(first.entry.time)) s, "
                + (announced.map { "sizeBytes \($0)" } ?? "no sizeBytes (a field client), \(bytes) bytes assumed")
                + ", less 2 s of photo processing"
        } else {
            // The client's own photos are the best guess at this one's size: the median of its captured uploads (the
            // token may have come before the capture, or on a connection it missed); 100 KB without any.
            let sizes = uploads.compactMap(size).sorted()
            if sizes.isEmpty {
                comment += "; no PHOTO_UPLOAD for it in the capture: 100000 bytes assumed, less 2 s of photo processing"
            } else {
                bytes = sizes[sizes.count / 2]
                comment += "; no PHOTO_UPLOAD for it in the capture: \(bytes) bytes assumed (the median of the client's "
                    + "\(sizes.count) captured uploads), less 2 s of photo processing"
            }
        }
        let time = ReplayInference.shifted(start, .seconds(-2))
        let action: Action = photos.count > 1
            ? .sendPhotos(client: client.name, chat: chat, count: photos.count, bytes: bytes, caption: text)
            : .sendPhoto(client: client.name, chat: chat, bytes: bytes, caption: text)
        return (time, action, comment)
    }

    /// Pushes one client got and another did not, or got twice: for each message a MSG_SEND stored (its answer
    /// seen), every other member client whose chat connection was logged in from the send until a second after its
    /// answer and kept receiving frames after it. No NOTIF_MESSAGE of that message on it is a lost push:
    /// `PushLoss(client, probability: 1, ...)` from the send to its answer (the server stored and pushed the message
    /// in between); two or more a duplicated one: `PushDuplication` over the same span.
    private func pushFaults(clientNames: [(address: String, name: String, userId: Int64?)])
        -> [(time: SimInstant, action: Action, comment: String)]
    {
        var found: [(time: SimInstant, action: Action, comment: String)] = []
        let chatConnections = timeline.connections.filter { $0.role == .chat }
        for connection in chatConnections {
            for pair in ReplayInference.answered(connection) {
                guard case .msgSendResponse(let stored) = pair.answer.packet.body else { continue }
                let members = model.chats.first { $0.id == stored.chatId }?.members ?? []
                for client in clientNames where !connection.client.hasPrefix(client.address + ":") {
                    guard let userId = client.userId, members.contains(userId), userId != stored.message.sender
                    else { continue }
                    // A connection of that client logged in before the send and alive after the answer.
                    let open = chatConnections.first { other in
                        guard other.client.hasPrefix(client.address + ":") else { return false }
                        let loggedIn = other.entries.first {
                            if case .loginResponse = $0.packet.body { true } else { false }
                        }?.time
                        return loggedIn.map { $0 < pair.request.time } ?? false
                            && other.entries.contains {
                                $0.direction == .serverToClient && $0.time > ReplayInference.shifted(pair.answer.time, .seconds(1))
                            }
                    }
                    guard let open else { continue }
                    let pushes = chatConnections.filter { $0.client.hasPrefix(client.address + ":") }
                        .flatMap(\.entries).filter { entry in
                            if case .notifMessage(let push) = entry.packet.body { return push.message.id == stored.message.id }
                            return false
                        }
                    guard pushes.count != 1 else { continue }
                    let span = max(.milliseconds(1), ReplayScenarioEmitter.rounded(pair.answer.time - pair.request.time))
                    let what = "message \(stored.message.id) stored by MSG_SEND seq \(pair.request.packet.seq) on "
                        + "connection \(connection.number) at \(ReplayInference.seconds(pair.request.time)) s "
                        + "(answered at \(ReplayInference.seconds(pair.answer.time)) s)"
                    if pushes.isEmpty {
                        found.append((pair.request.time,
                                      .pushLoss(client: client.name, probability: 1, duration: span),
                                      "\(what): no NOTIF_MESSAGE of it on \(client.name)'s connection \(open.number), "
                                          + "logged in and receiving"))
                    } else {
                        found.append((pair.request.time,
                                      .pushDuplication(client: client.name, probability: 1, duration: span),
                                      "\(what): \(pushes.count) NOTIF_MESSAGE of it to \(client.name) at "
                                          + pushes.map { ReplayInference.seconds($0.time) + " s" }
                                          .joined(separator: ", ")))
                    }
                }
            }
        }
        return found
    }

    /// Engine parameters the capture shows, with the reason for each: `initialSeq` when the client's first request
    /// does not carry seq 1 (the reference engine's first), `seqModulus` when its seq fell back to 0 from below
    /// 65535 on one connection (the wrap), `historyPageSize` when its newest-page CHAT_HISTORY asks for other than
    /// the reference engine's 30, `requestTimeout` when it waited longer than the reference engine's 20 s for an
    /// answer without asking again, `maxConcurrentUploads` when more than one of its `uploads` (connections to the
    /// CDN) carried a photo at once (`ClientParameters`' defaults).
    static func engineParameters(_ connections: [ReplayTimeline.Connection],
                                 uploads: [ReplayTimeline.Connection] = []) -> (ParameterSet, [String]) {
        var parameters: ParameterSet = [:]
        var why: [String] = []
        if let (most, reason) = concurrentUploads(uploads), most > 1 {
            parameters["maxConcurrentUploads"] = .int(most)
            why.append(reason)
        }
        let requests = connections.map(ReplayInference.requests)
        if let first = requests.first(where: { !$0.isEmpty })?.first, first.packet.seq != 1 {
            parameters["initialSeq"] = .int(Int(first.packet.seq))
            why.append("initialSeq \(first.packet.seq) from its first request (connection \(first.connection) at "
                + "\(ReplayInference.seconds(first.time)) s)")
        }
        // An answer to MSG_SEND or CHAT_HISTORY the client waited for longer than the reference engine's 20 s request
        // timeout without asking again, on a connection that lost nothing (the server held the answer, no outage):
        // its timeout is longer (whole minutes, above the longest wait).
        var longest: (wait: SimDuration, entry: ReplayTimeline.Entry)?
        for (connection, list) in zip(connections, requests) where connection.tcp.retransmittedSegments == 0 {
            for pair in ReplayInference.answered(connection)
            where pair.request.packet.opcode == .msgSend || pair.request.packet.opcode == .chatHistory {
                let wait = pair.answer.time - pair.request.time
                guard wait > .seconds(20), wait > longest?.wait ?? .zero else { continue }
                let askedAgain = list.contains {
                    $0.packet.opcode == pair.request.packet.opcode && $0.time < pair.answer.time
                        && $0.time > ReplayInference.shifted(pair.request.time, .seconds(19))
                }
                if !askedAgain { longest = (wait, pair.request) }
            }
        }
        if let longest {
            let minutes = min(longest.wait.nanoseconds / 60_000_000_000 + 1, 60)
            parameters["requestTimeout"] = .duration(.minutes(minutes))
            why.append("requestTimeout \(minutes) min: \(longest.entry.packet.opcode) seq \(longest.entry.packet.seq) on "
                + "connection \(longest.entry.connection) at \(ReplayInference.seconds(longest.entry.time)) s waited "
                + "\(ReplayInference.milliseconds(longest.wait)) ms for its answer without being asked again")
        }
        var timeout = SimDuration.seconds(20)
        if case .duration(let inferred)? = parameters["requestTimeout"] { timeout = inferred }
        if let (attempts, reason) = givenUpSends(connections, requests: requests, timeout: timeout), attempts != 10 {
            parameters["maxTaskAttempts"] = .int(attempts)
            why.append(reason)
        }
        if let (size, reason) = ReplayInference.historyPageSize(connections), size != 30 {
            parameters["historyPageSize"] = .int(size)
            why.append(reason)
        }
        for list in requests {
            guard let wrap = zip(list, list.dropFirst()).first(where: { $0.1.packet.seq == 0 && $0.0.packet.seq > 0
                && $0.0.packet.seq < UInt16.max }) else { continue }
            parameters["seqModulus"] = .int(Int(wrap.0.packet.seq) + 1)
            why.append("seqModulus \(Int(wrap.0.packet.seq) + 1): seq \(wrap.0.packet.seq) then 0 on connection "
                + "\(wrap.1.connection) at \(ReplayInference.seconds(wrap.1.time)) s")
            break
        }
        return (parameters, why)
    }

    /// The most uploads the client ran at once, with the reason: an upload runs from its connection's opening to the
    /// CDN's last acknowledgement of the client's bytes (a connection cut mid-photo ends where its progress ended,
    /// whether or not its close was captured). Nil without uploads. The reference engine runs one at a time by
    /// default; a capture of more (explore-upload-refused-token-renewed, made with 64) keeps them in the emitted run,
    /// where they fill the uplink and the seq space as they did.
    static func concurrentUploads(_ uploads: [ReplayTimeline.Connection]) -> (Int, String)? {
        guard !uploads.isEmpty else { return nil }
        let spans = uploads.map { upload in
            (from: upload.opensAt, until: upload.tcp.serverAcknowledged.last?.time ?? upload.opensAt,
             number: upload.number)
        }
        var most = (count: 0, at: SimInstant.start, numbers: [Int]())
        for span in spans {
            let running = spans.filter { $0.from <= span.from && span.from < $0.until }
            if running.count > most.count { most = (running.count, span.from, running.map(\.number).sorted()) }
        }
        guard most.count > 0 else { return nil }
        return (most.count, "maxConcurrentUploads \(most.count): \(most.count) uploads to the CDN at once at "
            + "\(ReplayInference.seconds(most.at)) s (connections "
            + most.numbers.map(String.init).joined(separator: ", ") + ")")
    }

    /// `maxTaskAttempts` from sends the client gave up (the engine's default is 10): a MSG_SEND whose last copy got no
    /// answer within the request timeout, after which the client sent another message (another cid and text) to the
    /// same chat on the same connection and never that cid again. A chat's sends go one at a time, so the next one
    /// went out only once the task had ended, after as many attempts as the capture shows of its cid
    /// (explore-given-up-send-stored-late: m14 timed out once at 28.4 s and m73 followed at 48.4 s; replayed with the
    /// default, m14 was tried again and stored first, against the capture's order). Nil without such a send, or when
    /// the given-up sends disagree on the count.
    static func givenUpSends(_ connections: [ReplayTimeline.Connection], requests: [[ReplayTimeline.Entry]],
                             timeout: SimDuration) -> (Int, String)? {
        var sends: [(entry: ReplayTimeline.Entry, request: MsgSendRequest)] = []
        for list in requests {
            for entry in list { if case .msgSend(let request) = entry.packet.body { sends.append((entry, request)) } }
        }
        sends.sort { ($0.entry.time, $0.entry.connection) < ($1.entry.time, $1.entry.connection) }
        var answerTime: [String: SimInstant] = [:]
        for connection in connections {
            for pair in ReplayInference.answered(connection) where pair.request.packet.opcode == .msgSend {
                answerTime["\(connection.number) \(pair.request.packet.seq) \(pair.request.time.nanosecondsSinceStart)"] =
                    pair.answer.time
            }
        }
        // Each cid's copies; only its last copy can be the one given up.
        var copies: [Int64: (count: Int, last: Int)] = [:]
        for (index, send) in sends.enumerated() {
            copies[send.request.message.cid, default: (0, index)].count += 1
            copies[send.request.message.cid]!.last = index
        }
        var counts: Set<Int> = []
        var evidence: String?
        for (index, send) in sends.enumerated() {
            let cid = send.request.message.cid
            guard let copy = copies[cid], copy.last == index else { continue }
            let deadline = ReplayInference.shifted(send.entry.time, timeout)
            let key = "\(send.entry.connection) \(send.entry.packet.seq) \(send.entry.time.nanosecondsSinceStart)"
            if let answered = answerTime[key], answered < deadline { continue }
            guard let next = sends[(index + 1)...].first(where: {
                $0.entry.connection == send.entry.connection && $0.request.chatId == send.request.chatId
            }), next.request.message.cid != cid, next.request.message.text != send.request.message.text,
                  next.entry.time >= ReplayInference.shifted(deadline, .seconds(-1)),
                  answerTime[key].map({ $0 > next.entry.time }) ?? true else { continue }
            let attempts = copy.count
            counts.insert(attempts)
            evidence = evidence ?? "maxTaskAttempts \(attempts): MSG_SEND seq \(send.entry.packet.seq) on connection "
                + "\(send.entry.connection) at \(ReplayInference.seconds(send.entry.time)) s (attempt \(attempts) of its cid) "
                + "got no answer within \(ReplayInference.milliseconds(timeout)) ms, and the next send to its chat went "
                + "out at \(ReplayInference.seconds(next.entry.time)) s with no attempt after it"
        }
        guard counts.count == 1, let attempts = counts.first, let evidence else { return nil }
        return (attempts, evidence)
    }

    /// The server's message id of each cid the capture shows stored (MSG_SEND answers, pushes, history pages).
    /// `tasksFailed <= 0` when the capture shows every MSG_SEND answered in the end, by its response or by a
    /// `message.duplicate` error to a retry (the server had stored it): the user saw every send go through, so no
    /// task of the replayed run may end failed (a client that counts "already exists" as a failure does). With a
    /// send the capture never sees answered, no bound: its tasks may fail for good in the original too.
    private func failedTaskBound(sentCids: Set<Int64>, header: inout [String]) -> [MetricBound] {
        guard !sentCids.isEmpty else { return [] }
        var answered: Set<Int64> = []
        for connection in timeline.connections {
            var sendCids: [Int: Int64] = [:]
            for entry in connection.entries {
                switch (entry.direction, entry.packet.body) {
                case (.clientToServer, .msgSend(let request)):
                    sendCids[Int(entry.packet.seq)] = request.message.cid
                case (.serverToClient, .msgSendResponse(let response)):
                    if let cid = response.message.cid { answered.insert(cid) }
                case (.serverToClient, .error(let payload)) where payload.error == ErrorPayload.duplicateMessageCode:
                    if let cid = sendCids[Int(entry.packet.seq)] { answered.insert(cid) }
                default:
                    break
                }
            }
        }
        guard sentCids.isSubset(of: answered) else {
            header.append("no tasksFailed bound: \(sentCids.subtracting(answered).count) send(s) never answered")
            return []
        }
        return [MetricBound("tasksFailed", atMost: 0)]
    }

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

    /// The longest run an emitted scenario asks for: a week of virtual time.
    /// The edit and delete steps, each placed where the emitted run can make it: after the Send step of the message
    /// it changes has reached the server, and not before an earlier change of the same client's messages in the same
    /// chat (EditMessage and DeleteMessage change the newest). A scripted client on loopback edits its own message
    /// within a millisecond of sending it; the emitted link is slower, so at the capture's time the Send had not
    /// reached the server and the step changed an older message (the vkmax capture: its edit and delete of "hello
    /// from vkmax" came at 5 and 6 ms, its Send at 6 ms). The wait is the client's link RTT plus the server's
    /// processing delay and jitter, plus a millisecond.
    static func changesAfterTheirSends(_ edits: ReplayEdits, sendStepAt: [Int64: SimInstant], clients: [ClientSpec],
                                       server: ParameterSet, linkProfiles: [LinkProfile] = [])
        -> [(time: SimInstant, action: Action, comment: String)]
    {
        var processing = SimDuration.milliseconds(1)
        for name in ["processingDelay", "processingJitter"] {
            if let extra = server[name]?.durationValue { processing = processing + extra }
        }
        var earliest: [String: SimInstant] = [:]
        return zip(edits.steps, edits.stepCids).map { step, cid in
            var (time, action, comment) = step
            let (name, chat): (String, String)
            switch action {
            case .editMessage(let client, let inChat, _), .deleteMessage(let client, let inChat): (name, chat) = (client, inChat)
            default: return step
            }
            let key = "\(name)\u{0}\(chat)"
            if let cid, let sent = sendStepAt[cid] {
                let link = clients.first { $0.name == name }.flatMap {
                    LinkProfile.named($0.profile.rawValue, among: linkProfiles)
                }
                let wait = (link?.baseRTT ?? .milliseconds(200)) + processing
                if time < sent + wait {
                    time = sent + wait
                    comment += "; placed at \(ReplayInference.seconds(time)) s, once its Send (\(ReplayInference.seconds(sent))"
                        + " s) has reached the server on the emitted link"
                }
            }
            if let floor = earliest[key], time < floor { time = floor }
            earliest[key] = time
            return (time, action, comment)
        }
    }

    /// A client's own link profile for bursty loss: `base`'s delays, rates and buffers (a catalog profile) with the
    /// Gilbert-Elliott loss `burstLoss` estimated, on both directions, named `<client>-bursty` (a `-link` suffix
    /// while that name is taken by the catalog or `taken`). Nil when `base` is no catalog profile or the loss is not
    /// bursty.
    static func burstyProfile(base: ProfileName, client: String, burstLoss: ReplayInference.BurstLoss,
                              taken: [LinkProfile]) -> (profile: LinkProfile, comment: String)? {
        guard let catalog = LinkProfile.named(base.rawValue), let loss = burstLoss.lossModel,
              let comment = burstLoss.comment else { return nil }
        var name = client + "-bursty"
        while LinkProfile.named(name, among: taken) != nil { name += "-link" }
        var profile = catalog.withLoss(loss)
        profile.name = name
        profile.source = "syncsim replay: \(catalog.name) (\(catalog.source)) with Gilbert-Elliott loss estimated "
            + "from the capture's retransmission bursts (simple Gilbert model, Gilbert 1960; netem gemodel p r)"
        return (profile, comment)
    }

    static let longestRun = SimDuration.hours(7 * 24)

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
    /// A user seen on several addresses (a phone and a tablet) is a client on the first and a second device on each
    /// later one (`alice:device2`, declared with `Device`): two clients of one name would not be a scenario.
    private func clientNamesByAddress() -> [(address: String, name: String, userId: Int64?)] {
        var devicesByName: [String: Int] = [:]
        return timeline.clientAddresses.enumerated().map { index, address in
            let userId = model.userIdByClient.first { $0.client == address }?.userId
            let name = Self.identifier(userId.flatMap(model.name(ofUser:)) ?? "client\(index + 1)")
            let device = devicesByName[name, default: 0] + 1
            devicesByName[name] = device
            return (address, device == 1 ? name : "\(name):device\(device)", userId)
        }
    }

    /// The user a client name from `clientNamesByAddress` is a second device of (`alice` for `alice:device2`), or
    /// nil for a user's first client.
    static func deviceUser(_ clientName: String) -> String? {
        clientName.firstIndex(of: ":").map { String(clientName[..<$0]) }
    }

    /// Chat names: members joined by `+` (`alice+bob`) when every member is a captured client, else `chat<id>`.
    /// Of several chats with the same members (a dialog and a group of the same two), the lowest id gets the joined
    /// name and the others `chat<id>` (declared with their members): one name for both made them one chat.
    private func chatNamesById(clientNames: [(address: String, name: String, userId: Int64?)]) -> [Int64: String] {
        var names: [Int64: String] = [:]
        var joinedNames: Set<String> = []
        for chat in model.chats {
            let members = chat.members.map { id in clientNames.first { $0.userId == id }?.name }
            let joined = members.compactMap { $0 }.joined(separator: "+")
            if members.count >= 2, members.allSatisfy({ $0 != nil }), joinedNames.insert(joined).inserted {
                names[chat.id] = joined
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
