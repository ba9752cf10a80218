// Timeline steps: user actions become engine events, faults become link faults, server knobs or world faults.
extension World {
    func perform(_ scheduled: ScheduledStep, isTriggered: Bool = false) {
        if !isTriggered { stepsRun += 1 }
        let action = scheduled.step.action
        record("step", isTriggered ? "when" : "run", Scenario.actionSource(action))
        if let label = scheduled.step.label {
            monitor.stepRan(label: label, at: now)
            if !faults.holds.isEmpty { releaseHolds(waitingFor: label) }
        }
        let index = action.client.flatMap(clientIndex)
        switch action {
        case .openChat(_, let chat):
            guard let index, let chatId = chatId(chat) else { return }
            // An open shows the chat's newest messages, also when that chat was open already: a scroll made there
            // before has ended (found by `syncsim explore`, seed 45).
            leaveScrolls(of: index, except: nil)
            clients[index].shownChatId = chatId
            user(index, .openChat(chatId))
        case .scroll(_, let chat, let direction, let messages):
            guard let index, let chatId = chatId(chat) else { return }
            if clients[index].shownChatId != chatId {
                leaveScrolls(of: index, except: chatId)
                clients[index].shownChatId = chatId
                user(index, .openChat(chatId))
            }
            let serverCount = server.messages(inChat: chatId).count
            if direction == .up {
                scrollUps.append((index, chatId, messages, serverCount))
                if messages > 0 { scrollDowns.removeAll { $0.client == index } }
            } else {
                // A scroll down ends a scroll to the top still under way (the engine drops what is left of it), so
                // C6 no longer judges it; one that already covers the chat stays judged.
                if messages > 0 {
                    let chunks = view(index).chunkStores[chatId]?.chunks ?? []
                    if !ChunkChecks.c6Problems(chunks: chunks, server: server.messages(inChat: chatId)).isEmpty {
                        scrollUps.removeAll { $0.client == index && $0.chatId == chatId }
                    }
                }
                if messages >= serverCount, serverCount > 0 {
                    scrollDowns.removeAll { $0.client == index }
                    scrollDowns.append((index, chatId, serverCount))
                }
            }
            user(index, direction == .up ? .scrollUp(messages: messages) : .scrollDown(messages: messages))
        case .sendText(_, let chat, let text):
            guard let index, let chatId = chatId(chat) else { return }
            user(index, .sendText(chatId: chatId, text: text))
        case .sendPhoto(_, let chat, let bytes, let caption):
            guard let index, let chatId = chatId(chat) else { return }
            user(index, .sendPhoto(chatId: chatId, sizeBytes: bytes, caption: caption))
        case .editMessage(_, let chat, let text):
            guard let index, let chatId = chatId(chat), let id = newestMessage(of: index, in: chatId) else { return }
            applyServer(server.edit(chatId: chatId, messageId: id, editor: clients[index].userId, text: text, now: now))
        case .deleteMessage(_, let chat):
            guard let index, let chatId = chatId(chat), let id = newestMessage(of: index, in: chatId) else { return }
            applyServer(server.delete(chatId: chatId, messageId: id, deleter: clients[index].userId, now: now))
        case .sendPhotos(_, let chat, let count, let bytes, let caption):
            guard let index, let chatId = chatId(chat) else { return }
            user(index, .sendPhotos(chatId: chatId, count: count, sizeBytes: bytes, caption: caption))
        case .background:
            if let index { background(index) }
        case .foreground:
            if let index { foreground(index) }
        case .restartApp:
            if let index { leaveScrolls(of: index, except: nil); restartApp(index, crash: false) }
        case .crashApp:
            if let index { leaveScrolls(of: index, except: nil); restartApp(index, crash: true) }
        case .linkDown(_, let mode):
            guard let index else { return }
            network.inject(.down(resetting: mode == .withReset ? .bothSides : .none), on: clients[index].host)
        case .linkUp:
            guard let index else { return }
            network.inject(.up, on: clients[index].host)
        case .outage(_, let duration, let mode):
            guard let index else { return }
            let host = clients[index].host
            if mode == .withReset {
                network.inject(.down(resetting: .bothSides), on: host)
                network.schedule(after: duration) { [unowned self] in enter { network.inject(.up, on: host) } }
            } else {
                network.inject(.outage(duration: duration), on: host)
            }
        case .lossBurst(_, let duration, let lossRate):
            guard let index else { return }
            network.inject(.lossBurst(probability: lossRate, duration: duration), on: clients[index].host)
        case .delaySpike(_, let extraDelay, let duration):
            guard let index else { return }
            network.inject(.delaySpike(extraDelay: extraDelay, duration: duration), on: clients[index].host)
        case .clog:
            guard let index else { return }
            network.inject(.clog, on: clients[index].host)
        case .release:
            guard let index else { return }
            network.inject(.release, on: clients[index].host)
        case .changeProfile(_, let profile):
            guard let index, let link = scenario.linkProfile(named: profile.rawValue) else { return }
            network.inject(.changeProfile(link), on: clients[index].host)
        case .halfOpen:
            guard let index else { return }
            makeHalfOpen(index)
        case .serverRestart(let downtime):
            restartServer(downtime: downtime)
        case .delayResponses(let opcode, let extraDelay, let duration, let client):
            if client == nil {
                delayResponses(opcode, by: extraDelay, for: duration)
            } else if let index {
                // One client's requests: a slow period of the server for that user and opcode, on top of the
                // opcode's processing delay; periods already over are dropped.
                server.knobs.slowPeriods.removeAll { $0.end <= now }
                server.knobs.slowPeriods.append(.init(start: now, end: now + duration, extraDelay: extraDelay,
                                                      opcode: opcode, userId: clients[index].userId))
            }
        case .loseResponses(let opcode, let count, let client):
            guard client == nil || index != nil else { return }
            faults.responsesToLose[FaultState.RequestFault(opcode: opcode, client: index), default: 0] += count
        case .pushLoss(_, let probability, let duration):
            faults.pushLoss.append((index, probability, now + duration))
        case .pushDuplication(_, let probability, let duration):
            faults.pushDuplication.append((index, probability, now + duration))
        case .errorReplies(let opcode, let count, let client):
            guard client == nil || index != nil else { return }
            faults.errorsToReply[FaultState.RequestFault(opcode: opcode, client: index), default: 0] += count
        case .capLogin(let chats):
            server.knobs.loginChatsCap = chats
        case .skewClock(_, let offset):
            guard let index else { return }
            skewClock(index, by: offset)
        case .markRead(_, let chat):
            guard let index, let chatId = chatId(chat) else { return }
            user(index, .markRead(chatId: chatId))
        case .closeChat(_, let chat):
            guard let index, let chatId = chatId(chat), clients[index].shownChatId == chatId else { return }
            // The user left the chat: a scroll there stopped, so C6 no longer judges it (found by explore, seed 268).
            leaveScrolls(of: index, except: nil)
            clients[index].shownChatId = nil
            scrollDowns.removeAll { $0.client == index }
            user(index, .closeChat)
        case .postFromOtherDevice(_, let chat, let text):
            guard let index, let chatId = chatId(chat) else { return }
            postFromOtherDevice(index, chatId: chatId, text: text)
        case .check(let condition):
            checkpoint(condition, step: scheduled)
        case .delayPushes(_, let extraDelay, let duration):
            guard let index else { return }
            faults.pushDelays.append((index, extraDelay, now + duration))
        case .holdResponses(let opcode, _, let until):
            holdResponses(opcode, client: index, until: until)
        case .connectivity(_, let change):
            guard let index else { return }
            connectivity(index, change)
        }
    }

