import SimCore
import SyncSim
import SyncTrace

/// Feeds a capture's client→server frames to a virtual server rebuilt from the capture (`ReplayWorldModel`), at the
/// captured times, and compares the server's answers with the captured ones.
///
/// Comparison rules, per connection: every captured response or error is paired with the first replayed answer of
/// the same seq; the pair must agree on cmd (response or error) and opcode, and on the payload's shape: the body
/// kind, the number of chats and contacts in a LOGIN answer, of messages in a CHAT_HISTORY answer, the texts of the
/// messages, and the error code of an error. Message ids, times and server clocks may differ and are not compared.
/// A captured answer with no replayed one, and a replayed answer with no captured one, are differences. Pushes
/// are compared as counts per opcode per connection.
///
/// Since the rebuilt server numbers messages its own way, a request naming a message (MSG_EDIT, MSG_DELETE,
/// CHAT_MARK) is fed with the rebuilt server's id of the message the capture named: an earlier message's as the
/// world model seeded it, a sent one's as the replayed MSG_SEND answer gave it (paired with the captured answer of
/// the same connection and seq). An id the replay has not met is fed as captured. In the same way a chat a captured
/// group creation made is named by the rebuilt server's id for it in every later request (`chatId`, `chatIds`), and a
/// photo token by the token the rebuilt server's PHOTO_UPLOAD answer gave (`photoToken`), and a file's, video's or
/// voice message's slot by the id and token the rebuilt server's FILE_UPLOAD or VIDEO_UPLOAD answer gave (`fileId`,
/// `videoId`, `audioId`, `token`). The bytes go to a CDN the capture may not show (another host, or TLS), so a photo
/// or slot the captured server accepted in a MSG_SEND counts as uploaded when that MSG_SEND is fed (a slot with the
/// name and size the captured messages give its file, and the NOTIF_ATTACH it brings sent then).
struct ReplayAgainstServer {
    /// One difference, printed as a line.
    struct Difference: CustomStringConvertible {
        var time: SimInstant
        var connection: Int
        var what: String
        var description: String { "DIFF  \(time) connection \(connection): \(what)" }
    }

    struct Outcome {
        var requests = 0
        var comparedAnswers = 0
        var differences: [Difference] = []
        /// Connections whose answers were not compared: captured without their handshake (no SYN, no SESSION_INIT
        /// or LOGIN), they were logged in before the capture started, which the rebuilt server never saw, so it
        /// refuses every request on them.
        var uncomparedConnections: [Int] = []
        /// Captured answers to requests the capture lost (`lost`, not restored) that the replay, never fed the
        /// request, did not answer: no difference of the server's.
        var lostAnswers = 0
        /// The digest of what the server did, one trace line per frame it sent to an open connection (time,
        /// `conn#N`, opcode, cmd, seq and the frame's length, as the world's trace records them; not the bytes,
        /// since a LOGIN answer's messages by chat are a dictionary): the same capture and binary give the same
        /// digest.
        var digestHex = ""
    }

    let timeline: ReplayTimeline
    let model: ReplayWorldModel
    /// Requests the capture lost in a gap whose answers it shows (`ReplayLostRequests.restoring`, which made
    /// `timeline`): an unrestored one's captured answer is not a difference when the replay sends none.
    var lost: [ReplayLostRequests.Lost] = []

