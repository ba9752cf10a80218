import SimCore
import SyncProtocol

extension ReferenceClient {
    private mutating func newTaskId() -> Int64 { (tasks.highestId ?? 0) + 1 }

    /// A fresh idempotency key: positive and drawn from the client's stream, so runs are reproducible.
    private mutating func newCid() -> Int64 { Int64(generator.next() >> 2) + 1 }

    private func makeTask(_ id: Int64, _ kind: TaskRecord.Kind, chatId: Int64, text: String = "", sizeBytes: Int = 0,
                          cid: Int64 = 0, dependsOn: Int64? = nil) -> TaskRecord {
        TaskRecord(id: id, kind: kind, state: .pending, chatId: chatId, text: text, sizeBytes: sizeBytes, cid: cid,
                   photoToken: nil, dependsOn: dependsOn, attempts: 0, nextAttemptAt: now, enqueuedAt: now,
                   lastError: nil, messageId: nil)
    }

    /// Writes a task row, except for the `tasks-not-persisted` mutant, whose queue lives in memory only.
    mutating func persist(_ task: TaskRecord) {
        if isMutant(.tasksNotPersisted) { return }
        if isMutant(.outboxInMemoryWhileOffline), task.kind.isSend, task.state == .pending, !isOnline {
            // The mutant keeps an offline outbox in memory, to be written once the network returns.
            return
        }
        store.save(task)
    }

    mutating func enqueueText(chatId: Int64, text: String) {
        let task = makeTask(newTaskId(), .sendText, chatId: chatId, text: text, cid: newCid())
        tasks[task.id] = task
        persist(task)
        runTasks()
    }

    /// Enqueues one message with `count` photos as a chain: process 1, upload 1, process 2, upload 2, ..., then the
    /// send, each task depending on the one before, so the send runs only after every upload is done (T3).
    mutating func enqueuePhotos(chatId: Int64, count: Int, sizeBytes: Int, caption: String) {
        let first = newTaskId()
        let cid = newCid()
        var chain: [TaskRecord] = []
        for index in 0..<max(1, count) {
            let process = first + Int64(2 * index)
            chain.append(makeTask(process, .processPhoto, chatId: chatId, sizeBytes: sizeBytes,
                                  dependsOn: index == 0 ? nil : process - 1))
            chain.append(makeTask(process + 1, .uploadPhoto, chatId: chatId, sizeBytes: sizeBytes, dependsOn: process))
        }
        let sendId = first + Int64(chain.count)
        // The `send-before-all-uploads` mutant sends once the first upload is done, with the photos uploaded so far.
        let sendDependency = isMutant(.sendBeforeAllUploads) ? first + 1 : sendId - 1
        chain.append(makeTask(sendId, .sendPhoto, chatId: chatId, text: caption, sizeBytes: sizeBytes, cid: cid,
                              dependsOn: sendDependency))
        for task in chain {
            tasks[task.id] = task
            persist(task)
        }
        runTasks()
    }

    /// The upload tasks of a photo message, ascending: the chain of process and upload tasks just below its send.
    func photoUploads(of send: TaskRecord) -> [TaskRecord] {
        var uploads: [TaskRecord] = []
        var id = send.id - 1
        while let task = tasks[id], task.chatId == send.chatId, task.kind == .uploadPhoto || task.kind == .processPhoto {
            if task.kind == .uploadPhoto { uploads.append(task) }
            if task.kind == .processPhoto && task.dependsOn == nil { break }
            id -= 1
        }
        return uploads.reversed()
    }

