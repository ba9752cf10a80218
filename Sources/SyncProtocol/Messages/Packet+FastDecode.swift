/// Direct typed decoding of the hot packet bodies (NOTIF_MESSAGE, CHAT_HISTORY and MSG_SEND responses, MSG_SEND and
/// PING requests) from a payload's `MessagePackValue`, without Codable's containers.
///
/// Each `init?(fastPayload:)` gives exactly what `MessagePackDecoder` gives for the type's `init(from:)` when that
/// succeeds: the same keys looked up in the same order with the same wrap-around lookup hint (`FastMap` mirrors
/// `MessagePackDecoding.Keyed`, so duplicate keys resolve the same way), the same integer and nil rules. Where
/// Codable would throw, or where the fast path does not follow the shape, it returns nil, and `Packet(frame:)`
/// falls back to Codable (which then gives `.raw` as before). Checked against Codable on every input by
/// `FastDecodeTests` (fixtures, mutations, duplicate keys, wrong types). The LOGIN response's decoders
/// (`LoginResponse`, `ChatSummary`, `Contact`, `Profile`) also decline a map that repeats a key, leaving it to Codable.
struct FastMap {
    let pairs: [MessagePackPair]
    /// Where the next lookup starts, as `MessagePackDecoding.Cursor.hint`.
    var hint = 0

    init?(_ value: MessagePackValue) {
        guard case .map(let pairs) = value else { return nil }
        self.pairs = pairs
    }

    /// The position of the first pair keyed by the string `name`, from the hint, wrapping around.
    @inline(__always)
    func index(of name: String) -> Int? {
        let count = pairs.count
        guard count > 0 else { return nil }
        return pairs.withUnsafeBufferPointer { buffer in
            var position = hint < count ? hint : hint % count
            for _ in 0..<count {
                if case .string(let candidate) = buffer[position].key, candidate == name { return position }
                position += 1
                if position == count { position = 0 }
            }
            return nil
        }
    }

    /// A required value (`decode(_:forKey:)`): moves the hint past it.
    @inline(__always)
    mutating func required(_ name: String) -> MessagePackValue? {
        guard let position = index(of: name) else { return nil }
        hint = position + 1
        return pairs[position].value
    }

    /// What a scalar `decodeIfPresent` reads: `.some(nil)` for a missing key or a nil value (hint kept), else the
    /// value with the hint moved past it.
    @inline(__always)
    mutating func scalarIfPresent(_ name: String) -> MessagePackValue?? {
        guard let position = index(of: name) else { return .some(nil) }
        let found = pairs[position].value
        if case .nil = found { return .some(nil) }
        hint = position + 1
        return .some(found)
    }

    /// What the generic `decodeIfPresent` reads: the hint moves past a present key even when its value is nil.
    @inline(__always)
    mutating func nestedIfPresent(_ name: String) -> MessagePackValue? {
        guard let position = index(of: name) else { return nil }
        hint = position + 1
        let found = pairs[position].value
        if found == .nil { return nil }
        return found
    }
}

@inline(__always)
private func fastInt64(_ value: MessagePackValue) -> Int64? {
    switch value {
    case .int(let number): number
    case .uint(let number): Int64(exactly: number)
    default: nil
    }
}

@inline(__always)
private func fastInt(_ value: MessagePackValue) -> Int? {
    switch value {
    case .int(let number): Int(exactly: number)
    case .uint(let number): Int(exactly: number)
    default: nil
    }
}

@inline(__always)
private func fastString(_ value: MessagePackValue) -> String? {
    if case .string(let text) = value { return text }
    return nil
}

/// An optional scalar field: `.some(nil)` when absent or nil, `.some(x)` when it converts, nil (fail) otherwise.
@inline(__always)
private func optionalScalar<T>(_ found: MessagePackValue??, _ convert: (MessagePackValue) -> T?) -> T?? {
    guard let found else { return nil }
    guard let value = found else { return .some(nil) }
    guard let converted = convert(value) else { return nil }
    return .some(converted)
}