    func run() -> Outcome {
        var (server, ids) = model.makeServerAndIds()
        var outcome = Outcome()
        // The captured MSG_SEND answers by connection and seq, oldest first: each pairs with the replayed answer of
        // the same seq, which tells the rebuilt server's id of the captured message.
        var capturedSends: [Int: [UInt16: [ReplayWorldModel.CapturedMessage]]] = [:]
        // The captured PHOTO_UPLOAD answers' tokens by connection and seq, oldest first (paired the same way), and
        // the FILE_UPLOAD and VIDEO_UPLOAD answers' slots.
        var capturedTokens: [Int: [UInt16: [String]]] = [:]
        var capturedSlots: [Int: [UInt16: [MediaUploadSlot]]] = [:]
        // A captured file's name and size by its captured id, as the captured messages carry them.
        var capturedFiles: [Int64: (name: String?, sizeBytes: Int)] = [:]
        for connection in timeline.connections {
            for entry in connection.entries where entry.direction == .serverToClient && entry.packet.cmd == .response {
                switch entry.packet.body {
                case .msgSendResponse(let answer):
                    capturedSends[connection.number, default: [:]][entry.packet.seq, default: []].append(
                        ReplayWorldModel.CapturedMessage(chatId: answer.chatId, id: answer.message.id))
                case .photoUploadResponse(let answer):
                    capturedTokens[connection.number, default: [:]][entry.packet.seq, default: []].append(
                        answer.photoToken)
                case .mediaUploadResponse(let answer) where !answer.info.isEmpty:
                    capturedSlots[connection.number, default: [:]][entry.packet.seq, default: []].append(
                        answer.info[0])
                default:
                    break
                }
            }
            for entry in connection.entries where entry.direction == .serverToClient {
                let message: ChatMessage? = switch entry.packet.body {
                case .msgSendResponse(let answer): answer.message
                case .notifMessage(let push): push.message
                default: nil
                }
                for attach in message?.attaches ?? [] where attach.type == "FILE" {
                    guard let id = attach.otherInteger("fileId") else { continue }
                    let name: String? = if case .string(let text)? = attach[other: "name"] { text } else { nil }
                    capturedFiles[id] = (name, attach.otherInteger("size").map { Int($0) } ?? 0)
                }
            }
        }
        // Each captured message's id by its chat and server time, from every answer and push that carried it: a
        // CHAT_HISTORY page asked from a message's time (`from`) is asked from the rebuilt server's time of that
        // message, which may lie a millisecond off the captured one (the rebuilt clock is estimated from the
        // capture's answers): a scroll from a message sent a moment before read an empty page (a helper's loopback
        // capture, one run in six).
        var capturedIdByTime: [Int64: [Int64: Int64]] = [:]
        for connection in timeline.connections {
            for entry in connection.entries where entry.direction == .serverToClient {
                var found: [(chatId: Int64, message: ChatMessage)] = []
                switch entry.packet.body {
                case .msgSendResponse(let answer): found = [(answer.chatId, answer.message)]
                case .notifMessage(let push): found = [(push.chatId, push.message)]
                default: break
                }
                for (chatId, message) in found where capturedIdByTime[chatId]?[message.time] == nil {
                    capturedIdByTime[chatId, default: [:]][message.time] = message.id
                }
            }
        }
        // The rebuilt server's ids of chats the capture's group creations made, and its photo tokens, by the
        // captured ones.
        var chatIds: [Int64: Int64] = [:]
        var photoTokens: [String: String] = [:]
        // The rebuilt server's slot ids and tokens by the captured ones, and the captured id of each rebuilt slot.
        var media = MediaTranslation()
        // The event list: (time, order, event, whether the request's photos count as uploaded); server timers are
        // added as the server starts them.
        var queue: [(time: SimInstant, order: Int, event: ServerEvent, completesUploads: Bool)] = []
        var order = 0
        func schedule(_ event: ServerEvent, at time: SimInstant, completesUploads: Bool = false) {
            queue.append((time, order, event, completesUploads))
            order += 1
        }
        // Requests in the order the server took them (`feedTimes`): at their capture time, except concurrent ones.
        let feedTimes = Self.feedTimes(timeline)
        for connection in timeline.connections {
            let id = ServerConnectionID(rawValue: connection.number)
            schedule(.connectionOpened(id), at: connection.opensAt)
            for (index, entry) in connection.entries.enumerated() where entry.direction == .clientToServer {
                schedule(.packetReceived(entry.packet, on: id),
                         at: feedTimes[RequestKey(connection: connection.number, index: index)] ?? entry.time,
                         completesUploads: Self.namesUpload(entry.packet)
                             && Self.capturedAnswer(to: index, in: connection)?.cmd == .response)
                outcome.requests += 1
            }
            // A connection the server closed first (a drop) is closed then: the captured server sent nothing on it
            // after, so neither may the rebuilt one (a push it would send there went to the client's next one). One
            // the client closed first is closed at its FIN or RST: the server reads the end of the stream there and
            // pushes nothing more on it (a raw connection of PyMax's test closed right after its answer, before a
            // push the other user's send made a moment later).
            let closes = [connection.closesAt, connection.tcp.serverClosedAt, connection.tcp.clientClosedAt]
                .compactMap { $0 }.min()
            if let closes {
                schedule(.connectionClosed(id), at: Self.closeFeedTime(of: connection, closes: closes,
                                                                      timeline: timeline, feedTimes: feedTimes))
            }
        }
        var cancelled: Set<ServerTimerID> = []
        var trace = TraceLog(keepsRecords: false)
        var replayed: [Int: [(time: SimInstant, packet: Packet)]] = [:]
        var closed: Set<Int> = []
        // Requests still processing at the capture's end get the longest processing delay to finish.
        let deadline = timeline.end + .seconds(Int64(60))
        while let next = queue.indices.min(by: {
            (queue[$0].time, queue[$0].order) < (queue[$1].time, queue[$1].order)
        }) {
            let (time, _, event, completesUploads) = queue.remove(at: next)
            guard time <= deadline else { break }
            if case .timerFired(let timer) = event, cancelled.contains(timer) { continue }
            var fed = event
            var actions: [ServerAction] = []
            if case .packetReceived(let packet, let connection) = event {
                var translated = Self.translated(Self.renumbered(packet, ids), chatIds: chatIds,
                                                 photoTokens: photoTokens, media: media)
                if case .chatHistory(let captured) = packet.body, case .chatHistory(var request) = translated.body,
                   let capturedId = capturedIdByTime[captured.chatId]?[captured.from],
                   let replayedId = ids[ReplayWorldModel.CapturedMessage(chatId: captured.chatId, id: capturedId)],
                   let time = server.messages(inChat: request.chatId).first(where: { $0.id == replayedId })?.time {
                    request.from = time
                    translated.body = .chatHistory(request)
                }
                if completesUploads {
                    actions += Self.completeUploads(named: translated, in: &server, media: media, files: capturedFiles)
                }
                fed = .packetReceived(translated, on: connection)
            }
            actions += server.handle(fed, now: time)
            for action in actions {
                switch action {
                case .send(let packet, let connection):
                    if packet.cmd == .response, case .msgSendResponse(let answer) = packet.body,
                       var captured = capturedSends[connection.rawValue]?[packet.seq], !captured.isEmpty {
                        let message = captured.removeFirst()
                        ids[message] = answer.message.id
                        // A group creation's chat, or a send to a chat the rebuilt server numbers otherwise.
                        if message.chatId != answer.chatId { chatIds[message.chatId] = answer.chatId }
                        capturedSends[connection.rawValue]![packet.seq] = captured
                    }
                    if packet.cmd == .response, case .photoUploadResponse(let answer) = packet.body,
                       var captured = capturedTokens[connection.rawValue]?[packet.seq], !captured.isEmpty {
                        photoTokens[captured.removeFirst()] = answer.photoToken
                        capturedTokens[connection.rawValue]![packet.seq] = captured
                    }
                    if packet.cmd == .response, case .mediaUploadResponse(let answer) = packet.body,
                       let slot = answer.info.first,
                       var captured = capturedSlots[connection.rawValue]?[packet.seq], !captured.isEmpty {
                        media.pair(captured: captured.removeFirst(), replayed: slot)
                        capturedSlots[connection.rawValue]![packet.seq] = captured
                    }
                    if !closed.contains(connection.rawValue) {
                        replayed[connection.rawValue, default: []].append((time, packet))
                        trace.record(at: time, component: "server", kind: "tx",
                                     detail: "conn#\(connection.rawValue) \(packet.opcode) \(packet.cmd) "
                                         + "seq=\(packet.seq) bytes=\(Self.frameBytes(packet))")
                    }
                case .close(let connection):
                    closed.insert(connection.rawValue)
                case .startTimer(let timer, let at):
                    schedule(.timerFired(timer), at: at)
                case .cancelTimer(let timer):
                    cancelled.insert(timer)
                }
            }
            if case .connectionClosed(let connection) = event { closed.insert(connection.rawValue) }
        }
        for connection in timeline.connections {
            compare(connection, replayed: replayed[connection.number] ?? [], into: &outcome)
        }
        outcome.differences.sort { ($0.time, $0.connection) < ($1.time, $1.connection) }
        outcome.digestHex = trace.digestHex
        return outcome
    }

