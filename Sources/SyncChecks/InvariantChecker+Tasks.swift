import SimCore
import SyncClient
import SyncProtocol
import SyncServer

extension InvariantChecker {
    /// T1, T3, T6 over the client's tasks, updating the ledger of accepted tasks (and their cids, for T2 and T4).
    func checkTasks(_ ledger: inout ClientLedger, view: ClientView, report: Report) {
        if ledger.unfinishedBeforeRestart == nil, Self.areEqual(view.tasks, ledger.lastTasks) { return }
        let previous = ledger.lastTasks
        ledger.lastTasks = view.tasks
        // The ledger's table holds exactly the last list's tasks (both change only here). With both lists strictly
        // ascending by id, one merge walk finds the changed, new and vanished tasks: no set, no table by id, and no
        // lookups for the tasks that did not change (most of them, on every event that changed one).
        if Self.isStrictlyAscending(view.tasks), Self.isStrictlyAscending(previous),
           ledger.tasks.count == previous.count {
            #if DEBUG
            // Debug builds walk every task as well and stop if the two disagree (every test that runs a world
            // cross-checks the merge walk).
            var shadow = ledger
            var expected: [String] = []
            checkEveryTask(&shadow, view: view) { expected.append("\($0) \($1.map(String.init) ?? "-") \($2) \($3)") }
            var got: [String] = []
            checkTasksAgainst(previous, &ledger, view: view) {
                got.append("\($0) \($1.map(String.init) ?? "-") \($2) \($3)")
                report($0, $1, $2, $3)
            }
            assert(got == expected && shadow.tasks == ledger.tasks && shadow.cidsByTask == ledger.cidsByTask
                   && shadow.taskByCid == ledger.taskByCid
                   && shadow.unlinkedCids.map { [$0.taskId, $0.cid] }
                       == ledger.unlinkedCids.map { [$0.taskId, $0.cid] },
                   "T1, T3: the walk over the changed tasks disagrees with the walk over every task")
            #else
            checkTasksAgainst(previous, &ledger, view: view, report: report)
            #endif
        } else {
            checkEveryTask(&ledger, view: view, report: report)
        }
        if let before = ledger.unfinishedBeforeRestart {
            ledger.unfinishedBeforeRestart = nil
            let after = view.tasks.filter { $0.state == .pending }.map(\.id)
            if after != before {
                report(.T6, nil, "unfinished tasks after the restart \(ids(before))", ids(after))
            }
        }
    }

    /// `checkTasks` over two strictly ascending lists, the ledger's table holding `previous`'s tasks: the same
    /// findings in the same order as `checkEveryTask`, with the ledger's tables changed only for the tasks that
    /// changed or vanished.
    private func checkTasksAgainst(
        _ previous: [TaskRecord], _ ledger: inout ClientLedger, view: ClientView, report: Report
    ) {
        let tasks = view.tasks
        var vanished: [Int64] = []
        var old = 0
        // Each task is read where it lies, and copied only into the ledger when it changed: `enumerated()` copied
        // every record (its three strings retained and released) on every event that changed one task.
        for position in tasks.indices {
            let id = tasks[position].id
            while old < previous.count, previous[old].id < id {
                vanished.append(previous[old].id)
                old += 1
            }
            var isUnchanged = false
            if old < previous.count, previous[old].id == id {
                isUnchanged = Self.isEqual(previous, old, tasks, position)
                old += 1
            }
            if !isUnchanged {
                let task = tasks[position]
                ledger.tasks[id] = task
                Self.noteCid(of: task, in: &ledger)
                Self.noteFailedSend(task, in: &ledger)
            }
            let state = tasks[position].state
            if state == .failed, (tasks[position].lastError ?? "").isEmpty {
                report(.T1, tasks[position].chatId, "failed task \(id) with a visible error", "no error shown")
            }
            // The dependency among the tasks seen so far (this one included), as the walk over every task looks.
            if state == .done, let dependency = tasks[position].dependsOn {
                let found = TaskLookup(tasks[...position])[dependency]
                if found?.state != .done {
                    report(.T3, tasks[position].chatId, "task \(id) done only after its dependency \(dependency)",
                           "dependency \(describe(found))")
                }
            }
        }
        while old < previous.count {
            vanished.append(previous[old].id)
            old += 1
        }
        for id in vanished {
            // A task that ended (done, or failed visibly) may be pruned; only an unfinished one must not vanish.
            let task = ledger.tasks.removeValue(forKey: id)!
            guard task.state == .pending else { continue }
            report(.T1, task.chatId, "accepted task \(id) (\(task.kind.rawValue)) to end done or failed",
                   "it vanished while pending")
        }
    }