/// `[Element]` as `Array.init(from:)` decodes it: an array whose every element converts, else nil.
@inline(__always)
private func fastArray<Element>(_ value: MessagePackValue, _ convert: (MessagePackValue) -> Element?) -> [Element]? {
    guard case .array(let elements) = value else { return nil }
    if elements.isEmpty { return [] }
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    for element in elements {
        guard let converted = convert(element) else { return nil }
        result.append(converted)
    }
    return result
}

extension MessageElement {
    /// The synthesized `init(from:)`'s result, or nil where it would throw (see `FastMap`).
    init?(fastPayload value: MessagePackValue) {
        guard var map = FastMap(value), let typeValue = map.required("type"), let type = fastString(typeValue),
            let from = optionalScalar(map.scalarIfPresent("from"), fastInt),
            let length = optionalScalar(map.scalarIfPresent("length"), fastInt)
        else { return nil }
        self.init(type: type, from: from, length: length)
        otherKeys = MessagePackPair.untyped(map.pairs, isTyped: Self.isTyped)
    }
}

extension Attach {
    /// `init(from:)`'s result, or nil where it would throw (see `FastMap`): the kind under `_type`, else under a
    /// SyncSim capture's legacy `type`.
    init?(fastPayload value: MessagePackValue) {
        guard var map = FastMap(value),
            let typeValue = map.index(of: "_type") != nil ? map.required("_type") : map.required("type"),
            let type = fastString(typeValue),
            let photoToken = optionalScalar(map.scalarIfPresent("photoToken"), fastString),
            let photoId = optionalScalar(map.scalarIfPresent("photoId"), fastInt64),
            let baseUrl = optionalScalar(map.scalarIfPresent("baseUrl"), fastString),
            let width = optionalScalar(map.scalarIfPresent("width"), fastInt),
            let height = optionalScalar(map.scalarIfPresent("height"), fastInt),
            let event = optionalScalar(map.scalarIfPresent("event"), fastString),
            let chatType = optionalScalar(map.scalarIfPresent("chatType"), fastString),
            let title = optionalScalar(map.scalarIfPresent("title"), fastString)
        else { return nil }
        self.init(type: type, photoToken: photoToken, photoId: photoId, baseUrl: baseUrl, width: width, height: height)
        self.event = event
        self.chatType = chatType
        self.title = title
        if let found = map.nestedIfPresent("userIds") {
            guard let userIds = fastArray(found, fastInt64) else { return nil }
            self.userIds = userIds
        }
        let hasType = map.index(of: "_type") != nil
        otherKeys = MessagePackPair.untyped(map.pairs) { Self.isTyped($0, hasType: hasType) }
    }
}

extension ChatMessage {
    /// `init(from:)`'s result, or nil where it would throw (see `FastMap`).
    init?(fastPayload value: MessagePackValue) {
        guard var map = FastMap(value),
            let idValue = map.required("id"), let id = fastInt64(idValue),
            let timeValue = map.required("time"), let time = fastInt64(timeValue),
            let type = optionalScalar(map.scalarIfPresent("type"), fastString),
            let sender = optionalScalar(map.scalarIfPresent("sender"), fastInt64),
            let text = optionalScalar(map.scalarIfPresent("text"), fastString),
            let cid = optionalScalar(map.scalarIfPresent("cid"), fastInt64),
            let status = optionalScalar(map.scalarIfPresent("status"), fastString),
            let updateTime = optionalScalar(map.scalarIfPresent("updateTime"), fastInt64)
        else { return nil }
        // A linked message (a real client's reply or forward) takes the Codable path.
        guard map.index(of: "link") == nil else { return nil }
        var elements: [MessageElement] = []
        if let found = map.nestedIfPresent("elements") {
            guard let decoded = fastArray(found, MessageElement.init(fastPayload:)) else { return nil }
            elements = decoded
        }
        var attaches: [Attach] = []
        if let found = map.nestedIfPresent("attaches") {
            guard let decoded = fastArray(found, Attach.init(fastPayload:)) else { return nil }
            attaches = decoded
        }
        self.init(
            id: id, time: time, sender: sender ?? 0, text: text ?? "", cid: cid,
            attaches: attaches.isEmpty ? nil : attaches, type: type ?? "USER", status: status,
            updateTime: updateTime, elements: elements
        )
    }
}