    /// Starts every task that may run now and arms one wakeup for the earliest retry. At most
    /// `maxConcurrentUploads` upload tasks run at once; the oldest waiting one takes a free place.
    mutating func runTasks() {
        var isOnline = false
        if case .online = state { isOnline = true }
        var earliestRetry: SimInstant?
        var runningUploads = runningTaskIds.count { tasks[$0]?.kind == .uploadPhoto }
        var blockedChats: Set<Int64> = []
        var failedDependents = false
        // The pending tasks in id order (finished ones never run again, and none turns pending in the loop).
        for id in tasks.pendingIds {
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
                guard isOnline, runningUploads < max(1, parameters.maxConcurrentUploads) else { continue }
                if task.photoToken != nil {
                    runningTaskIds.insert(id)
                    runningUploads += 1
                    startUpload(id)
                } else if sendRequest(.photoUpload, .photoUpload(PhotoUploadRequest(sizeBytes: task.sizeBytes)),
                                      purpose: .photoToken(taskId: id)) {
                    runningTaskIds.insert(id)
                    runningUploads += 1
                }
            case .sendText, .sendPhoto:
                guard isOnline else { continue }
                var attaches: [Attach] = []
                if task.kind == .sendPhoto {
                    let uploads = photoUploads(of: task)
                    let done = uploads.filter { $0.state == .done && $0.photoToken != nil }
                    guard !done.isEmpty, done.count == uploads.count || isMutant(.sendBeforeAllUploads) else {
                        continue
                    }
                    attaches = done.compactMap { $0.photoToken }.map { Attach.photo(token: $0) }
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
            // The CDN refused the token (unknown, or issued for another size): retrying under it would be refused
            // forever, so the next attempt asks PHOTO_UPLOAD for a fresh one. Found by `syncsim explore` (seeds 6077,
            // 12436, 14797): a late PHOTO_UPLOAD answer matched a newer request on a reused seq and handed this task
            // another photo's token.
            if var task = tasks[taskId], task.state == .pending, task.photoToken != nil {
                task.photoToken = nil
                tasks[taskId] = task
                persist(task)
            }
            taskFailed(taskId, .error(ErrorPayload(error: "cdn.upload", message: "upload refused")))
        }
    }

    /// The network broke an upload: like a send cut by a disconnect, it costs no attempt. It runs again after a
    /// pause of `taskRetryBase` (the CDN connection may fail at once while the link is down).
    mutating func uploadInterrupted(_ upload: UploadID) {
        guard let taskId = uploads.removeValue(forKey: upload), runningTaskIds.contains(taskId) else { return }
        runningTaskIds.remove(taskId)
        guard var task = tasks[taskId], task.state == .pending else { return }
        task.lastError = "upload interrupted"
        task.nextAttemptAt = now + parameters.taskRetryBase
        tasks[taskId] = task
        persist(task)
        runTasks()
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

    /// Ends the echoes of sends answered "already exists" (`echoesAwaitingPage`) whose chat's newest page came, or
    /// whose message is cached now (a page or LOGIN's chat list brought it): that message then stays on screen where
    /// its echo was, as an acknowledged send's does (`keepAcknowledgedOnScreen`).
    mutating func settleEchoesAwaitingPage() {
        var kept: [ClientView.LocalEcho] = []
        for echo in echoesAwaitingPage where chatsAwaitingNewestPage.contains(echo.chatId) {
            guard let message = histories[echo.chatId]?.messages.first(where: { $0.cid == echo.cid }) else {
                kept.append(echo)
                continue
            }
            keepAcknowledgedOnScreen(message, chatId: echo.chatId, openedChunk: false)
        }
        if kept.count != echoesAwaitingPage.count { echoesAwaitingPage = kept }
    }

    /// Exponential backoff with jitter and a cap: `d = min(cap, base·2^(attempts-1))`, drawn uniformly in
    /// `[d/2, d]` ("equal jitter"), so clients failing together do not retry together.
    mutating func retryDelay(attempts: Int) -> SimDuration {
        var delay = parameters.taskRetryBase
        for _ in 1..<max(1, min(attempts, 40)) where delay < parameters.taskRetryCap { delay = delay * 2 }
        let capped = min(delay, parameters.taskRetryCap).nanoseconds
        let jitter = Int64((Double(capped / 2) * generator.nextUnitInterval()).rounded())
        return SimDuration(nanoseconds: capped - capped / 2 + jitter)
    }

    /// The wait before asking again for a page that failed `failures` times in a row (a history page of the open
    /// chat, a CHATS_LIST page of the catch-up): `taskRetryBase` after the first failure, as before; after more,
    /// `retryDelay(attempts: failures)`, so a server refusing every page for good is asked at most once per
    /// `taskRetryCap` rather than every `taskRetryBase` (it was every second for as long as the fault lasted). The
    /// first retry draws nothing from the generator, so runs where no page failed twice in a row are unchanged.
    mutating func retryDelay(afterConsecutiveFailures failures: Int) -> SimDuration {
        failures <= 1 ? parameters.taskRetryBase : retryDelay(attempts: failures)
    }

    /// Starts `purpose`'s timer after the wait `failures` failures in a row call for (a page's, a read mark's;
    /// `retryDelay(afterConsecutiveFailures:)`).
    mutating func startRetryTimer(_ purpose: TimerPurpose, afterFailures failures: Int) {
        _ = startTimer(purpose, at: now + retryDelay(afterConsecutiveFailures: failures))
    }

    /// Applies the retry policy: a disconnect puts the task back at once without counting an attempt; an error or a
    /// timeout counts one and backs off (`retryDelay`); too many attempts fail the task visibly. A "duplicate" error
    /// to a send means the server already stored it under this cid: the send is delivered.
    mutating func taskFailed(_ taskId: Int64, _ failure: Failure) {
        runningTaskIds.remove(taskId)
        guard var task = tasks[taskId], task.state == .pending else { return }
        if case .error(let payload) = failure, payload.error == ErrorPayload.duplicateMessageCode, task.kind.isSend,
           !isMutant(.duplicateIsFailure) {
            if let task = tasks[taskId] { metrics.sendToAckLatencies.append(now - task.enqueuedAt) }
            echoesAwaitingPage.append(ClientView.LocalEcho(chatId: task.chatId, cid: task.cid, text: task.text))
            finishTask(taskId, messageId: nil)
            // The answer carries no message: the newest page brings it into the cache and onto the screen. It is
            // the only way to learn the message, so it is asked until it comes (found by `syncsim explore`, seed 58:
            // a lost page left the chat list without the message for good).
            chatsAwaitingNewestPage.insert(task.chatId)
            requestHistory(chatId: task.chatId, load: .newest)
            return
        }
        task.lastError = failure.text
        if isMutant(.retryWithoutBackoff), failure != .disconnected {
            // The mutant retries at once, without backoff and without counting: a retry storm.
            task.nextAttemptAt = now + .milliseconds(Int64(100))
        } else if failure != .disconnected {
            task.attempts += 1
            if task.attempts >= parameters.maxTaskAttempts {
                task.state = .failed
                if task.kind.isSend {
                    // An attempt whose answer never came may have stored the message: only the chat's newest page
                    // can tell, and nothing else would (found by `syncsim explore`, seed 7351: the server kept a send
                    // whose answers were lost, and the chat list never showed it).
                    chatsAwaitingNewestPage.insert(task.chatId)
                    requestHistory(chatId: task.chatId, load: .newest)
                }
            } else {
                task.nextAttemptAt = now + retryDelay(attempts: task.attempts)
            }
            if isMutant(.resendNewCid) && task.kind.isSend { task.cid = newCid() }
        }
        tasks[taskId] = task
        persist(task)
        runTasks()
    }
}
