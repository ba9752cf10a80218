import SimCore
import SyncProtocol

/// The virtual messenger server: a sans-IO state machine fed (event, virtual time), returning actions.
///
/// It holds users, chats with members, each chat's ordered history (message ids grow with time across the whole
/// server), an idempotency table (user, cid) -> message and a server clock in milliseconds. It never reads a clock
/// or calls its driver; its randomness (processing delays, injected faults) comes from the generator it is given.
public struct SyncServer {
    /// Fault-injection knobs; may be changed between events.
    public var knobs: ServerKnobs
    /// The server clock at `SimInstant.start`, in milliseconds since the Unix epoch.
    public let epochMilliseconds: Int64
    /// The CDN host photos are uploaded to.
    public private(set) var cdn = CDNHost()
    /// Counters for reports and checkers.
    public private(set) var stats = ServerStats()

    private var generator: SeededGenerator
    private var users: [Int64: User] = [:]
    private var userIdsByToken: [String: Int64] = [:]
    private var chats: [Int64: ChatRecord] = [:]
    private var idempotency: [IdempotencyKey: IdempotencyEntry] = [:]
    /// The open connections' state (an array by id number where the ids are dense; see `ConnectionTable`).
    private var connections = ConnectionTable<ConnectionState>()
    private var pending: [ServerTimerID: PendingRequest] = [:]
    /// Liveness timers: each connection's next idle check.
    private var idleChecks: [ServerTimerID: ServerConnectionID] = [:]
    // Indexes kept beside the tables above, so that a push, a LOGIN or a checker's scan costs what it touches
    // rather than the number of users, chats or connections.
    /// Every chat id, ascending.
    private var sortedChatIds: [Int64] = []
    /// The chats each user is a member of (unordered).
    private var chatIdsByUser: [Int64: [Int64]] = [:]
    /// The open connections logged in as each user (unordered).
    private var connectionsByUser: [Int64: [ServerConnectionID]] = [:]
    /// The chat of every stored message, in store order (`stats.messagesStored` entries).
    private var chatIdsInStoreOrder: [Int64] = []
    /// CONTACT_UPDATE's edits of each user's contact list: a user added (true) or removed (false). A user's contacts
    /// are the members of their chats, with these applied (`loginResponse`).
    private var contactEdits: [Int64: [Int64: Bool]] = [:]
    private var nextTimerNumber: Int64 = 1
    private var lastMessageId: Int64 = 0
    private var nextPhotoNumber: Int64 = 1
    /// FILE_UPLOAD and VIDEO_UPLOAD slots (only real clients ask for them).
    var media = MediaUploads()
    /// How many CONFIG requests each user made (the settings' hash; only real clients send them).
    private var configChanges: [Int64: Int] = [:]
    /// The group each live invite link's token leads to (CHAT_UPDATE `revokePrivateLink`; only real clients ask).
    private var chatIdsByInviteToken: [String: Int64] = [:]
    /// How many invite links were made: the next link's number, part of its token.
    private var inviteLinksMade: Int64 = 0
    /// Each user's chat folders and their sync mark (FOLDERS_UPDATE; only real clients make them).
    private var folders: [Int64: FolderList] = [:]

    /// A server with no users or chats.
    /// - Parameters:
    ///   - knobs: fault-injection knobs.
    ///   - generator: the server's own random stream (for example `streams.stream("server")`).
    ///   - epochMilliseconds: the server clock at the start of the run (default 2023-11-14T22:13:20Z).
    public init(
        knobs: ServerKnobs = ServerKnobs(), generator: SeededGenerator, epochMilliseconds: Int64 = 1_700_000_000_000
    ) {
        self.knobs = knobs
        self.generator = generator
        self.epochMilliseconds = epochMilliseconds
    }

    // MARK: Setup

    /// Adds a user who logs in with `token`.
    public mutating func addUser(id: Int64, name: String, token: String) {
        users[id] = User(id: id, name: name, token: token)
        userIdsByToken[token] = id
    }

    /// Creates a chat with the given members; its `modified` time is the server time at `now`.
    public mutating func addChat(id: Int64, members: [Int64], now: SimInstant) {
        if let previous = chats[id] {
            for member in previous.members { chatIdsByUser[member]?.removeAll { $0 == id } }
        } else {
            let index = sortedChatIds.last.map { $0 < id } ?? true
                ? sortedChatIds.count : sortedChatIds.firstIndex { $0 > id }!
            sortedChatIds.insert(id, at: index)
        }
        let sorted = members.sorted()
        chats[id] = ChatRecord(id: id, members: sorted, modified: serverTimeMilliseconds(at: now))
        for (offset, member) in sorted.enumerated() where offset == 0 || sorted[offset - 1] != member {
            chatIdsByUser[member, default: []].append(id)
        }
    }

    /// Appends messages to a chat without pushing them (seeding history before a run).
    ///
    /// Seeded messages are dated in the past: from `seedWindowMilliseconds` before `now` on, one millisecond apart
    /// (after the chat's newest message), so that time names one message of the chat and none is in the future;
    /// the chat counts as modified at `now`.
    /// - Returns: the stored messages.
    @discardableResult
    public mutating func seedHistory(chatId: Int64, sender: Int64, texts: [String], now: SimInstant) -> [ChatMessage] {
        texts.map { store(chatId: chatId, sender: sender, text: $0, cid: nil, attaches: nil, now: now, isSeed: true) }
    }

    /// Appends a message with the sender, text and time a capture showed, without pushing it (rebuilding a server
    /// from a trace, whose later requests page by those times). The time still strictly grows within the chat.
    /// - Returns: the stored message.
    @discardableResult
    public mutating func seedMessage(chatId: Int64, sender: Int64, text: String, serverTimeMilliseconds time: Int64)
        -> ChatMessage
    {
        // A corrupt capture may hold any time: clamp the offset to ±2^40 ms (35 years) so nothing overflows.
        let (difference, overflow) = time.subtractingReportingOverflow(epochMilliseconds)
        let limit: Int64 = 1 << 40
        let offsetMilliseconds = overflow ? (time < 0 ? -limit : limit) : max(-limit, min(limit, difference))
        let at = SimInstant(nanosecondsSinceStart: offsetMilliseconds * 1_000_000)
        return store(chatId: chatId, sender: sender, text: text, cid: nil, attaches: nil, now: at)
    }

    /// How far before `now` seeded history starts: one day, in milliseconds.
    public static let seedWindowMilliseconds: Int64 = 86_400_000

    /// Edits a message as `editor` from another device (outside the simulated clients), pushing the edit to every
    /// connected member of the chat, the editor's own simulated client included.
    /// - Returns: the push actions; empty when the message is unknown, removed or not the editor's.
    public mutating func edit(chatId: Int64, messageId: Int64, editor: Int64, text: String, now: SimInstant)
        -> [ServerAction]
    {
        guard let edited = try? change(chatId: chatId, messageId: messageId, by: editor, to: text, now: now) else {
            return []
        }
        return pushMessage(edited, chatId: chatId, except: nil)
    }

    /// Deletes a message as `deleter` from another device (outside the simulated clients), pushing NOTIF_MSG_DELETE
    /// to every connected member of the chat, the deleter's own simulated client included.
    /// - Returns: the push actions; empty when the message is unknown, already removed or not the deleter's.
    public mutating func delete(chatId: Int64, messageId: Int64, deleter: Int64, now: SimInstant) -> [ServerAction] {
        guard let removed = try? change(chatId: chatId, messageId: messageId, by: deleter, to: nil, now: now) else {
            return []
        }
        let push = NotifMsgDelete(
            chatId: chatId, messageIds: [messageId], updateTime: removed.updateTime, chat: summary(ofChat: chatId))
        return pushToMembers(.notifMsgDelete(push), opcode: .notifMsgDelete, chatId: chatId, except: nil,
                             removedMessages: [removed])
    }

    /// Posts a message as `sender` from outside the simulated clients (another device), pushing it to the chat's
    /// connected members other than the sender.
    /// - Returns: the push actions.
    public mutating func post(chatId: Int64, sender: Int64, text: String, now: SimInstant) -> [ServerAction] {
        let message = store(chatId: chatId, sender: sender, text: text, cid: nil, attaches: nil, now: now)
        return pushMessage(message, chatId: chatId, except: nil)
    }

    // MARK: Read-only views

    /// The server clock at `now`, in milliseconds since the Unix epoch.
    public func serverTimeMilliseconds(at now: SimInstant) -> Int64 {
        epochMilliseconds + now.nanosecondsSinceStart / 1_000_000
    }

    /// Every chat id, ascending.
    public var chatIds: [Int64] { sortedChatIds }

    /// The chats that stored a message after the first `count` messages the server stored, ascending, each once.
    /// - Parameter count: a value `stats.messagesStored` had earlier (0 for every chat with a message).
    /// - Complexity: O(m log m) for the m messages stored since.
    public func chatIds(withMessagesStoredAfter count: Int) -> [Int64] {
        guard count < chatIdsInStoreOrder.count else { return [] }
        return Set(chatIdsInStoreOrder[max(0, count)...]).sorted()
    }

    /// A chat's members, ascending, or empty for an unknown chat.
    public func members(ofChat chatId: Int64) -> [Int64] { chats[chatId]?.members ?? [] }

    /// The chats `userId` is a member of, ascending, each once; empty for a user in no chat.
    ///
    /// The same chats as `chatIds.filter { members(ofChat: $0).contains(userId) }`, read from the per-user index
    /// instead of scanning every chat: a check of every client at a run's end cost clients × chats lookups.
    /// - Complexity: O(c log c) for the user's c chats.
    public func chatIds(ofMember userId: Int64) -> [Int64] { (chatIdsByUser[userId] ?? []).sorted() }

