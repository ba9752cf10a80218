import SimCore
import SyncProtocol

extension ReferenceClient {
    private mutating func newTaskId() -> Int64 { (tasks.keys.max() ?? 0) + 1 }

    /// A fresh idempotency key: positive and drawn from the client's stream, so runs are reproducible.
    private mutating func newCid() -> Int64 { Int64(generator.next() >> 2) + 1 }

    private func makeTask(_ id: Int64, _ kind: TaskRecord.Kind, chatId: Int64, text: String = "", sizeBytes: Int = 0,
                          cid: Int64 = 0, dependsOn: Int64? = nil) -> TaskRecord {
        TaskRecord(id: id, kind: kind, state: .pending, chatId: chatId, text: text, sizeBytes: sizeBytes, cid: cid,
                   photoToken: nil, dependsOn: dependsOn, attempts: 0, nextAttemptAt: now, enqueuedAt: now,
                   lastError: nil, messageId: nil)
    }

    /// Writes a task row, except for the `tasks-not-persisted` mutant, whose queue lives in memory only.
    func persist(_ task: TaskRecord) {
        if isMutant(.tasksNotPersisted) { return }
        store.save(task)
    }

    mutating func enqueueText(chatId: Int64, text: String) {
        let task = makeTask(newTaskId(), .sendText, chatId: chatId, text: text, cid: newCid())
        tasks[task.id] = task
        persist(task)
        runTasks()
    }

    mutating func enqueuePhoto(chatId: Int64, sizeBytes: Int, caption: String) {
        let first = newTaskId()
        let cid = newCid()
        for task in [
            makeTask(first, .processPhoto, chatId: chatId, sizeBytes: sizeBytes),
            makeTask(first + 1, .uploadPhoto, chatId: chatId, sizeBytes: sizeBytes, dependsOn: first),
            makeTask(first + 2, .sendPhoto, chatId: chatId, text: caption, sizeBytes: sizeBytes, cid: cid,
                     dependsOn: first + 1),
        ] {
            tasks[task.id] = task
            persist(task)
        }
        runTasks()
    }

    /// Starts every task that may run now and arms one wakeup for the earliest retry.
    mutating func runTasks() {
        var isOnline = false
        if case .online = state { isOnline = true }
        var earliestRetry: SimInstant?
        var blockedChats: Set<Int64> = []
        var failedDependents = false
        for id in tasks.keys.sorted() {
            guard var task = tasks[id], task.state == .pending else { continue }
            let isRunning = runningTaskIds.contains(id)
            if task.kind.isSend && !isMutant(.parallelSends) {
                defer { blockedChats.insert(task.chatId) }
                if isRunning || blockedChats.contains(task.chatId) { continue }
            }
            if isRunning { continue }
            if let dependency = task.dependsOn.flatMap({ tasks[$0] }), dependency.state != .done {
                if dependency.state == .failed {
                    task.state = .failed
                    task.lastError = "dependency \(dependency.id) failed"
                    tasks[id] = task
                    persist(task)
                    failedDependents = true
                }
                continue
            }
            if task.nextAttemptAt > now {
                earliestRetry = min(earliestRetry ?? task.nextAttemptAt, task.nextAttemptAt)
                continue
            }
            switch task.kind {
            case .processPhoto:
                runningTaskIds.insert(id)
                _ = startTimer(.photoProcessing(taskId: id), at: now + parameters.photoProcessingTime)
            case .uploadPhoto:
                guard isOnline else { continue }
                if task.photoToken != nil {
                    runningTaskIds.insert(id)
                    startUpload(id)
                } else if sendRequest(.photoUpload, .photoUpload(PhotoUploadRequest(sizeBytes: task.sizeBytes)),
                                      purpose: .photoToken(taskId: id)) {
                    runningTaskIds.insert(id)
                }
            case .sendText, .sendPhoto:
                guard isOnline else { continue }
                var attaches: [Attach] = []
                if task.kind == .sendPhoto {
                    guard let token = task.dependsOn.flatMap({ tasks[$0]?.photoToken }) else { continue }
                    attaches = [.photo(token: token)]
                }
                let message = OutgoingMessage(text: task.text, cid: task.cid, attaches: attaches)
                if sendRequest(.msgSend, .msgSend(MsgSendRequest(chatId: task.chatId, message: message)),
                               purpose: .send(taskId: id)) {
                    runningTaskIds.insert(id)
                }
            }
        }
        if failedDependents {
            runTasks()
            return
        }
        if let earliestRetry, taskWakeup?.at != earliestRetry {
            if let old = taskWakeup { cancelTimer(old.timer) }
            taskWakeup = (startTimer(.taskWakeup, at: earliestRetry), earliestRetry)
        }
    }

    mutating func startUpload(_ taskId: Int64) {
        guard let task = tasks[taskId], let token = task.photoToken else { return }
        let upload = UploadID(rawValue: nextUploadNumber)
        nextUploadNumber += 1
        uploads[upload] = taskId
        actions.append(.upload(upload, token: token, sizeBytes: task.sizeBytes))
    }

    mutating func uploadFinished(_ upload: UploadID, succeeded: Bool) {
        guard let taskId = uploads.removeValue(forKey: upload), runningTaskIds.contains(taskId) else { return }
        if succeeded {
            finishTask(taskId, messageId: nil)
        } else {
            taskFailed(taskId, .error(ErrorPayload(error: "cdn.upload", message: "upload failed")))
        }
    }

    mutating func finishTask(_ taskId: Int64, messageId: Int64?) {
        runningTaskIds.remove(taskId)
        guard var task = tasks[taskId], task.state == .pending else { return }
        task.state = .done
        task.messageId = messageId
        task.lastError = nil
        tasks[taskId] = task
        persist(task)
        runTasks()
    }

    /// Applies the retry policy: a disconnect puts the task back at once without counting an attempt; an error or a
    /// timeout counts one and backs off `min(cap, base·2^(attempts-1))`; too many attempts fail the task visibly.
    mutating func taskFailed(_ taskId: Int64, _ failure: Failure) {
        runningTaskIds.remove(taskId)
        guard var task = tasks[taskId], task.state == .pending else { return }
        task.lastError = failure.text
        if failure != .disconnected {
            task.attempts += 1
            if task.attempts >= parameters.maxTaskAttempts {
                task.state = .failed
            } else {
                var delay = parameters.taskRetryBase
                for _ in 1..<min(task.attempts, 40) where delay < parameters.taskRetryCap { delay = delay * 2 }
                task.nextAttemptAt = now + min(delay, parameters.taskRetryCap)
            }
            if isMutant(.resendNewCid) && task.kind.isSend { task.cid = newCid() }
        }
        tasks[taskId] = task
        persist(task)
        runTasks()
    }
}
