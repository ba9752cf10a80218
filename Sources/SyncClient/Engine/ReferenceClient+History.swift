import SimCore
import SyncProtocol

extension ReferenceClient {
    mutating func insertSingle(_ message: ChatMessage, chatId: Int64) {
        // The database gets the version the cache kept (a newer edit, a waiting removal), never the incoming one:
        // an older copy saved over a newer one came back at the next app launch (found by `syncsim explore`). Read
        // in the same access as the insert (a second lookup hashed the chat id again on every push).
        let kept = Self.insertSingle(message, into: &histories[chatId, default: ChunkStore()])
        if let kept { store.save(kept, chatId: chatId) }
        dirtyChats.insert(chatId)
    }

    /// Inserts `message` into `history` and returns the version of it the history kept.
    private static func insertSingle(_ message: ChatMessage, into history: inout ChunkStore) -> ChatMessage? {
        history.insertSingle(message)
        return history.message(id: message.id)
    }

    /// Inserts a run of messages known to be contiguous on the server and stores the ones the cache kept.
    mutating func insertPage(_ page: [ChatMessage], chatId: Int64, isStartOfHistory: Bool) {
        var kept = page
        if isMutant(.mergeSkipsBridge), let first = page.first?.id, let last = page.last?.id {
            // The mutant merges the chunks the page bridges but drops the page's messages in the gaps between them.
            let bridged = (histories[chatId]?.chunks ?? []).filter { $0.overlaps(first, last) }
            let gaps = zip(bridged, bridged.dropFirst()).map { ($0.upper, $1.lower) }
            kept = page.filter { message in !gaps.contains { $0.0 < message.id && message.id < $0.1 } }
        }
        // In place: a copy of the chat's store taken out, grown and written back copied its whole history first (the
        // table still held the old one), on every page.
        histories[chatId, default: ChunkStore()].insertPage(kept, isStartOfHistory: isStartOfHistory)
        let history = histories[chatId]!
        for message in kept {
            if let cached = history.message(id: message.id) { store.save(cached, chatId: chatId) }
        }
        dirtyChats.insert(chatId)
    }

