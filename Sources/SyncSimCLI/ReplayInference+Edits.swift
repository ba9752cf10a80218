import SyncSim
import SyncTrace

/// Edits and deletes a capture shows, as the DSL's `EditMessage` / `DeleteMessage` steps, and the server's lagging
/// history pages (`historyEditLag`) where a page served a message in a version older than a change made before it.
///
/// Where a change shows (docs/protocol.md §7, §8): a NOTIF_MESSAGE push with `status` EDITED or REMOVED, a
/// NOTIF_MSG_DELETE push (one change per id of `messageIds`), the answer to a captured client's own MSG_EDIT (67) or
/// MSG_DELETE (66), and a LOGIN answer's `messages` or a CHAT_HISTORY page holding a changed message whose
/// `updateTime` lies within the capture. One change seen several ways (pushes to two members, then a page) is one.
/// Its time is the earliest of: each sighting less its client's one-way delay (half its RTT: the server sent it
/// then at the latest), and `updateTime` on the rebuilt server's clock (`ReplayWorldModel.epochMilliseconds`).
///
/// The DSL's steps change "the user's newest message in the chat" (`EditActions.swift`), made by another device of
/// the message's sender (only the sender may change a message). A change is emitted when the capture shows no
/// newer message of that sender in the chat stored before the change and not removed by then, and the sender is a
/// captured client; otherwise it is listed as not placed, with the reason. A captured client's own MSG_EDIT or
/// MSG_DELETE is replayed the same way (the reference engine never edits: the change comes from the user's other
/// device). The rebuilt server's history gives its messages to the chat's members in turn, not to the capture's
/// senders: where that makes another message the sender's newest, the step is still emitted and a doubt says
/// which message it changes there.
///
/// **History lag**: a page answered at time `t` (built at `t` less the client's one-way delay) that shows a message
/// without a change made at `c` before that says the lag is more than `t - c` (stale); one that shows it says the lag
/// is at most that (fresh). Without a stale page no lag is inferred (the reference server's pages are current).
/// The lag emitted is twice the oldest stale age in whole minutes (from 1 min: timing differs a little in the
/// replayed run, and a margin keeps the page stale), held below the youngest fresh age (halfway between the two when
/// the margin would reach it).
struct ReplayEdits {
    /// A change the capture shows.
    struct Change {
        enum Kind: Equatable {
            case edit(text: String)
            case delete
        }

        var chatId: Int64
        var messageId: Int64
        var kind: Kind
        /// The server's `updateTime` of the change (milliseconds), when a sighting carried it.
        var updateTime: Int64?
        /// When the server made it, in capture time (the estimate above).
        var time: SimInstant
        /// The address of the captured client whose own MSG_EDIT/MSG_DELETE made it, if one did.
        var askedBy: String?
        /// The packets it was seen in.
        var sightings: [String]
    }

    /// One emitted step with the comment naming its packets.
    var steps: [(time: SimInstant, action: Action, comment: String)] = []
    /// For each of `steps`, same order: the cid of the message it changes, when the capture shows one (a message the
    /// capture's MSG_SEND made carries its cid), so the emitter can place the change after that send.
    var stepCids: [Int64?] = []
    /// Changes the DSL cannot express, each with the reason (for "not placed" and stderr).
    var unplaced: [String] = []
    /// Doubts about emitted steps (a doubt line and stderr).
    var doubts: [String] = []
    /// Header notes (history edited before the capture, the lag's evidence).
    var notes: [String] = []
    /// The inferred `historyEditLag`, nil when no page lagged.
    var historyEditLag: SimDuration?
    /// Every change found, in time order (for tests and the lag).
    var changes: [Change] = []

    /// A message the capture shows: its sender, its server time (ms) and its cid.
    private struct Known {
        var sender: Int64
        var time: Int64
        var cid: Int64?
    }

    /// A CHAT_HISTORY page: where and when it was answered, its chat and messages.
    private struct Page {
        var address: String
        var entry: ReplayTimeline.Entry
        var chatId: Int64
        var messages: [ChatMessage]
    }

