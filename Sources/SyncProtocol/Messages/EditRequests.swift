/// A client's description of its device and app, the `userAgent` map of SESSION_INIT (and of a mobile LOGIN).
///
/// Keys as PyMax `pymax/api/session/payloads.py` (`MobileUserAgentPayload`) sends them; only `deviceType`
/// (`"ANDROID"`, `"IOS"`, `"DESKTOP"` or `"WEB"`, `pymax/api/session/enums.py`) is required by the model's server.
public struct UserAgent: Codable, Hashable, Sendable {
    /// `"ANDROID"`, `"IOS"`, `"DESKTOP"` or `"WEB"` (wire key `deviceType`).
    public var deviceType: String
    /// The app's version string (wire key `appVersion`).
    public var appVersion: String?
    /// The operating system's version (wire key `osVersion`).
    public var osVersion: String?
    /// The device's model or browser name (wire key `deviceName`).
    public var deviceName: String?
    /// The app's build number; mobile only (wire key `buildNumber`).
    public var buildNumber: Int?
    /// The IANA time zone name (wire key `timezone`).
    public var timezone: String?
    /// The language code (wire key `locale`).
    public var locale: String?

    /// Creates a user agent of `deviceType`.
    public init(
        deviceType: String, appVersion: String? = nil, osVersion: String? = nil, deviceName: String? = nil,
        buildNumber: Int? = nil, timezone: String? = nil, locale: String? = nil
    ) {
        self.deviceType = deviceType
        self.appVersion = appVersion
        self.osVersion = osVersion
        self.deviceName = deviceName
        self.buildNumber = buildNumber
        self.timezone = timezone
        self.locale = locale
    }
}

/// MSG_EDIT (67) request: `{chatId, messageId, text, elements[], attachments[]}`
/// (PyMax 2.5.0 `pymax/api/messages/payloads.py`, `EditMessagePayload`; `service.py`, `edit_message`, sends `text`
/// null and no elements when only the attachments change).
public struct MsgEditRequest: Codable, Hashable, Sendable {
    /// The chat of the message (wire key `chatId`).
    public var chatId: Int64
    /// The message to edit (wire key `messageId`).
    public var messageId: Int64
    /// The new text (wire key `text`; absent or null means empty).
    public var text: String
    /// Whether the request carried a `text` that is not null: an edit of attachments alone keeps the message's text.
    public var carriesText: Bool
    /// Formatting ranges of the new text (wire key `elements`).
    public var elements: [MessageElement]
    /// The message's new attachments, in the shape a send gives them (wire key `attachments`, not a send's
    /// `attaches`); empty (or absent) keeps the message's own.
    public var attachments: [Attach]

    /// Creates a MSG_EDIT request replacing message `messageId`'s text in `chatId` (and its attachments, if any).
    public init(chatId: Int64, messageId: Int64, text: String, elements: [MessageElement] = [],
                attachments: [Attach] = []) {
        self.chatId = chatId
        self.messageId = messageId
        self.text = text
        carriesText = true
        self.elements = elements
        self.attachments = attachments
    }

    private enum CodingKeys: String, CodingKey { case chatId, messageId, text, elements, attachments }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        messageId = try container.decodeFieldId(forKey: .messageId)
        let text = try container.decodeIfPresent(String.self, forKey: .text)
        self.text = text ?? ""
        carriesText = text != nil
        elements = try container.decodeIfPresent([MessageElement].self, forKey: .elements) ?? []
        attachments = try container.decodeIfPresent([Attach].self, forKey: .attachments) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chatId, forKey: .chatId)
        try container.encode(messageId, forKey: .messageId)
        if carriesText { try container.encode(text, forKey: .text) } else { try container.encodeNil(forKey: .text) }
        try container.encode(elements, forKey: .elements)
        if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
    }
}

/// MSG_EDIT response: `{message}`, the edited message with `status` EDITED (PyMax reads the `message` key).
public struct MsgEditResponse: Codable, Hashable, Sendable {
    /// The edited message (wire key `message`).
    public var message: ChatMessage

    /// Creates a MSG_EDIT response.
    public init(message: ChatMessage) { self.message = message }
}

/// MSG_DELETE (66) request: `{chatId, messageIds[], forMe}` (PyMax `pymax/api/messages/payloads.py`,
/// `DeleteMessagePayload`). The response is an empty map.
public struct MsgDeleteRequest: Codable, Hashable, Sendable {
    /// The chat of the messages (wire key `chatId`).
    public var chatId: Int64
    /// The messages to delete (wire key `messageIds`).
    public var messageIds: [Int64]
    /// Delete for the sender only; the model's server deletes for everyone either way (wire key `forMe`).
    public var forMe: Bool

