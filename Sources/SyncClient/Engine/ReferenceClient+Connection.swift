import SimCore
import SyncProtocol

extension ReferenceClient {
    mutating func connect() {
        guard isNetworkAvailable else {
            // The OS said the network is gone: wait for `.connectivityChanged(isAvailable: true)`.
            state = .waitingToReconnect
            return
        }
        let connection = ClientConnectionID(rawValue: nextConnectionNumber)
        nextConnectionNumber += 1
        if hasConnectedBefore { metrics.reconnects += 1 }
        hasConnectedBefore = true
        state = .connecting(connection)
        actions.append(.connect(connection))
    }

    mutating func connected(_ connection: ClientConnectionID) {
        guard state == .connecting(connection) else { return }
        if isMutant(.backoffResetOnConnect) { backoffAttempts = 0 }
        state = .initializing(connection)
        let body = Packet.Body.sessionInit(SessionInitRequest(deviceId: parameters.deviceId))
        if !sendRequest(.sessionInit, body, purpose: .sessionInit) { drop() }
    }

    /// The OS reports the network gone or back. Gone: the connection is closed at once (its packets could not
    /// leave anyway) and no attempt is made until it is back. Back: a client waiting to reconnect, or still waiting
    /// for the SYN of an attempt made without network, connects now with its backoff reset, instead of waiting for
    /// the backoff timer or TCP's SYN retransmission.
    mutating func connectivityChanged(isAvailable: Bool) {
        let wasAvailable = isNetworkAvailable
        isNetworkAvailable = isAvailable
        if !isAvailable {
            if wasAvailable, state.connection != nil { drop() }
            return
        }
        if case .connecting(let connection) = state {
            // A SYN sent while the network was gone may wait seconds for its retransmission: start afresh.
            actions.append(.close(connection))
            state = .waitingToReconnect
        }
        guard state == .waitingToReconnect else { return }
        for (timer, purpose) in timers.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where purpose == .reconnect {
            cancelTimer(timer)
        }
        backoffAttempts = 0
        connect()
    }

    /// Closes the current connection on purpose (pong timeout, failed LOGIN) and schedules a reconnect.
    mutating func drop() {
        if let connection = state.connection { actions.append(.close(connection)) }
        connectionLost()
    }

    /// The connection is gone: apply the in-flight policy and schedule a reconnect with backoff.
    mutating func connectionLost() {
        guard state != .stopped, state != .waitingToReconnect else { return }
        state = .waitingToReconnect
        if let pingTimer { cancelTimer(pingTimer) }
        pingTimer = nil
        let lost = tracker.removeAll()
        for (_, entry) in lost { cancelTimer(entry.timer) }
        if !isMutant(.inflightDroppedOnDisconnect) {
            for (_, entry) in lost { requestFailed(entry.purpose, .disconnected) }
        }
        scheduleReconnect()
    }

    /// Exponential backoff with jitter: `min(cap, base·factor^attempts)`, drawn in `[d·(1-jitter), d]`.
    mutating func scheduleReconnect() {
        let base = Double(parameters.backoffBase.nanoseconds)
        let cap = Double(parameters.backoffCap.nanoseconds)
        var delay = base
        for _ in 0..<min(backoffAttempts, 64) { delay = min(cap, delay * parameters.backoffFactor) }
        delay = min(cap, delay)
        let jitter = min(1, max(0, parameters.backoffJitter))
        delay *= 1 - jitter * generator.nextUnitInterval()
        backoffAttempts += 1
        _ = startTimer(.reconnect, at: now + SimDuration(nanoseconds: Int64(delay.rounded())))
    }

    /// Sends a request on the current connection.
    /// - Returns: false when there is no connection or every seq is in flight.
    mutating func sendRequest(_ opcode: Opcode, _ body: Packet.Body, purpose: RequestPurpose) -> Bool {
        guard let connection = state.connection, state != .connecting(connection) else { return false }
        guard let seq = tracker.allocate() else {
            isWaitingForSeq = true
            return false
        }
        let timeout = purpose == .ping ? parameters.pongTimeout : parameters.requestTimeout
        let timer = startTimer(.requestTimeout(seq: seq), at: now + timeout)
        if let replaced = tracker.inFlight[seq] { cancelTimer(replaced.timer) }
        tracker.register(seq: seq, entry: .init(opcode: opcode, purpose: purpose, sentAt: now, timer: timer))
        metrics.requestsByOpcode[opcode, default: 0] += 1
        actions.append(.send(Packet(cmd: .request, seq: seq, opcode: opcode, body: body), on: connection))
        return true
    }