    /// - Parameters:
    ///   - clients: the scenario's clients in order (address, name, user id), as the emitter names them.
    ///   - chatNames: the scenario's chat names by chat id.
    ///   - oneWay: a client address's one-way delay (half its RTT).
    init(timeline: ReplayTimeline, model: ReplayWorldModel,
         clients: [(address: String, name: String, userId: Int64?)], chatNames: [Int64: String],
         oneWay: (String) -> SimDuration) {
        var known: [Int64: [Int64: Known]] = [:]
        var found: [String: Change] = [:]
        var order: [String] = []
        var pages: [Page] = []
        var unanswered: [(entry: ReplayTimeline.Entry, chatId: Int64, ids: [Int64], kind: Change.Kind)] = []
        var editedBefore: [Int64: Set<Int64>] = [:]
        let epoch = model.epochMilliseconds

        func learn(_ chatId: Int64, _ message: ChatMessage) {
            if known[chatId]?[message.id] == nil {
                known[chatId, default: [:]][message.id] = Known(sender: message.sender, time: message.time,
                                                                cid: message.cid)
            }
        }
        func captureTime(ofServerTime milliseconds: Int64) -> SimInstant? {
            let (difference, overflow) = milliseconds.subtractingReportingOverflow(epoch)
            guard !overflow, difference >= 0, difference <= Int64.max / 1_000_000 else { return nil }
            return SimInstant(nanosecondsSinceStart: difference * 1_000_000)
        }
        func note(chatId: Int64, messageId: Int64, kind: Change.Kind, updateTime: Int64?, seenAt entry: ReplayTimeline.Entry,
                  address: String, askedBy: String? = nil, what: String) {
            let key: String
            switch kind {
            case .delete: key = "\(chatId) \(messageId) delete"
            case .edit(let text): key = "\(chatId) \(messageId) edit \(text)"
            }
            var estimate = ReplayInference.shifted(entry.time, .zero - oneWay(address))
            if let updateTime, let server = captureTime(ofServerTime: updateTime) { estimate = min(estimate, server) }
            let sighting = "\(what) on connection \(entry.connection) at \(ReplayInference.seconds(entry.time)) s"
            if var change = found[key] {
                change.time = min(change.time, estimate)
                change.updateTime = change.updateTime ?? updateTime
                change.askedBy = change.askedBy ?? askedBy
                change.sightings.append(sighting)
                found[key] = change
            } else {
                found[key] = Change(chatId: chatId, messageId: messageId, kind: kind, updateTime: updateTime,
                                    time: estimate, askedBy: askedBy, sightings: [sighting])
                order.append(key)
            }
        }
        // A changed version in a page or a LOGIN answer: a change within the capture when its updateTime says so;
        // else the message was changed before the capture.
        func versionSeen(_ chatId: Int64, _ message: ChatMessage, at entry: ReplayTimeline.Entry, address: String,
                         what: String) {
            guard message.status == ChatMessage.edited || message.isRemoved else { return }
            guard let updateTime = message.updateTime, captureTime(ofServerTime: updateTime) != nil else {
                editedBefore[chatId, default: []].insert(message.id)
                return
            }
            note(chatId: chatId, messageId: message.id, kind: message.isRemoved ? .delete : .edit(text: message.text),
                 updateTime: updateTime, seenAt: entry, address: address, what: what)
        }

        for connection in timeline.connections where connection.role == .chat {
            let address = ReplayInference.address(of: connection)
            for entry in connection.entries where entry.direction == .serverToClient {
                switch entry.packet.body {
                case .loginResponse(let response):
                    for chat in response.chats { chat.lastMessage.map { learn(chat.id, $0) } }
                    for (chatId, messages) in response.messages.sorted(by: { $0.key < $1.key }) {
                        for message in messages {
                            learn(chatId, message)
                            versionSeen(chatId, message, at: entry, address: address,
                                        what: "LOGIN answer seq \(entry.packet.seq) (changed messages)")
                        }
                    }
                case .chatHistoryResponse(let response):
                    guard case .chatHistory(let asked)? = Self.request(answeredBy: entry, on: connection,
                                                                       in: timeline)?.packet.body else { continue }
                    pages.append(Page(address: address, entry: entry, chatId: asked.chatId,
                                      messages: response.messages))
                    for message in response.messages {
                        learn(asked.chatId, message)
                        versionSeen(asked.chatId, message, at: entry, address: address,
                                    what: "CHAT_HISTORY answer seq \(entry.packet.seq)")
                    }
                case .notifMessage(let push):
                    learn(push.chatId, push.message)
                    if push.message.status == ChatMessage.edited || push.message.isRemoved {
                        note(chatId: push.chatId, messageId: push.message.id,
                             kind: push.message.isRemoved ? .delete : .edit(text: push.message.text),
                             updateTime: push.message.updateTime, seenAt: entry, address: address,
                             what: "NOTIF_MESSAGE (\(push.message.status ?? ""))")
                    }
                case .notifMsgDelete(let push):
                    for id in push.messageIds {
                        note(chatId: push.chatId, messageId: id, kind: .delete, updateTime: push.updateTime,
                             seenAt: entry, address: address, what: "NOTIF_MSG_DELETE")
                    }
                case .msgSendResponse(let response):
                    learn(response.chatId, response.message)
                case .msgEditResponse(let response):
                    guard case .msgEdit(let asked)? = Self.request(answeredBy: entry, on: connection,
                                                                   in: timeline)?.packet.body else { continue }
                    learn(asked.chatId, response.message)
                    note(chatId: asked.chatId, messageId: response.message.id,
                         kind: response.message.isRemoved ? .delete : .edit(text: response.message.text),
                         updateTime: response.message.updateTime, seenAt: entry, address: address, askedBy: address,
                         what: "answer to the client's own MSG_EDIT seq \(entry.packet.seq)")
                case .empty where entry.packet.opcode == .msgDelete && entry.packet.cmd == .response:
                    guard case .msgDelete(let asked)? = Self.request(answeredBy: entry, on: connection,
                                                                     in: timeline)?.packet.body else { continue }
                    for id in asked.messageIds {
                        note(chatId: asked.chatId, messageId: id, kind: .delete, updateTime: nil, seenAt: entry,
                             address: address, askedBy: address,
                             what: "answer to the client's own MSG_DELETE seq \(entry.packet.seq)")
                    }
                default:
                    break
                }
            }
            for entry in ReplayInference.unanswered(connection) {
                switch entry.packet.body {
                case .msgEdit(let asked):
                    unanswered.append((entry, asked.chatId, [asked.messageId], .edit(text: asked.text)))
                case .msgDelete(let asked):
                    unanswered.append((entry, asked.chatId, asked.messageIds, .delete))
                default:
                    break
                }
            }
        }
        // Deletes of one MSG_DELETE share a time: the newest first, as `DeleteMessage` removes the newest.
        changes = order.compactMap { found[$0] }.sorted { ($0.time, -$0.messageId) < ($1.time, -$1.messageId) }

        // A request never answered took effect only if a push or page shows that change.
        for request in unanswered where !request.ids.allSatisfy({ id in
            changes.contains { $0.chatId == request.chatId && $0.messageId == id && $0.kind == request.kind }
        }) {
            let opcode = request.kind == .delete ? "MSG_DELETE" : "MSG_EDIT"
            unplaced.append("connection \(request.entry.connection) seq \(request.entry.packet.seq) at "
                + "\(ReplayInference.seconds(request.entry.time)) s: \(opcode) of message(s) "
                + "\(request.ids.map(String.init).joined(separator: ", ")) in chat \(request.chatId) never answered, and "
                + "no push shows it took effect: not replayed")
        }
        for (chatId, ids) in editedBefore.sorted(by: { $0.key < $1.key }) {
            let changedInCapture = Set(changes.filter { $0.chatId == chatId }.map(\.messageId))
            let before = ids.subtracting(changedInCapture)
            guard !before.isEmpty else { continue }
            notes.append("history: \(before.count) message(s) of \(chatNames[chatId] ?? "chat \(chatId)") show as "
                + "edited or removed, changed before the capture (no updateTime within it); the rebuilt history holds "
                + "them unchanged")
        }
        emitSteps(known: known, model: model, clients: clients, chatNames: chatNames, epoch: epoch)
        inferLag(pages: pages, oneWay: oneWay)
    }