    /// Creates a MSG_DELETE request.
    public init(chatId: Int64, messageIds: [Int64], forMe: Bool = false) {
        self.chatId = chatId
        self.messageIds = messageIds
        self.forMe = forMe
    }

    private enum CodingKeys: String, CodingKey { case chatId, messageIds, forMe }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        messageIds = try container.decodeFieldIds(forKey: .messageIds)
        forMe = try container.decodeIfPresent(Bool.self, forKey: .forMe) ?? false
    }
}

/// NOTIF_MSG_DELETE (142) push (`cmd` 0): `{chatId, chat?, messageIds[], ttl, updateTime?}`.
///
/// The field's push carries the whole chat, from which PyMax `pymax/types/events/message.py`
/// (`MessageDeleteEvent`) takes the chat id; `chatId` is sent beside it for clients that read it directly.
public struct NotifMsgDelete: Codable, Hashable, Sendable {
    /// The chat of the deleted messages (wire key `chatId`).
    public var chatId: Int64
    /// The chat as a chat-list entry, if the server sends it (wire key `chat`).
    public var chat: ChatSummary?
    /// The deleted messages (wire key `messageIds`).
    public var messageIds: [Int64]
    /// Whether the messages expired rather than being deleted (wire key `ttl`).
    public var ttl: Bool?
    /// When they were deleted, server milliseconds (wire key `updateTime`, SyncSim's own; field clients ignore it).
    public var updateTime: Int64?

    /// Creates a NOTIF_MSG_DELETE push.
    public init(
        chatId: Int64, messageIds: [Int64], updateTime: Int64? = nil, chat: ChatSummary? = nil, ttl: Bool? = false
    ) {
        self.chatId = chatId
        self.chat = chat
        self.messageIds = messageIds
        self.ttl = ttl
        self.updateTime = updateTime
    }
}

/// CHATS_LIST (53) request: `{marker, count?}` (PyMax `pymax/api/chats/payloads.py`, `FetchChatsPayload`):
/// the user's chats modified at or before server time `marker` (milliseconds), newest first.
public struct ChatsListRequest: Codable, Hashable, Sendable {
    /// Server milliseconds; chats modified at or before it are listed (wire key `marker`).
    public var marker: Int64
    /// The most chats to list; nil lets the server choose (wire key `count`).
    public var count: Int?

    /// Creates a CHATS_LIST request.
    public init(marker: Int64, count: Int? = nil) {
        self.marker = marker
        self.count = count
    }
}

/// CHATS_LIST response: `{chats[], marker?}`; `marker` is where the next page starts, absent after the last page.
public struct ChatsListResponse: Codable, Hashable, Sendable {
    /// The chats, newest first (wire key `chats`).
    public var chats: [ChatSummary]
    /// The `marker` of the next page, nil when this page holds the oldest chat (wire key `marker`).
    public var marker: Int64?

    /// Creates a CHATS_LIST response.
    public init(chats: [ChatSummary], marker: Int64?) {
        self.chats = chats
        self.marker = marker
    }
}

/// CONTACT_INFO (32) request: `{contactIds[]}` (PyMax `pymax/api/users/payloads.py`, `FetchContactsPayload`; vkmax
/// 1.0.2 `vkmax/functions/users.py`, `resolve_users`), the user ids to describe, integers or decimal strings.
public struct ContactInfoRequest: Codable, Hashable, Sendable {
    /// The users asked about (wire key `contactIds`).
    public var contactIds: [Int64]

    /// Creates a CONTACT_INFO request for the users `contactIds`.
    public init(contactIds: [Int64]) { self.contactIds = contactIds }

    private enum CodingKeys: String, CodingKey { case contactIds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contactIds = try container.decodeFieldIds(forKey: .contactIds)
    }
}

/// CONTACT_INFO response: `{contacts[]}`, one contact per known user asked about, in the order asked (PyMax
/// `pymax/api/users/service.py` reads the `contacts` list as `User`s). An unknown id is left out.
public struct ContactInfoResponse: Codable, Hashable, Sendable {
    /// The users found (wire key `contacts`).
    public var contacts: [Contact]

    /// Creates a CONTACT_INFO response.
    public init(contacts: [Contact]) { self.contacts = contacts }
}