extension OutgoingMessage {
    /// `init(from:)`'s result, or nil where it would throw (see `FastMap`).
    init?(fastPayload value: MessagePackValue) {
        guard var map = FastMap(value),
            let text = optionalScalar(map.scalarIfPresent("text"), fastString),
            let cidValue = map.required("cid"), let cid = fastInt64(cidValue)
        else { return nil }
        // A reply's or forward's link, and a scheduled message's attributes, take the Codable path.
        guard map.index(of: "link") == nil, map.index(of: "delayedAttributes") == nil else { return nil }
        var elements: [MessageElement] = []
        if let found = map.nestedIfPresent("elements") {
            guard let decoded = fastArray(found, MessageElement.init(fastPayload:)) else { return nil }
            elements = decoded
        }
        var attaches: [Attach] = []
        if let found = map.nestedIfPresent("attaches") {
            guard let decoded = fastArray(found, Attach.init(fastPayload:)) else { return nil }
            attaches = decoded
        }
        self.init(text: text ?? "", cid: cid, attaches: attaches, elements: elements)
    }
}

/// The `chatId` and `message` keys NOTIF_MESSAGE and the MSG_SEND response both consist of, as their synthesized
/// `init(from:)` reads them, or nil where it would throw (see `FastMap`).
private func fastChatMessage(_ value: MessagePackValue) -> (chatId: Int64, message: ChatMessage)? {
    guard var map = FastMap(value), let chatValue = map.required("chatId"), let chatId = fastInt64(chatValue),
        let messageValue = map.required("message"), let message = ChatMessage(fastPayload: messageValue)
    else { return nil }
    return (chatId, message)
}

extension NotifMessage {
    /// The synthesized `init(from:)`'s result, or nil where it would throw (see `FastMap`).
    init?(fastPayload value: MessagePackValue) {
        guard let (chatId, message) = fastChatMessage(value) else { return nil }
        self.init(chatId: chatId, message: message)
    }
}

extension MsgSendResponse {
    /// `init(from:)`'s result, or nil where it would throw (see `FastMap`) or where it carries a group's `chat`
    /// (then Codable decides).
    init?(fastPayload value: MessagePackValue) {
        if case .map(let pairs) = value, pairs.contains(where: { $0.key == .string("chat") }) { return nil }
        guard let (chatId, message) = fastChatMessage(value) else { return nil }
        self.init(chatId: chatId, message: message)
    }
}

extension ChatHistoryResponse {
    /// The synthesized `init(from:)`'s result, or nil where it would throw (see `FastMap`).
    init?(fastPayload value: MessagePackValue) {
        guard var map = FastMap(value), let found = map.required("messages"),
            let messages = fastArray(found, ChatMessage.init(fastPayload:))
        else { return nil }
        self.init(messages: messages)
    }
}

extension MsgSendRequest {
    /// `init(from:)`'s result, or nil where it would throw (see `FastMap`).
    init?(fastPayload value: MessagePackValue) {
        guard var map = FastMap(value), let chatValue = map.required("chatId"), let chatId = fastInt64(chatValue),
            let messageValue = map.required("message"), let message = OutgoingMessage(fastPayload: messageValue),
            let notify = optionalScalar(map.scalarIfPresent("notify"), { value -> Bool? in
                if case .bool(let flag) = value { return flag }
                return nil
            }),
            // A comment's `postId` takes the Codable path.
            map.index(of: "postId") == nil
        else { return nil }
        self.init(chatId: chatId, message: message, notify: notify ?? true)
    }
}