    /// A chat's whole history in id order (edited and removed messages in their newest version), or empty for an
    /// unknown chat.
    public func messages(inChat chatId: Int64) -> [ChatMessage] { chats[chatId]?.messages ?? [] }

    /// Every version a message has had, oldest first (the original, then each edit or the removal); empty for an
    /// unknown message.
    public func versions(ofMessage messageId: Int64, inChat chatId: Int64) -> [ChatMessage] {
        guard let chat = chats[chatId], let current = chat.message(id: messageId) else { return [] }
        return (chat.earlierVersions[messageId] ?? []) + [current]
    }

    /// The chat-list entry a member would see for a chat.
    public func summary(ofChat chatId: Int64) -> ChatSummary? {
        chats[chatId].map(listEntry)
    }

    /// A chat as LOGIN, CHATS_LIST and NOTIF_MSG_DELETE list it: with PyMax 1.x's keys when `knobs.fullListKeys`.
    private func listEntry(_ chat: ChatRecord) -> ChatSummary {
        var entry = ChatSummary(id: chat.id, members: chat.members, modified: chat.modified,
                                lastMessage: chat.messages.last)
        entry.fullKeys = knobs.fullListKeys
        if chat.hasDetails {
            // A pinned message that was deleted since is no longer shown.
            entry.pinnedMessage = chat.pinnedMessageId.flatMap(chat.message(id:)).flatMap { $0.isRemoved ? nil : $0 }
            entry.title = chat.title
            entry.descriptionText = chat.descriptionText
            entry.groupOwner = chat.groupOwner
            entry.link = chat.inviteToken.map { knobs.inviteLinkBase + $0 }
            entry.options = chat.options
            entry.cid = chat.cid
        }
        return entry
    }

    /// The read marks of a chat as (user, newest read message id), by user.
    public func marks(inChat chatId: Int64) -> [(userId: Int64, mark: Int64)] {
        guard let chat = chats[chatId] else { return [] }
        return chat.marks.keys.sorted().map { ($0, chat.marks[$0]!) }
    }

    /// The idempotency table, sorted by (user, cid).
    public var idempotencyTable: [IdempotencyEntry] {
        idempotency.values.sorted { ($0.userId, $0.cid) < ($1.userId, $1.cid) }
    }

    /// The connections open now with the user each is logged in as (nil before LOGIN), by connection id.
    public var openConnections: [(connection: ServerConnectionID, userId: Int64?)] {
        connections.sortedKeys.map { ($0, connections[$0]!.userId) }
    }

    /// How many open connections are logged in as `userId` (from the per-user index: no scan of every connection).
    public func sessionCount(ofUser userId: Int64) -> Int { connectionsByUser[userId]?.count ?? 0 }

    /// How many requests are being processed (their delayed execution is pending).
    public var requestsInProcessing: Int { pending.count }

    // MARK: Events

    /// Feeds one event at virtual time `now`.
    /// - Returns: the actions for the driver, in order.
    public mutating func handle(_ event: ServerEvent, now: SimInstant) -> [ServerAction] {
        switch event {
        case .connectionOpened(let connection):
            setUser(nil, of: connection)
            connections[connection] = ConnectionState(lastActivity: now, deleteNotice: knobs.deleteNotice)
            return scheduleIdleCheck(connection, at: now)
        case .connectionClosed(let connection):
            setUser(nil, of: connection)
            connections[connection] = nil
            // Its liveness check is over: a driver that waits for every timer (`serve --max-connections`) stopped
            // 50 s after the last close instead of at once.
            guard !idleChecks.isEmpty else { return [] }
            let checks = idleChecks.keys.sorted().filter { idleChecks[$0] == connection }
            for timer in checks { idleChecks[timer] = nil }
            return checks.map { .cancelTimer($0) }
        case .packetReceived(let packet, let connection):
            connections[connection]?.lastActivity = now
            return receive(packet, on: connection, now: now)
        case .timerFired(let timer):
            if let connection = idleChecks.removeValue(forKey: timer) { return checkIdle(connection, now: now) }
            guard let request = pending.removeValue(forKey: timer) else { return [] }
            return execute(request.packet, on: request.connection, userIdAtReceipt: request.userId,
                           deviceAtReceipt: request.deviceId, now: now)
        case .restart:
            stats.restarts += 1
            var actions: [ServerAction] = pending.keys.sorted().map { .cancelTimer($0) }
            actions += idleChecks.keys.sorted().map { .cancelTimer($0) }
            actions += connections.sortedKeys.map { .close($0) }
            pending = [:]
            idleChecks = [:]
            connections.removeAll()
            connectionsByUser = [:]
            return actions
        }
    }

    /// The user an open connection is logged in as and the device id its SESSION_INIT gave (each nil when not
    /// known); nil for a connection that is not open. A driver that keeps a response back notes it, so that
    /// `followingConnection(_:_:)` can find where the response goes once its connection has closed.
    public func device(of connection: ServerConnectionID) -> (userId: Int64?, deviceId: String?)? {
        connections[connection].map { ($0.userId, $0.deviceId) }
    }

    /// With `ServerKnobs.repliesFollowDevice`, the newest open connection logged in as `userId` from `deviceId`
    /// (where a reply whose own connection closed goes); nil otherwise, and nil when either is nil.
    public func followingConnection(_ userId: Int64?, _ deviceId: String?) -> ServerConnectionID? {
        guard knobs.repliesFollowDevice, let userId, let deviceId else { return nil }
        return connections.sortedKeys.last {
            connections[$0]?.userId == userId && connections[$0]?.deviceId == deviceId
        }
    }

    /// Arms the liveness check of a connection for `instant` + `idleTimeout` (nothing when liveness is off).
    private mutating func scheduleIdleCheck(_ connection: ServerConnectionID, at instant: SimInstant) -> [ServerAction] {
        guard let timeout = knobs.idleTimeout, timeout > .zero else { return [] }
        let timer = ServerTimerID(rawValue: nextTimerNumber)
        nextTimerNumber += 1
        idleChecks[timer] = connection
        return [.startTimer(timer, at: instant + timeout)]
    }

    /// Closes a connection silent for `idleTimeout`, or checks again when it was active since.
    private mutating func checkIdle(_ connection: ServerConnectionID, now: SimInstant) -> [ServerAction] {
        guard let state = connections[connection], let timeout = knobs.idleTimeout, timeout > .zero else { return [] }
        if now - state.lastActivity >= timeout {
            stats.idleConnectionsClosed += 1
            return [drop(connection)]
        }
        return scheduleIdleCheck(connection, at: state.lastActivity)
    }

    /// Notes that bytes came from `connection` at `now` that carried no request (a WebSocket ping, part of a frame):
    /// the idle check (`ServerKnobs.idleTimeout`) counts them as activity, as it counts requests. A driver of real
    /// sockets calls it for every read (`syncsim serve`). Nothing happens for a connection that is not open.
    public mutating func noteActivity(on connection: ServerConnectionID, now: SimInstant) {
        guard connections[connection] != nil else { return }
        connections[connection]!.lastActivity = max(connections[connection]!.lastActivity, now)
    }

    /// Chooses how an open connection hears of deleted messages (its driver knows which client dialect it speaks;
    /// `ServerKnobs.deleteNotice` is the default for new connections). Nothing happens for a closed connection.
    public mutating func setDeleteNotice(_ notice: DeleteNotice, of connection: ServerConnectionID) {
        connections[connection]?.deleteNotice = notice
    }

    /// Accepts (or refuses) a photo upload that reached the CDN host.
    /// - Returns: true when the CDN stored it.
    public mutating func receiveUpload(token: String, sizeBytes: Int) -> Bool {
        let accepted = cdn.receiveUpload(token: token, sizeBytes: sizeBytes)
        if accepted { stats.uploadsAccepted += 1 } else { stats.uploadsRefused += 1 }
        return accepted
    }

    private mutating func receive(
        _ packet: Packet, on connection: ServerConnectionID, now: SimInstant
    ) -> [ServerAction] {
        guard packet.cmd == .request, connections[connection] != nil else { return [] }
        stats.requestsByOpcode[packet.opcode, default: 0] += 1
        if knobs.failingPeriods.contains(where: { $0.opcode == packet.opcode && $0.start <= now && now < $0.end }) {
            stats.errorsSent += 1
            let body = Packet.Body.error(ErrorPayload(error: "server.unavailable",
                                                      message: "\(packet.opcode) is failing; try again later"))
            return [.send(Packet(cmd: .error, seq: packet.seq, opcode: packet.opcode, body: body), on: connection)]
        }
        var delay = (knobs.processingDelay[packet.opcode] ?? knobs.defaultProcessingDelay).draw(using: &generator)
        let userId = connections[connection]?.userId
        for period in knobs.slowPeriods where period.covers(packet.opcode, of: userId, at: now) {
            delay += period.extraDelay
        }
        if delay == .zero { return execute(packet, on: connection, userIdAtReceipt: userId, now: now) }
        let timer = ServerTimerID(rawValue: nextTimerNumber)
        nextTimerNumber += 1
        pending[timer] = PendingRequest(packet: packet, connection: connection, userId: userId,
                                        deviceId: connections[connection]?.deviceId)
        return [.startTimer(timer, at: now + delay)]
    }