    /// The steps for the changes the DSL can express; the others as not placed, with the reason.
    private mutating func emitSteps(known: [Int64: [Int64: Known]], model: ReplayWorldModel,
                                    clients: [(address: String, name: String, userId: Int64?)],
                                    chatNames: [Int64: String], epoch: Int64) {
        // The capture's removals so far, and the rebuilt history's (by rank in the seeded history).
        var removed: Set<String> = []
        var replayRemoved: [Int64: Set<Int>] = [:]
        for change in changes {
            let target = "\(change.chatId) \(change.messageId)"
            let what = Self.describe(change)
            if change.kind == .delete, removed.contains(target) { continue }
            defer { if change.kind == .delete { removed.insert(target) } }
            if removed.contains(target) {
                unplaced.append("\(what): the message was removed before; not replayed")
                continue
            }
            let asker = change.askedBy.flatMap { address in clients.first { $0.address == address }?.userId }
            guard let sender = known[change.chatId]?[change.messageId]?.sender ?? asker else {
                unplaced.append("\(what): the capture never shows the message, so not whose it is: not replayed")
                continue
            }
            guard let client = clients.first(where: { $0.userId == sender }) else {
                unplaced.append("\(what): its sender (user \(sender)) is no captured client, and EditMessage/"
                    + "DeleteMessage change a client's message: not replayed")
                continue
            }
            guard let chat = chatNames[change.chatId] else {
                unplaced.append("\(what): no chat of the capture lists chat \(change.chatId): not replayed")
                continue
            }
            // Newer messages of the sender, stored before the change and not removed by then.
            let changedAt = change.updateTime ?? (epoch + change.time.nanosecondsSinceStart / 1_000_000)
            let newer = (known[change.chatId] ?? [:]).filter { id, message in
                id > change.messageId && message.sender == sender && message.time <= changedAt
                    && !removed.contains("\(change.chatId) \(id)")
            }.keys.sorted()
            if !newer.isEmpty {
                unplaced.append("\(what): not \(client.name)'s newest message in \(chat) (message "
                    + "\(newer.map(String.init).joined(separator: ", ")) of theirs is newer), and EditMessage/"
                    + "DeleteMessage change the newest: not replayed")
                continue
            }
            var comment = what + ": \(client.name)'s newest message in \(chat)"
            if change.askedBy != nil {
                comment += " (the client's own request: the reference engine does not edit, so another device of "
                    + "\(client.name) makes the change)"
            }
            let action: Action
            switch change.kind {
            case .edit(let text): action = .editMessage(client: client.name, chat: chat, text: text)
            case .delete: action = .deleteMessage(client: client.name, chat: chat)
            }
            steps.append((change.time, action, comment))
            stepCids.append(known[change.chatId]?[change.messageId]?.cid)
            // The rebuilt server seeds the capture's earlier messages with the members' turns as senders: the
            // sender's newest seeded message there may be another one.
            guard let history = model.history.first(where: { $0.chatId == change.chatId })?.messages,
                  let rank = history.firstIndex(where: { $0.id == change.messageId }) else { continue }
            let members = clients.filter { client in
                client.userId.map { id in model.chats.first { $0.id == change.chatId }?.members.contains(id) ?? false }
                    ?? false
            }.map(\.name)
            guard !members.isEmpty else { continue }
            let replayed = history.indices.last { index in
                members[index % members.count] == client.name && !(replayRemoved[change.chatId]?.contains(index) ?? false)
            }
            if let replayed, change.kind == .delete { replayRemoved[change.chatId, default: []].insert(replayed) }
            if replayed != rank {
                doubts.append("\(what): the rebuilt history gives its \(history.count) messages to the members in "
                    + "turn, so \(client.name)'s newest there is "
                    + (replayed.map { "its message \($0 + 1) (the capture's \(history[$0].id))" } ?? "none")
                    + ", not the capture's message \(change.messageId): the emitted step changes that one")
            }
        }
    }

