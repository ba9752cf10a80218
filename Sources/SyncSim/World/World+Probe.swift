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
        clientIndexByName[client].map { clients[$0].previousMetrics + [clients[$0].engine.metrics] }
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
        let view = clients[index].engine.view
        clients[index].cachedView = view
        return view
    }

    /// Tasks of client `index` that are neither done nor failed.
    func pendingTaskCount(_ index: Int) -> Int {
        if let cached = clients[index].cachedPendingTasks { return cached }
        let count = view(index).tasks.count { $0.state == .pending }
        clients[index].cachedPendingTasks = count
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
        pendingTasks.clientsToRecount.removeAll(keepingCapacity: true)
        let pending = pendingTasks.total
        if pending > 0 {
            if queueDrainStart == nil { queueDrainStart = now }
            queueDrainEnd = nil
        } else if queueDrainStart != nil, queueDrainEnd == nil {
            queueDrainEnd = now
        }
    }
}