    /// `packet` with every message id it names replaced by the rebuilt server's id of that captured message, where
    /// the replay knows it.
    static func renumbered(_ packet: Packet, _ ids: [ReplayWorldModel.CapturedMessage: Int64]) -> Packet {
        func id(_ captured: Int64, in chatId: Int64) -> Int64 {
            ids[ReplayWorldModel.CapturedMessage(chatId: chatId, id: captured)] ?? captured
        }
        var packet = packet
        switch packet.body {
        case .msgEdit(var request):
            request.messageId = id(request.messageId, in: request.chatId)
            packet.body = .msgEdit(request)
        case .msgDelete(var request):
            request.messageIds = request.messageIds.map { id($0, in: request.chatId) }
            packet.body = .msgDelete(request)
        case .chatMark(var request):
            request.messageId = request.messageId.map { id($0, in: request.chatId) }
            packet.body = .chatMark(request)
        case .msgSend(var request) where request.message.link != nil:
            // A reply or forward names the linked message in its own chat, or in `chatId`'s.
            let link = request.message.link!
            request.message.link!.messageId = id(link.messageId, in: link.chatId ?? request.chatId)
            packet.body = .msgSend(request)
        case .msgGet(var request):
            request.messageIds = request.messageIds.map { id($0, in: request.chatId) }
            packet.body = .msgGet(request)
        case .msgGetReactions(var request):
            request.messageIds = request.messageIds.map { id($0, in: request.chatId) }
            packet.body = .msgGetReactions(request)
        case .msgGetDetailedReactions(var request):
            request.messageId = id(request.messageId, in: request.chatId)
            packet.body = .msgGetDetailedReactions(request)
        case .msgReaction(var request):
            request.messageId = id(request.messageId, in: request.chatId)
            packet.body = .msgReaction(request)
        case .msgCancelReaction(var request):
            request.messageId = id(request.messageId, in: request.chatId)
            packet.body = .msgCancelReaction(request)
        case .chatUpdate(var request) where (request.pinMessageId ?? 0) != 0:
            request.pinMessageId = id(request.pinMessageId!, in: request.chatId)
            packet.body = .chatUpdate(request)
        case .mediaFetch(var request) where request.chatId != nil && request.messageId != nil:
            request.messageId = id(request.messageId!, in: request.chatId!)
            packet.body = .mediaFetch(request)
        default:
            break
        }
        return packet
    }