extension PingRequest {
    /// The synthesized `init(from:)`'s result, or nil where it would throw (see `FastMap`).
    init?(fastPayload value: MessagePackValue) {
        guard var map = FastMap(value), let found = map.required("interactive"), case .bool(let flag) = found
        else { return nil }
        self.init(interactive: flag)
    }
}

/// The pairs of a map whose keys are all strings, each once, or nil. On such a map every lookup finds its one key
/// wherever the hint stands, so the LOGIN response's decoders below need not mirror the hint; a map with a repeated
/// or non-string key is left to Codable.
private func uniqueStringKeyed(_ value: MessagePackValue) -> FastMap? {
    guard let map = FastMap(value) else { return nil }
    let pairs = map.pairs
    for (position, pair) in pairs.enumerated() {
        guard case .string(let name) = pair.key else { return nil }
        for earlier in pairs[..<position] {
            if case .string(let other) = earlier.key, other == name { return nil }
        }
    }
    return map
}

extension Contact {
    /// `init(from:)`'s result, or nil where it would throw or where a map repeats a key (then Codable decides).
    init?(fastPayload value: MessagePackValue) {
        guard var map = uniqueStringKeyed(value), let idValue = map.required("id"), let id = fastInt64(idValue)
        else { return nil }
        var name = ""
        if let found = map.nestedIfPresent("names") {
            // Every element must decode as `Name` (three optional strings); the first one's name (or firstName)
            // counts.
            guard case .array(let names) = found else { return nil }
            for (position, element) in names.enumerated() {
                guard var entry = uniqueStringKeyed(element),
                    let first = optionalScalar(entry.scalarIfPresent("name"), fastString),
                    let firstName = optionalScalar(entry.scalarIfPresent("firstName"), fastString),
                    optionalScalar(entry.scalarIfPresent("type"), fastString) != nil
                else { return nil }
                if position == 0 { name = first ?? firstName ?? "" }
            }
        }
        self.init(id: id, name: name)
    }
}

extension Profile {
    /// `init(from:)`'s result, or nil where it would throw or where a map repeats a key (then Codable decides).
    init?(fastPayload value: MessagePackValue) {
        guard var map = uniqueStringKeyed(value), let found = map.required("contact"),
            let contact = Contact(fastPayload: found)
        else { return nil }
        self.init(id: contact.id, name: contact.name)
    }
}

extension ChatSummary {
    /// The keys of what CHAT_UPDATE and a group's creation set: an entry that has one is left to Codable.
    private static let detailKeys: [MessagePackValue] = [
        .string("pinnedMessage"), .string("title"), .string("description"), .string("link"), .string("options"),
        .string("cid"),
    ]

    /// `init(from:)`'s result, or nil where it would throw, where a map repeats a key or where it carries a pin,
    /// title, description, link, options, cid or a group's `type` or `owner` (then Codable decides).
    init?(fastPayload value: MessagePackValue) {
        guard var map = uniqueStringKeyed(value), let idValue = map.required("id"), let id = fastInt64(idValue),
            let found = map.required("participants"), case .map(let participants) = found,
            let modified = optionalScalar(map.scalarIfPresent("modified"), fastInt64),
            !map.pairs.contains(where: { ChatSummary.detailKeys.contains($0.key) })
        else { return nil }
        // As `allKeys`: the string keys (any value), those that spell an integer, one id per member, ascending.
        var members: [Int64] = []
        members.reserveCapacity(participants.count)
        for pair in participants {
            if case .string(let key) = pair.key, let member = Int64(key) { members.append(member) }
        }
        members.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(members.count)
        for member in members where member != unique.last { unique.append(member) }
        // A group's `type` or `owner` (`ChatSummary.groupOwner`): Codable decides.
        if let owner = map.pairs.first(where: { $0.key == .string("owner") })?.value,
           fastInt64(owner) != (unique.first ?? 0) {
            return nil
        }
        if unique.count <= 2, map.pairs.contains(where: { $0.key == .string("type") && $0.value == .string("CHAT") }) {
            return nil
        }
        var lastMessage: ChatMessage?
        if let message = map.nestedIfPresent("lastMessage") {
            guard let decoded = ChatMessage(fastPayload: message) else { return nil }
            lastMessage = decoded
        }
        self.init(id: id, members: unique, modified: modified ?? 0, lastMessage: lastMessage)
    }
}