    /// The newest message client `index`'s user sent to a chat that is not removed, if any.
    private func newestMessage(of index: Int, in chatId: Int64) -> Int64? {
        server.messages(inChat: chatId).last { $0.sender == clients[index].userId && !$0.isRemoved }?.id
    }

    /// The user left the chats other than `chatId` (opened a chat, or the app restarted): a scroll there stopped,
    /// so C6 and V2 no longer apply to it (found by `syncsim explore`).
    private func leaveScrolls(of index: Int, except chatId: Int64?) {
        scrollUps.removeAll { $0.client == index && $0.chatId != chatId }
        scrollDowns.removeAll { $0.client == index && $0.chatId != chatId }
    }

    private func user(_ index: Int, _ action: UserAction) {
        deliver(index, generation: clients[index].generation, .user(action))
    }

    /// The client's current sockets go half-open (NAT rebinding): both ends forget them silently
    /// (`Network.abandon`), so their packets vanish and neither application is told; new connections work.
    private func makeHalfOpen(_ index: Int) {
        for socket in clients[index].sockets {
            guard case .chatClient? = sockets[socket] else { continue }
            record(clients[index].name, "half-open", "socket=\(socket.connection)")
            network.abandon(socket)
            network.abandon(socket.peer)
        }
    }

    /// Requests of `opcode` arriving during `duration` take `extraDelay` to process (on top of nothing: the
    /// default server answers at once), so later requests are answered first.
    private func delayResponses(_ opcode: Opcode, by extraDelay: SimDuration, for duration: SimDuration) {
        let entry = faults.delayedOpcodes[opcode]
        let previous = entry == nil ? server.knobs.processingDelay[opcode] : entry!.previous
        faults.delayedOpcodes[opcode] = ((entry?.active ?? 0) + 1, previous)
        server.knobs.processingDelay[opcode] = .fixed(extraDelay)
        network.schedule(after: duration) { [unowned self] in
            enter {
                guard let entry = faults.delayedOpcodes[opcode] else { return }
                if entry.active <= 1 {
                    faults.delayedOpcodes[opcode] = nil
                    server.knobs.processingDelay[opcode] = entry.previous
                    record("server", "delay-responses-end", "\(opcode)")
                } else {
                    faults.delayedOpcodes[opcode] = (entry.active - 1, entry.previous)
                }
            }
        }
    }

    /// Moves the client's device clock: the running engine (when it is the reference engine) and every later one.
    private func skewClock(_ index: Int, by offset: SimDuration) {
        clients[index].parameters.deviceEpochMilliseconds += offset.nanoseconds / 1_000_000
        if clients[index].skewDeviceClock(by: offset) { engineChanged(index) }
    }
}
