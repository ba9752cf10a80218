// The read-only view of a running world that eventually-conditions and checkers see.
extension World: WorldProbe {
    /// The user names of the clients, in topology order.
    public var clientNames: [String] { clients.map(\.name) }

    /// The chat id the world gave `chat` (ids 1... in `Scenario.chatNames` order), or nil.
    public func chatIdentifier(_ chat: String) -> Int64? { chatIdByName[chat] }

    /// The chat name for a chat id, or nil.
    public func chatName(_ chatId: Int64) -> String? { chatNameById[chatId] }

    /// The user id the world gave `client` (ids 1... in topology order), or nil.
    public func userIdentifier(_ client: String) -> Int64? { clientIndexByName[client].map { Int64($0 + 1) } }

    /// A snapshot of `client`'s engine, or nil for an unknown client.
    public func clientView(_ client: String) -> ClientView? { clientIndexByName[client].map(view) }

    /// The metrics of `client` over all its app launches so far, or nil for an unknown client.
    public func clientMetrics(_ client: String) -> [ClientMetrics]? {
        clientIndexByName[client].map { clients[$0].previousMetrics + [clients[$0].engineMetrics] }
    }

    /// The server's whole history of `chat` (a chat's name) in id order, or empty for an unknown chat.
    public func serverMessages(in chat: String) -> [ChatMessage] {
        guard let chatId = chatIdByName[chat] else { return [] }
        return server.messages(inChat: chatId)
    }

    /// The messages `client` has cached for `chat`, or empty when either name is unknown.
    public func cachedMessages(of client: String, in chat: String) -> [ChatMessage] {
        guard let index = clientIndexByName[client], let chatId = chatIdByName[chat] else { return [] }
        return view(index).chunkStores[chatId]?.messages ?? []
    }

    /// How many chunks (contiguous cached id ranges) `client` holds for `chat`; 0 when either name is unknown.
    public func chunkCount(of client: String, in chat: String) -> Int {
        guard let index = clientIndexByName[client], let chatId = chatIdByName[chat] else { return 0 }
        return view(index).chunkStores[chatId]?.chunks.count ?? 0
    }

    /// How many of `client`'s tasks are in the pending state; 0 for an unknown client.
    public func pendingTaskCount(of client: String) -> Int {
        clientIndexByName[client].map(pendingTaskCount) ?? 0
    }

    /// Whether `client` is running (not suspended) and logged in on a connection; false for an unknown client.
    public func isLoggedIn(_ client: String) -> Bool {
        guard let index = clientIndexByName[client] else { return false }
        return !clients[index].isSuspended && view(index).isOnline
    }

    /// What `client`'s screen shows; empty for an unknown client.
    public func screen(of client: String) -> ClientScreen {
        guard let index = clientIndexByName[client] else { return ClientScreen() }
        let view = self.view(index)
        return ClientScreen(
            openChat: view.openChatId.flatMap { chatNameById[$0] },
            visibleMessageIds: view.visibleMessageIds,
            localEchoes: view.localEchoes.map {
                ClientScreen.LocalEcho(chat: chatNameById[$0.chatId] ?? String($0.chatId), cid: $0.cid, text: $0.text)
            })
    }

    /// The chunks of `client`'s cache for `chat`, ascending; empty when either name is unknown.
    public func chunks(of client: String, in chat: String) -> [Chunk] {
        guard let index = clientIndexByName[client], let chatId = chatIdByName[chat] else { return [] }
        return view(index).chunkStores[chatId]?.chunks ?? []
    }

    /// Every task of `client`, ascending by id; empty for an unknown client.
    public func tasks(of client: String) -> [TaskSnapshot] {
        guard let index = clientIndexByName[client] else { return [] }
        return view(index).tasks.map {
            TaskSnapshot(id: $0.id, kind: $0.kind, state: $0.state, chat: chatNameById[$0.chatId] ?? String($0.chatId),
                         text: $0.text, cid: $0.cid, attempts: $0.attempts, messageId: $0.messageId)
        }
    }

    /// The server's read mark of `client`'s user in `chat`, or nil.
    public func readMark(of client: String, in chat: String) -> Int64? {
        guard let index = clientIndexByName[client], let chatId = chatIdByName[chat] else { return nil }
        return server.marks(inChat: chatId).first { $0.userId == clients[index].userId }?.mark
    }

    /// How many of `chat`'s server messages `client`'s user sent.
    public func serverMessageCount(from client: String, in chat: String) -> Int {
        guard let index = clientIndexByName[client] else { return 0 }
        return serverMessages(in: chat).count { $0.sender == clients[index].userId }
    }

    /// How many open server connections are logged in as `client`'s user; 0 for an unknown client.
    public func serverSessionCount(of client: String) -> Int {
        guard let index = clientIndexByName[client] else { return 0 }
        return server.sessionCount(ofUser: clients[index].userId)
    }

    /// The uploads the CDN stored, by token.
    public var cdnUploads: [CDNUpload] { server.cdn.uploads.map { CDNUpload(token: $0.token, sizeBytes: $0.sizeBytes) } }