    /// The rebuilt server's upload slots by the captured ones: ids (`fileId`, `videoId`, `audioId`) and tokens.
    struct MediaTranslation {
        var ids: [Int64: Int64] = [:]
        var tokens: [String: String] = [:]
        /// The captured id of each rebuilt slot.
        var capturedIds: [Int64: Int64] = [:]

        var isEmpty: Bool { ids.isEmpty && tokens.isEmpty }

        mutating func pair(captured: MediaUploadSlot, replayed: MediaUploadSlot) {
            if let from = captured.fileId ?? captured.videoId, let to = replayed.fileId ?? replayed.videoId {
                ids[from] = to
                capturedIds[to] = from
            }
            tokens[captured.token] = replayed.token
        }
    }

    /// `packet` with every `chatId` (and `chatIds` element) found in `chatIds`, every `photoToken` found in
    /// `photoTokens`, and every slot id (`fileId`, `videoId`, `audioId`) and slot `token` found in `media` replaced,
    /// wherever its payload names them; the packet itself when it names none.
    static func translated(_ packet: Packet, chatIds: [Int64: Int64], photoTokens: [String: String],
                           media: MediaTranslation = MediaTranslation()) -> Packet {
        guard !chatIds.isEmpty || !photoTokens.isEmpty || !media.isEmpty else { return packet }
        var changed = false
        func mapped(_ value: MessagePackValue, in table: [Int64: Int64]) -> MessagePackValue {
            let captured: Int64? = switch value {
            case .int(let id): id
            case .uint(let id): Int64(exactly: id)
            default: nil
            }
            guard let captured, let replayed = table[captured] else { return value }
            changed = true
            return replayed < 0 ? .int(replayed) : .uint(UInt64(replayed))
        }
        func chatId(_ value: MessagePackValue) -> MessagePackValue { mapped(value, in: chatIds) }
        func rewrite(_ value: MessagePackValue) -> MessagePackValue {
            switch value {
            case .array(let elements):
                return .array(elements.map(rewrite))
            case .map(let pairs):
                return .map(pairs.map { pair in
                    switch (pair.key, pair.value) {
                    case (.string("chatId"), _):
                        return MessagePackPair(pair.key, chatId(pair.value))
                    case (.string("chatIds"), .array(let ids)):
                        return MessagePackPair(pair.key, .array(ids.map(chatId)))
                    case (.string("photoToken"), .string(let token)) where photoTokens[token] != nil:
                        changed = true
                        return MessagePackPair(pair.key, .string(photoTokens[token]!))
                    case (.string("fileId"), _), (.string("videoId"), _), (.string("audioId"), _):
                        return MessagePackPair(pair.key, mapped(pair.value, in: media.ids))
                    case (.string("token"), .string(let token)) where media.tokens[token] != nil:
                        changed = true
                        return MessagePackPair(pair.key, .string(media.tokens[token]!))
                    default:
                        return MessagePackPair(pair.key, rewrite(pair.value))
                    }
                })
            default:
                return value
            }
        }
        var frame = Frame(packet: packet)
        frame.payload = rewrite(frame.payload)
        guard changed, let result = try? Packet(frame: frame) else { return packet }
        return result
    }