    /// Executes a request. A request whose connection closed meanwhile still takes effect (a MSG_SEND is stored),
    /// but its response is lost, as with a real server (or, with `ServerKnobs.repliesFollowDevice`, goes to the
    /// device's newest connection).
    private mutating func execute(
        _ packet: Packet, on connection: ServerConnectionID, userIdAtReceipt: Int64?, deviceAtReceipt: String? = nil,
        now: SimInstant
    ) -> [ServerAction] {
        let isOpen = connections[connection] != nil
        let replyConnection = isOpen ? connection : followingConnection(userIdAtReceipt, deviceAtReceipt)
        var actions: [ServerAction] = []
        func reply(_ body: Packet.Body) {
            guard let replyConnection else { return }
            let response = Packet(cmd: .response, seq: packet.seq, opcode: packet.opcode, body: body)
            actions.append(.send(response, on: replyConnection))
        }
        func fail(_ code: String, _ text: String) {
            guard let replyConnection else { return }
            stats.errorsSent += 1
            let body = Packet.Body.error(ErrorPayload(error: code, message: text))
            let error = Packet(cmd: .error, seq: packet.seq, opcode: packet.opcode, body: body)
            actions.append(.send(error, on: replyConnection))
        }
        if let rate = knobs.errorRate[packet.opcode], generator.nextBernoulli(rate) {
            stats.errorsInjected += 1
            fail("server.injected", "injected error for \(packet.opcode)")
            return actions
        }
        let userId = connections[connection]?.userId ?? userIdAtReceipt
        switch packet.body {
        case .sessionInit(let request):
            if isOpen { connections[connection]?.deviceId = request.deviceId }
            // A seed per connection, drawn from nothing random so that no stream shifts (PyMax hashes it with the
            // device id into its mobile LOGIN fingerprint, `pymax/fingerprint/fingerprint.py`).
            let seed = epochMilliseconds &+ Int64(connection.rawValue) &* 7_919
            reply(.sessionInitResponse(SessionInitResponse(time: serverTimeMilliseconds(at: now), callsSeed: seed)))
        case .ping:
            reply(.empty)
        case .raw where packet.opcode == .log || packet.opcode == .ping:
            // Telemetry (PyMax `pymax/telemetry/service.py`) and a ping without `interactive` are acknowledged.
            reply(.empty)
        case .raw where packet.opcode == .logout:
            // The connection is logged out: later requests on it need a LOGIN. The token stays valid (SyncSim's
            // choice: serve's users keep fixed tokens, so a script can log in again on its next run).
            guard userId != nil else { fail("session.notLoggedIn", "LOGOUT before LOGIN"); return actions }
            reply(.empty)
            if isOpen { setUser(nil, of: connection) }
        case .raw where packet.opcode == .sessionsInfo:
            guard let userId else { fail("session.notLoggedIn", "SESSIONS_INFO before LOGIN"); return actions }
            let sessions = connectionIds(of: userId).map {
                SessionInfo(id: Int64($0.rawValue), deviceId: connections[$0]?.deviceId, current: $0 == connection)
            }
            reply(.sessionsInfoResponse(SessionsInfoResponse(sessions: sessions)))
        case .raw where packet.opcode == .sessionsClose:
            // The user's other connections end (the server closes them); the asking one stays logged in and keeps the
            // user's token (serve's tokens are fixed: SyncSim's choice, as for LOGOUT).
            guard let userId, let user = users[userId] else {
                fail("session.notLoggedIn", "SESSIONS_CLOSE before LOGIN")
                return actions
            }
            reply(.sessionsCloseResponse(SessionsCloseResponse(token: user.token)))
            for other in connectionIds(of: userId) where other != connection {
                actions.append(drop(other))
            }
        case .raw where packet.opcode == .notifMessage && packet.cmd == .request:
            // A delivery receipt for a pushed message, `{chatId, messageId}`: PyMax 1.2.5 sends one for every
            // NOTIF_MESSAGE it gets over WebSocket (`pymax/interfaces.py`, `_send_notification_response`) and waits
            // for its answer. Acknowledged; it changes nothing here (read marks are CHAT_MARK's).
            reply(.empty)
        case .login(let request):
            guard let id = userIdsByToken[request.token], let user = users[id] else {
                fail("login.token", "unknown token")
                return actions
            }
            if isOpen { setUser(id, of: connection) }
            reply(.loginResponse(loginResponse(for: user, request: request, now: now)))
            if isOpen, knobs.replacesOlderSessions {
                // One live session per (user, device): the new LOGIN replaces older connections of the same device.
                let device = connections[connection]?.deviceId
                // The user's own connections (the per-user index), in connection order: not every open one.
                for other in (connectionsByUser[id] ?? []).sorted() where other != connection
                    && connections[other]?.userId == id && connections[other]?.deviceId == device {
                    stats.sessionsReplaced += 1
                    actions.append(drop(other))
                }
            }
        case .chatHistory(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_HISTORY before LOGIN"); return actions }
            guard let chat = chats[request.chatId], chat.members.contains(userId) else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            let cutoff = knobs.historyEditLag.map { serverTimeMilliseconds(at: now) - $0.nanoseconds / 1_000_000 }
            let messages = request.getMessages == false ? [] : chat.page(request, changesUpTo: cutoff)
            reply(.chatHistoryResponse(ChatHistoryResponse(messages: messages)))
        case .contactInfo(let request):
            guard userId != nil else { fail("session.notLoggedIn", "CONTACT_INFO before LOGIN"); return actions }
            let found = request.contactIds.compactMap { users[$0].map(contact(of:)) }
            reply(.contactInfoResponse(ContactInfoResponse(contacts: found)))
        case .chatInfo(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_INFO before LOGIN"); return actions }
            let found = request.chatIds.compactMap { id in
                chats[id].flatMap { $0.members.contains(userId) ? listEntry($0) : nil }
            }
            reply(.chatInfoResponse(ChatInfoResponse(chats: found)))
        case .msgGet(let request):
            guard let userId else { fail("session.notLoggedIn", "MSG_GET before LOGIN"); return actions }
            guard request.postId == nil else {
                fail("proto.payload", "postId: comments under channel posts are not modelled")
                return actions
            }
            guard let chat = chats[request.chatId], chat.members.contains(userId) else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            reply(.msgGetResponse(MsgGetResponse(messages: request.messageIds.compactMap { chat.message(id: $0) })))
        case .msgReaction, .msgCancelReaction:
            guard let userId else { fail("session.notLoggedIn", "\(packet.opcode) before LOGIN"); return actions }
            let (chatId, messageId, reaction): (Int64, Int64, String?) = switch packet.body {
            case .msgReaction(let request): (request.chatId, request.messageId, request.reaction.id)
            case .msgCancelReaction(let request): (request.chatId, request.messageId, nil)
            default: (0, 0, nil)
            }
            // Read in place (no copy of the record alive across the write, which would copy its reactions first).
            guard chats[chatId]?.members.contains(userId) == true else {
                fail("chat.notFound", "chat \(chatId) is unknown to user \(userId)")
                return actions
            }
            guard let message = chats[chatId]!.message(id: messageId), !message.isRemoved else {
                fail("message.notFound", "message \(messageId) is not in chat \(chatId)")
                return actions
            }
            chats[chatId]!.reactions[messageId, default: [:]][userId] = reaction
            let info = chats[chatId]!.reactionInfo(ofMessage: messageId, viewer: userId)
            reply(.msgReactionResponse(MsgReactionResponse(reactionInfo: info)))
            let push = NotifMsgReactionsChanged(chatId: chatId, messageId: messageId, info: info)
            actions += pushToMembers(.notifMsgReactionsChanged(push), opcode: .notifMsgReactionsChanged,
                                     chatId: chatId, except: userId, exceptDevice: connections[connection]?.deviceId)
        case .msgGetReactions(let request):
            guard let userId else { fail("session.notLoggedIn", "MSG_GET_REACTIONS before LOGIN"); return actions }
            guard let chat = chats[request.chatId], chat.members.contains(userId) else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            let entries = Set(request.messageIds).filter { chat.message(id: $0) != nil }.map {
                MsgGetReactionsResponse.MessageReactions(
                    messageId: $0, reactionInfo: chat.reactionInfo(ofMessage: $0, viewer: userId))
            }
            reply(.msgGetReactionsResponse(MsgGetReactionsResponse(messagesReactions: entries)))
        case .msgGetDetailedReactions(let request):
            // Who gave which reaction, from the reactions the server keeps (MSG_REACTION); before session 39 it was
            // answered `proto.opcode`. The answer's shape is SyncSim's (`MsgGetDetailedReactionsResponse`).
            guard let userId else {
                fail("session.notLoggedIn", "MSG_GET_DETAILED_REACTIONS before LOGIN")
                return actions
            }
            guard let chat = chats[request.chatId], chat.members.contains(userId) else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            guard let message = chat.message(id: request.messageId), !message.isRemoved else {
                fail("message.notFound", "message \(request.messageId) is not in chat \(request.chatId)")
                return actions
            }
            if let count = request.count, count < 0 {
                fail("proto.payload", "MSG_GET_DETAILED_REACTIONS `count` is \(count), not 0 or more")
                return actions
            }
            let given = (chat.reactions[request.messageId] ?? [:]).map { ReactionUser(userId: $0.key, reaction: $0.value) }
                .sorted { $0.userId < $1.userId }
            reply(.msgGetDetailedReactionsResponse(MsgGetDetailedReactionsResponse(
                reactionInfo: chat.reactionInfo(ofMessage: request.messageId, viewer: userId),
                reactions: Array(given.prefix(request.count ?? given.count)))))
        case .chatUpdate(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_UPDATE before LOGIN"); return actions }
            guard let chat = chats[request.chatId], chat.members.contains(userId) else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            guard request.changesModeledFields else {
                fail("proto.payload", "CHAT_UPDATE on the SyncSim server changes a chat's pin (`pinMessageId`), title "
                     + "(`theme`), `description`, invite link (`revokePrivateLink`) or `options`; this request sets "
                     + "none of them")
                return actions
            }
            if let pin = request.pinMessageId, pin != 0, chat.message(id: pin).map({ !$0.isRemoved }) != true {
                fail("message.notFound", "message \(pin) is not in chat \(request.chatId)")
                return actions
            }
            if request.revokePrivateLink == true || !request.options.isEmpty {
                // An invite link and group settings are a group's: a dialog has neither.
                do throws(ChangeError) { try groupMembers(chat.id, of: userId) } catch {
                    fail(error.code, error.text)
                    return actions
                }
            }
            if request.revokePrivateLink == true { makeInviteLink(ofChat: chat.id, now: now) }
            for (name, value) in request.options { chats[chat.id]!.options[name] = value }
            if let pin = request.pinMessageId { chats[chat.id]!.pinnedMessageId = pin == 0 ? nil : pin }
            if let theme = request.theme { chats[chat.id]!.title = theme }
            if let text = request.descriptionText { chats[chat.id]!.descriptionText = text }
            chats[chat.id]!.modified = max(chat.modified, serverTimeMilliseconds(at: now))
            let entry = listEntry(chats[chat.id]!)
            reply(.chatUpdateResponse(ChatUpdateResponse(chat: entry)))
            // The chat's members hear of it (PyMax's `on_chat_update`), the changer's other devices too.
            actions += pushToMembers(.notifChat(NotifChat(chat: entry)), opcode: .notifChat, chatId: chat.id,
                                     except: userId, exceptDevice: connections[connection]?.deviceId)
        case .groupCreate(let request):
            guard let userId else { fail("session.notLoggedIn", "MSG_SEND before LOGIN"); return actions }
            let key = IdempotencyKey(userId: userId, cid: request.cid)
            if let made = idempotency[key], let chat = chats[made.chatId], let message = chat.message(id: made.messageId) {
                // A retried creation is answered with the group it made; nothing is made or pushed again.
                stats.duplicateSendsAbsorbed += 1
                reply(.msgSendResponse(MsgSendResponse(chatId: chat.id, message: message, chat: listEntry(chat))))
                return actions
            }
            if let unknown = request.userIds.first(where: { users[$0] == nil }) {
                fail("user.notFound", "user \(unknown) is unknown")
                return actions
            }
            let chatId = (sortedChatIds.last ?? 0) + 1
            addChat(id: chatId, members: Array(Set([userId] + request.userIds)), now: now)
            chats[chatId]!.groupOwner = userId
            chats[chatId]!.title = request.title
            chats[chatId]!.cid = request.cid
            let message = store(chatId: chatId, sender: userId, text: "", cid: request.cid,
                                attaches: [.control(event: "new", chatType: "CHAT", title: request.title,
                                                    userIds: request.userIds)], now: now)
            idempotency[key] = IdempotencyEntry(userId: userId, cid: key.cid, chatId: chatId, messageId: message.id)
            let entry = listEntry(chats[chatId]!)
            reply(.msgSendResponse(MsgSendResponse(chatId: chatId, message: message, chat: entry)))
            actions += pushGroupChange(entry, message: message, actor: userId,
                                       exceptDevice: connections[connection]?.deviceId)
        case .chatMembersUpdate(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_MEMBERS_UPDATE before LOGIN"); return actions }
            let before: [Int64]
            do throws(ChangeError) { before = try groupMembers(request.chatId, of: userId) } catch {
                fail(error.code, error.text)
                return actions
            }
            if let unknown = request.userIds.first(where: { users[$0] == nil }) {
                fail("user.notFound", "user \(unknown) is unknown")
                return actions
            }
            let groupId = request.chatId
            // Only users whose membership changes: adding a member again (or removing a non-member) changes nothing
            // and stores no service message, as CHAT_JOIN of a member does not (each such add stored one).
            let changing = request.userIds.filter { before.contains($0) == (request.operation == .remove) }
            guard !changing.isEmpty else {
                reply(.chatMembersUpdateResponse(ChatMembersUpdateResponse(chat: listEntry(chats[groupId]!))))
                return actions
            }
            let after = switch request.operation {
            case .add: Array(Set(before + changing)).sorted()
            case .remove: before.filter { !changing.contains($0) }
            }
            setMembers(of: groupId, to: after)
            let message = store(chatId: groupId, sender: userId, text: "", cid: nil,
                                attaches: [.control(event: request.operation.rawValue, userIds: changing)],
                                now: now)
            let entry = listEntry(chats[groupId]!)
            reply(.chatMembersUpdateResponse(ChatMembersUpdateResponse(chat: entry)))
            // Those removed hear of it too: the chat as it is now, without them.
            actions += pushGroupChange(entry, message: message, actor: userId,
                                       exceptDevice: connections[connection]?.deviceId,
                                       alsoTo: before.filter { !after.contains($0) })
        case .chatLeave(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_LEAVE before LOGIN"); return actions }
            let members: [Int64]
            do throws(ChangeError) { members = try groupMembers(request.chatId, of: userId) } catch {
                fail(error.code, error.text)
                return actions
            }
            let groupId = request.chatId
            setMembers(of: groupId, to: members.filter { $0 != userId })
            let message = store(chatId: groupId, sender: userId, text: "", cid: nil,
                                attaches: [.control(event: "leave", userIds: [userId])], now: now)
            reply(.empty)
            actions += pushGroupChange(listEntry(chats[groupId]!), message: message, actor: userId,
                                       exceptDevice: connections[connection]?.deviceId)
        case .profile(let request):
            guard let userId else { fail("session.notLoggedIn", "PROFILE before LOGIN"); return actions }
            guard request.firstName?.isEmpty != true else {
                fail("proto.payload", "PROFILE payload has an empty `firstName`")
                return actions
            }
            if let name = request.displayName { users[userId]!.name = name }
            var profile = Profile(id: userId, name: users[userId]!.name)
            profile.fullKeys = knobs.fullListKeys
            reply(.profileResponse(ProfileResponse(profile: profile)))
        case .config:
            guard let userId else { fail("session.notLoggedIn", "CONFIG before LOGIN"); return actions }
            configChanges[userId, default: 0] += 1
            reply(.configResponse(ConfigResponse(hash: "\(userId)-\(configChanges[userId]!)")))
        case .chatMembers(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_MEMBERS before LOGIN"); return actions }
            guard let chat = chats[request.chatId], chat.members.contains(userId) else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            // No join requests are modelled: that list is empty (it was answered with the members).
            let after = request.type == "JOIN_REQUEST" ? [] : chat.members.filter { $0 > request.marker }
            let page = Array(after.prefix(max(0, request.count)))
            let more = after.count > page.count && !page.isEmpty
            reply(.chatMembersResponse(ChatMembersResponse(
                members: page.compactMap { users[$0].map { ChatMembersResponse.Member(contact: contact(of: $0)) } },
                marker: more ? page.last! : 0)))
        case .chatsList(let request):
            guard let userId else { fail("session.notLoggedIn", "CHATS_LIST before LOGIN"); return actions }
            reply(.chatsListResponse(chatsList(for: userId, request: request)))
        case .msgSend(let request):
            guard let userId else { fail("session.notLoggedIn", "MSG_SEND before LOGIN"); return actions }
            if let problem = Self.textProblem(request.message.text, opcode: packet.opcode) {
                fail("proto.payload", problem)
                return actions
            }
            // Read in place, not bound to a copy: a copy of the chat's record alive across `store` made its append
            // copy the chat's whole history first, on every message stored.
            guard chats[request.chatId]?.members.contains(userId) == true else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            let chatId = request.chatId
            let key = IdempotencyKey(userId: userId, cid: request.message.cid)
            if idempotency[key] != nil {
                // As the field answers a retried send that was already stored: an "already exists" error
                // (`message.duplicate`); nothing is stored or pushed again.
                stats.duplicateSendsAbsorbed += 1
                guard isOpen else { return actions }
                stats.errorsSent += 1
                let body = Packet.Body.error(.duplicateMessage(cid: request.message.cid))
                actions.append(.send(Packet(cmd: .error, seq: packet.seq, opcode: packet.opcode, body: body),
                                     on: connection))
                return actions
            }
            // Not modelled, refused by name rather than stored as an ordinary message at once: a scheduled
            // message (PyMax 2.5.0 `DelayedAttributes`), a comment under a channel post (`SendCommentPayload`).
            if request.message.delayedAttributes != nil || request.postId != nil {
                fail("proto.payload", request.postId != nil
                     ? "postId: comments under channel posts are not modelled"
                     : "delayedAttributes: scheduled messages are not modelled")
                return actions
            }
            // Each attachment as readers get it (a photo's id and URL, a file's name and size: `storedAttachments`).
            let attaches: [Attach]
            do throws(AttachmentError) { attaches = try storedAttachments(request.message.attaches) } catch {
                fail(error.payload.error, error.payload.message)
                return actions
            }
            // A reply or forward (real clients only): the linked message as it is now, without its own link.
            var link: MessageLink?
            if let asked = request.message.link {
                let sourceChatId = asked.chatId ?? chatId
                guard let source = chats[sourceChatId], source.members.contains(userId),
                      var linked = source.message(id: asked.messageId), !linked.isRemoved else {
                    fail("message.notFound", "linked message \(asked.messageId) is not in chat \(sourceChatId)")
                    return actions
                }
                linked.link = nil
                link = MessageLink(type: asked.type, chatId: sourceChatId, message: linked)
            }
            let message = store(
                chatId: chatId, sender: userId, text: request.message.text, cid: request.message.cid,
                attaches: attaches.isEmpty ? nil : attaches, now: now,
                elements: request.message.elements, link: link)
            idempotency[key] = IdempotencyEntry(userId: userId, cid: key.cid, chatId: chatId, messageId: message.id)
            reply(.msgSendResponse(MsgSendResponse(chatId: chatId, message: message)))
            actions += pushMessage(message, chatId: chatId, except: userId,
                                   exceptDevice: connections[connection]?.deviceId)
        case .photoUpload(let request):
            guard userId != nil else { fail("session.notLoggedIn", "PHOTO_UPLOAD before LOGIN"); return actions }
            let photoId = nextPhotoNumber
            let token = "photo-\(photoId)"
            nextPhotoNumber += 1
            cdn.issue(token: token, photoId: photoId, sizeBytes: request.sizeBytes)
            reply(.photoUploadResponse(PhotoUploadResponse(
                photoToken: token, url: "\(knobs.cdnURL)/upload?photoIds=\(photoId)")))
        case .mediaUpload(let request):
            guard let userId else { fail("session.notLoggedIn", "\(packet.opcode) before LOGIN"); return actions }
            let slot = media.issue(packet.opcode == .fileUpload ? .file : request.videoKind, owner: userId)
            let isFile = slot.kind == .file
            let url = "\(knobs.cdnURL)/upload?\(isFile ? "fileIds" : "videoIds")=\(slot.id)"
            reply(.mediaUploadResponse(MediaUploadResponse(info: [
                MediaUploadSlot(url: url, fileId: isFile ? slot.id : nil, videoId: isFile ? nil : slot.id,
                                token: slot.token),
            ])))
        case .chatSubscribe(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_SUBSCRIBE before LOGIN"); return actions }
            guard chats[request.chatId]?.members.contains(userId) == true else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            reply(.empty)
        case .chatLink(let request):
            // LINK_INFO shows the group a link leads to, to anyone logged in; CHAT_JOIN makes the user a member, as
            // a member added (a CONTROL message, NOTIF_CHAT and NOTIF_MESSAGE to the members). A member joining
            // again is answered with the group and nothing changes.
            guard let userId else { fail("session.notLoggedIn", "\(packet.opcode) before LOGIN"); return actions }
            // The members alone are kept (see `groupMembers`).
            guard let token = request.token, let chatId = chatIdsByInviteToken[token],
                  let members = chats[chatId]?.members else {
                fail("link.notFound", "no group has the invite link '\(request.link.prefix(80))'")
                return actions
            }
            guard packet.opcode == .chatJoin, !members.contains(userId) else {
                reply(.chatUpdateResponse(ChatUpdateResponse(chat: listEntry(chats[chatId]!))))
                return actions
            }
            setMembers(of: chatId, to: (members + [userId]).sorted())
            let message = store(chatId: chatId, sender: userId, text: "", cid: nil,
                                attaches: [.control(event: "joinByLink", userIds: [userId])], now: now)
            let entry = listEntry(chats[chatId]!)
            reply(.chatUpdateResponse(ChatUpdateResponse(chat: entry)))
            actions += pushGroupChange(entry, message: message, actor: userId,
                                       exceptDevice: connections[connection]?.deviceId)
        case .foldersGet:
            guard let userId else { fail("session.notLoggedIn", "FOLDERS_GET before LOGIN"); return actions }
            let list = folders[userId] ?? FolderList()
            reply(.foldersResponse(FoldersResponse(foldersOrder: list.order, folders: list.folders,
                                                   allFilterExcludeFolders: [], folderSync: list.sync)))
        case .folderUpdate(let request):
            guard let userId else { fail("session.notLoggedIn", "FOLDERS_UPDATE before LOGIN"); return actions }
            guard !request.id.isEmpty, request.id.utf8.count <= 64 else {
                fail("proto.payload", "FOLDERS_UPDATE `id` must be 1 to 64 bytes, not \(request.id.utf8.count)")
                return actions
            }
            guard !request.title.isEmpty else { fail("proto.payload", "FOLDERS_UPDATE has an empty `title`"); return actions }
            if let unknown = request.include.first(where: { chats[$0]?.members.contains(userId) != true }) {
                fail("chat.notFound", "chat \(unknown) is unknown to user \(userId)")
                return actions
            }
            let sync = touchFolders(of: userId, now: now)
            let folder = ChatFolder(id: request.id, title: request.title, include: request.include,
                                    filters: request.filters, options: request.options, updateTime: sync)
            if let index = folders[userId]!.folders.firstIndex(where: { $0.id == request.id }) {
                folders[userId]!.folders[index] = folder
            } else {
                folders[userId]!.folders.append(folder)
            }
            reply(.foldersResponse(FoldersResponse(foldersOrder: folders[userId]!.order, folder: folder,
                                                   folderSync: sync)))
        case .foldersDelete(let request):
            guard let userId else { fail("session.notLoggedIn", "FOLDERS_DELETE before LOGIN"); return actions }
            let order = folders[userId]?.order ?? []
            if let unknown = request.folderIds.first(where: { !order.contains($0) }) {
                fail("folder.notFound", "user \(userId) has no folder '\(unknown.prefix(64))'")
                return actions
            }
            let sync = touchFolders(of: userId, now: now)
            folders[userId]!.folders.removeAll { request.folderIds.contains($0.id) }
            reply(.foldersResponse(FoldersResponse(foldersOrder: folders[userId]!.order, folderSync: sync)))
        case .contactUpdate(let request):
            guard let userId else { fail("session.notLoggedIn", "CONTACT_UPDATE before LOGIN"); return actions }
            guard request.action == "ADD" || request.action == "REMOVE" else {
                fail("proto.payload", "CONTACT_UPDATE action '\(request.action.prefix(40))' is neither ADD nor REMOVE")
                return actions
            }
            guard let user = users[request.contactId], user.id != userId else {
                fail("contact.notFound", "no user \(request.contactId) to \(request.action == "ADD" ? "add" : "remove")")
                return actions
            }
            let adds = request.action == "ADD"
            contactEdits[userId, default: [:]][user.id] = adds
            reply(adds ? .contactByPhoneResponse(ContactByPhoneResponse(contact: contact(of: user))) : .empty)
        case .contactByPhone(let request):
            guard userId != nil else { fail("session.notLoggedIn", "CONTACT_INFO_BY_PHONE before LOGIN"); return actions }
            // Users' phone numbers are synthetic (`Contact.syntheticPhone`: 79000000000 + id), as LOGIN gives them.
            guard let digits = request.digits, let user = users[digits &- 79_000_000_000] else {
                fail("contact.notFound", "no user has phone number '\(request.phone.prefix(40))'")
                return actions
            }
            reply(.contactByPhoneResponse(ContactByPhoneResponse(contact: contact(of: user))))
        case .msgTyping(let request):
            guard let userId else { fail("session.notLoggedIn", "MSG_TYPING before LOGIN"); return actions }
            guard chats[request.chatId]?.members.contains(userId) == true else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            reply(.empty)
            let push = NotifTyping(chatId: request.chatId, userId: userId, type: request.type)
            actions += pushToMembers(.notifTyping(push), opcode: .notifTyping, chatId: request.chatId, except: userId)
        case .mediaFetch(let request):
            guard let userId else { fail("session.notLoggedIn", "\(packet.opcode) before LOGIN"); return actions }
            let isFile = packet.opcode == .fileDownload
            let (type, idKey) = isFile ? ("FILE", "fileId") : ("VIDEO", "videoId")
            guard let id = isFile ? request.fileId : request.videoId else {
                fail("attachment.notFound", "\(packet.opcode) names no \(idKey)")
                return actions
            }
            func carries(_ message: ChatMessage) -> Bool {
                !message.isRemoved
                    && (message.attaches ?? []).contains { $0.type == type && $0.otherInteger(idKey) == id }
            }
            if let chatId = request.chatId, let messageId = request.messageId {
                guard let chat = chats[chatId], chat.members.contains(userId) else {
                    fail("chat.notFound", "chat \(chatId) is unknown to user \(userId)")
                    return actions
                }
                guard let message = chat.message(id: messageId), !message.isRemoved else {
                    fail("message.notFound", "message \(messageId) is not in chat \(chatId)")
                    return actions
                }
                guard carries(message) else {
                    fail("attachment.notFound", "message \(messageId) has no \(type) \(id)")
                    return actions
                }
            } else {
                // A video named alone (MaxBridge): shown to a user one of whose chats' messages carries it.
                let seen = chatIds(ofMember: userId).contains { chatId in
                    chats[chatId].map { $0.messages.contains(where: carries) } ?? false
                }
                guard seen else {
                    fail("attachment.notFound", "no message in a chat of user \(userId) has \(type) \(id)")
                    return actions
                }
            }
            reply(.mediaFetchResponse(isFile
                ? MediaFetchResponse(url: "\(knobs.cdnURL)/file/\(id)", unsafe: false)
                : MediaFetchResponse(url: "\(knobs.cdnURL)/video/\(id)", cache: false,
                                     external: .string("\(knobs.cdnURL)/video/\(id)"), qualityKey: "MP4_720")))
        case .chatMark(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_MARK before LOGIN"); return actions }
            guard chats[request.chatId]?.members.contains(userId) == true else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            // A read position never moves backwards: an older mark is answered with the position kept and changes
            // and pushes nothing.
            let previous = chats[request.chatId]!.marks[userId] ?? 0
            let time = serverTimeMilliseconds(at: now)
            guard let messageId = request.messageId else {
                // SET_AS_UNREAD (the only kind decoded without a messageId): the user's own flag, which SyncSim does
                // not keep; the read position stays and the other members hear nothing. The user's other
                // connections are told, as NOTIF_MARK's `setAsUnread` says (SyncSim's choice of recipients).
                let unread = chats[request.chatId]!.messages
                    .filter { $0.id > previous && $0.sender != userId && !$0.isRemoved }.count
                reply(.chatMarkResponse(ChatMarkResponse(unread: unread, mark: time)))
                let push = NotifMark(chatId: request.chatId, userId: userId, mark: time, setAsUnread: true)
                actions += pushToUser(.notifMark(push), opcode: .notifMark, userId: userId, except: replyConnection)
                return actions
            }
            let mark = max(previous, messageId)
            chats[request.chatId]!.marks[userId] = mark
            let unread = chats[request.chatId]!.messages
                .filter { $0.id > mark && $0.sender != userId && !$0.isRemoved }.count
            reply(.chatMarkResponse(ChatMarkResponse(unread: unread, mark: time)))
            guard messageId > previous else { return actions }
            let push = Packet.Body.notifMark(NotifMark(chatId: request.chatId, userId: userId, mark: time))
            actions += pushToMembers(push, opcode: .notifMark, chatId: request.chatId, except: userId)
        case .msgEdit(let request):
            guard let userId else { fail("session.notLoggedIn", "MSG_EDIT before LOGIN"); return actions }
            if let problem = Self.textProblem(request.text, opcode: packet.opcode) {
                fail("proto.payload", problem)
                return actions
            }
            // New attachments replace the message's (PyMax 2.5.0 `edit_message` sends `attachments`); none keeps
            // them, and an edit of attachments alone (no `text`) keeps the text.
            let attaches: [Attach]
            do throws(AttachmentError) { attaches = try storedAttachments(request.attachments) } catch {
                fail(error.payload.error, error.payload.message)
                return actions
            }
            do {
                let edited = try change(
                    chatId: request.chatId, messageId: request.messageId, by: userId,
                    to: request.carriesText || attaches.isEmpty ? request.text : nil, now: now,
                    elements: request.elements, attaches: attaches.isEmpty ? nil : attaches)
                reply(.msgEditResponse(MsgEditResponse(message: edited)))
                actions += pushMessage(edited, chatId: request.chatId, except: userId,
                                       exceptDevice: connections[connection]?.deviceId)
            } catch {
                fail(error.code, error.text)
            }
        case .msgDelete(let request):
            guard let userId else { fail("session.notLoggedIn", "MSG_DELETE before LOGIN"); return actions }
            // A delete of nothing is no request (it answered `{}` and pushed an empty NOTIF_MSG_DELETE to the chat).
            guard !request.messageIds.isEmpty else {
                fail("proto.payload", "MSG_DELETE names no message (messageIds is empty)")
                return actions
            }
            // Every id is checked before any is removed: a request naming one message that cannot be removed
            // removes none (all or none, so that no delete is applied without its answer and NOTIF_MSG_DELETE).
            for (position, messageId) in request.messageIds.enumerated() {
                do throws(ChangeError) {
                    try checkChange(chatId: request.chatId, messageId: messageId, by: userId)
                } catch {
                    fail(error.code, error.text)
                    return actions
                }
                if request.messageIds[..<position].contains(messageId) {
                    fail("proto.payload", "MSG_DELETE names message \(messageId) twice")
                    return actions
                }
            }
            var removedIds: [Int64] = []
            var removedMessages: [ChatMessage] = []
            var updateTime: Int64?
            for messageId in request.messageIds {
                do {
                    let removed = try change(chatId: request.chatId, messageId: messageId, by: userId, to: nil, now: now)
                    removedIds.append(messageId)
                    removedMessages.append(removed)
                    updateTime = max(updateTime ?? 0, removed.updateTime ?? 0)
                } catch {
                    // Not reached: every id passed `checkChange`, which `change` checks the same way.
                    fail(error.code, error.text)
                    return actions
                }
            }
            reply(.empty)
            let push = NotifMsgDelete(
                chatId: request.chatId, messageIds: removedIds, updateTime: updateTime,
                chat: summary(ofChat: request.chatId))
            actions += pushToMembers(.notifMsgDelete(push), opcode: .notifMsgDelete, chatId: request.chatId,
                                     except: userId, exceptDevice: connections[connection]?.deviceId,
                                     removedMessages: removedMessages)
        case .raw(let payload) where Opcode.handled.contains(packet.opcode):
            fail("proto.payload", Self.payloadProblem(payload, opcode: packet.opcode))
        default:
            fail(
                ErrorPayload.unknownOpcodeCode,
                "opcode \(packet.opcode.rawValue) (\(packet.opcode)) is not supported by the SyncSim server")
        }
        return actions
    }

    /// The most UTF-8 bytes a message's text may hold (MSG_SEND, MSG_EDIT): 16 KiB. **SyncSim's own bound**: the
    /// field's limit is not public. It keeps what carries stored texts under the 5 MiB frame limit
    /// (`FrameDecoder.defaultMaxPayloadBytes`): a LOGIN's chat list (each chat's last message), a CHAT_HISTORY page,
    /// a push. A text over the frame limit was stored before, and every LOGIN of the chat's members then failed.
    public static let maxTextBytes = 16 * 1024

    /// Why a MSG_SEND's or MSG_EDIT's text is refused (longer than `maxTextBytes`), or nil when it is taken.
    private static func textProblem(_ text: String, opcode: Opcode) -> String? {
        let count = text.utf8.count
        guard count > maxTextBytes else { return nil }
        return "\(opcode) text of \(count) bytes of UTF-8 exceeds the server's limit of \(maxTextBytes) bytes"
    }

    /// Why a request of a handled opcode did not fit its typed shape: the decoding error, naming the key.
    private static func payloadProblem(_ payload: MessagePackValue, opcode: Opcode) -> String {
        let decoder = MessagePackDecoder()
        func problem<T: Decodable>(_ type: T.Type) -> String {
            do {
                _ = try decoder.decode(type, from: payload.unwrappingFieldWrapping() ?? payload)
                return "\(opcode) payload does not fit its shape"
            } catch DecodingError.keyNotFound(let key, let context) {
                let path = (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
                return "\(opcode) payload lacks the key `\(path)`"
            } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
                    DecodingError.dataCorrupted(let context) {
                let path = context.codingPath.map(\.stringValue).joined(separator: ".")
                return "\(opcode) payload has a bad value at `\(path)`: \(context.debugDescription)"
            } catch {
                return "\(opcode) payload does not fit its shape: \(error)"
            }
        }
        switch opcode {
        case .sessionInit: return problem(SessionInitRequest.self)
        case .login: return problem(LoginRequest.self)
        case .chatHistory: return problem(ChatHistoryRequest.self)
        case .chatMark: return problem(ChatMarkRequest.self)
        case .chatsList: return problem(ChatsListRequest.self)
        case .chatUpdate: return problem(ChatUpdateRequest.self)
        case .contactInfo: return problem(ContactInfoRequest.self)
        case .chatInfo: return problem(ChatInfoRequest.self)
        case .msgGet: return problem(MsgGetRequest.self)
        case .msgReaction: return problem(MsgReactionRequest.self)
        case .msgCancelReaction: return problem(MsgCancelReactionRequest.self)
        case .msgGetReactions: return problem(MsgGetReactionsRequest.self)
        case .msgGetDetailedReactions: return problem(MsgGetDetailedReactionsRequest.self)
        case .msgSend:
            // Without `chatId` it is a group's creation, or meant to be.
            if case .map(let pairs) = payload, !pairs.contains(where: { $0.key == .string("chatId") }) {
                return problem(GroupCreateRequest.self)
            }
            return problem(MsgSendRequest.self)
        case .chatMembersUpdate: return problem(ChatMembersUpdateRequest.self)
        case .chatLeave: return problem(ChatLeaveRequest.self)
        case .chatMembers: return problem(ChatMembersRequest.self)
        case .profile: return problem(ProfileRequest.self)
        case .config: return problem(ConfigRequest.self)
        case .msgEdit: return problem(MsgEditRequest.self)
        case .msgDelete: return problem(MsgDeleteRequest.self)
        case .photoUpload: return problem(PhotoUploadRequest.self)
        case .fileUpload, .videoUpload: return problem(MediaUploadRequest.self)
        case .fileDownload, .videoPlay: return problem(MediaFetchRequest.self)
        case .msgTyping: return problem(MsgTypingRequest.self)
        case .chatSubscribe: return problem(ChatSubscribeRequest.self)
        case .contactInfoByPhone: return problem(ContactByPhoneRequest.self)
        case .contactUpdate: return problem(ContactUpdateRequest.self)
        case .chatJoin, .linkInfo: return problem(ChatLinkRequest.self)
        case .foldersGet: return problem(FoldersGetRequest.self)
        case .foldersUpdate: return problem(FolderUpdateRequest.self)
        case .foldersDelete: return problem(FoldersDeleteRequest.self)
        case .ping: return problem(PingRequest.self)
        default: return "\(opcode) payload does not fit its shape"
        }
    }

    /// A failed edit or delete: a field-style error code and text.
    private struct ChangeError: Error {
        var code: String
        var text: String
    }

    /// The members of chat `chatId` if `userId` is one and it is a group (made by a real client, or of more than two
    /// members). The members, not the record: a copy of the record kept by a caller that then stores a service
    /// message made the append copy the chat's whole history first.
    /// - Throws: `ChangeError`: `chat.notFound`, or `chat.notGroup` for a dialog.
    @discardableResult
    private func groupMembers(_ chatId: Int64, of userId: Int64) throws(ChangeError) -> [Int64] {
        guard let members = chats[chatId]?.members, members.contains(userId) else {
            throw ChangeError(code: "chat.notFound", text: "chat \(chatId) is unknown to user \(userId)")
        }
        guard chats[chatId]!.groupOwner != nil || members.count > 2 else {
            throw ChangeError(code: "chat.notGroup", text: "chat \(chatId) is a dialog; only a group's members change")
        }
        return members
    }

    /// Gives group `chatId` a new invite link, `<knobs.inviteLinkBase><token>`; its old link no longer leads anywhere.
    /// The token names the chat and the link's number (deterministic: no random draw moves). A group no client made
    /// (a scenario's) gets a `cid` too, the server milliseconds `now` (**SyncSim's choice**): a client joining by the
    /// link may read the joined chat's `cid` (vkmax 1.0.2 `join_group_by_link` indexes it: a `KeyError` without).
    private mutating func makeInviteLink(ofChat chatId: Int64, now: SimInstant) {
        if let old = chats[chatId]!.inviteToken { chatIdsByInviteToken[old] = nil }
        inviteLinksMade += 1
        let token = "g\(chatId)-\(inviteLinksMade)"
        chatIdsByInviteToken[token] = chatId
        chats[chatId]!.inviteToken = token
        if chats[chatId]!.cid == nil { chats[chatId]!.cid = serverTimeMilliseconds(at: now) }
    }

    /// Marks a change of `userId`'s folders (creating their list): the new sync mark, server milliseconds now, or
    /// one more than the last mark when the clock has not moved past it.
    private mutating func touchFolders(of userId: Int64, now: SimInstant) -> Int64 {
        let sync = max(serverTimeMilliseconds(at: now), (folders[userId]?.sync ?? 0) + 1)
        folders[userId, default: FolderList()].sync = sync
        return sync
    }

    /// Makes `members` (ascending, each once) the chat's members, keeping its messages, and the per-user index.
    private mutating func setMembers(of chatId: Int64, to members: [Int64]) {
        for member in chats[chatId]!.members where !members.contains(member) {
            chatIdsByUser[member]?.removeAll { $0 == chatId }
        }
        for member in members where !chats[chatId]!.members.contains(member) {
            chatIdsByUser[member, default: []].append(chatId)
        }
        chats[chatId]!.members = members
    }

    /// A group's change reaches its members (and `alsoTo`, users just removed) as NOTIF_CHAT with the chat as it is
    /// now, then NOTIF_MESSAGE with its service message (PyMax's `on_chat_update`, then `on_message`); the actor's
    /// other devices hear of it too.
    private mutating func pushGroupChange(
        _ entry: ChatSummary, message: ChatMessage, actor: Int64, exceptDevice: String?, alsoTo: [Int64] = []
    ) -> [ServerAction] {
        pushToMembers(.notifChat(NotifChat(chat: entry)), opcode: .notifChat, chatId: entry.id, except: actor,
                      exceptDevice: exceptDevice, alsoTo: alsoTo)
            + pushToMembers(.notifMessage(NotifMessage(chatId: entry.id, message: message)), opcode: .notifMessage,
                            chatId: entry.id, except: actor, exceptDevice: exceptDevice, alsoTo: alsoTo)
    }

    /// Checks that `actor` may edit or remove message `messageId` of chat `chatId`, changing nothing.
    /// - Throws: `ChangeError` when the chat or message is unknown to `actor`, not theirs, or already removed.
    private func checkChange(chatId: Int64, messageId: Int64, by actor: Int64) throws(ChangeError) {
        guard let chat = chats[chatId], chat.members.contains(actor) else {
            throw ChangeError(code: "chat.notFound", text: "chat \(chatId) is unknown to user \(actor)")
        }
        guard let index = chat.index(ofMessage: messageId) else {
            throw ChangeError(code: "message.notFound", text: "message \(messageId) is not in chat \(chatId)")
        }
        let current = chat.messages[index]
        guard current.sender == actor else {
            throw ChangeError(code: "message.notYours", text: "message \(messageId) was sent by user \(current.sender)")
        }
        guard !current.isRemoved else {
            throw ChangeError(code: "message.removed", text: "message \(messageId) was deleted")
        }
    }

    /// Edits (`text` or `attaches` non-nil) or removes (both nil) a message of `actor`'s, keeping its earlier
    /// version. An edit with `text` nil keeps the text and its elements; `attaches` nil keeps the attachments.
    /// - Throws: `ChangeError` when the chat or message is unknown to `actor`, not theirs, or already removed.
    private mutating func change(
        chatId: Int64, messageId: Int64, by actor: Int64, to text: String?, now: SimInstant,
        elements: [MessageElement] = [], attaches: [Attach]? = nil
    ) throws(ChangeError) -> ChatMessage {
        try checkChange(chatId: chatId, messageId: messageId, by: actor)
        // Read in place: a copy of the chat's record alive across the writes below made them copy the chat's whole
        // history and its earlier versions first.
        let index = chats[chatId]!.index(ofMessage: messageId)!
        let current = chats[chatId]!.messages[index]
        let modified = chats[chatId]!.modified
        var changed = current
        changed.updateTime = max(serverTimeMilliseconds(at: now), current.version + 1)
        if text != nil || attaches != nil {
            if let text {
                changed.text = text
                changed.elements = elements
            }
            if let attaches { changed.attaches = attaches }
            changed.status = ChatMessage.edited
        } else {
            changed.text = ""
            changed.elements = []
            changed.attaches = nil
            changed.status = ChatMessage.removed
        }
        chats[chatId]!.earlierVersions[messageId, default: []].append(current)
        chats[chatId]!.messages[index] = changed
        chats[chatId]!.modified = max(modified, changed.updateTime!)
        return changed
    }

    /// A CHATS_LIST page: the user's chats modified at or before `marker`, newest first. A `marker` of 0 or less
    /// lists from the top: maxion 0.2.1 (`maxion/raw/methods/chats.py`, `iter_chats`) asks its first page with
    /// `marker` 0, as LOGIN's `chatsSync` 0 means "never" (it got no chat at all before).
    private func chatsList(for userId: Int64, request: ChatsListRequest) -> ChatsListResponse {
        let upTo = request.marker > 0 ? request.marker : Int64.max
        let listed = chats.values
            .filter { $0.members.contains(userId) && $0.modified <= upTo }
            .sorted { ($0.modified, $0.id) > ($1.modified, $1.id) }
        var count = max(0, min(request.count ?? knobs.chatsListPageSize, knobs.chatsListPageSize))
        // A page ends where `modified` changes: the next page's marker (`modified - 1`) would skip the rest of chats
        // sharing the last one's time (seeded chats all share theirs).
        while count > 0, count < listed.count, listed[count].modified == listed[count - 1].modified { count += 1 }
        let page = listed.prefix(count)
        let summaries = page.map(listEntry)
        let marker = listed.count > count ? page.last.map { $0.modified - 1 } : nil
        return ChatsListResponse(chats: summaries, marker: marker)
    }

    /// Forgets an open connection the server ends (idle, replaced by a newer session, SESSIONS_CLOSE).
    /// - Returns: the action that closes it.
    private mutating func drop(_ connection: ServerConnectionID) -> ServerAction {
        setUser(nil, of: connection)
        connections[connection] = nil
        return .close(connection)
    }

    /// Records which user an open connection is logged in as (nil: none), keeping `connectionsByUser` in step.
    private mutating func setUser(_ userId: Int64?, of connection: ServerConnectionID) {
        guard let state = connections[connection] else { return }
        if let previous = state.userId { connectionsByUser[previous]?.removeAll { $0 == connection } }
        connections[connection]?.userId = userId
        if let userId { connectionsByUser[userId, default: []].append(connection) }
    }

    /// A user as a contact-list entry, with the keys PyMax 1.x requires when the knob says so.
    private func contact(of user: User) -> Contact {
        var contact = Contact(id: user.id, name: user.name)
        contact.fullKeys = knobs.fullListKeys
        return contact
    }

    private func loginResponse(for user: User, request: LoginRequest, now: SimInstant) -> LoginResponse {
        let memberChats = (chatIdsByUser[user.id] ?? []).compactMap { chats[$0] }
        let changed = memberChats
            .filter { $0.modified > request.chatsSync }
            .sorted { ($0.modified, $0.id) > ($1.modified, $1.id) }
        var limit = max(0, request.chatsCount ?? Int.max)
        if let cap = knobs.loginChatsCap { limit = min(limit, cap) }
        let listed = changed.prefix(limit)
        let summaries = listed.map(listEntry)
        // The changed chats' messages edited or removed since the client's last-sync, newest version: nothing else
        // tells a client that was away of a change to a message other than the last (PyMax's `LoginResponse`
        // declares `messages` by chat; "never synced" has nothing cached to correct). Every changed chat's, also
        // those past the page: the client lists those with CHATS_LIST, which carries no changes.
        var changedMessages: [Int64: [ChatMessage]] = [:]
        if request.chatsSync > 0 {
            for chat in changed {
                let messages = chat.earlierVersions.keys.sorted().compactMap { chat.message(id: $0) }
                    .filter { $0.version > request.chatsSync }
                if !messages.isEmpty { changedMessages[chat.id] = messages }
            }
        }
        var contacts: [Contact] = []
        if request.contactsSync <= 0 {
            var ids = Set(memberChats.flatMap(\.members))
            for (id, added) in contactEdits[user.id] ?? [:] {
                if added { ids.insert(id) } else { ids.remove(id) }
            }
            ids.remove(user.id)
            contacts = ids.sorted().compactMap { users[$0].map(contact(of:)) }
        }
        var profile = Profile(id: user.id, name: user.name)
        profile.fullKeys = knobs.fullListKeys
        return LoginResponse(
            profile: profile, chats: summaries, contacts: contacts,
            messages: changedMessages, token: request.token, time: serverTimeMilliseconds(at: now))
    }

    /// Stores a new message. Its time strictly grows within the chat (the next millisecond when the previous
    /// message has this one's), so a CHAT_HISTORY `from` time names at most one message.
    private mutating func store(
        chatId: Int64, sender: Int64, text: String, cid: Int64?, attaches: [Attach]?, now: SimInstant,
        elements: [MessageElement] = [], isSeed: Bool = false, link: MessageLink? = nil
    ) -> ChatMessage {
        precondition(chats[chatId] != nil, "unknown chat \(chatId)")
        lastMessageId += 1
        let serverTime = serverTimeMilliseconds(at: now)
        let earliest = isSeed ? serverTime - Self.seedWindowMilliseconds : serverTime
        let time = max(earliest, (chats[chatId]!.messages.last?.time ?? Int64.min) + 1)
        let message = ChatMessage(
            id: lastMessageId, time: time, sender: sender, text: text, cid: cid, attaches: attaches,
            elements: elements, link: link)
        chats[chatId]!.messages.append(message)
        // A seeded message is dated in the past, but the chat changed now.
        chats[chatId]!.modified = max(chats[chatId]!.modified, isSeed ? serverTime : time)
        stats.messagesStored += 1
        chatIdsInStoreOrder.append(chatId)
        return message
    }

    /// The open connections logged in as `userId`, in connection order.
    func connectionIds(of userId: Int64) -> [ServerConnectionID] { (connectionsByUser[userId] ?? []).sorted() }

    /// Pushes `body` (`cmd` 0, seq 0) to the connections logged in as `userId`, in connection order, but `except`.
    func pushToUser(_ body: Packet.Body, opcode: Opcode, userId: Int64, except: ServerConnectionID? = nil)
        -> [ServerAction] {
        connectionIds(of: userId).filter { $0 != except }.map {
            .send(Packet(cmd: .request, seq: 0, opcode: opcode, body: body), on: $0)
        }
    }

    /// Pushes a new message to the chat's members' connections, except `except`'s: all of them, or with
    /// `exceptDevice` only those of that device (the user's other devices get the push).
    private mutating func pushMessage(
        _ message: ChatMessage, chatId: Int64, except: Int64?, exceptDevice: String? = nil
    ) -> [ServerAction] {
        pushToMembers(.notifMessage(NotifMessage(chatId: chatId, message: message)), opcode: .notifMessage,
                      chatId: chatId, except: except, exceptDevice: exceptDevice)
    }

    /// Pushes `body` to the chat's members' connections, except `except`'s (see `pushMessage`). For a delete,
    /// `removedMessages` are the deleted messages' removed versions, pushed one NOTIF_MESSAGE each instead to a
    /// connection whose `DeleteNotice` is `.removedMessage`. Each packet sent draws push loss and duplication.
    private mutating func pushToMembers(
        _ body: Packet.Body, opcode: Opcode, chatId: Int64, except: Int64?, exceptDevice: String? = nil,
        removedMessages: [ChatMessage] = [], alsoTo: [Int64] = []
    ) -> [ServerAction] {
        guard var members = chats[chatId]?.members else { return [] }
        if !alsoTo.isEmpty { members = Array(Set(members + alsoTo)).sorted() }
        // The members' open connections in connection order (members are sorted, so a repeat is adjacent); the
        // sender's own connections only when a device is named, and then all but that device's.
        var targets: [ServerConnectionID] = []
        for (offset, member) in members.enumerated() where offset == 0 || members[offset - 1] != member {
            guard member == except else {
                targets += connectionsByUser[member] ?? []
                continue
            }
            guard let exceptDevice else { continue }
            targets += (connectionsByUser[member] ?? []).filter { connections[$0]?.deviceId != exceptDevice }
        }
        targets.sort()
        var actions: [ServerAction] = []
        func send(_ packet: Packet, on connection: ServerConnectionID) {
            if generator.nextBernoulli(knobs.pushLossProbability) {
                stats.pushesLost += 1
                return
            }
            actions.append(.send(packet, on: connection))
            stats.pushesSent += 1
            if generator.nextBernoulli(knobs.pushDuplicationProbability) {
                actions.append(.send(packet, on: connection))
                stats.pushesDuplicated += 1
            }
        }
        for connection in targets {
            // The field sends pushes as requests from the server (`cmd` 0) that the client does not answer.
            if !removedMessages.isEmpty, connections[connection]?.deleteNotice == .removedMessage {
                for message in removedMessages {
                    let push = NotifMessage(chatId: chatId, message: message)
                    send(Packet(cmd: .request, seq: 0, opcode: .notifMessage, body: .notifMessage(push)), on: connection)
                }
            } else {
                send(Packet(cmd: .request, seq: 0, opcode: opcode, body: body), on: connection)
            }
        }
        return actions
    }
}

extension Opcode {
    /// The requests the server handles; any other opcode is answered with a `proto.opcode` error naming it.
    static let handled: [Opcode] = [
        .ping, .log, .sessionInit, .login, .contactInfo, .chatInfo, .chatHistory, .chatMark, .chatsList, .chatUpdate,
        .msgSend, .msgDelete, .msgEdit, .msgGet, .photoUpload, .msgReaction, .msgCancelReaction, .msgGetReactions,
        .msgGetDetailedReactions, .chatMembersUpdate, .chatLeave, .chatMembers, .profile, .config, .fileUpload, .videoUpload, .fileDownload,
        .videoPlay, .msgTyping, .chatSubscribe, .contactInfoByPhone, .logout, .sessionsInfo, .contactUpdate, .sessionsClose,
        .chatJoin, .linkInfo, .foldersGet, .foldersUpdate, .foldersDelete,
    ]
}

/// A user's chat folders in their order, and the mark of their last change (server milliseconds, 0 before any).
private struct FolderList {
    var folders: [ChatFolder] = []
    var sync: Int64 = 0

    var order: [String] { folders.map(\.id) }
}

private struct User {
    var id: Int64
    var name: String
    var token: String
}

private struct IdempotencyKey: Hashable {
    var userId: Int64
    var cid: Int64
}

private struct ConnectionState {
    var userId: Int64?
    /// The device the connection's SESSION_INIT named, or nil before it.
    var deviceId: String?
    /// When a packet last arrived on it (server-side liveness).
    var lastActivity: SimInstant
    /// How it hears of deleted messages.
    var deleteNotice: DeleteNotice
}

private struct PendingRequest {
    var packet: Packet
    var connection: ServerConnectionID
    var userId: Int64?
    /// The connection's SESSION_INIT device id when the request arrived (`ServerKnobs.repliesFollowDevice`).
    var deviceId: String?
}

private struct ChatRecord {
    var id: Int64
    var members: [Int64]
    var modified: Int64
    var messages: [ChatMessage] = []
    var marks: [Int64: Int64] = [:]
    /// Earlier versions of edited or removed messages, oldest first, by message id.
    var earlierVersions: [Int64: [ChatMessage]] = [:]
    /// Each member's reaction by message id, then user id (MSG_REACTION; only real clients react).
    var reactions: [Int64: [Int64: String]] = [:]
    /// What CHAT_UPDATE set (only real clients change a chat): the pinned message, the title, the description.
    var pinnedMessageId: Int64?
    var title: String?
    var descriptionText: String?
    /// The creator of a group a real client made (`GroupCreateRequest`), or nil for a scenario's chat.
    var groupOwner: Int64?
    /// The token of the group's invite link (CHAT_UPDATE `revokePrivateLink`; the link is
    /// `knobs.inviteLinkBase` + token), nil before one was made.
    var inviteToken: String?
    /// The group's settings as CHAT_UPDATE's `options` set them, by name.
    var options: [String: Bool] = [:]
    /// The client id of the MSG_SEND that made the group (its idempotency key), listed as the chat's `cid`; for a
    /// scenario's group, the server milliseconds of its first invite link; nil for any other chat.
    var cid: Int64?

    /// Whether CHAT_UPDATE set anything, or a real client made the chat (chat-list entries then carry it).
    var hasDetails: Bool {
        pinnedMessageId != nil || title != nil || descriptionText != nil || groupOwner != nil || inviteToken != nil
            || !options.isEmpty || cid != nil
    }

    init(id: Int64, members: [Int64], modified: Int64) {
        self.id = id
        self.members = members
        self.modified = modified
    }

    /// The reactions to message `messageId` as `viewer` sees them: counters by count, most first, then by reaction
    /// (sorted, so no dictionary order reaches the wire), and the viewer's own.
    func reactionInfo(ofMessage messageId: Int64, viewer: Int64?) -> ReactionInfo {
        let given = reactions[messageId] ?? [:]
        var counts: [String: Int] = [:]
        for reaction in given.values { counts[reaction, default: 0] += 1 }
        let counters = counts.map { ReactionCounter(count: $0.value, reaction: $0.key) }
            .sorted { ($1.count, $0.reaction) < ($0.count, $1.reaction) }
        return ReactionInfo(totalCount: given.count, counters: counters, yourReaction: viewer.flatMap { given[$0] })
    }

    func message(id: Int64) -> ChatMessage? {
        let index = firstIndex(atLeast: id)
        return index < messages.count && messages[index].id == id ? messages[index] : nil
    }

    func index(ofMessage id: Int64) -> Int? {
        let index = firstIndex(atLeast: id)
        return index < messages.count && messages[index].id == id ? index : nil
    }

    /// Up to `backward` messages with time at or before `from` and up to `forward` after it, ascending; with a
    /// `changesUpTo` time, each in the newest version changed at or before it (a lagging replica).
    func page(_ request: ChatHistoryRequest, changesUpTo cutoff: Int64? = nil) -> [ChatMessage] {
        let split = firstIndex(afterTime: request.from)
        // The counts come from the wire: clamp them to the history's size before adding, so Int.max cannot overflow.
        let low = split - min(max(0, request.backward), split)
        let high = split + min(max(0, request.forward), messages.count - split)
        guard let cutoff else { return Array(messages[low..<high]) }
        return messages[low..<high].map { message in
            guard message.version > cutoff, let earlier = earlierVersions[message.id] else { return message }
            return earlier.last { $0.version <= cutoff } ?? earlier[0]
        }
    }

    /// The index of the first message whose time is after `time` (times grow with ids within a chat).
    private func firstIndex(afterTime time: Int64) -> Int {
        messages.partitionPoint { $0.time <= time }
    }

    /// The index of the first message whose id is `id` or greater. (It was `firstIndex(above: id - 1)`, which
    /// trapped for an id of Int64.min from the wire: fuzz-server, a change request for that id.)
    private func firstIndex(atLeast id: Int64) -> Int {
        messages.partitionPoint { $0.id < id }
    }
}