    mutating func receivePage(_ page: [ChatMessage], chatId: Int64, load: HistoryLoad) {
        let isStart: Bool
        switch load {
        case .newest: isStart = page.count < parameters.historyPageSize
        case .older: isStart = page.count < parameters.historyPageSize + 1
        case .newer: isStart = false
        }
        insertPage(page, chatId: chatId, isStartOfHistory: isStart)
        let history = histories[chatId] ?? ChunkStore()
        guard screen?.chatId == chatId else { return }
        defer {
            if screen?.chatId == chatId, screen?.needsNewestPage == true {
                requestHistory(chatId: chatId, load: .newest)
            }
            bridgeToTop(chatId: chatId, after: load, pageCount: page.count)
        }
        if load == .newest, screen?.awaitsNewestPage == true {
            screen?.awaitsNewestPage = false
            if screen?.isOpenComplete == true, let top = history.topChunk, let anchor = screen?.anchorId,
               history.chunk(containing: anchor) != top {
                if screen?.followsNewest == true {
                    let ids = history.messageIds(in: top)
                    screen?.anchorId = ids[max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)]
                } else {
                    // A user scrolled up into older messages stays there, as when a push opens a chunk above the
                    // view: the pages above it are fetched until it joins the top chunk (found by `syncsim explore
                    // --param loginChatsCount=2 --param historyPageSize=3 --param prefetchDistance=0 --param
                    // visibleMessageCount=1`, seed 921142: a user at the top of `[1...1 start]`, whose request for
                    // the newest page after a push opened `[2...2]` died with the link, was moved to the reconnect's
                    // newest page `[2...4]`, and the gap below it stayed).
                    screen?.bridgesToTop = true
                }
            }
        } else if load == .newest, screen?.isOpenComplete == true, screen?.followsNewest == true,
                  let top = history.topChunk, let anchor = screen?.anchorId,
                  let chunk = history.chunk(containing: anchor), chunk != top {
            // A view that follows the newest messages shows them whenever a newest page leaves a gap below them, as
            // after the open's page: before, it stayed on its chunk below the gap, which only a scroll up bridges,
            // so it never showed them. A retried send answered "already exists" fetched the newest page, a chunk of
            // the user's message alone with pages of 1, and the message left the screen with its echo for good
            // (V2; `syncsim explore --param historyPageSize=1 --param visibleMessageCount=3 --param
            // prefetchDistance=0`, seed 39501286).
            let ids = history.messageIds(in: top)
            screen?.anchorId = ids[max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)]
        } else if load == .newest, screen?.isOpenComplete == true, screen?.followsNewest == false,
                  let top = history.topChunk, let anchor = screen?.anchorId,
                  let chunk = history.chunk(containing: anchor), chunk != top {
            // Any newest page that leaves a gap above the chunk of a user scrolled up is bridged too: a send
            // answered "already exists" while the user was at the top fetched the newest page, a chunk of the
            // user's message alone (pages of 1), and nothing ever asked the pages between, so a scroll to the top
            // never covered the chat (C6; found by hand-written field sequences and explore, round 38, seed
            // 38810120 with `--param historyPageSize=1 --param visibleMessageCount=3 --param prefetchDistance=0`).
            screen?.bridgesToTop = true
        }
        if screen?.isOpenComplete == false {
            completeOpenIfPossible(force: load == .newest)
        } else if let pending = screen?.pendingScrollDown, pending > 0 {
            // A scroll down that stopped at the top of a chunk below a gap goes on once pages join what is above;
            // a newer page that brought nothing new ends it (nothing more is above).
            if load.isNewer, page.count <= 1 {
                screen?.pendingScrollDown = 0
            } else {
                scrollDown(by: 0)
            }
        } else if let pending = screen?.pendingScrollUp, pending > 0 {
            screen?.pendingScrollUp = 0
            // A scroll that waited in an empty view ends when the chat is still empty: there is nothing to scroll.
            if screen?.anchorId != nil || history.topChunk != nil { scrollUp(by: pending) }
        } else {
            prefetchIfNeeded()
        }
    }

    // MARK: User actions

    mutating func userAction(_ action: UserAction) {
        switch action {
        case .openChat(let chatId):
            screen = Screen(chatId: chatId, openedAt: now)
            // The open asks the newest page; when another load of the chat is in flight the request waits for it
            // to end (`receivePage`), instead of being dropped: a chat reopened while its older page was loading
            // never completed its open when the cached chunk held less than a screenful, and every scroll after
            // it waited for good (found by `syncsim explore`, seed 31009088: a chunk `[1...10]` that never learned
            // it held the start of the history).
            screen?.needsNewestPage = true
            completeOpenIfPossible(force: false)
            requestHistory(chatId: chatId, load: .newest)
        case .closeChat:
            screen = nil
        case .markRead(let chatId):
            // The newest message the user can have read: the newest cached one (none cached: nothing to mark). It
            // goes out as any read mark does: only when it advances, kept while offline.
            if let newest = histories[chatId]?.messages.last?.id { markSeen(chatId: chatId, newest) }
        case .scrollUp(let count):
            scrollUp(by: count)
        case .scrollDown(let count):
            scrollDown(by: count)
        case .sendText(let chatId, let text):
            enqueueText(chatId: chatId, text: text)
        case .sendPhoto(let chatId, let sizeBytes, let caption):
            enqueuePhotos(chatId: chatId, count: 1, sizeBytes: sizeBytes, caption: caption)
        case .sendPhotos(let chatId, let count, let sizeBytes, let caption):
            enqueuePhotos(chatId: chatId, count: count, sizeBytes: sizeBytes, caption: caption)
        }
    }

    /// After LOGIN: the open chat refreshes its newest page and resumes a scroll that waited for the network.
    ///
    /// Messages may have arrived while the client was away, beyond what its chunks hold: a view that followed the
    /// newest messages moves to the newest page, from where scrolling up bridges the gap; a view scrolled up into
    /// older messages stays, and the pages above it are fetched until it joins the top chunk (`bridgeToTop`).
    mutating func resumeScreen() {
        guard screen != nil else { return }
        screen?.awaitsNewestPage = true
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
                // An empty chat shows its newest messages as they come (`settleScreen`).
                current.followsNewest = true
                screen = current
                metrics.chatOpenTimes.append(now - current.openedAt)
            }
            return
        }
        let ids = history.messageIds(in: top)
        guard force || ids.count >= parameters.visibleMessageCount || top.isStartOfHistory else { return }
        current.isOpenComplete = true
        current.anchorId = ids[max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)]
        current.followsNewest = true
        screen = current
        metrics.chatOpenTimes.append(now - current.openedAt)
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
        if var empty = screen, empty.isOpenComplete, empty.anchorId == nil,
           let history = histories[empty.chatId], let top = history.topChunk {
            // The chat was empty when it opened and has messages now (the user's own send): the view shows the
            // newest of them, and the scroll starts there instead of being dropped (found by `syncsim explore`,
            // seed 5500: a scroll to the top of a chat whose only message was sent after the open never happened).
            let ids = history.messageIds(in: top)
            empty.anchorId = ids[max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)]
            empty.followsNewest = true
            screen = empty
        }
        if var empty = screen, empty.isOpenComplete, empty.anchorId == nil, count > 0,
           histories[empty.chatId]?.topChunk == nil {
            // Nothing cached to scroll, but the cache may be stale (the connection may be dying, messages may have
            // been posted meanwhile): the scroll waits for the chat's newest page, asked now or by the next LOGIN,
            // and starts from its newest message; an empty page ends it (found by `syncsim explore --param
            // loginChatsCount=2 --param historyPageSize=3 --param prefetchDistance=0 --param
            // visibleMessageCount=1`, seed 921142: a scroll to the top of a chat empty in the cache, made while the
            // link was down and three messages were posted, was dropped, so the newest page after the LOGIN, a
            // full page of three, was never joined to the start of the history).
            empty.pendingScrollUp += count
            screen = empty
            requestHistory(chatId: empty.chatId, load: .newest)
            return
        }
        guard var current = screen, current.isOpenComplete, let anchor = current.anchorId,
              let history = histories[current.chatId], let chunk = history.chunk(containing: anchor) else { return }
        let ids = history.messageIds(in: chunk)
        let index = ids.firstIndex(of: anchor) ?? ids.startIndex
        // A scroll while an earlier one still waits at the chunk's edge for older messages adds to what is left of
        // it (found by `syncsim explore`: a second scroll replaced the first's remaining 996 messages by its own 4,
        // so the scroll to the top stopped short).
        let target = index - count - current.pendingScrollUp
        if count > 0, index > ids.startIndex || !chunk.isStartOfHistory {
            current.followsNewest = false
            current.ackedBelow = []
        }
        // Scrolling up ends what was left of a scroll down.
        if count > 0 { current.pendingScrollDown = 0 }
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

    /// Scrolls the view down by `count` messages within the chunk on screen. A scroll past the top of a chunk that is
    /// not the top chunk (a gap above it) stops at its last screenful and keeps the rest (`pendingScrollDown`): the
    /// page above is asked, and each page of the chat that arrives moves the view on (`receivePage`), until the
    /// scroll is used up or reaches the newest messages, where the view follows them again. Before, the rest was
    /// dropped, and the page above was dropped too when a load was in flight (a push or a reconnect had started
    /// one): the view stayed in the middle of the history for good, with the read mark below the newest message
    /// (found by hand-written field sequences, round 38: a fling down as a push arrived).
    mutating func scrollDown(by count: Int) {
        if count > 0, screen != nil {
            // Scrolling down ends what was left of a scroll up, waiting at a chunk's lower edge or kept for the
            // chat's first page: that page would move the view back up after the user went down (found by a sweep of
            // round 38's `fling-down-at-push` on 2G-rural, seed 2, and by `syncsim explore`, seed 38102334, both with
            // V2). Before the first page (or message) the scroll has nothing more to do: the view will show the
            // newest messages, where a scroll down ends.
            screen?.pendingScrollUp = 0
            screen?.waitingAtTopSince = nil
        }
        guard var current = screen, current.isOpenComplete, let anchor = current.anchorId,
              let history = histories[current.chatId], let chunk = history.chunk(containing: anchor) else { return }
        let ids = history.messageIds(in: chunk)
        let index = ids.firstIndex(of: anchor) ?? ids.startIndex
        let lastAnchor = max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)
        let target = index + count + current.pendingScrollDown
        current.anchorId = ids[min(target, lastAnchor)]
        current.pendingScrollDown = 0
        if target >= lastAnchor, chunk == history.topChunk {
            current.followsNewest = true
        } else if target > lastAnchor {
            current.pendingScrollDown = target - lastAnchor
        }
        screen = current
        if target + parameters.visibleMessageCount + parameters.prefetchDistance >= ids.endIndex,
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
    /// Asks the newest page of every chat in `chatsAwaitingNewestPage`, ascending by chat id (a chat with a load in
    /// flight asks when that load ends).
    mutating func requestAwaitedNewestPages() {
        for chatId in chatsAwaitingNewestPage.sorted() { requestHistory(chatId: chatId, load: .newest) }
    }

    mutating func requestHistory(chatId: Int64, load: HistoryLoad) {
        guard case .online = state, historyLoads[chatId] == nil else { return }
        // Pages are asked by server time (`from` in milliseconds); a chunk edge's cached message gives its time,
        // which names that message alone because times strictly grow within a chat.
        func time(of id: Int64) -> Int64 { histories[chatId]?.message(id: id)?.time ?? .max }
        let request: ChatHistoryRequest
        switch load {
        case .newest:
            request = ChatHistoryRequest(chatId: chatId, from: .max, forward: 0, backward: parameters.historyPageSize)
        case .older(let from):
            request = ChatHistoryRequest(chatId: chatId, from: time(of: from), forward: 0,
                                         backward: parameters.historyPageSize + 1)
        case .newer(let from):
            request = ChatHistoryRequest(chatId: chatId, from: time(of: from), forward: parameters.historyPageSize,
                                         backward: 1)
        }
        if sendRequest(.chatHistory, .chatHistory(request), purpose: .history(chatId: chatId, load: load)) {
            historyLoads[chatId] = load
            historyLoadsWaitingForSeq[chatId] = nil
            if load == .newest, screen?.chatId == chatId { screen?.needsNewestPage = false }
        } else if isWaitingForSeq {
            // Every seq is in flight: the load goes out when a request completes (`resumeRequestsWaitingForSeq`).
            // One load of a chat waits at a time and the first asked keeps its place, as one is in flight at a time
            // and a later one is dropped (what it wanted follows from the page: a pending scroll, `needsNewestPage`,
            // `bridgesToTop`). Before, a later load replaced the waiting one: after a LOGIN with every seq in flight,
            // the screen's newest page gave way to its older page, so a message pushed while the user was scrolled
            // up stayed in a chunk of its own above the view, and the scroll to the top never covered the chat (C6;
            // `syncsim explore --param historyPageSize=1 --param visibleMessageCount=3 --param prefetchDistance=0`,
            // seed 38814779, with a seq space of 8).
            if historyLoadsWaitingForSeq[chatId] == nil { historyLoadsWaitingForSeq[chatId] = load }
        }
    }

    /// The ids on screen: a window of the anchor's chunk, then the user's own acknowledged messages still waiting to
    /// join that chunk (shown below it, where their local echo was).
    func visibleMessageIds() -> [Int64] {
        guard let current = screen else { return [] }
        guard let anchor = current.anchorId, let history = histories[current.chatId],
              let chunk = history.chunk(containing: anchor) else { return current.ackedBelow.sorted() }
        let ids = history.messageIds(in: chunk)
        let index = ids.firstIndex(of: anchor) ?? ids.startIndex
        let window = Array(ids[index..<min(ids.endIndex, index + parameters.visibleMessageCount)])
        return window + current.ackedBelow.filter { !window.contains($0) }.sorted()
    }

    /// An own message was acknowledged: if the open chat shows the newest messages and the message lies outside the
    /// chunk on screen, it stays shown below that chunk and the newest page is fetched to join it to the chunk.
    ///
    /// A user scrolled up into older messages does not see it, but when it opened a chunk of its own
    /// (`openedChunk`) the newest page is fetched all the same, as for a push: otherwise the gap below it stays for
    /// good, since scrolling up never reaches it (found by `syncsim explore`, seeds 9815 and 11761: a send while
    /// scrolled up left `[80...875 start] [902...902]` after a scroll to the top).
    ///
    /// While the open has not completed (its newest page is on its way), the message is shown alone where its echo
    /// was, and the newest page is asked again after the one in flight, which may have left before the message was
    /// stored: before, it left the screen with its echo until the page came (`echo-stays-on-screen` on 2G-rural,
    /// seed 2: the MSG_SEND answer came 0.3 s before the open's page).
    mutating func keepAcknowledgedOnScreen(_ message: ChatMessage, chatId: Int64, openedChunk: Bool) {
        if let current = screen, current.chatId == chatId, !current.isOpenComplete {
            if !current.ackedBelow.contains(message.id) { screen?.ackedBelow.append(message.id) }
            screen?.needsNewestPage = true
            requestHistory(chatId: chatId, load: .newest)
            return
        }
        guard let current = screen, current.chatId == chatId, current.isOpenComplete,
              let anchor = current.anchorId, let chunk = histories[chatId]?.chunk(containing: anchor),
              !(chunk.lower...chunk.upper).contains(message.id) else { return }
        if current.followsNewest {
            screen?.ackedBelow.append(message.id)
        } else if !openedChunk {
            return
        }
        screen?.needsNewestPage = true
        if openedChunk { screen?.bridgesToTop = true }
        requestHistory(chatId: chatId, load: .newest)
    }

    /// After a page of the open chat, while a push or an acknowledgement has opened a chunk above the chunk on screen
    /// (`Screen.bridgesToTop`): the newest page joins the two only when the gap between them fits in a page, so
    /// while the chunk on screen is not the top chunk, the page above it is fetched (as scrolling down would), until
    /// it is, or a page above it brings nothing new. Otherwise the gap stayed for good: scrolling up never reaches a
    /// gap above the view (found by `syncsim explore --param loginChatsCount=1 --param historyPageSize=1`, seed
    /// 720068: a message posted from another device while the user was at the top of a two-message chat left
    /// `[1...1 start] [2...2]`, the newest page of one message not reaching the chunk below it).
    private mutating func bridgeToTop(chatId: Int64, after load: HistoryLoad, pageCount: Int) {
        guard let current = screen, current.chatId == chatId, current.bridgesToTop else { return }
        guard current.isOpenComplete, let anchor = current.anchorId, let history = histories[chatId],
              let chunk = history.chunk(containing: anchor), chunk != history.topChunk,
              !(load.isNewer && pageCount <= 1) else {
            screen?.bridgesToTop = false
            return
        }
        requestHistory(chatId: chatId, load: .newer(from: chunk.upper))
    }

    /// After each event: a view that follows the newest messages moves down to the bottom of the top chunk once its
    /// chunk is the top one; acknowledged messages that joined the chunk on screen leave the list shown below it;
    /// the newest message on screen becomes the read mark.
    mutating func settleScreen() {
        if let empty = screen, empty.isOpenComplete, empty.anchorId == nil, empty.followsNewest,
           let top = histories[empty.chatId]?.topChunk, let ids = histories[empty.chatId]?.messageIds(in: top),
           !ids.isEmpty {
            // A chat open while empty shows the messages that reached it since (a push, the user's own send): before,
            // nothing set the view's anchor, so the view stayed empty until a scroll up, and a scroll down was
            // dropped (found by `syncsim explore`, seed 1000239, with V2).
            screen?.anchorId = ids[max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)]
        }
        guard var current = screen, current.isOpenComplete, let anchor = current.anchorId,
              let history = histories[current.chatId], let chunk = history.chunk(containing: anchor) else { return }
        let ids = history.messageIds(in: chunk)
        if current.followsNewest, chunk == history.topChunk {
            current.anchorId = ids[max(ids.startIndex, ids.endIndex - parameters.visibleMessageCount)]
        }
        current.ackedBelow.removeAll { chunk.lower <= $0 && $0 <= chunk.upper }
        screen = current
        if current.anchorId != anchor { prefetchIfNeeded() }
        let index = current.anchorId.flatMap { ids.firstIndex(of: $0) } ?? ids.startIndex
        let newest = ids[min(ids.endIndex, index + parameters.visibleMessageCount) - 1]
        markSeen(chatId: current.chatId, newest)
    }
}