extension LoginResponse {
    /// `init(from:)`'s result, or nil where it would throw or where a map repeats a key, or `messages` names one
    /// chat twice (then Codable decides).
    init?(fastPayload value: MessagePackValue) {
        guard var map = uniqueStringKeyed(value),
            let profileValue = map.required("profile"), let profile = Profile(fastPayload: profileValue),
            let chatsValue = map.required("chats"), let chats = fastArray(chatsValue, ChatSummary.init(fastPayload:)),
            let contactsValue = map.required("contacts"),
            let contacts = fastArray(contactsValue, Contact.init(fastPayload:)),
            let timeValue = map.required("time"), let time = fastInt64(timeValue),
            let token = optionalScalar(map.scalarIfPresent("token"), fastString)
        else { return nil }
        var messages: [Int64: [ChatMessage]] = [:]
        if let found = map.index(of: "messages").map({ map.pairs[$0].value }), found != .nil {
            guard case .map(let byChat) = found else { return nil }
            for pair in byChat {
                // `allKeys` skips a key that is not a string; a string that is not an integer throws.
                guard case .string(let key) = pair.key else { continue }
                guard let chatId = Int64(key), messages[chatId] == nil,
                    let list = fastArray(pair.value, ChatMessage.init(fastPayload:))
                else { return nil }
                messages[chatId] = list
            }
        }
        self.init(profile: profile, chats: chats, contacts: contacts, messages: messages, token: token, time: time)
    }
}

// MARK: - Direct encoding

/// The direct encoders build exactly the `MessagePackValue` that `MessagePackEncoder` builds from the type's
/// `encode(to:)` (keys in the same order, non-negative signed integers as `.uint`, nil optionals left out), without
/// Codable's containers; `FastDecodeTests` compares the two.
@inline(__always)
private func signedValue(_ value: Int64) -> MessagePackValue { value < 0 ? .int(value) : .uint(UInt64(value)) }

extension MessageElement {
    var fastPayload: MessagePackValue {
        var pairs = [MessagePackPair(.string("type"), .string(type))]
        if let from { pairs.append(MessagePackPair(.string("from"), signedValue(Int64(from)))) }
        if let length { pairs.append(MessagePackPair(.string("length"), signedValue(Int64(length)))) }
        pairs += MessagePackPair.untyped(otherKeys) { _ in false }
        return .map(pairs)
    }
}

extension Attach {
    var fastPayload: MessagePackValue {
        var pairs = [MessagePackPair(.string("_type"), .string(type))]
        if let photoToken { pairs.append(MessagePackPair(.string("photoToken"), .string(photoToken))) }
        if let photoId { pairs.append(MessagePackPair(.string("photoId"), signedValue(photoId))) }
        if let baseUrl { pairs.append(MessagePackPair(.string("baseUrl"), .string(baseUrl))) }
        if let width { pairs.append(MessagePackPair(.string("width"), signedValue(Int64(width)))) }
        if let height { pairs.append(MessagePackPair(.string("height"), signedValue(Int64(height)))) }
        if let event { pairs.append(MessagePackPair(.string("event"), .string(event))) }
        if let chatType { pairs.append(MessagePackPair(.string("chatType"), .string(chatType))) }
        if let title { pairs.append(MessagePackPair(.string("title"), .string(title))) }
        if let userIds { pairs.append(MessagePackPair(.string("userIds"), .array(userIds.map(signedValue)))) }
        pairs += MessagePackPair.untyped(otherKeys) { _ in false }
        return .map(pairs)
    }
}