    mutating func receive(_ packet: Packet) {
        switch packet.cmd {
        case .push:
            receivePush(packet)
        case .response, .error:
            guard let entry = tracker.complete(seq: packet.seq, opcode: packet.opcode) else { return }
            cancelTimer(entry.timer)
            if case .error(let payload) = packet.body {
                requestFailed(entry.purpose, .error(payload))
            } else if packet.cmd == .error {
                requestFailed(entry.purpose, .error(ErrorPayload(error: "unknown", message: "error frame")))
            } else {
                requestSucceeded(entry.purpose, packet.body)
            }
            if isWaitingForSeq {
                isWaitingForSeq = false
                runTasks()
            }
        case .request:
            return
        }
    }

    mutating func requestSucceeded(_ purpose: RequestPurpose, _ body: Packet.Body) {
        switch (purpose, body) {
        case (.sessionInit, _):
            guard case .initializing(let connection) = state else { return }
            state = .loggingIn(connection)
            let login = LoginRequest(token: parameters.token, chatsSync: lastSync, contactsSync: lastSync,
                                     chatsCount: parameters.loginChatsCount)
            if !sendRequest(.login, .login(login), purpose: .login) { drop() }
        case (.login, .loginResponse(let response)):
            guard case .loggingIn(let connection) = state else { return }
            loggedIn(response, connection: connection)
        case (.ping, _), (.chatMark, _):
            return
        case (.history(let chatId, let load), .chatHistoryResponse(let response)):
            historyLoads[chatId] = nil
            receivePage(response.messages, chatId: chatId, load: load)
        case (.send(let taskId), .msgSendResponse(let response)):
            insertSingle(response.message, chatId: response.chatId)
            if let task = tasks[taskId] { metrics.sendToAckLatencies.append(now - task.enqueuedAt) }
            finishTask(taskId, messageId: response.message.id)
        case (.photoToken(let taskId), .photoUploadResponse(let response)):
            guard runningTaskIds.contains(taskId), var task = tasks[taskId] else { return }
            task.photoToken = response.photoToken
            tasks[taskId] = task
            store.save(task)
            startUpload(taskId)
        default:
            requestFailed(purpose, .error(ErrorPayload(error: "client.unexpectedBody", message: "\(body)")))
        }
    }

    mutating func requestFailed(_ purpose: RequestPurpose, _ failure: Failure) {
        switch purpose {
        case .sessionInit, .login:
            if failure != .disconnected { drop() }
        case .ping:
            if failure == .timeout { drop() }
        case .chatMark:
            return
        case .history(let chatId, _):
            historyLoads[chatId] = nil
            // The open chat asks again after a pause; after a disconnect, LOGIN resumes it instead.
            if failure != .disconnected, screen?.chatId == chatId {
                _ = startTimer(.historyRetry, at: now + parameters.taskRetryBase)
            }
        case .send(let taskId), .photoToken(let taskId):
            taskFailed(taskId, failure)
        }
    }

    private mutating func loggedIn(_ response: LoginResponse, connection: ClientConnectionID) {
        state = .online(connection)
        metrics.logins += 1
        backoffAttempts = 0
        for summary in response.chats {
            chatList[summary.id] = summary
            store.save(summary)
            if let last = summary.lastMessage {
                insertSingle(last, chatId: summary.id, extendsTopChunk: isMutant(.gapIgnoredAfterLogin))
            }
        }
        for contact in response.contacts {
            contacts[contact.id] = contact
            store.save(contact)
        }
        if isMutant(.sinceFromDeviceClock) {
            setLastSync(parameters.deviceEpochMilliseconds + now.nanosecondsSinceStart / 1_000_000)
        } else if isMutant(.sinceFromNewestPush) {
            setLastSync(max(lastSync, response.chats.compactMap { $0.lastMessage?.time }.max() ?? lastSync))
        } else {
            setLastSync(max(lastSync, response.time))
        }
        pingTimer = startTimer(.ping, at: now + parameters.pingInterval)
        runTasks()
        resumeScreen()
    }

    private mutating func receivePush(_ packet: Packet) {
        guard case .notifMessage(let push) = packet.body else { return }
        let chunkCount = histories[push.chatId]?.chunks.count ?? 0
        insertSingle(push.message, chatId: push.chatId)
        if screen?.chatId == push.chatId, (histories[push.chatId]?.chunks.count ?? 0) > chunkCount {
            screen?.needsNewestPage = true
            requestHistory(chatId: push.chatId, load: .newest)
        }
        if var summary = chatList[push.chatId], push.message.id > (summary.lastMessage?.id ?? 0) {
            summary.lastMessage = push.message
            summary.modified = max(summary.modified, push.message.time)
            chatList[push.chatId] = summary
            store.save(summary)
        }
        if isMutant(.sinceFromNewestPush) { setLastSync(push.message.time) }
    }

    mutating func setLastSync(_ value: Int64) {
        lastSync = value
        store.setSync("chatsSync", value)
    }
}
