/// CHAT_SUBSCRIBE (75) request: `{chatId, subscribe}`, whether the connection wants a chat's live updates
/// (MaxBridge 1.8.0 `MaxBridge/max_api.py`, `subscribe_to_chat`, which sends it again for every subscribed chat after
/// a reconnect; python-max-client 1.0.2 `functions/chats.py`, `leave_chat`, sends `subscribe: false`; PyMax 2.5.0
/// `pymax/api/messages/service.py`, `subscribe_comments`, adds a channel post's `postId`). Answered `{}`. SyncSim's
/// server pushes a chat's changes to every member's connections whatever they asked, so the request changes nothing
/// there.
public struct ChatSubscribeRequest: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`; an integer or its decimal string).
    public var chatId: Int64
    /// Subscribe (true) or unsubscribe (wire key `subscribe`; absent means true).
    public var subscribe: Bool?
    /// A channel post whose comments are meant (wire key `postId`; comments are not modelled).
    public var postId: Int64?

    /// Creates a CHAT_SUBSCRIBE request.
    public init(chatId: Int64, subscribe: Bool? = true, postId: Int64? = nil) {
        self.chatId = chatId
        self.subscribe = subscribe
        self.postId = postId
    }

    private enum CodingKeys: String, CodingKey { case chatId, subscribe, postId }

    /// - Throws: `DecodingError` when `chatId` is missing or spells no id, or a key has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        subscribe = try container.decodeIfPresent(Bool.self, forKey: .subscribe)
        postId = try container.decodeIfPresent(FieldId.self, forKey: .postId)?.value
    }
}

/// CONTACT_INFO_BY_PHONE (46) request: `{phone}`, a user found by phone number, written with or without `+` and
/// separators (PyMax 2.5.0 `pymax/api/users/payloads.py`, `SearchByPhonePayload`, sent by `service.py`,
/// `search_by_phone`; MaxBridge 1.8.0 `get_contact_by_phone`). Answered `{contact}` (`ContactByPhoneResponse`).
public struct ContactByPhoneRequest: Codable, Hashable, Sendable {
    /// The number as sent (wire key `phone`).
    public var phone: String

    /// Creates a CONTACT_INFO_BY_PHONE request.
    public init(phone: String) { self.phone = phone }

    /// The number's digits, nil when it has none or more than 18.
    public var digits: Int64? {
        let kept = phone.filter(\.isASCII).filter(\.isNumber)
        guard !kept.isEmpty, kept.count <= 18 else { return nil }
        return Int64(kept)
    }
}

/// CONTACT_INFO_BY_PHONE response: `{contact}`, the user found (PyMax 2.5.0 `search_by_phone` requires `contact` and
/// reads it as a `User`).
public struct ContactByPhoneResponse: Codable, Hashable, Sendable {
    /// The user found (wire key `contact`).
    public var contact: Contact

    /// Creates a CONTACT_INFO_BY_PHONE response.
    public init(contact: Contact) { self.contact = contact }
}

/// CONTACT_UPDATE (34) request: `{contactId, action}`, `ADD` or `REMOVE` the user from the asking user's contacts
/// (PyMax 2.5.0 `pymax/api/users/payloads.py`, `ContactActionPayload`; `enums.py`, `ContactAction`). ADD is answered
/// `{contact}` (`ContactByPhoneResponse`'s shape: PyMax's `add_contact` requires `contact` and reads it as a `User`),
/// REMOVE `{}`.
public struct ContactUpdateRequest: Codable, Hashable, Sendable {
    /// The user added or removed (wire key `contactId`; an integer or its decimal string).
    public var contactId: Int64
    /// `ADD` or `REMOVE` as sent (wire key `action`); any other word is refused by the server, naming it.
    public var action: String

    /// Creates a CONTACT_UPDATE request.
    public init(contactId: Int64, action: String) {
        self.contactId = contactId
        self.action = action
    }

    private enum CodingKeys: String, CodingKey { case contactId, action }

    /// - Throws: `DecodingError` when `contactId` is missing or spells no id, or `action` is missing or not a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        contactId = try container.decodeFieldId(forKey: .contactId)
        action = try container.decode(String.self, forKey: .action)
    }
}

/// SESSIONS_CLOSE (97) answer: `{token}`, the token the asking session keeps once the user's other sessions ended
/// (PyMax 2.5.0 `pymax/api/self/service.py`, `close_all_sessions`, which stores it as its session's token).
public struct SessionsCloseResponse: Codable, Hashable, Sendable {
    /// The asking session's token (wire key `token`).
    public var token: String

    /// Creates a SESSIONS_CLOSE answer.
    public init(token: String) { self.token = token }
}

/// One entry of a SESSIONS_INFO (96) answer: an open session of the user (PyMax 2.5.0
/// `pymax/types/domain/session.py`, `Session`, whose every key is optional). SyncSim's server lists the user's open
/// connections that logged in: the connection's number as `id`, the device its SESSION_INIT named, and whether it is
/// the asking connection.
public struct SessionInfo: Codable, Hashable, Sendable {
    /// The session (wire key `id`; SyncSim: the connection's number).
    public var id: Int64
    /// The device its SESSION_INIT named (wire key `deviceId`).
    public var deviceId: String?
    /// Whether it is the session asking (wire key `current`).
    public var current: Bool

    /// Creates a session entry.
    public init(id: Int64, deviceId: String?, current: Bool) {
        self.id = id
        self.deviceId = deviceId
        self.current = current
    }
}

/// SESSIONS_INFO (96) answer: `{sessions[]}` (PyMax 2.5.0 `pymax/api/users/service.py`, `get_sessions`, which sends
/// `{}` and reads the `sessions` list as `Session`s).
public struct SessionsInfoResponse: Codable, Hashable, Sendable {
    /// The user's sessions, in connection order (wire key `sessions`).
    public var sessions: [SessionInfo]

    /// Creates a SESSIONS_INFO answer.
    public init(sessions: [SessionInfo]) { self.sessions = sessions }
}