extension ChatMessage {
    var fastPayload: MessagePackValue {
        var pairs: [MessagePackPair] = []
        pairs.reserveCapacity(10)
        pairs.append(MessagePackPair(.string("id"), signedValue(id)))
        pairs.append(MessagePackPair(.string("time"), signedValue(time)))
        pairs.append(MessagePackPair(.string("type"), .string(type)))
        pairs.append(MessagePackPair(.string("sender"), signedValue(sender)))
        pairs.append(MessagePackPair(.string("text"), .string(text)))
        if let cid { pairs.append(MessagePackPair(.string("cid"), signedValue(cid))) }
        if let status { pairs.append(MessagePackPair(.string("status"), .string(status))) }
        if let updateTime { pairs.append(MessagePackPair(.string("updateTime"), signedValue(updateTime))) }
        pairs.append(MessagePackPair(.string("elements"), .array(elements.map(\.fastPayload))))
        pairs.append(MessagePackPair(.string("attaches"), .array((attaches ?? []).map(\.fastPayload))))
        if let link, let encoded = try? MessagePackEncoder().encode(link) {
            pairs.append(MessagePackPair(.string("link"), encoded))
        }
        return .map(pairs)
    }
}

extension OutgoingMessage {
    var fastPayload: MessagePackValue {
        .map([
            MessagePackPair(.string("text"), .string(text)),
            MessagePackPair(.string("cid"), signedValue(cid)),
            MessagePackPair(.string("elements"), .array(elements.map(\.fastPayload))),
            MessagePackPair(.string("attaches"), .array(attaches.map(\.fastPayload))),
        ] + (link.flatMap { try? MessagePackEncoder().encode($0) }.map { [MessagePackPair(.string("link"), $0)] } ?? []))
    }
}

extension NotifMessage {
    var fastPayload: MessagePackValue {
        .map([
            MessagePackPair(.string("chatId"), signedValue(chatId)),
            MessagePackPair(.string("message"), message.fastPayload),
        ])
    }
}

extension MsgSendResponse {
    var fastPayload: MessagePackValue {
        guard let chat else {
            return .map([
                MessagePackPair(.string("chatId"), signedValue(chatId)),
                MessagePackPair(.string("message"), message.fastPayload),
            ])
        }
        return .map([
            MessagePackPair(.string("chatId"), signedValue(chatId)),
            MessagePackPair(.string("chat"), chat.fastPayload),
            MessagePackPair(.string("message"), message.fastPayload),
        ])
    }
}

extension ChatHistoryResponse {
    var fastPayload: MessagePackValue {
        .map([MessagePackPair(.string("messages"), .array(messages.map(\.fastPayload)))])
    }
}

extension MsgSendRequest {
    var fastPayload: MessagePackValue {
        .map([
            MessagePackPair(.string("chatId"), signedValue(chatId)),
            MessagePackPair(.string("message"), message.fastPayload),
            MessagePackPair(.string("notify"), .bool(notify)),
        ])
    }
}

extension PingRequest {
    /// `{interactive}`: one of two values built once (a keep-alive ping allocated and freed its map every time).
    var fastPayload: MessagePackValue { interactive ? Self.interactivePayload : Self.backgroundPayload }

    private static let interactivePayload = MessagePackValue.map([MessagePackPair(.string("interactive"), .bool(true))])
    private static let backgroundPayload = MessagePackValue.map([MessagePackPair(.string("interactive"), .bool(false))])
}

extension Contact {
    /// `{id, names: [{name, firstName, type: "ONEME"}]}`, with `accountStatus`, `phone?` and `updateTime` after `id`
    /// when `fullKeys`, as `encode(to:)` writes it.
    var fastPayload: MessagePackValue {
        var pairs = [MessagePackPair(.string("id"), signedValue(id))]
        if fullKeys {
            pairs.append(MessagePackPair(.string("accountStatus"), .uint(0)))
            if isOwnProfile { pairs.append(MessagePackPair(.string("phone"), signedValue(syntheticPhone))) }
            pairs.append(MessagePackPair(.string("updateTime"), .uint(0)))
        }
        pairs.append(
            MessagePackPair(
                .string("names"),
                .array([
                    .map([
                        MessagePackPair(.string("name"), .string(name)),
                        MessagePackPair(.string("firstName"), .string(name)),
                        MessagePackPair(.string("type"), .string("ONEME")),
                    ])
                ])))
        return .map(pairs)
    }
}