    /// `historyEditLag` from pages that showed a message older or newer than a change made before they were built.
    private mutating func inferLag(pages: [Page], oneWay: (String) -> SimDuration) {
        var stale: (age: SimDuration, why: String)?
        var fresh: (age: SimDuration, why: String)?
        for page in pages {
            let built = ReplayInference.shifted(page.entry.time, .zero - oneWay(page.address))
            for message in page.messages {
                let ofMessage = changes.filter { $0.chatId == page.chatId && $0.messageId == message.id }
                for change in ofMessage where change.time < built {
                    let age = built - change.time
                    let why = "CHAT_HISTORY answer seq \(page.entry.packet.seq) on connection \(page.entry.connection) "
                        + "at \(ReplayInference.seconds(page.entry.time)) s showed message \(message.id) "
                    if Self.shows(change, in: message, changes: ofMessage) {
                        if age < fresh?.age ?? .seconds(Int64.max / 1_000_000_000) {
                            fresh = (age, why + "with its \(Self.kindName(change)) of "
                                + "\(ReplayInference.seconds(change.time)) s "
                                + "(\(ReplayInference.milliseconds(age)) ms old)")
                        }
                    } else if age > stale?.age ?? .zero {
                        stale = (age, why + "without its \(Self.kindName(change)) of "
                            + "\(ReplayInference.seconds(change.time)) s (\(ReplayInference.milliseconds(age)) ms old)")
                    }
                }
            }
        }
        guard let stale else { return }
        let minute: Int64 = 60_000_000_000
        let twice = stale.age.nanoseconds > Int64.max / 2 ? Int64.max / 2 : stale.age.nanoseconds * 2
        var lag = SimDuration.minutes(max(1, min(twice / minute + 1, Int64.max / minute - 1)))
        var why = "server: historyEditLag from a stale page: \(stale.why); the lag is twice that in whole minutes"
        if let fresh {
            if fresh.age > stale.age, lag >= fresh.age {
                lag = ReplayScenarioEmitter.rounded(stale.age + SimDuration(
                    nanoseconds: (fresh.age.nanoseconds - stale.age.nanoseconds) / 2))
                why += ", held halfway to a page that was current: \(fresh.why)"
            } else if fresh.age <= stale.age {
                doubts.append("history pages disagree on the server's lag: \(stale.why), but \(fresh.why)")
            }
        }
        historyEditLag = lag
        notes.append(why)
    }

