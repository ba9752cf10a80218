import SyncSim
import SyncTrace

/// What a capture reveals about the server's data, enough to rebuild a virtual server that can answer the captured
/// requests: users (LOGIN tokens and the profiles answered), chats and their members, and the messages that existed
/// before the capture (those seen going to a client that no captured MSG_SEND created).
struct ReplayWorldModel {
    struct User {
        var id: Int64
        var name: String
        var token: String?
    }

    /// Users by id, ascending.
    var users: [User] = []
    /// Chat ids with their member ids, ascending.
    var chats: [(id: Int64, members: [Int64])] = []
    /// Messages that existed before the capture, by chat, in id order.
    var history: [(chatId: Int64, messages: [ChatMessage])] = []
    /// The server clock at virtual time zero: the largest (server time - capture time) over SESSION_INIT and LOGIN
    /// answers, so no server time the capture shows lies ahead of the rebuilt server's clock.
    var epochMilliseconds: Int64 = 1_700_000_000_000
    /// The user each client address logged in as, in first-login order.
    var userIdByClient: [(client: String, userId: Int64)] = []
    /// Messages of `history` the capture first shows in a push (NOTIF_MESSAGE of a new message, before any page, list
    /// or send answer showed them): posted while the capture ran, from a device it does not show. Each with the time
    /// of its first push and the version it showed, in that order (then by id).
    var pushedFirst: [(time: SimInstant, chatId: Int64, message: ChatMessage)] = []

