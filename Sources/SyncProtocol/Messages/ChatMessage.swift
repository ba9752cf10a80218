/// A message as the server stores and sends it, in the field's shape:
/// `{id, time, type, sender, text, cid?, status?, updateTime?, elements[], attaches[]}`.
///
/// `id` grows with `time` within a chat, and `time` (server milliseconds since the Unix epoch) strictly grows within
/// a chat, so a time names one message of its chat. `type` is `"USER"` for a user's message; `status` is
/// `"EDITED"` or `"REMOVED"` once the message was changed. Field clients require `id`, `time` and `type`
/// (PyMax `pymax/types/domain/message.py`, `Message`). `updateTime` is SyncSim's own key (server milliseconds of the
/// last edit or delete), which field clients keep as an extra field; it orders changes that arrive out of order.
public struct ChatMessage: Codable, Hashable, Sendable {
    /// The message id, unique within its chat and growing with `time` (wire key `id`).
    public var id: Int64
    /// When the server stored the message, server milliseconds since the Unix epoch (wire key `time`).
    public var time: Int64
    /// The user id of the sender (wire key `sender`).
    public var sender: Int64
    /// The message text; empty for a removed message (wire key `text`).
    public var text: String
    /// The sender's idempotency key, if the message was sent with one (wire key `cid`).
    public var cid: Int64?
    /// The message's attachments, if any (wire key `attaches`, always sent, `[]` when nil).
    public var attaches: [Attach]?
    /// The message kind, `"USER"` for a user's message (wire key `type`).
    public var type: String
    /// `"EDITED"` or `"REMOVED"` once the message was changed, else nil (wire key `status`).
    public var status: String?
    /// Server milliseconds of the last edit or delete, nil for an unchanged message (wire key `updateTime`).
    public var updateTime: Int64?
    /// Text formatting ranges (wire key `elements`, always sent).
    public var elements: [MessageElement]
    /// The message this one replies to or forwards, with its chat (wire key `link`, left out when nil). Only real
    /// clients' sends carry one (`syncsim serve`); the reference engine never links.
    public var link: MessageLink?

    /// `status` of an edited message.
    public static let edited = "EDITED"
    /// `status` of a removed message.
    public static let removed = "REMOVED"

    /// Creates a stored message; `time` is server milliseconds since the Unix epoch.
    public init(
        id: Int64, time: Int64, sender: Int64, text: String, cid: Int64? = nil, attaches: [Attach]? = nil,
        type: String = "USER", status: String? = nil, updateTime: Int64? = nil, elements: [MessageElement] = [],
        link: MessageLink? = nil
    ) {
        self.id = id
        self.time = time
        self.sender = sender
        self.text = text
        self.cid = cid
        self.attaches = attaches
        self.type = type
        self.status = status
        self.updateTime = updateTime
        self.elements = elements
        self.link = link
    }

    /// Whether the message was deleted (`status == "REMOVED"`).
    public var isRemoved: Bool { status == ChatMessage.removed }

    /// How far the message has been changed: its `updateTime`, or 0 for the original version.
    public var version: Int64 { updateTime ?? 0 }

    private enum CodingKeys: String, CodingKey {
        case id, time, type, sender, text, cid, status, updateTime, elements, attaches, link
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        time = try container.decode(Int64.self, forKey: .time)
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "USER"
        sender = try container.decodeIfPresent(Int64.self, forKey: .sender) ?? 0
        text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
        cid = try container.decodeIfPresent(Int64.self, forKey: .cid)
        status = try container.decodeIfPresent(String.self, forKey: .status)
        updateTime = try container.decodeIfPresent(Int64.self, forKey: .updateTime)
        elements = try container.decodeIfPresent([MessageElement].self, forKey: .elements) ?? []
        let attaches = try container.decodeIfPresent([Attach].self, forKey: .attaches) ?? []
        self.attaches = attaches.isEmpty ? nil : attaches
        link = try container.decodeIfPresent(MessageLink.self, forKey: .link)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(time, forKey: .time)
        try container.encode(type, forKey: .type)
        try container.encode(sender, forKey: .sender)
        try container.encode(text, forKey: .text)
        try container.encodeIfPresent(cid, forKey: .cid)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(updateTime, forKey: .updateTime)
        try container.encode(elements, forKey: .elements)
        try container.encode(attaches ?? [], forKey: .attaches)
        try container.encodeIfPresent(link, forKey: .link)
    }
}

