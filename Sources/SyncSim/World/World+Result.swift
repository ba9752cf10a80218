// The end of a run: final checks, expectations, metrics and the result.
extension World {
    /// Metric names the world reports, in this order (`requests.<OPCODE>` for each opcode any client sent).
    public static let metricNames: [String] = [
        "openChatTime.count", "openChatTime.p50Ms", "openChatTime.p95Ms", "openChatTime.maxMs",
        "scrollWait.count", "scrollWait.p50Ms", "scrollWait.p95Ms", "scrollWait.maxMs",
        "sendToAck.count", "sendToAck.p50Ms", "sendToAck.p95Ms", "sendToAck.maxMs",
        "bytesUp", "bytesDown", "bytesOnAirUp", "bytesOnAirDown",
        "reconnects", "logins", "loginAttempts", "requestTimeouts", "queueDrainTimeMs",
        "serverMessages", "duplicateSendsAbsorbed", "tasksFailed",
        // The names `SweepMetric` aggregates (means are left out when there is nothing to average).
        "chatOpenMilliseconds", "scrollWaitMilliseconds", "sendToAckMilliseconds", "bytesUpOnAir", "bytesDownOnAir",
        "bytesUpUncompressed", "bytesDownUncompressed", "requests", "chatHistoryRequests",
        "taskQueueDrainMilliseconds",
    ]

    func finish() -> RunResult {
        for index in clients.indices { reportBytes(index) }
        record("world", "end", "steps=\(stepsRun)/\(steps.count)")
        for index in clients.indices {
            let view = self.view(index)
            for chatId in chatIdsOfClient[index] {
                let store = view.chunkStores[chatId]
                record(clients[index].name, "final", "chat=\(chatNameById[chatId] ?? "?") chunks="
                       + (store?.chunks.map(\.description).joined(separator: ",") ?? "none")
                       + " cached=\(store?.messageIds.count ?? 0) server=\(server.messages(inChat: chatId).count)"
                       + " pendingTasks=\(pendingTaskCount(index)) online=\(view.isOnline)")
            }
        }
        endOfRunChecks()
        let metrics = collectMetrics()
        let missed = monitor.finish(at: now, metrics: metrics, schedule: steps, traceTail: traceTail.lines)
        violations += missed
        return RunResult(
            scenario: scenario.name, seed: seed, mutant: options.mutant, digest: network.trace.digest,
            violations: violations, metrics: metrics,
            trace: options.recordsTrace ? network.trace.records.map(\.description) : [])
    }

    /// The liveness checks at the end of the run: T5 and V1 for every client, C6 for each chat a client scrolled up
    /// by at least as many messages as the chat holds.
    func endOfRunChecks() {
        var views: [String: ClientView] = [:]
        for index in clients.indices { views[clients[index].name] = view(index) }
        report(checker.checkEndOfRun(views: views, server: server, at: now))
        var checked: Set<[Int64]> = []
        for scroll in scrollUps where scroll.messages >= server.messages(inChat: scroll.chatId).count {
            guard checked.insert([Int64(scroll.client), scroll.chatId]).inserted else { continue }
            report(checker.checkScrolledToTop(client: clients[scroll.client].name, chatId: scroll.chatId,
                                              view: view(scroll.client), server: server, at: now))
        }
    }

    /// The run's metrics, aggregated over every client and every app launch (names in `World.metricNames`).
    func collectMetrics() -> [Metric] {
        let all = clients.flatMap { $0.previousMetrics + [$0.engine.metrics] }
        var result: [Metric] = []
        func durations(_ name: String, _ values: [SimDuration]) {
            let sorted = values.map(\.milliseconds).sorted()
            result.append(Metric("\(name).count", Double(sorted.count)))
            result.append(Metric("\(name).p50Ms", Self.percentile(sorted, 0.50)))
            result.append(Metric("\(name).p95Ms", Self.percentile(sorted, 0.95)))
            result.append(Metric("\(name).maxMs", sorted.last ?? 0))
        }
        durations("openChatTime", all.flatMap(\.chatOpenTimes))
        durations("scrollWait", all.flatMap(\.scrollWaitTimes))
        durations("sendToAck", all.flatMap(\.sendToAckLatencies))
        result.append(Metric("bytesUp", Double(all.reduce(0) { $0 + $1.bytesUp })))
        result.append(Metric("bytesDown", Double(all.reduce(0) { $0 + $1.bytesDown })))
        var airUp = 0
        var airDown = 0
        for client in clients {
            airUp += network.linkStatistics(of: client.host, .uplink).bytesSerialized
            airDown += network.linkStatistics(of: client.host, .downlink).bytesSerialized
        }
        result.append(Metric("bytesOnAirUp", Double(airUp)))
        result.append(Metric("bytesOnAirDown", Double(airDown)))
        result.append(Metric("reconnects", Double(all.reduce(0) { $0 + $1.reconnects })))
        result.append(Metric("logins", Double(all.reduce(0) { $0 + $1.logins })))
        var requests: [Opcode: Int] = [:]
        for metrics in all {
            for (opcode, count) in metrics.requestsByOpcode { requests[opcode, default: 0] += count }
        }
        result.append(Metric("loginAttempts", Double(requests[.login] ?? 0)))
        result.append(Metric("requestTimeouts", Double(all.reduce(0) { $0 + $1.requestTimeouts })))
        let drain: SimDuration = switch (queueDrainStart, queueDrainEnd) {
        case (let start?, let end?): end - start
        case (let start?, nil): now - start
        default: .zero
        }
        result.append(Metric("queueDrainTimeMs", drain.milliseconds))
        result.append(Metric("serverMessages", Double(server.chatIds.reduce(0) {
            $0 + server.messages(inChat: $1).count
        })))
        result.append(Metric("duplicateSendsAbsorbed", Double(server.stats.duplicateSendsAbsorbed)))
        let failed = clients.indices.reduce(0) { $0 + view($1).tasks.count { $0.state == .failed } }
        result.append(Metric("tasksFailed", Double(failed)))
        func mean(_ values: [SimDuration]) -> Double? {
            values.isEmpty ? nil : values.reduce(0) { $0 + $1.milliseconds } / Double(values.count)
        }
        if let value = mean(all.flatMap(\.chatOpenTimes)) { result.append(Metric("chatOpenMilliseconds", value)) }
        result.append(Metric("scrollWaitMilliseconds",
                             all.flatMap(\.scrollWaitTimes).reduce(0) { $0 + $1.milliseconds }))
        if let value = mean(all.flatMap(\.sendToAckLatencies)) { result.append(Metric("sendToAckMilliseconds", value)) }
        result.append(Metric("bytesUpOnAir", Double(airUp)))
        result.append(Metric("bytesDownOnAir", Double(airDown)))
        result.append(Metric("bytesUpUncompressed", Double(airUp + compressionSavedUp)))
        result.append(Metric("bytesDownUncompressed", Double(airDown + compressionSavedDown)))
        result.append(Metric("requests", Double(requests.values.reduce(0, +))))
        result.append(Metric("chatHistoryRequests", Double(requests[.chatHistory] ?? 0)))
        result.append(Metric("taskQueueDrainMilliseconds", drain.milliseconds))
        for opcode in requests.keys.sorted() {
            result.append(Metric("requests.\(opcode)", Double(requests[opcode]!)))
        }
        return result
    }

    /// The nearest-rank percentile of ascending values (0 for none).
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count - 1, max(0, rank - 1))]
    }
}