    init(_ timeline: ReplayTimeline) {
        var usersById: [Int64: User] = [:]
        var members: [Int64: Set<Int64>] = [:]
        // Senders of messages seen in a chat (and users its read marks name): members too, when they are users.
        var senders: [Int64: Set<Int64>] = [:]
        var seen: [Int64: [Int64: ChatMessage]] = [:]
        // When each message (by chat, then id) was first shown to a client, and whether that was a push of it new.
        var firstShown: [Int64: [Int64: (time: SimInstant, isNewPush: Bool, message: ChatMessage)]] = [:]
        // A message shown to a client: `seen` keeps its latest version, `firstShown` its first sighting.
        func shown(_ message: ChatMessage, in chatId: Int64, at time: SimInstant, isNewPush: Bool = false) {
            seen[chatId, default: [:]][message.id] = message
            if let earlier = firstShown[chatId]?[message.id], earlier.time <= time { return }
            firstShown[chatId, default: [:]][message.id] = (time, isNewPush, message)
        }
        var sentCids: Set<Int64> = []
        // Chats a captured group creation made (the MSG_SEND answer to a request without `chatId`): they did not
        // exist before the capture, so the rebuilt server makes them when the replay feeds that request.
        var createdChats: Set<Int64> = []
        var epoch: Int64?
        var clientUsers: [(client: String, userId: Int64)] = []
        for connection in timeline.connections {
            var tokenBySeq: [UInt16: String] = [:]
            var groupCreationSeqs: Set<UInt16> = []
            var userOfConnection: Int64?
            let client = connection.clientAddress
            for entry in connection.entries {
                // A frame naming a chat, sent by or to a logged-in user, shows that user is a member.
                if let user = userOfConnection, let chatId = Self.chatShowingMember(entry.packet.body) {
                    members[chatId, default: []].insert(user)
                }
                func listed(_ chat: ChatSummary) {
                    members[chat.id, default: []].formUnion(chat.members)
                    if let message = chat.lastMessage { shown(message, in: chat.id, at: entry.time) }
                }
                switch entry.packet.body {
                case .login(let request):
                    tokenBySeq[entry.packet.seq] = request.token
                case .msgSend(let request):
                    sentCids.insert(request.message.cid)
                case .groupCreate(let request):
                    sentCids.insert(request.cid)
                    groupCreationSeqs.insert(entry.packet.seq)
                case .notifMsgDelete(let push):
                    if let chat = push.chat { members[chat.id, default: []].formUnion(chat.members) }
                case .notifMark(let push):
                    senders[push.chatId, default: []].insert(push.userId)
                case .chatsListResponse(let response):
                    response.chats.forEach(listed)
                case .loginResponse(let response):
                    let token = tokenBySeq[entry.packet.seq]
                    usersById[response.profile.id] = User(id: response.profile.id, name: response.profile.name,
                                                          token: token ?? usersById[response.profile.id]?.token)
                    userOfConnection = response.profile.id
                    if !clientUsers.contains(where: { $0.client == client }) {
                        clientUsers.append((client, response.profile.id))
                    }
                    for contact in response.contacts where usersById[contact.id] == nil {
                        usersById[contact.id] = User(id: contact.id, name: contact.name, token: nil)
                    }
                    response.chats.forEach(listed)
                    epoch = max(epoch ?? .min, Self.epoch(serverTime: response.time, seenAt: entry.time))
                case .sessionInitResponse(let response):
                    epoch = max(epoch ?? .min, Self.epoch(serverTime: response.time, seenAt: entry.time))
                case .chatHistoryResponse(let response):
                    for message in response.messages {
                        // The chat is not in the response; the request with the same seq names it.
                        // On an earlier connection of the same client when the server sent the answer to the
                        // device's newest connection.
                        let request = connection.entries.last {
                            $0.direction == .clientToServer && $0.packet.seq == entry.packet.seq
                                && $0.time <= entry.time
                        } ?? timeline.connections.filter {
                            $0.clientAddress == connection.clientAddress
                                && $0.opensAt < connection.opensAt
                        }.flatMap(\.entries).last {
                            $0.direction == .clientToServer && $0.packet.seq == entry.packet.seq
                                && $0.packet.opcode == .chatHistory && $0.time <= entry.time
                        }
                        if case .chatHistory(let asked)? = request?.packet.body {
                            shown(message, in: asked.chatId, at: entry.time)
                            senders[asked.chatId, default: []].insert(message.sender)
                        }
                    }
                case .notifMessage(let push):
                    senders[push.chatId, default: []].insert(push.message.sender)
                    // A push of an edited or removed version (a `status`) is a change to a message, not a new one.
                    shown(push.message, in: push.chatId, at: entry.time, isNewPush: push.message.status == nil)
                case .msgSendResponse(let response):
                    if groupCreationSeqs.remove(entry.packet.seq) != nil { createdChats.insert(response.chatId) }
                    shown(response.message, in: response.chatId, at: entry.time)
                default:
                    break
                }
            }
        }
        // Tokens the capture logged in with but never saw answered get users of their own.
        var nextId = (usersById.keys.max() ?? 0) + 1
        for connection in timeline.connections {
            for entry in connection.entries {
                guard case .login(let request) = entry.packet.body,
                      !usersById.values.contains(where: { $0.token == request.token }) else { continue }
                usersById[nextId] = User(id: nextId, name: "user\(nextId)", token: request.token)
                nextId += 1
            }
        }
        // Every chat a message or mark was seen in counts its senders that are users among its members: a chat no
        // LOGIN or CHATS_LIST answer listed (it changed while the pages were read) is otherwise a chat of nobody.
        for (chatId, ids) in senders {
            let known = ids.filter { usersById[$0] != nil }
            if !known.isEmpty { members[chatId, default: []].formUnion(known) }
        }
        // A chat seen only through its messages (a push, or an answer naming a chat no LOGIN listed) is still a chat:
        // the rebuilt server must hold it before its history is seeded, members unknown.
        for chatId in seen.keys where members[chatId] == nil { members[chatId] = [] }
        users = usersById.keys.sorted().map { usersById[$0]! }
        chats = members.keys.sorted().filter { !createdChats.contains($0) }.map { ($0, members[$0]!.sorted()) }
        history = seen.keys.sorted().filter { !createdChats.contains($0) }.map { chatId in
            let messages = seen[chatId]!.values.filter { $0.cid.map { !sentCids.contains($0) } ?? true }
            return (chatId, messages.sorted { $0.id < $1.id })
        }.filter { !$0.messages.isEmpty }
        if let epoch { epochMilliseconds = epoch }
        userIdByClient = clientUsers
        for chat in history {
            for message in chat.messages {
                guard let first = firstShown[chat.chatId]?[message.id], first.isNewPush else { continue }
                pushedFirst.append((first.time, chat.chatId, first.message))
            }
        }
        pushedFirst.sort { ($0.time, $0.message.id) < ($1.time, $1.message.id) }
    }

