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
    private var connections: [ServerConnectionID: ConnectionState] = [:]
    private var pending: [ServerTimerID: PendingRequest] = [:]
    private var nextTimerNumber: Int64 = 1
    private var lastMessageId: Int64 = 0
    private var nextPhotoNumber = 1

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
        chats[id] = ChatRecord(id: id, members: members.sorted(), modified: serverTimeMilliseconds(at: now))
    }

    /// Appends messages to a chat without pushing them (seeding history before a run).
    /// - Returns: the stored messages.
    @discardableResult
    public mutating func seedHistory(chatId: Int64, sender: Int64, texts: [String], now: SimInstant) -> [ChatMessage] {
        texts.map { store(chatId: chatId, sender: sender, text: $0, cid: nil, attaches: nil, now: now) }
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
    public var chatIds: [Int64] { chats.keys.sorted() }

    /// A chat's members, ascending, or empty for an unknown chat.
    public func members(ofChat chatId: Int64) -> [Int64] { chats[chatId]?.members ?? [] }

    /// A chat's whole history in id order, or empty for an unknown chat.
    public func messages(inChat chatId: Int64) -> [ChatMessage] { chats[chatId]?.messages ?? [] }

    /// The chat-list entry a member would see for a chat.
    public func summary(ofChat chatId: Int64) -> ChatSummary? {
        chats[chatId].map {
            ChatSummary(id: $0.id, members: $0.members, modified: $0.modified, lastMessage: $0.messages.last)
        }
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
        connections.keys.sorted().map { ($0, connections[$0]!.userId) }
    }

    /// How many requests are being processed (their delayed execution is pending).
    public var requestsInProcessing: Int { pending.count }

    // MARK: Events

    /// Feeds one event at virtual time `now`.
    /// - Returns: the actions for the driver, in order.
    public mutating func handle(_ event: ServerEvent, now: SimInstant) -> [ServerAction] {
        switch event {
        case .connectionOpened(let connection):
            connections[connection] = ConnectionState()
            return []
        case .connectionClosed(let connection):
            connections[connection] = nil
            return []
        case .packetReceived(let packet, let connection):
            return receive(packet, on: connection, now: now)
        case .timerFired(let timer):
            guard let request = pending.removeValue(forKey: timer) else { return [] }
            return execute(request.packet, on: request.connection, userIdAtReceipt: request.userId, now: now)
        case .restart:
            stats.restarts += 1
            var actions: [ServerAction] = pending.keys.sorted().map { .cancelTimer($0) }
            actions += connections.keys.sorted().map { .close($0) }
            pending = [:]
            connections = [:]
            return actions
        }
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
        var delay = (knobs.processingDelay[packet.opcode] ?? knobs.defaultProcessingDelay).draw(using: &generator)
        for period in knobs.slowPeriods where period.start <= now && now < period.end {
            delay += period.extraDelay
        }
        let userId = connections[connection]?.userId
        if delay == .zero { return execute(packet, on: connection, userIdAtReceipt: userId, now: now) }
        let timer = ServerTimerID(rawValue: nextTimerNumber)
        nextTimerNumber += 1
        pending[timer] = PendingRequest(packet: packet, connection: connection, userId: userId)
        return [.startTimer(timer, at: now + delay)]
    }

    /// Executes a request. A request whose connection closed meanwhile still takes effect (a MSG_SEND is stored),
    /// but its response is lost, as with a real server.
    private mutating func execute(
        _ packet: Packet, on connection: ServerConnectionID, userIdAtReceipt: Int64?, now: SimInstant
    ) -> [ServerAction] {
        let isOpen = connections[connection] != nil
        var actions: [ServerAction] = []
        func reply(_ body: Packet.Body) {
            guard isOpen else { return }
            let response = Packet(cmd: .response, seq: packet.seq, opcode: packet.opcode, body: body)
            actions.append(.send(response, on: connection))
        }
        func fail(_ code: String, _ text: String) {
            guard isOpen else { return }
            stats.errorsSent += 1
            let body = Packet.Body.error(ErrorPayload(error: code, message: text))
            let error = Packet(cmd: .error, seq: packet.seq, opcode: packet.opcode, body: body)
            actions.append(.send(error, on: connection))
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
            reply(.sessionInitResponse(SessionInitResponse(time: serverTimeMilliseconds(at: now))))
        case .ping:
            reply(.empty)
        case .login(let request):
            guard let id = userIdsByToken[request.token], let user = users[id] else {
                fail("login.token", "unknown token")
                return actions
            }
            if isOpen { connections[connection]?.userId = id }
            reply(.loginResponse(loginResponse(for: user, request: request, now: now)))
        case .chatHistory(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_HISTORY before LOGIN"); return actions }
            guard let chat = chats[request.chatId], chat.members.contains(userId) else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            reply(.chatHistoryResponse(ChatHistoryResponse(messages: chat.page(request))))
        case .msgSend(let request):
            guard let userId else { fail("session.notLoggedIn", "MSG_SEND before LOGIN"); return actions }
            guard let chat = chats[request.chatId], chat.members.contains(userId) else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            let key = IdempotencyKey(userId: userId, cid: request.message.cid)
            if let entry = idempotency[key], let original = chats[entry.chatId]?.message(id: entry.messageId) {
                stats.duplicateSendsAbsorbed += 1
                reply(.msgSendResponse(MsgSendResponse(chatId: entry.chatId, message: original)))
                return actions
            }
            for attach in request.message.attaches where attach.type == "PHOTO" {
                guard let token = attach.photoToken, cdn.hasUpload(token: token) else {
                    fail("photo.notUploaded", "photo \(attach.photoToken ?? "nil") was not uploaded to the CDN")
                    return actions
                }
            }
            let message = store(
                chatId: chat.id, sender: userId, text: request.message.text, cid: request.message.cid,
                attaches: request.message.attaches.isEmpty ? nil : request.message.attaches, now: now)
            idempotency[key] = IdempotencyEntry(userId: userId, cid: key.cid, chatId: chat.id, messageId: message.id)
            reply(.msgSendResponse(MsgSendResponse(chatId: chat.id, message: message)))
            actions += pushMessage(message, chatId: chat.id, except: userId,
                                   exceptDevice: connections[connection]?.deviceId)
        case .photoUpload(let request):
            guard userId != nil else { fail("session.notLoggedIn", "PHOTO_UPLOAD before LOGIN"); return actions }
            let token = "photo-\(nextPhotoNumber)"
            nextPhotoNumber += 1
            cdn.issue(token: token, sizeBytes: request.sizeBytes)
            reply(.photoUploadResponse(PhotoUploadResponse(photoToken: token)))
        case .chatMark(let request):
            guard let userId else { fail("session.notLoggedIn", "CHAT_MARK before LOGIN"); return actions }
            guard chats[request.chatId]?.members.contains(userId) == true else {
                fail("chat.notFound", "chat \(request.chatId) is unknown to user \(userId)")
                return actions
            }
            chats[request.chatId]!.marks[userId] = max(chats[request.chatId]!.marks[userId] ?? 0, request.mark)
            reply(.empty)
            let push = Packet.Body.notifMark(NotifMark(chatId: request.chatId, userId: userId, mark: request.mark))
            actions += pushToMembers(push, opcode: .notifMark, chatId: request.chatId, except: userId)
        default:
            fail("request.unsupported", "opcode \(packet.opcode) is not a request the server handles")
        }
        return actions
    }

    private func loginResponse(for user: User, request: LoginRequest, now: SimInstant) -> LoginResponse {
        let changed = chats.values
            .filter { $0.members.contains(user.id) && $0.modified > request.chatsSync }
            .sorted { ($0.modified, $0.id) > ($1.modified, $1.id) }
        var limit = max(0, request.chatsCount)
        if let cap = knobs.loginChatsCap { limit = min(limit, cap) }
        let summaries = changed.prefix(limit).map {
            ChatSummary(id: $0.id, members: $0.members, modified: $0.modified, lastMessage: $0.messages.last)
        }
        var contacts: [Contact] = []
        if request.contactsSync == 0 {
            let ids = Set(chats.values.filter { $0.members.contains(user.id) }.flatMap(\.members))
                .subtracting([user.id])
            contacts = ids.sorted().compactMap { users[$0].map { Contact(id: $0.id, name: $0.name) } }
        }
        return LoginResponse(
            profile: Profile(id: user.id, name: user.name), chats: summaries, contacts: contacts,
            time: serverTimeMilliseconds(at: now))
    }

    private mutating func store(
        chatId: Int64, sender: Int64, text: String, cid: Int64?, attaches: [Attach]?, now: SimInstant
    ) -> ChatMessage {
        precondition(chats[chatId] != nil, "unknown chat \(chatId)")
        lastMessageId += 1
        let time = serverTimeMilliseconds(at: now)
        let message = ChatMessage(
            id: lastMessageId, time: time, sender: sender, text: text, cid: cid, attaches: attaches)
        chats[chatId]!.messages.append(message)
        chats[chatId]!.modified = max(chats[chatId]!.modified, time)
        stats.messagesStored += 1
        return message
    }

    /// Pushes a new message to the chat's members' connections, except `except`'s: all of them, or with
    /// `exceptDevice` only those of that device (the user's other devices get the push).
    private mutating func pushMessage(
        _ message: ChatMessage, chatId: Int64, except: Int64?, exceptDevice: String? = nil
    ) -> [ServerAction] {
        pushToMembers(.notifMessage(NotifMessage(chatId: chatId, message: message)), opcode: .notifMessage,
                      chatId: chatId, except: except, exceptDevice: exceptDevice)
    }

    private mutating func pushToMembers(
        _ body: Packet.Body, opcode: Opcode, chatId: Int64, except: Int64?, exceptDevice: String? = nil
    ) -> [ServerAction] {
        guard let members = chats[chatId]?.members else { return [] }
        var actions: [ServerAction] = []
        for connection in connections.keys.sorted() {
            guard let userId = connections[connection]?.userId, members.contains(userId) else { continue }
            if userId == except, exceptDevice == nil || connections[connection]?.deviceId == exceptDevice {
                continue
            }
            if generator.nextBernoulli(knobs.pushLossProbability) {
                stats.pushesLost += 1
                continue
            }
            let packet = Packet(cmd: .push, seq: 0, opcode: opcode, body: body)
            actions.append(.send(packet, on: connection))
            stats.pushesSent += 1
            if generator.nextBernoulli(knobs.pushDuplicationProbability) {
                actions.append(.send(packet, on: connection))
                stats.pushesDuplicated += 1
            }
        }
        return actions
    }
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
}

private struct PendingRequest {
    var packet: Packet
    var connection: ServerConnectionID
    var userId: Int64?
}

private struct ChatRecord {
    var id: Int64
    var members: [Int64]
    var modified: Int64
    var messages: [ChatMessage] = []
    var marks: [Int64: Int64] = [:]

    init(id: Int64, members: [Int64], modified: Int64) {
        self.id = id
        self.members = members
        self.modified = modified
    }

    func message(id: Int64) -> ChatMessage? {
        let index = firstIndex(above: id - 1)
        return index < messages.count && messages[index].id == id ? messages[index] : nil
    }

    /// Up to `backward` messages with ids at or below `from` and up to `forward` above it, ascending.
    func page(_ request: ChatHistoryRequest) -> [ChatMessage] {
        let split = firstIndex(above: request.from)
        // The counts come from the wire: clamp them to the history's size before adding, so Int.max cannot overflow.
        let low = split - min(max(0, request.backward), split)
        let high = split + min(max(0, request.forward), messages.count - split)
        return Array(messages[low..<high])
    }

    /// The index of the first message whose id is greater than `id`.
    private func firstIndex(above id: Int64) -> Int {
        var low = 0
        var high = messages.count
        while low < high {
            let mid = (low + high) / 2
            if messages[mid].id <= id { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