    /// Whether a request sends uploads: a MSG_SEND with a `photoToken` attachment, or a file, video or voice message.
    static func namesUpload(_ packet: Packet) -> Bool {
        guard case .msgSend(let request) = packet.body else { return false }
        return request.message.attaches.contains { $0.photoToken != nil || $0.refersToMediaUpload }
    }

    /// The captured answer (response or error) to the request at `index` of `connection`'s entries: the first
    /// server-to-client frame after it with its seq and opcode; nil when the capture shows none.
    /// A client request: its connection's number and its index among the connection's entries.
    struct RequestKey: Hashable {
        var connection: Int
        var index: Int
    }

    /// When the requests not fed at their capture time are fed to the rebuilt server (the others are absent).
    ///
    /// The server takes a connection's requests in their order (TCP), but of requests of different connections that
    /// arrive together the capture may show one first and the server take another first: its answers tell the order
    /// it took them. So the requests are fed as a merge of the connections' queues, each queue in capture order:
    /// the next request fed is, of the queues' heads captured within `concurrencyWindow` of the earliest captured
    /// head (of the end of its span, for a request the capture lost and the replay rebuilt, whose arrival the
    /// capture bounds but does not show) and answered in the capture, the one answered first; when the earliest head
    /// has no captured answer, it goes first (nothing tells when the server took it). A request fed after one
    /// captured later than it is fed a nanosecond after that one (at most a few milliseconds late); requests whose
    /// place is unchanged keep their capture time and are absent from the result, so a capture without such a race
    /// is fed as before.
    ///
    /// Before, eight clients that logged in within half a millisecond were fed in capture order and a replaced
    /// session read 76 differences; a GPRS-shaped `serve` answered a page before a send captured 0.3 ms earlier (a
    /// helper's captures, session 37). Until session 38 the answer order was applied only to a chain of requests
    /// each within 2 ms of the one before in which every request was on a connection of its own and answered, so a
    /// client sending two requests back to back, or a busy capture chaining into a long cluster, kept capture order:
    /// PyMax 2.5.0's CHAT_HISTORY answered before another client's MSG_SEND captured a moment earlier read a
    /// difference (the replay's page held the sent message).
    static func feedTimes(_ timeline: ReplayTimeline) -> [RequestKey: SimInstant] {
        struct Request {
            var key: RequestKey
            var time: SimInstant
            var answeredAt: SimInstant?
            /// The latest time it can have reached the server: its capture time, or for a request rebuilt from
            /// its answer, the end of the span it was lost in (`time` is the start).
            var latest: SimInstant
        }
        var queues: [[Request]] = []
        for connection in timeline.connections {
            var queue: [Request] = []
            for (index, entry) in connection.entries.enumerated() where entry.direction == .clientToServer {
                let answer = connection.entries[(index + 1)...].first {
                    $0.direction == .serverToClient && $0.packet.seq == entry.packet.seq
                        && $0.packet.opcode == entry.packet.opcode
                        && ($0.packet.cmd == .response || $0.packet.cmd == .error)
                }
                queue.append(Request(key: RequestKey(connection: connection.number, index: index), time: entry.time,
                                     answeredAt: answer?.time, latest: entry.reachedServerBy ?? entry.time))
            }
            if !queue.isEmpty { queues.append(queue) }
        }
        func captureOrder(_ a: Request, _ b: Request) -> Bool {
            (a.time, a.key.connection, a.key.index) < (b.time, b.key.connection, b.key.index)
        }
        // Ranks in capture order: a request fed out of its rank is moved.
        var rankByKey: [RequestKey: Int] = [:]
        for (rank, request) in queues.flatMap({ $0 }).sorted(by: captureOrder).enumerated() {
            rankByKey[request.key] = rank
        }
        var heads = Array(repeating: 0, count: queues.count)
        var result: [RequestKey: SimInstant] = [:]
        var latest: SimInstant?
        var fed = 0
        while true {
            // The heads, as indices of `queues`; the earliest captured of them.
            let waiting = queues.indices.filter { heads[$0] < queues[$0].count }
            guard let earliest = waiting.min(by: { captureOrder(queues[$0][heads[$0]], queues[$1][heads[$1]]) })
            else { break }
            let first = queues[earliest][heads[earliest]]
            var chosen = earliest
            if first.answeredAt != nil {
                let candidates = waiting.filter {
                    let head = queues[$0][heads[$0]]
                    return head.answeredAt != nil && head.time - first.latest <= concurrencyWindow
                }
                chosen = candidates.min {
                    let (a, b) = (queues[$0][heads[$0]], queues[$1][heads[$1]])
                    return (a.answeredAt!, a.time, a.key.connection, a.key.index)
                        < (b.answeredAt!, b.time, b.key.connection, b.key.index)
                } ?? earliest
            }
            let request = queues[chosen][heads[chosen]]
            heads[chosen] += 1
            let moved = rankByKey[request.key] != fed
            // Not before the request fed before; a moved one strictly later (a nanosecond at least), so no tie of
            // times puts them back in the event queue.
            var time = request.time
            if let latest, time < latest || (moved && time == latest) { time = latest + .nanoseconds(1) }
            if moved || time != request.time { result[request.key] = time }
            latest = time
            fed += 1
        }
        return result
    }