    /// What `client` (every client when nil) did on the wire in [`from`, `until`), as the world saw it.
    public func windowMetrics(of client: String?, from: SimInstant, until: SimInstant) -> WindowMetrics {
        var result = WindowMetrics()
        let indices = client.map { clientIndexByName[$0].map { [$0] } ?? [] } ?? Array(clients.indices)
        for index in indices {
            var isFirstAttempt = true
            for observation in observations[index] {
                let inside = observation.time >= from && observation.time < until
                switch observation.kind {
                case .connectAttempt:
                    if inside, !isFirstAttempt { result.reconnects += 1 }
                    isFirstAttempt = false
                case .request(let opcode): if inside { result.requestsByOpcode[opcode, default: 0] += 1 }
                case .login: if inside { result.logins += 1 }
                case .uploadStarted: if inside { result.uploadsStarted += 1 }
                case .push(let opcode): if inside { result.pushesByOpcode[opcode, default: 0] += 1 }
                }
            }
        }
        return result
    }

    /// When the step labelled `label` ran, or nil.
    public func instant(ofStep label: String) -> SimInstant? { monitor.instant(ofStep: label) }

    /// Every client's chat list and loaded history equal the server's (invariant V1's comparison,
    /// `ConvergenceChecks.v1Problems`).
    public var hasConverged: Bool {
        clients.indices.allSatisfy { hasConverged($0) }
    }

    func hasConverged(_ index: Int) -> Bool {
        ConvergenceChecks.v1Problems(userId: clients[index].userId, view: view(index), server: server).isEmpty
    }

    /// The current engine's view of client `index`, cached until the engine's next event.
    func view(_ index: Int) -> ClientView {
        if let cached = clients[index].cachedView { return cached }
        let view = engineView(index)
        clients[index].cachedView = view
        return view
    }

    /// The view the checker reads after client `index`'s event. Not kept as the cached view: the checker's copy is
    /// the only one (caching it too cost a retain and a release of each of its tables per event); only its pending
    /// tasks are counted, for the tally after the step, while the task list is in cache (keeping the list for the
    /// count after the step cost a retain here and a release at the next event, on an object out of cache by then).
    /// Probes after it build and cache a view of their own.
    func checkedView(_ index: Int) -> ClientView {
        if let cached = clients[index].cachedView { return cached }
        let (view, pending) = clients[index].engineViewAndPendingTaskCount()
        clients[index].cachedPendingTasks = pending ?? Self.pendingCount(view.tasks)
        return view
    }

    /// Client `index`'s engine's view, the engine read where it lies (`ClientSlot.engineView()`): reading the
    /// engine through the slot's getter copied the whole slot, and copying the engine out first copied it too.
    private func engineView(_ index: Int) -> ClientView {
        clients[index].engineView()
    }

    /// Tasks of client `index` that are neither done nor failed.
    func pendingTaskCount(_ index: Int) -> Int {
        if let cached = clients[index].cachedPendingTasks { return cached }
        // The cached view's task list read in place: `view(index)` returned a copy of the whole view, a retain and a
        // release of each of its tables.
        let count: Int
        if let reference = clients[index].referencePendingTaskCount() {
            count = reference
        } else if clients[index].cachedView != nil {
            count = Self.pendingCount(clients[index].cachedView!.tasks)
        } else {
            count = Self.pendingCount(view(index).tasks)
        }
        clients[index].cachedPendingTasks = count
        return count
    }

    /// How many of `tasks` are pending, each state read in place (`count(where:)` copied every record, its strings
    /// retained and released, on every client event).
    private static func pendingCount(_ tasks: [TaskRecord]) -> Int {
        var count = 0
        for position in tasks.indices where tasks[position].state == .pending { count += 1 }
        return count
    }

    /// Forgets client `index`'s cached view after its engine changed, and queues it for the next pending-task count.
    func engineChanged(_ index: Int) {
        clients[index].cachedView = nil
        clients[index].cachedPendingTasks = nil
        if !pendingTasks.needsRecount[index] {
            pendingTasks.needsRecount[index] = true
            pendingTasks.clientsToRecount.append(index)
        }
    }

    /// Tracks when the task queues first held work and when they last became empty (`taskQueueDrainMilliseconds`).
    ///
    /// The total is kept up to date from the clients whose engine changed since the last call, so a world step costs
    /// what it touched, not the number of clients.
    func noteQueueDrain() {
        for index in pendingTasks.clientsToRecount {
            let count = pendingTaskCount(index)
            pendingTasks.total += count - pendingTasks.counted[index]
            pendingTasks.counted[index] = count
            pendingTasks.needsRecount[index] = false
        }
        pendingTasks.clientsToRecount.removeAllKeepingCapacity()
        let pending = pendingTasks.total
        if pending > 0 {
            if queueDrainStart == nil { queueDrainStart = now }
            queueDrainEnd = nil
        } else if queueDrainStart != nil, queueDrainEnd == nil {
            queueDrainEnd = now
        }
    }
}
