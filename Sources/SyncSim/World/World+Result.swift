// The end of a run: final checks, expectations, metrics and the result.
extension World {
    /// Metric names the world reports, in this order: `SweepMetric.all`, the one list of metric names.
    public static var metricNames: [String] { SweepMetric.all.map(\.name) }

    func finish() -> RunResult {
        for index in clients.indices { reportBytes(index) }
        record("world", "end", "steps=\(stepsRun)/\(steps.count)")
        for index in clients.indices {
            let view = self.view(index)
            for chatId in chatIdsOfClient[index] {
                let store = view.chunkStores[chatId]
                record(clients[index].name, "final", "chat=\(chatNameById[chatId] ?? "?") chunks="
                       + (store.map { Self.chunkList($0.chunks) } ?? "none")
                       + " cached=\(store?.messageIds.count ?? 0) server=\(server.messages(inChat: chatId).count)"
                       + " pendingTasks=\(pendingTaskCount(index)) online=\(view.isOnline)")
            }
        }
        endOfRunChecks()
        let metrics = collectMetrics()
        let missed = monitor.finish(
            at: now, metrics: metrics, schedule: steps, traceTail: tail(upTo: now),
            tail: { [unowned self] in tail(upTo: $0) }, probe: self)
        violations += missed
        return RunResult(
            scenario: scenario.name, seed: seed, mutant: options.mutant, digest: network.trace.digest,
            violations: violations, metrics: metrics,
            trace: options.recordsTrace ? network.trace.records.map(\.description) : [])
    }

    /// `chunks` as their descriptions joined by commas, written into one string: a final record lists every chunk a
    /// client holds, hundreds after an hour (each push that did not join the chunk below it is a chunk of its own),
    /// and an interpolated string per chunk, joined, was most of the run's end.
    static func chunkList(_ chunks: [Chunk]) -> String {
        var bytes = TraceRing.Bytes()
        for (index, chunk) in chunks.enumerated() {
            if index > 0 { bytes.write(byte: UInt8(ascii: ",")) }
            bytes.write(byte: UInt8(ascii: "["))
            bytes.write(decimal: Int(chunk.lower))
            bytes.write(literal: "...")
            bytes.write(decimal: Int(chunk.upper))
            if chunk.isStartOfHistory { bytes.write(literal: " start") }
            bytes.write(byte: UInt8(ascii: "]"))
        }
        return bytes.string
    }

    /// The liveness checks at the end of the run: T5 and V1 for every client, C6 for each chat a client scrolled up
    /// by at least as many messages as the chat holds, when no message reached the chat after that scroll began
    /// (a later message arrives as a push, which the engine cannot know to be contiguous with what it holds) and the
    /// view has not gone back to following the chat's newest messages, and V2 for a client's last scroll down by as
    /// many, under the same condition, that nothing ended since.
    ///
    /// A view that follows the newest messages at the end has no scroll to the top in effect: a scroll down brought
    /// it back (`perform` drops those scrolls already), or the scroll moved nothing, because the view already
    /// showed the whole history the client held, from its start, and messages it had not heard of yet came
    /// afterwards and the view followed them down. Judging that scroll failed C6 for an engine that did what a user
    /// expects: the scroll was made while the client's link was clogged or down and the chat's newer messages were
    /// on their way (`syncsim explore --param historyPageSize=1 --param visibleMessageCount=3 --param
    /// prefetchDistance=0`, seeds 38813172 and 38954197; catalog `e38-explore-38813172`, `e38-explore-38954197`).
    func endOfRunChecks() {
        var views: [String: ClientView] = [:]
        for index in clients.indices { views[clients[index].name] = view(index) }
        report(checker.checkEndOfRun(views: views, server: server, at: now))
        var checked: Set<[Int64]> = []
        for scroll in scrollUps {
            let count = server.messages(inChat: scroll.chatId).count
            guard scroll.messages >= count, scroll.serverCount == count else { continue }
            if let view = views[clients[scroll.client].name], view.openChatId == scroll.chatId, view.followsNewest {
                continue
            }
            guard checked.insert([Int64(scroll.client), scroll.chatId]).inserted else { continue }
            report(checker.checkScrolledToTop(client: clients[scroll.client].name, chatId: scroll.chatId,
                                              view: view(scroll.client), server: server, at: now))
        }
        for scroll in scrollDowns where server.messages(inChat: scroll.chatId).count == scroll.serverCount {
            report(checker.checkScrolledToBottom(client: clients[scroll.client].name, chatId: scroll.chatId,
                                                 view: view(scroll.client), server: server, at: now))
        }
    }