    /// When the rebuilt server reads the close of `connection`, captured at `closes`. A client's FIN captured within
    /// `concurrencyWindow` after another connection's request is taken before that request when the captured
    /// server answered the FIN (its own FIN or RST) before it answered the request: the server read the end of the
    /// stream first, as it takes concurrent requests in the order it answers them (`feedTimes`). Before, such a
    /// request was fed first and its push reached the closing connection: PyMax 2.5.0's WebClient session with
    /// permessage-deflate, a raw connection's FIN 30 µs after alice's CHAT_UPDATE, whose answer came after the
    /// server's FIN, read "NOTIF_CHAT pushes: 0 captured, 1 replayed".
    static func closeFeedTime(
        of connection: ReplayTimeline.Connection, closes: SimInstant, timeline: ReplayTimeline,
        feedTimes: [RequestKey: SimInstant]
    ) -> SimInstant {
        guard let clientFIN = connection.tcp.clientClosedAt, clientFIN == closes,
              let serverFIN = connection.tcp.serverClosedAt, serverFIN >= clientFIN else { return closes }
        // Never before the connection's own last request.
        let ownLast = connection.entries.indices.last { connection.entries[$0].direction == .clientToServer }.map {
            feedTimes[RequestKey(connection: connection.number, index: $0)] ?? connection.entries[$0].time
        }
        var earliest = closes
        for other in timeline.connections where other.number != connection.number {
            for (index, entry) in other.entries.enumerated() where entry.direction == .clientToServer {
                let fed = feedTimes[RequestKey(connection: other.number, index: index)] ?? entry.time
                guard fed < earliest, fed >= clientFIN - concurrencyWindow,
                      let answered = capturedAnswerTime(to: index, in: other), answered > serverFIN else { continue }
                earliest = fed
            }
        }
        guard earliest < closes else { return closes }
        let before = earliest - .nanoseconds(1)
        return ownLast.map { max(before, $0 + .nanoseconds(1)) } ?? before
    }

    /// The capture time of the answer (response or error of the same seq and opcode) to the request at `index`.
    static func capturedAnswerTime(to index: Int, in connection: ReplayTimeline.Connection) -> SimInstant? {
        capturedAnswerEntry(to: index, in: connection)?.time
    }