/// The message a reply answers or a forward carries, as field servers send it: `{type, chatId, message}` with
/// `type` `"REPLY"` or `"FORWARD"` (PyMax 2.5.0 `pymax/types/domain/message.py`, `ReplyLink`, requires `chatId` and
/// `message`; PyMax 1.2.5 `MessageLink.from_dict` requires `type`, `chatId` and `message`). A class, so that the
/// linked message (itself a `ChatMessage`) is held out of line and messages without a link stay small.
public final class MessageLink: Codable, Hashable, Sendable {
    /// `"REPLY"` or `"FORWARD"` (wire key `type`).
    public let type: String
    /// The chat of the linked message (wire key `chatId`).
    public let chatId: Int64
    /// The linked message as it was when linked (wire key `message`).
    public let message: ChatMessage

    /// Links `message` of chat `chatId` as `type`.
    public init(type: String, chatId: Int64, message: ChatMessage) {
        self.type = type
        self.chatId = chatId
        self.message = message
    }

    private enum CodingKeys: String, CodingKey { case type, chatId, message }

    public static func == (lhs: MessageLink, rhs: MessageLink) -> Bool {
        lhs.type == rhs.type && lhs.chatId == rhs.chatId && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(chatId)
        hasher.combine(message)
    }
}

/// What a sent message links to: `{type, messageId, chatId?}`, a reply (`"REPLY"`, the message in the same chat
/// unless `chatId` says otherwise) or a forward (`"FORWARD"`, from chat `chatId`). PyMax 2.5.0 sends `messageId` as
/// an integer for a reply and a decimal string for a forward (`pymax/api/messages/payloads.py`); vkmax 1.0.2 and
/// PyMax 1.2.5 as a string, so both ids are `FieldId`s.
public struct OutgoingLink: Codable, Hashable, Sendable {
    /// `"REPLY"` or `"FORWARD"` (wire key `type`).
    public var type: String
    /// The linked message (wire key `messageId`).
    public var messageId: Int64
    /// The linked message's chat, nil for the chat sent to (wire key `chatId`).
    public var chatId: Int64?

    /// Creates a link to message `messageId` of chat `chatId` (nil: the chat sent to).
    public init(type: String, messageId: Int64, chatId: Int64? = nil) {
        self.type = type
        self.messageId = messageId
        self.chatId = chatId
    }

    private enum CodingKeys: String, CodingKey { case type, messageId, chatId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        messageId = try container.decodeFieldId(forKey: .messageId)
        chatId = try container.contains(.chatId) && !container.decodeNil(forKey: .chatId)
            ? container.decodeFieldId(forKey: .chatId) : nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(messageId, forKey: .messageId)
        try container.encodeIfPresent(chatId, forKey: .chatId)
    }
}

/// A formatting range of a message's text: `{type, from?, length?, ...}` (PyMax 2.5.0
/// `pymax/types/domain/element.py`). A `"LINK"` range carries its target: PyMax writes `attributes: {url}`
/// (`pymax/formatting/markdown.py`), maxion 0.2.1 a top-level `url`; such keys travel in `otherKeys`.
public struct MessageElement: Codable, Hashable, Sendable {
    /// The element kind, e.g. `"STRONG"` or `"LINK"` (wire key `type`).
    public var type: String
    /// First character of the range (wire key `from`).
    public var from: Int?
    /// Length of the range in characters (wire key `length`).
    public var length: Int?
    /// Every other key the range carried, in wire order, written back after the keys above: a link's `attributes`
    /// (`{url}`) or `url` reach readers as the sender wrote them (they were dropped, so every link reached the other
    /// members without its address). Keys that are not strings are dropped.
    public var otherKeys: [MessagePackPair] = []

    /// Creates a formatting range.
    public init(type: String, from: Int? = nil, length: Int? = nil) {
        self.type = type
        self.from = from
        self.length = length
    }