    /// The chat a frame names when it shows that its connection's user is a member: a request on the chat (send,
    /// page, edit, delete, read mark), or a push or send answer for it. Nil for any other frame.
    static func chatShowingMember(_ body: Packet.Body) -> Int64? {
        switch body {
        case .msgSend(let request): request.chatId
        case .chatHistory(let request): request.chatId
        case .msgEdit(let request): request.chatId
        case .msgDelete(let request): request.chatId
        case .chatMark(let request): request.chatId
        case .notifMessage(let push): push.chatId
        case .notifMsgDelete(let push): push.chatId
        case .notifMark(let push): push.chatId
        case .msgSendResponse(let response): response.chatId
        default: nil
        }
    }

    /// A virtual server holding these users, chats and earlier messages (their ids renumbered from 1 in order).
    func makeServer(knobs: ServerKnobs = ServerKnobs()) -> SyncServer { makeServerAndIds(knobs: knobs).server }

    /// A message as the capture names it: its chat and the id the captured server gave it.
    struct CapturedMessage: Hashable {
        var chatId: Int64
        var id: Int64
    }

    /// `makeServer`'s server, and the id it gave each earlier message, by the message's captured chat and id.
    func makeServerAndIds(knobs: ServerKnobs = ServerKnobs()) -> (server: SyncServer, ids: [CapturedMessage: Int64]) {
        var server = SyncServer(knobs: knobs, generator: RandomStreams(runSeed: 1).stream("server"),
                                epochMilliseconds: epochMilliseconds)
        var ids: [CapturedMessage: Int64] = [:]
        for user in users { server.addUser(id: user.id, name: user.name, token: user.token ?? "token-\(user.id)") }
        for chat in chats { server.addChat(id: chat.id, members: chat.members, now: .start) }
        for chat in history {
            // With the times the capture showed: a field client pages history by time (CHAT_HISTORY `from`).
            for message in chat.messages {
                let seeded = server.seedMessage(chatId: chat.chatId, sender: message.sender, text: message.text,
                                                serverTimeMilliseconds: message.time)
                ids[CapturedMessage(chatId: chat.chatId, id: message.id)] = seeded.id
            }
        }
        return (server, ids)
    }

    /// The latest epoch a server time seen at `time` allows: the rebuilt server's clock is never behind a server
    /// time the capture shows (the time was stamped before the capture saw it), rounded up to whole milliseconds.
    /// A server time outside 0...`maxServerTimeMilliseconds` (a corrupt or hostile capture) is clamped into it, so
    /// neither this subtraction nor the rebuilt server's clock can overflow.
    static func epoch(serverTime: Int64, seenAt time: SimInstant) -> Int64 {
        min(max(serverTime, 0), maxServerTimeMilliseconds) - time.nanosecondsSinceStart / 1_000_000
    }

    /// The largest server time an epoch is derived from: 2^53 ms (year 285 000 or so), far above any real clock and
    /// far enough below `Int64.max` that adding a run's virtual milliseconds cannot overflow.
    static let maxServerTimeMilliseconds: Int64 = 1 << 53

    func name(ofUser id: Int64) -> String? { users.first { $0.id == id }?.name }
}