    /// How close two requests of different connections must be captured to count as concurrent (`feedTimes`):
    /// 2 ms, the spread of requests that left together on a loopback or one host's clients.
    static let concurrencyWindow = SimDuration.milliseconds(Int64(2))

    static func capturedAnswer(to index: Int, in connection: ReplayTimeline.Connection) -> Packet? {
        capturedAnswerEntry(to: index, in: connection)?.packet
    }

    private static func capturedAnswerEntry(to index: Int, in connection: ReplayTimeline.Connection)
        -> ReplayTimeline.Entry? {
        let request = connection.entries[index].packet
        return connection.entries[(index + 1)...].first {
            $0.direction == .serverToClient && $0.packet.seq == request.seq && $0.packet.opcode == request.opcode
                && ($0.packet.cmd == .response || $0.packet.cmd == .error)
        }
    }

    /// Stores at the rebuilt server's CDN every photo `packet` sends whose token it handed out and has no upload
    /// for, at the size its PHOTO_UPLOAD announced (any size when it announced none), and the bytes of every slot
    /// its files, videos and voice messages name that has none, a file's with the name and size `files` give its
    /// captured id.
    /// - Returns: the NOTIF_ATTACH pushes the slots' uploads bring.
    static func completeUploads(
        named packet: Packet, in server: inout SyncServer, media: MediaTranslation = MediaTranslation(),
        files: [Int64: (name: String?, sizeBytes: Int)] = [:]
    ) -> [ServerAction] {
        guard case .msgSend(let request) = packet.body else { return [] }
        for token in request.message.attaches.compactMap(\.photoToken)
        where server.cdn.photoId(token: token) != nil && !server.cdn.hasUpload(token: token) {
            _ = server.receiveUpload(token: token, sizeBytes: server.cdn.announcedSizeBytes(token: token) ?? 0)
        }
        var pushes: [ServerAction] = []
        for attach in request.message.attaches {
            guard let slot = server.mediaSlot(for: attach), slot.sizeBytes == nil else { continue }
            let file = media.capturedIds[slot.id].flatMap { files[$0] }
            pushes += server.receiveMediaUpload(id: slot.id, fileName: file?.name, sizeBytes: file?.sizeBytes ?? 0)
                ?? []
        }
        return pushes
    }

    /// The encoded frame's length in bytes (0 when it does not encode).
    private static func frameBytes(_ packet: Packet) -> Int { (try? FrameEncoder().encode(packet))?.count ?? 0 }