    /// The value of a key the model does not type (`otherKeys`), e.g. a link's `attributes`, or nil when absent.
    public subscript(other name: String) -> MessagePackValue? {
        otherKeys.first { $0.key == .string(name) }?.value
    }

    private enum CodingKeys: String, CodingKey { case type, from, length }

    /// Whether `name` is a key `init(from:)` reads into a typed property.
    static func isTyped(_ name: String) -> Bool { CodingKeys(rawValue: name) != nil }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        from = try container.decodeIfPresent(Int.self, forKey: .from)
        length = try container.decodeIfPresent(Int.self, forKey: .length)
        otherKeys = MessagePackPair.untyped(in: decoder, isTyped: Self.isTyped)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(from, forKey: .from)
        try container.encodeIfPresent(length, forKey: .length)
        try MessagePackPair.encodeUntyped(otherKeys, to: encoder)
    }
}

/// An attachment of a message, discriminated by its kind under the wire key `_type` (PyMax 2.5.0
/// `pymax/types/domain/attachments/`: every attachment model reads `_type`). The model knows photos (`"PHOTO"`):
/// - a client sends `{_type, photoToken}` (PyMax 2.5.0 `pymax/api/uploads/payloads.py`, `AttachPhotoPayload`);
/// - the server hands a stored photo to readers as `{_type, photoToken, photoId, baseUrl, width, height}`, the keys
///   PyMax 2.5.0's `PhotoAttachment` (`pymax/types/domain/attachments/photo.py`) requires. SyncSim's CDN keeps no
///   pixels: `width` and `height` are 0.
///
/// It also knows the service messages of groups (`"CONTROL"`, `{_type, event, chatType?, title?, userIds?}`: PyMax
/// 2.5.0 `pymax/types/domain/attachments/control.py`, `ControlAttachment`, requires `event`; a group's creation sends
/// `event` `"new"` with `chatType`, `title` and `userIds`, `pymax/api/chats/payloads.py`, `CreateGroupAttach`).
///
/// SyncSim's own captures before 2026-12-05 named the kind `type`; decoding still reads that key when `_type` is
/// absent. Encoding always writes `_type`.
public struct Attach: Codable, Hashable, Sendable {
    /// The attachment kind, `"PHOTO"` for photos (wire key `_type`).
    public var type: String
    /// The CDN token of an uploaded photo (wire key `photoToken`).
    public var photoToken: String?
    /// The photo's id on the CDN, set by the server (wire key `photoId`).
    public var photoId: Int64?
    /// Where readers fetch the photo, set by the server (wire key `baseUrl`).
    public var baseUrl: String?
    /// The photo's width in pixels, set by the server (wire key `width`; 0: SyncSim models no pixels).
    public var width: Int?
    /// The photo's height in pixels, set by the server (wire key `height`; 0: SyncSim models no pixels).
    public var height: Int?
    /// A CONTROL attachment's event: `"new"` (a group created), `"add"`, `"remove"`, `"leave"` (wire key `event`).
    public var event: String?
    /// A CONTROL attachment's kind of chat, `"CHAT"` for a group (wire key `chatType`).
    public var chatType: String?
    /// A CONTROL attachment's chat title (wire key `title`).
    public var title: String?
    /// The users a CONTROL attachment's event names (wire key `userIds`).
    public var userIds: [Int64]?
    /// Every other key the attachment carried, in wire order, written back after the keys above: the keys of kinds
    /// SyncSim does not type (a FILE's `fileId`, `name`, `size`, `token`; a VIDEO's `videoId`; a STICKER's, a
    /// CONTACT's, a POLL's) reach readers as the sender wrote them. `_type`'s legacy name `type` is one of them when
    /// `_type` is present. Keys that are not strings are dropped.
    public var otherKeys: [MessagePackPair] = []

    /// Creates an attachment of kind `type`, optionally referring to the upload `photoToken`.
    public init(type: String, photoToken: String? = nil, photoId: Int64? = nil, baseUrl: String? = nil,
                width: Int? = nil, height: Int? = nil) {
        self.type = type
        self.photoToken = photoToken
        self.photoId = photoId
        self.baseUrl = baseUrl
        self.width = width
        self.height = height
    }