    /// Whether a page's version of a message includes `change` (or a later change of it).
    static func shows(_ change: Change, in message: ChatMessage, changes: [Change]) -> Bool {
        if let shown = message.updateTime, let made = change.updateTime { return shown >= made }
        if message.isRemoved { return true }
        guard case .edit(let text) = change.kind, message.status == ChatMessage.edited else { return false }
        return message.text == text || changes.contains { later in
            later.time > change.time && later.kind == .edit(text: message.text)
        }
    }

    private static func kindName(_ change: Change) -> String {
        change.kind == .delete ? "delete" : "edit"
    }

    /// "delete of message 30 in chat 1 (NOTIF_MSG_DELETE on connection 2 at 5.076 s, ...; updateTime ...)".
    private static func describe(_ change: Change) -> String {
        var text = "\(kindName(change)) of message \(change.messageId) in chat \(change.chatId) at "
            + "\(ReplayInference.seconds(change.time)) s"
        if case .edit(let newText) = change.kind { text += " to \(newText.debugDescription)" }
        // The first three sightings (a group's push reaches every member).
        text += " (" + change.sightings.prefix(3).joined(separator: "; ")
        if change.sightings.count > 3 { text += "; \(change.sightings.count - 3) more" }
        if let updateTime = change.updateTime { text += "; updateTime \(updateTime)" }
        return text + ")"
    }

    /// The request an answer belongs to: the last request of its seq and opcode before it on its connection, or on
    /// an earlier connection of the same client (the server answered on the device's newest connection).
    static func request(answeredBy answer: ReplayTimeline.Entry, on connection: ReplayTimeline.Connection,
                        in timeline: ReplayTimeline) -> ReplayTimeline.Entry? {
        func matches(_ entry: ReplayTimeline.Entry) -> Bool {
            entry.direction == .clientToServer && entry.packet.seq == answer.packet.seq
                && entry.packet.opcode == answer.packet.opcode && entry.time <= answer.time
        }
        if let own = connection.entries.last(where: matches) { return own }
        let address = ReplayInference.address(of: connection)
        return timeline.connections.filter {
            ReplayInference.address(of: $0) == address && $0.opensAt < connection.opensAt
        }.flatMap(\.entries).last(where: matches)
    }
}