    private func compare(_ connection: ReplayTimeline.Connection, replayed: [(time: SimInstant, packet: Packet)],
                         into outcome: inout Outcome) {
        let number = connection.number
        let loggedInBeforeCapture = !connection.tcp.sawSYN && !connection.entries.contains {
            $0.direction == .clientToServer && ($0.packet.opcode == .sessionInit || $0.packet.opcode == .login)
        }
        guard !loggedInBeforeCapture else {
            // Every answer would be "not logged in" (a helper's capture cut from a running session read 9 and 27
            // such differences, none of them the server's).
            outcome.uncomparedConnections.append(number)
            return
        }
        let recorded = connection.entries.filter { $0.direction == .serverToClient }
        var unmatched = replayed.filter { $0.packet.cmd == .response || $0.packet.cmd == .error }
        for entry in recorded where entry.packet.cmd == .response || entry.packet.cmd == .error {
            let packet = entry.packet
            guard let index = unmatched.firstIndex(where: { $0.packet.seq == packet.seq }) else {
                if lost.contains(where: {
                    !$0.restored && $0.connection == number && $0.seq == packet.seq && $0.opcode == packet.opcode
                }) {
                    outcome.lostAnswers += 1
                    continue
                }
                outcome.differences.append(Difference(
                    time: entry.time, connection: number,
                    what: "seq \(packet.seq) \(packet.opcode): captured \(packet.cmd), replay sent no answer"))
                continue
            }
            let answer = unmatched.remove(at: index).packet
            outcome.comparedAnswers += 1
            var problems: [String] = []
            if answer.cmd != packet.cmd { problems.append("cmd \(packet.cmd) captured, \(answer.cmd) replayed") }
            if answer.opcode != packet.opcode {
                problems.append("opcode \(packet.opcode) captured, \(answer.opcode) replayed")
            }
            let (capturedShape, replayedShape) = (Self.shape(of: packet), Self.shape(of: answer))
            if problems.isEmpty, capturedShape != replayedShape {
                problems.append("payload \(capturedShape) captured, \(replayedShape) replayed")
            }
            if !problems.isEmpty {
                outcome.differences.append(Difference(
                    time: entry.time, connection: number,
                    what: "seq \(packet.seq) \(packet.opcode): " + problems.joined(separator: "; ")))
            }
        }
        // What the rebuilt server sent after the capture's last packet the capture could not hold (it stopped): an
        // answer no captured one pairs with, or a push, then is no difference. A capture that broke off (read with
        // --keep-truncated) may also lack a connection's last frames before that, lost in the cut record: there the
        // limit is the connection's last captured frame.
        let lastFrame = recorded.last?.time ?? connection.opensAt
        let end = timeline.brokeOff ? min(timeline.end, lastFrame) : timeline.end
        for extra in unmatched where extra.time <= end {
            outcome.differences.append(Difference(time: extra.time, connection: number,
                                                  what: Self.unmatchedAnswer(extra.packet)))
        }
        let capturedPushes = Self.pushCounts(recorded.map(\.packet))
        // On a connection the server closed first (a drop), the capture shows when a request's bytes arrived, not
        // whether the server handled it before the drop: a send that arrived a fraction of a millisecond before the
        // server's FIN was handled after it (serve's control channel and sockets are read in turn), so its push never
        // left. Pushes the rebuilt server makes after the captured server's last frame there are not counted: the
        // captured server sent nothing more on that connection.
        let serverClosedFirst = connection.tcp.serverClosedAt.map { closed in
            connection.tcp.clientClosedAt.map { closed <= $0 } ?? true
        } ?? false
        let pushEnd = serverClosedFirst ? min(end, lastFrame) : end
        let countedPushes = replayed.filter { $0.time <= pushEnd }
        let replayedPushes = Self.pushCounts(countedPushes.map(\.packet))
        for opcode in Set(capturedPushes.keys).union(replayedPushes.keys).sorted(by: { $0.rawValue < $1.rawValue }) {
            let (captured, replay) = (capturedPushes[opcode] ?? 0, replayedPushes[opcode] ?? 0)
            if captured != replay {
                outcome.differences.append(Difference(
                    time: connection.opensAt, connection: number,
                    what: "\(opcode) pushes: \(captured) captured, \(replay) replayed"))
            }
        }
    }

    /// The difference line of an answer the replay sent and the capture does not have: "seq 5 MSG_SEND: replay sent
    /// an error the capture does not have".
    static func unmatchedAnswer(_ packet: Packet) -> String {
        let kind = packet.cmd == .error ? "an error" : "a \(packet.cmd)"
        return "seq \(packet.seq) \(packet.opcode): replay sent \(kind) the capture does not have"
    }

    static func pushCounts(_ packets: [Packet]) -> [Opcode: Int] {
        var counts: [Opcode: Int] = [:]
        for packet in packets where packet.isPush { counts[packet.opcode, default: 0] += 1 }
        return counts
    }

    /// The parts of a payload the comparison looks at (see the type's rules).
    static func shape(of packet: Packet) -> String {
        func texts(_ messages: [ChatMessage]) -> String { messages.map { "\"\($0.text)\"" }.joined(separator: ",") }
        switch packet.body {
        case .sessionInitResponse: return "{time}"
        case .loginResponse(let response):
            return "{chats: \(response.chats.count), contacts: \(response.contacts.count)}"
        case .chatHistoryResponse(let response):
            return "{messages: \(response.messages.count) [\(texts(response.messages))]}"
        case .msgSendResponse(let response): return "{message: [\(texts([response.message]))]}"
        case .photoUploadResponse: return "{photoToken}"
        case .empty: return "{}"
        case .error(let error): return "{error: \(error.error)}"
        case .raw(let value): return "raw \(value.typeName)"
        default: return "\(packet.body)".prefix { $0 != "(" }.description
        }
    }
}

private extension MessagePackValue {
    var typeName: String {
        switch self {
        case .map(let pairs): "map of \(pairs.count)"
        case .array(let items): "array of \(items.count)"
        default: "scalar"
        }
    }
}