    /// A CONTROL attachment: a group's service message for `event`.
    public static func control(event: String, chatType: String? = nil, title: String? = nil,
                               userIds: [Int64]? = nil) -> Attach {
        var attach = Attach(type: "CONTROL")
        attach.event = event
        attach.chatType = chatType
        attach.title = title
        attach.userIds = userIds
        return attach
    }

    /// A photo attachment that refers to an upload the CDN accepted under `token`.
    public static func photo(token: String) -> Attach { Attach(type: "PHOTO", photoToken: token) }

    /// The value of a key the model does not type (`otherKeys`), or nil when absent; setting nil removes the key,
    /// setting a value replaces it in place or appends it.
    public subscript(other name: String) -> MessagePackValue? {
        get { otherKeys.first { $0.key == .string(name) }?.value }
        set {
            let position = otherKeys.firstIndex { $0.key == .string(name) }
            switch (position, newValue) {
            case (let position?, let value?): otherKeys[position].value = value
            case (let position?, nil): otherKeys.remove(at: position)
            case (nil, let value?): otherKeys.append(MessagePackPair(.string(name), value))
            case (nil, nil): break
            }
        }
    }

    /// The integer under a key the model does not type, or nil when it is absent or not an integer that fits.
    public func otherInteger(_ name: String) -> Int64? {
        switch self[other: name] {
        case .int(let value)?: value
        case .uint(let value)?: Int64(exactly: value)
        default: nil
        }
    }

    private enum CodingKeys: String, CodingKey {
        case type = "_type", legacyType = "type", photoToken, photoId, baseUrl, width, height, event, chatType, title
        case userIds
    }

    /// Whether `name` is a key `init(from:)` reads into a typed property (`type` only as `_type`'s legacy name).
    static func isTyped(_ name: String, hasType: Bool) -> Bool {
        guard let key = CodingKeys(rawValue: name) else { return false }
        return key != .legacyType || !hasType
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if !container.contains(.type), container.contains(.legacyType) {
            type = try container.decode(String.self, forKey: .legacyType)
        } else {
            type = try container.decode(String.self, forKey: .type)
        }
        photoToken = try container.decodeIfPresent(String.self, forKey: .photoToken)
        photoId = try container.decodeIfPresent(FieldId.self, forKey: .photoId)?.value
        baseUrl = try container.decodeIfPresent(String.self, forKey: .baseUrl)
        width = try container.decodeIfPresent(Int.self, forKey: .width)
        height = try container.decodeIfPresent(Int.self, forKey: .height)
        event = try container.decodeIfPresent(String.self, forKey: .event)
        chatType = try container.decodeIfPresent(String.self, forKey: .chatType)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        userIds = try container.decodeIfPresent([FieldId].self, forKey: .userIds)?.map(\.value)
        let hasType = container.contains(.type)
        otherKeys = MessagePackPair.untyped(in: decoder) { Self.isTyped($0, hasType: hasType) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(photoToken, forKey: .photoToken)
        try container.encodeIfPresent(photoId, forKey: .photoId)
        try container.encodeIfPresent(baseUrl, forKey: .baseUrl)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(height, forKey: .height)
        try container.encodeIfPresent(event, forKey: .event)
        try container.encodeIfPresent(chatType, forKey: .chatType)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(userIds, forKey: .userIds)
        try MessagePackPair.encodeUntyped(otherKeys, to: encoder)
    }
}

/// A message the client asks to send: `{text, cid, elements[], attaches[]}` (no id or time yet), the shape PyMax
/// `pymax/api/messages/payloads.py` (`SendMessagePayloadMessage`) sends.
public struct OutgoingMessage: Codable, Hashable, Sendable {
    /// The message text (wire key `text`; absent means empty).
    public var text: String
    /// The idempotency key, created once per task and stored with it; a retry reuses it (wire key `cid`).
    public var cid: Int64
    /// The attachments, empty for a text-only message (wire key `attaches`).
    public var attaches: [Attach]
    /// Formatting ranges of the text (wire key `elements`).
    public var elements: [MessageElement]
    /// The message replied to or forwarded, nil for none (wire key `link`; PyMax 1.2.5 sends `null`).
    public var link: OutgoingLink?
    /// A scheduled message's `{timeToFire, notifySender}` as sent, nil for none or null (wire key
    /// `delayedAttributes`; PyMax 2.5.0 `pymax/api/messages/payloads.py`, `DelayedAttributes`). Not modelled: serve
    /// refuses such a send rather than deliver it at once.
    public var delayedAttributes: MessagePackValue?