extension Profile {
    /// `{contact: {id, names}, phone?, profileOptions: []}` (`phone` when `fullKeys`), as `encode(to:)` writes it.
    var fastPayload: MessagePackValue {
        let contact = contact
        var pairs = [MessagePackPair(.string("contact"), contact.fastPayload)]
        if fullKeys { pairs.append(MessagePackPair(.string("phone"), signedValue(contact.syntheticPhone))) }
        pairs.append(MessagePackPair(.string("profileOptions"), .array([])))
        return .map(pairs)
    }
}

extension ChatSummary {
    /// `{id, type, status, owner, participants, modified, lastMessage?}`, as `encode(to:)` writes it; an entry with
    /// details (pin, title, description, link, options, cid: real clients' chats only) is encoded by Codable, so the
    /// detail keys are written in one place. A member id listed twice is one key, as the keyed container keeps one
    /// slot per key (the value is the same `modified`).
    var fastPayload: MessagePackValue {
        if hasDetails, let encoded = try? MessagePackEncoder().encode(self) { return encoded }
        let sorted = members.sorted()
        var participants: [MessagePackPair] = []
        participants.reserveCapacity(sorted.count)
        var previous: Int64?
        for member in sorted where member != previous {
            participants.append(MessagePackPair(.string(String(member)), signedValue(modified)))
            previous = member
        }
        var pairs: [MessagePackPair] = []
        pairs.reserveCapacity(fullKeys ? 12 : 7)
        pairs.append(MessagePackPair(.string("id"), signedValue(id)))
        pairs.append(MessagePackPair(.string("type"), .string(type)))
        pairs.append(MessagePackPair(.string("status"), .string("ACTIVE")))
        pairs.append(MessagePackPair(.string("owner"), signedValue(owner)))
        pairs.append(MessagePackPair(.string("participants"), .map(participants)))
        pairs.append(MessagePackPair(.string("modified"), signedValue(modified)))
        if fullKeys {
            for key in ["created", "joinTime", "lastEventTime"] {
                pairs.append(MessagePackPair(.string(key), signedValue(modified)))
            }
            pairs.append(MessagePackPair(.string("lastDelayedUpdateTime"), .uint(0)))
            pairs.append(MessagePackPair(.string("lastFireDelayedErrorTime"), .uint(0)))
        }
        if let lastMessage { pairs.append(MessagePackPair(.string("lastMessage"), lastMessage.fastPayload)) }
        return .map(pairs)
    }
}

extension LoginResponse {
    /// `{profile, chats, contacts, messages?, token?, time}`, as `encode(to:)` writes it: `messages` left out when
    /// empty, else its chat ids as string keys in ascending order; `token` left out when nil.
    var fastPayload: MessagePackValue {
        var pairs: [MessagePackPair] = []
        pairs.reserveCapacity(6)
        pairs.append(MessagePackPair(.string("profile"), profile.fastPayload))
        pairs.append(MessagePackPair(.string("chats"), .array(chats.map(\.fastPayload))))
        pairs.append(MessagePackPair(.string("contacts"), .array(contacts.map(\.fastPayload))))
        if !messages.isEmpty {
            let map = messages.keys.sorted().map { chatId in
                MessagePackPair(.string(String(chatId)), .array(messages[chatId]!.map(\.fastPayload)))
            }
            pairs.append(MessagePackPair(.string("messages"), .map(map)))
        }
        if let token { pairs.append(MessagePackPair(.string("token"), .string(token))) }
        pairs.append(MessagePackPair(.string("time"), signedValue(time)))
        return .map(pairs)
    }
}
