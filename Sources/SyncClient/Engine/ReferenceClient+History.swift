import SimCore
import SyncProtocol

extension ReferenceClient {
    mutating func insertSingle(_ message: ChatMessage, chatId: Int64, extendsTopChunk: Bool = false) {
        histories[chatId, default: ChunkStore()].insertSingle(message, extendsTopChunk: extendsTopChunk)
        store.save(message, chatId: chatId)
        dirtyChats.insert(chatId)
    }

    mutating func receivePage(_ page: [ChatMessage], chatId: Int64, load: HistoryLoad) {
        let isStart: Bool
        switch load {
        case .newest: isStart = page.count < parameters.historyPageSize
        case .older: isStart = page.count < parameters.historyPageSize + 1
        case .newer: isStart = false
        }
        var history = histories[chatId, default: ChunkStore()]
        history.insertPage(page, isStartOfHistory: isStart, skipsBridge: isMutant(.mergeSkipsBridge))
        histories[chatId] = history
        for message in page where history.message(id: message.id) != nil { store.save(message, chatId: chatId) }
        dirtyChats.insert(chatId)
        guard screen?.chatId == chatId else { return }
        defer {
            if screen?.chatId == chatId, screen?.needsNewestPage == true {
                requestHistory(chatId: chatId, load: .newest)
            }
        }
        if load == .newest, screen?.awaitsNewestPage == true {
            screen?.awaitsNewestPage = false
            if screen?.isOpenComplete == true, let top = history.topChunk, let anchor = screen?.anchorId,
               history.chunk(containing: anchor) != top {
                let ids = history.messageIds(in: top)
                screen?.anchorId = ids[max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)]
            }
        }
        if screen?.isOpenComplete == false {
            completeOpenIfPossible(force: load == .newest)
        } else if let pending = screen?.pendingScrollUp, pending > 0 {
            screen?.pendingScrollUp = 0
            scrollUp(by: pending)
        } else {
            prefetchIfNeeded()
        }
    }

    // MARK: User actions

    mutating func userAction(_ action: UserAction) {
        switch action {
        case .openChat(let chatId):
            screen = Screen(chatId: chatId, openedAt: now)
            completeOpenIfPossible(force: false)
            requestHistory(chatId: chatId, load: .newest)
        case .closeChat:
            screen = nil
        case .markRead(let chatId):
            // The newest message the user can have read: the newest cached one (none cached: nothing to mark).
            if let newest = histories[chatId]?.messages.last?.id {
                _ = sendRequest(.chatMark, .chatMark(ChatMarkRequest(chatId: chatId, mark: newest)), purpose: .chatMark)
            }
        case .scrollUp(let count):
            scrollUp(by: count)
        case .scrollDown(let count):
            scrollDown(by: count)
        case .sendText(let chatId, let text):
            enqueueText(chatId: chatId, text: text)
        case .sendPhoto(let chatId, let sizeBytes, let caption):
            enqueuePhoto(chatId: chatId, sizeBytes: sizeBytes, caption: caption)
        }
    }

    /// After LOGIN: the open chat refreshes its newest page and resumes a scroll that waited for the network.
    mutating func resumeScreen() {
        guard let screen else { return }
        requestHistory(chatId: screen.chatId, load: .newest)
        if screen.pendingScrollUp > 0, let anchor = screen.anchorId,
           let chunk = histories[screen.chatId]?.chunk(containing: anchor) {
            requestHistory(chatId: screen.chatId, load: .older(from: chunk.lower))
        }
    }

    /// Shows the chat once its top chunk holds a screenful (or the whole history), or when the newest page came.
    private mutating func completeOpenIfPossible(force: Bool) {
        guard var current = screen, !current.isOpenComplete else { return }
        let history = histories[current.chatId] ?? ChunkStore()
        guard let top = history.topChunk else {
            if force {
                current.isOpenComplete = true
                current.pendingScrollUp = 0
                screen = current
                metrics.chatOpenTimes.append(now - current.openedAt)
            }
            return
        }
        let ids = history.messageIds(in: top)
        guard force || ids.count >= parameters.visibleMessageCount || top.isStartOfHistory else { return }
        current.isOpenComplete = true
        current.anchorId = ids[max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)]
        screen = current
        metrics.chatOpenTimes.append(now - current.openedAt)
        if let newest = ids.last {
            let mark = ChatMarkRequest(chatId: current.chatId, mark: newest)
            _ = sendRequest(.chatMark, .chatMark(mark), purpose: .chatMark)
        }
        if current.pendingScrollUp > 0 {
            screen?.pendingScrollUp = 0
            scrollUp(by: current.pendingScrollUp)
        } else {
            prefetchIfNeeded()
        }
    }

    mutating func scrollUp(by count: Int) {
        if var opening = screen, !opening.isOpenComplete {
            // The first page is still loading: the scroll waits for it instead of being lost (found by `syncsim
            // explore`: a scroll right after opening a chat whose page response was lost never happened).
            opening.pendingScrollUp += count
            screen = opening
            return
        }
        guard var current = screen, current.isOpenComplete, let anchor = current.anchorId,
              let history = histories[current.chatId], let chunk = history.chunk(containing: anchor) else { return }
        let ids = history.messageIds(in: chunk)
        let index = ids.firstIndex(of: anchor) ?? ids.startIndex
        let target = index - count
        if target >= ids.startIndex || chunk.isStartOfHistory {
            current.anchorId = ids[max(ids.startIndex, target)]
            current.pendingScrollUp = 0
            if let since = current.waitingAtTopSince {
                metrics.scrollWaitTimes.append(now - since)
                current.waitingAtTopSince = nil
            }
            screen = current
            prefetchIfNeeded()
            return
        }
        current.anchorId = ids[ids.startIndex]
        current.pendingScrollUp = ids.startIndex - target
        if current.waitingAtTopSince == nil { current.waitingAtTopSince = now }
        screen = current
        requestHistory(chatId: current.chatId, load: .older(from: chunk.lower))
    }

    mutating func scrollDown(by count: Int) {
        guard var current = screen, current.isOpenComplete, let anchor = current.anchorId,
              let history = histories[current.chatId], let chunk = history.chunk(containing: anchor) else { return }
        let ids = history.messageIds(in: chunk)
        let index = ids.firstIndex(of: anchor) ?? ids.startIndex
        let lastAnchor = max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)
        current.anchorId = ids[min(index + count, lastAnchor)]
        screen = current
        if index + count + parameters.visibleMessageCount + parameters.prefetchDistance >= ids.endIndex,
           chunk != history.topChunk {
            requestHistory(chatId: current.chatId, load: .newer(from: chunk.upper))
        }
    }

    /// Loads the next older page when the viewport is within `prefetchDistance` of its chunk's lower edge.
    private mutating func prefetchIfNeeded() {
        guard let current = screen, current.isOpenComplete, let anchor = current.anchorId,
              let history = histories[current.chatId], let chunk = history.chunk(containing: anchor),
              !chunk.isStartOfHistory else { return }
        let ids = history.messageIds(in: chunk)
        let index = ids.firstIndex(of: anchor) ?? ids.startIndex
        if index - ids.startIndex <= parameters.prefetchDistance {
            requestHistory(chatId: current.chatId, load: .older(from: chunk.lower))
        }
    }

    /// Sends one CHAT_HISTORY for a chat unless one is in flight or the client is not online.
    mutating func requestHistory(chatId: Int64, load: HistoryLoad) {
        guard case .online = state, historyLoads[chatId] == nil else { return }
        let request: ChatHistoryRequest
        switch load {
        case .newest:
            request = ChatHistoryRequest(chatId: chatId, from: .max, forward: 0, backward: parameters.historyPageSize)
        case .older(let from):
            request = ChatHistoryRequest(chatId: chatId, from: from, forward: 0,
                                         backward: parameters.historyPageSize + 1)
        case .newer(let from):
            request = ChatHistoryRequest(chatId: chatId, from: from, forward: parameters.historyPageSize, backward: 1)
        }
        if sendRequest(.chatHistory, .chatHistory(request), purpose: .history(chatId: chatId, load: load)) {
            historyLoads[chatId] = load
            if load == .newest, screen?.chatId == chatId { screen?.needsNewestPage = false }
        }
    }

    func visibleMessageIds() -> [Int64] {
        guard let current = screen, let anchor = current.anchorId, let history = histories[current.chatId],
              let chunk = history.chunk(containing: anchor) else { return [] }
        let ids = history.messageIds(in: chunk)
        let index = ids.firstIndex(of: anchor) ?? ids.startIndex
        return Array(ids[index..<min(ids.endIndex, index + parameters.visibleMessageCount)])
    }
}