    /// Creates an outgoing message with idempotency key `cid`.
    public init(text: String, cid: Int64, attaches: [Attach] = [], elements: [MessageElement] = [],
                link: OutgoingLink? = nil) {
        self.text = text
        self.cid = cid
        self.attaches = attaches
        self.elements = elements
        self.link = link
    }

    private enum CodingKeys: String, CodingKey { case text, cid, elements, attaches, link, delayedAttributes }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
        cid = try container.decodeFieldId(forKey: .cid)
        elements = try container.decodeIfPresent([MessageElement].self, forKey: .elements) ?? []
        attaches = try container.decodeIfPresent([Attach].self, forKey: .attaches) ?? []
        link = try container.decodeIfPresent(OutgoingLink.self, forKey: .link)
        delayedAttributes = try container.decodeIfPresent(MessagePackValue.self, forKey: .delayedAttributes)
        if delayedAttributes == .nil { delayedAttributes = nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(cid, forKey: .cid)
        try container.encode(elements, forKey: .elements)
        try container.encode(attaches, forKey: .attaches)
        try container.encodeIfPresent(link, forKey: .link)
        try container.encodeIfPresent(delayedAttributes, forKey: .delayedAttributes)
    }
}

/// The keys a type carries through untouched (`Attach.otherKeys`, `MessageElement.otherKeys`): read from a map in
/// wire order, and written back after the typed keys. A key the map lists twice is kept once, in its first place with
/// its last value: so the encoder writes it (a keyed container's second value for a key replaces the first), and so a
/// reader that builds a dictionary reads it (PyMax's msgpack maps become Python dicts). Keeping both made a decoded
/// attachment differ from itself encoded and decoded again (found by `fuzz-codable`).
extension MessagePackPair {
    /// The pairs of `pairs` under a string key `isTyped` does not claim, in order, a repeated key once (its first
    /// place, its last value); keys that are not strings are dropped.
    static func untyped(_ pairs: [MessagePackPair], isTyped: (String) -> Bool) -> [MessagePackPair] {
        var kept: [MessagePackPair] = []
        for pair in pairs {
            guard case .string(let name) = pair.key, !isTyped(name) else { continue }
            if let earlier = kept.firstIndex(where: { $0.key == pair.key }) {
                kept[earlier].value = pair.value
            } else {
                kept.append(pair)
            }
        }
        return kept
    }

    /// `untyped(_:isTyped:)` of the map `decoder` holds (`MessagePackDecoder` hands it over as the wire carried it,
    /// as the fast decoder keeps it); none when it holds no map.
    static func untyped(in decoder: any Decoder, isTyped: (String) -> Bool) -> [MessagePackPair] {
        guard case .map(let pairs)? = try? decoder.singleValueContainer().decode(MessagePackValue.self) else {
            return []
        }
        return untyped(pairs, isTyped: isTyped)
    }

    /// Writes `pairs` under their string keys into `encoder`'s map, after what is already there.
    static func encodeUntyped(_ pairs: [MessagePackPair], to encoder: any Encoder) throws {
        guard !pairs.isEmpty else { return }
        var others = encoder.container(keyedBy: NamedKey.self)
        for pair in pairs {
            guard case .string(let name) = pair.key else { continue }
            try others.encode(pair.value, forKey: NamedKey(stringValue: name))
        }
    }

    /// Whether `pairs`, not empty, differ from `other` in their wire bytes (a string may differ in bytes where
    /// `==` calls it equal).
    static func differInBytes(_ pairs: [MessagePackPair], _ other: [MessagePackPair]) -> Bool {
        !pairs.isEmpty && MessagePackValue.map(pairs).messagePackBytes() != MessagePackValue.map(other).messagePackBytes()
    }
}