    /// The run's metrics, aggregated over every client and every app launch: `SweepMetric.all` in its order, the
    /// means left out when there is nothing to average.
    func collectMetrics() -> [Metric] {
        let all = clients.flatMap { $0.previousMetrics + [$0.engineMetrics] }
        var result: [Metric] = []
        func add(_ metric: SweepMetric, _ value: Double?) {
            if let value { result.append(Metric(metric.name, value)) }
        }
        func mean(_ values: [SimDuration]) -> Double? {
            values.isEmpty ? nil : values.reduce(0) { $0 + $1.milliseconds } / Double(values.count)
        }
        func sum(_ value: (ClientMetrics) -> Int) -> Double { Double(all.reduce(0) { $0 + value($1) }) }
        let opens = all.flatMap(\.chatOpenTimes)
        let scrollWaits = all.flatMap(\.scrollWaitTimes)
        let sends = all.flatMap(\.sendToAckLatencies)
        var airUp = 0
        var airDown = 0
        for client in clients {
            airUp += network.linkStatistics(of: client.host, .uplink).bytesSerialized
            airDown += network.linkStatistics(of: client.host, .downlink).bytesSerialized
        }
        var requests: [Opcode: Int] = [:]
        for metrics in all {
            for (opcode, count) in metrics.requestsByOpcode { requests[opcode, default: 0] += count }
        }
        let drain: SimDuration = switch (queueDrainStart, queueDrainEnd) {
        case (let start?, let end?): end - start
        case (let start?, nil): now - start
        default: .zero
        }
        add(.chatOpens, Double(opens.count))
        add(.chatOpenMilliseconds, mean(opens))
        add(.scrollWaits, Double(scrollWaits.count))
        add(.scrollWaitMilliseconds, scrollWaits.reduce(0) { $0 + $1.milliseconds })
        add(.acknowledgedSends, Double(sends.count))
        add(.sendToAckMilliseconds, mean(sends))
        add(.bytesUpOnSockets, sum(\.bytesUp))
        add(.bytesDownOnSockets, sum(\.bytesDown))
        add(.bytesUpOnAir, Double(airUp))
        add(.bytesDownOnAir, Double(airDown))
        add(.bytesUpUncompressed, Double(airUp + compressionSavedUp))
        add(.bytesDownUncompressed, Double(airDown + compressionSavedDown))
        add(.reconnects, sum(\.reconnects))
        add(.logins, sum(\.logins))
        add(.loginAttempts, Double(requests[.login] ?? 0))
        add(.requests, Double(requests.values.reduce(0, +)))
        add(.chatHistoryRequests, Double(requests[.chatHistory] ?? 0))
        add(.requestTimeouts, sum(\.requestTimeouts))
        add(.taskQueueDrainMilliseconds, drain.milliseconds)
        add(.serverMessages, Double(server.chatIds.reduce(0) { $0 + server.messages(inChat: $1).count }))
        add(.duplicateSendsAbsorbed, Double(server.stats.duplicateSendsAbsorbed))
        add(.tasksFailed, Double(clients.indices.reduce(0) { $0 + view($1).tasks.count { $0.state == .failed } }))
        return result
    }
}