    /// Records a send task's cid the first time the ledger sees it (T2 links it to a stored message later).
    private static func noteCid(of task: TaskRecord, in ledger: inout ClientLedger) {
        guard task.kind.isSend, !(ledger.cidsByTask[task.id] ?? []).contains(task.cid) else { return }
        ledger.cidsByTask[task.id, default: []].append(task.cid)
        ledger.unlinkedCids.append((task.id, task.cid))
        ledger.taskByCid[task.cid] = task.id
    }

    /// Remembers a send task the engine gave up on (T4 does not order its late-stored message).
    private static func noteFailedSend(_ task: TaskRecord, in ledger: inout ClientLedger) {
        if task.kind.isSend, task.state == .failed { ledger.failedSendTaskIds.insert(task.id) }
    }

    /// `lhs == rhs`, each pair of records compared where it lies (`TaskRecord.areEqual`): the arrays' own `==`
    /// copied both records of every pair (their strings retained and released) on every event that changed a task.
    private static func areEqual(_ lhs: [TaskRecord], _ rhs: [TaskRecord]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in
                guard let leftStart = left.baseAddress, let rightStart = right.baseAddress, leftStart != rightStart else {
                    return true
                }
                for offset in left.indices where !TaskRecord.areEqual(leftStart + offset, rightStart + offset) {
                    return false
                }
                return true
            }
        }
    }

    /// `lhs[lhsPosition] == rhs[rhsPosition]`, read in place as in `areEqual`.
    private static func isEqual(_ lhs: [TaskRecord], _ lhsPosition: Int, _ rhs: [TaskRecord], _ rhsPosition: Int) -> Bool {
        lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in
                TaskRecord.areEqual(left.baseAddress! + lhsPosition, right.baseAddress! + rhsPosition)
            }
        }
    }

    private static func isStrictlyAscending(_ tasks: [TaskRecord]) -> Bool {
        for position in tasks.indices.dropFirst() where tasks[position - 1].id >= tasks[position].id { return false }
        return true
    }

    /// `checkTasks` walking every task of the view (T1, T3 and the vanished tasks; the ledger's tables updated).
    private func checkEveryTask(_ ledger: inout ClientLedger, view: ClientView, report: Report) {
        var present: Set<Int64> = []
        var byId: [Int64: TaskRecord] = [:]
        for task in view.tasks {
            present.insert(task.id)
            byId[task.id] = task
            if ledger.tasks[task.id] != task { ledger.tasks[task.id] = task }
            Self.noteCid(of: task, in: &ledger)
            Self.noteFailedSend(task, in: &ledger)
            if task.state == .failed, (task.lastError ?? "").isEmpty {
                report(.T1, task.chatId, "failed task \(task.id) with a visible error", "no error shown")
            }
            if task.state == .done, let dependency = task.dependsOn, byId[dependency]?.state != .done {
                report(.T3, task.chatId, "task \(task.id) done only after its dependency \(dependency)",
                       "dependency \(describe(byId[dependency]))")
            }
        }
        if ledger.tasks.count > present.count || ledger.tasks.keys.contains(where: { !present.contains($0) }) {
            let vanished = ledger.tasks.keys.filter { !present.contains($0) }.sorted()
            for id in vanished {
                // A task that ended (done, or failed visibly) may be pruned; only an unfinished one must not vanish.
                let task = ledger.tasks.removeValue(forKey: id)!
                guard task.state == .pending else { continue }
                report(.T1, task.chatId, "accepted task \(id) (\(task.kind.rawValue)) to end done or failed",
                       "it vanished while pending")
            }
        }
    }

    /// T3 and P3 for running tasks: a running task's dependency is done, and a task waiting for a request or an
    /// upload has one in flight (else its request ended without its owner being told).
    func checkRunningTasks(view: ClientView, report: Report) {
        guard !view.runningTaskIds.isEmpty else { return }
        let byId = TaskLookup(view.tasks)
        // Searched in place (a handful of requests and uploads): no sets built on every event while a task runs.
        let requests = view.inFlightRequests
        for id in view.runningTaskIds {
            guard let task = byId[id] else { continue }
            if let dependency = task.dependsOn, byId[dependency]?.state != .done {
                report(.T3, task.chatId, "task \(id) runs only after its dependency \(dependency) is done",
                       "it runs while the dependency is \(describe(byId[dependency]))")
            }
            let isWaiting: Bool
            switch task.kind {
            case .processPhoto: isWaiting = true
            case .sendText, .sendPhoto: isWaiting = requests.contains { $0.taskId == id }
            case .uploadPhoto: isWaiting = requests.contains { $0.taskId == id } || view.uploadingTaskIds.contains(id)
            }
            if !isWaiting {
                report(.P3, task.chatId, "the request of running task \(id) in flight, or its end reported",
                       "task \(id) (\(task.kind.rawValue)) waits for a request that is no longer in flight")
            }
        }
    }

    /// Snapshots the unfinished tasks just before an app restart (T6) and forgets the requests on the wire.
    ///
    /// Call it before the engine is dropped; the next `afterClientEvent` for this client (the restarted engine's
    /// `.start`) compares, whatever the sampling.
    /// - Parameters:
    ///   - client: a registered client.
    ///   - view: the client's view just before the restart (its state as committed: every event is one commit).
    ///   - server: the server now.
    ///   - now: virtual time.
    ///   - isSuspended: whether the OS had suspended the app: its timers were stopped, so P3's deadlines are not
    ///     judged (its requests could not time out).
    /// - Returns: the findings of a full check of the view before the restart.
    @discardableResult
    public func appWillRestart(
        client: String, view: ClientView, server: SyncServer, at now: SimInstant, isSuspended: Bool = false
    ) -> [Finding] {
        let index = ledgerIndex(client)
        let found = checkClient(index, view: view, server: server, at: now, checksTimeouts: !isSuspended)
        withLedger(index) { ledger in
            ledger.unfinishedBeforeRestart = view.tasks.filter { $0.state == .pending }.map(\.id)
            ledger.outstanding = [:]
            ledger.checkedStores = [:]
            ledger.cleanStores = []
            ledger.closedConnections = []
        }
        return found
    }

    /// T5 (liveness): call when the network has been up long enough for the queue to drain.
    /// - Parameters:
    ///   - client: a registered client.
    ///   - view: the client's view now.
    ///   - now: virtual time.
    /// - Returns: the new findings (one per client at most).
    @discardableResult
    public func checkQueueDrained(client: String, view: ClientView, at now: SimInstant) -> [Finding] {
        let pending = view.tasks.filter { $0.state == .pending }
        guard !pending.isEmpty else { return [] }
        let list = pending.map { "\($0.id) (\($0.kind.rawValue), attempts \($0.attempts))" }.joined(separator: ", ")
        return record([Finding(invariant: .T5, client: client, time: now, expected: "an empty queue",
                               found: "pending tasks \(list)")])
    }

    /// T2 and T4: matches newly stored server messages and newly seen task cids.
    func scanServer(_ server: SyncServer, at now: SimInstant) -> [Finding] {
        guard server.stats.messagesStored != scannedMessagesStored else { return [] }
        // Only the chats that stored a message since the last scan can hold unscanned messages.
        let touched = server.chatIds(withMessagesStoredAfter: max(0, scannedMessagesStored))
        scannedMessagesStored = server.stats.messagesStored
        var new: [Finding] = []
        for chatId in touched {
            let messages = server.messages(inChat: chatId)
            let start = scannedCountByChat[chatId] ?? 0
            guard start < messages.count else { continue }
            scannedCountByChat[chatId] = messages.count
            for message in messages[start...] {
                guard let cid = message.cid else { continue }
                let key = SenderCid(sender: message.sender, cid: cid)
                serverMessageIdsByKey[key, default: []].append(message.id)
                chatIdByMessageId[message.id] = chatId
                let index = ledgerIndexByUserId[message.sender]
                if let stored = serverMessageIdsByKey[key], stored.count > 1 {
                    new.append(Finding(invariant: .T2, client: index.map { clientNames[$0] }, chatId: chatId,
                                       time: now,
                                       expected: "one server message for cid \(cid) of user \(message.sender)",
                                       found: "messages \(ChunkChecks.listed(stored))"))
                }
                guard let index else { continue }
                // Read in place by position: `ledgers[client]` on a table by name copied the whole ledger.
                if let taskId = ledgers[index].taskByCid[cid] {
                    new += link(index, taskId: taskId, messageId: message.id, chatId: chatId, at: now)
                }
            }
        }
        return new
    }

    /// Links the cids of MSG_SEND packets sent since the view was last read to their tasks: the task that holds the
    /// cid now, else the task waiting for the request's seq. A cid whose task is gone stays unlinked.
    func linkSentCids(_ index: Int, view: ClientView) {
        guard !ledgers[index].sentCidsToLink.isEmpty else { return }
        withLedger(index) { ledger in
            let sent = ledger.sentCidsToLink
            ledger.sentCidsToLink = []
            for (seq, cid) in sent where ledger.taskByCid[cid] == nil {
                let owner = view.tasks.first { $0.kind.isSend && $0.cid == cid }?.id
                    ?? view.inFlightRequests.first { $0.seq == seq && $0.opcode == .msgSend }?.taskId
                guard let taskId = owner else { continue }
                ledger.cidsByTask[taskId, default: []].append(cid)
                ledger.unlinkedCids.append((taskId, cid))
                ledger.taskByCid[cid] = taskId
            }
        }
    }

    /// Matches cids the ledger learned since the last call with messages already on the server.
    func linkTaskCids(_ index: Int, at now: SimInstant) -> [Finding] {
        guard !ledgers[index].unlinkedCids.isEmpty else { return [] }
        let (unlinked, userId) = withLedger(index) { ledger in
            defer { ledger.unlinkedCids = [] }
            return (ledger.unlinkedCids, ledger.userId)
        }
        var new: [Finding] = []
        for (taskId, cid) in unlinked {
            for messageId in serverMessageIdsByKey[SenderCid(sender: userId, cid: cid)] ?? [] {
                new += link(index, taskId: taskId, messageId: messageId,
                            chatId: chatIdByMessageId[messageId] ?? 0, at: now)
            }
        }
        return new
    }

    /// T2's `found`: each message with the cid it was stored under, then the task's cids that stored nothing
    /// (a retry whose request never reached the server): `messages 1 (cid 57), 2 (cid 64); cid 16 stored none`.
    private func duplicateDescription(ledger: ClientLedger, taskId: Int64, messageIds: [Int64]) -> String {
        let cids = ledger.cidsByTask[taskId] ?? []
        func messages(of cid: Int64) -> [Int64] {
            (serverMessageIdsByKey[SenderCid(sender: ledger.userId, cid: cid)] ?? []).filter(messageIds.contains)
        }
        let parts = messageIds.sorted().map { messageId -> String in
            let used = cids.filter { messages(of: $0).contains(messageId) }
            return used.isEmpty ? "\(messageId)" : "\(messageId) (cid \(used.map(String.init).joined(separator: ", ")))"
        }
        let unused = cids.filter { messages(of: $0).isEmpty }
        var text = "messages " + parts.joined(separator: ", ")
        if !unused.isEmpty {
            let list = unused.map(String.init).joined(separator: ", ")
            text += "; the task's \(unused.count == 1 ? "cid" : "cids") \(list) stored none"
        }
        return text
    }

    /// Records that a task's send was stored as `messageId`: a second message for one task breaks T2; a message
    /// stored out of the tasks' enqueue order breaks T4.
    private func link(_ index: Int, taskId: Int64, messageId: Int64, chatId: Int64, at now: SimInstant)
        -> [Finding] {
        let client = clientNames[index]
        return withLedger(index) { ledger -> [Finding] in
            var stored = ledger.messageIdsByTask[taskId] ?? []
            guard !stored.contains(messageId) else { return [] }
            stored.append(messageId)
            ledger.messageIdsByTask[taskId] = stored
            var new: [Finding] = []
            if stored.count > 1 {
                new.append(Finding(invariant: .T2, client: client, chatId: chatId, time: now,
                                   expected: "one server message for task \(taskId), whatever was retried",
                                   found: duplicateDescription(ledger: ledger, taskId: taskId, messageIds: stored)))
                return new
            }
            var sends = ledger.storedSendsByChat[chatId] ?? []
            let index = sends.firstIndex { $0.messageId > messageId } ?? sends.count
            sends.insert((messageId, taskId), at: index)
            ledger.storedSendsByChat[chatId] = sends
            let before = index > 0 ? sends[index - 1] : nil
            let after = index + 1 < sends.count ? sends[index + 1] : nil
            // A send the engine gave up on (its last attempt unanswered) let the later sends of its chat go; if its
            // request is stored after all, it lands after them (found by `syncsim explore --param
            // maxTaskAttempts=1`, seed 945194: an answer delayed past the request timeout failed the task, the next
            // send went out, and the server, slow with the first, stored it after the second).
            let givenUp = ledger.failedSendTaskIds
            if let before, before.taskId > taskId, !givenUp.contains(taskId) {
                new.append(Finding(invariant: .T4, client: client, chatId: chatId, time: now,
                                   expected: "task \(taskId) stored before task \(before.taskId) (enqueue order)",
                                   found: "message \(messageId) of task \(taskId) after message \(before.messageId) "
                                       + "of task \(before.taskId)"))
            } else if let after, after.taskId < taskId, !givenUp.contains(after.taskId) {
                new.append(Finding(invariant: .T4, client: client, chatId: chatId, time: now,
                                   expected: "task \(taskId) stored after task \(after.taskId) (enqueue order)",
                                   found: "message \(messageId) of task \(taskId) before message \(after.messageId) "
                                       + "of task \(after.taskId)"))
            }
            return new
        }
    }

    /// Tasks by id by binary search over the view's list (ascending by id), without building a dictionary.
    private struct TaskLookup {
        let tasks: ArraySlice<TaskRecord>

        init(_ tasks: [TaskRecord]) { self.tasks = tasks[...] }

        init(_ tasks: ArraySlice<TaskRecord>) { self.tasks = tasks }

        subscript(id: Int64) -> TaskRecord? {
            let low = tasks.partitionPoint { $0.id < id }
            return low < tasks.endIndex && tasks[low].id == id ? tasks[low] : nil
        }
    }

    private func describe(_ task: TaskRecord?) -> String { task.map { $0.state.rawValue } ?? "unknown" }

    private func ids(_ list: [Int64]) -> String { "[" + list.map(String.init).joined(separator: ", ") + "]" }
}
