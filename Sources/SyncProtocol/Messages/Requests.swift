/// SESSION_INIT request in either field shape.
///
/// Mobile (PyMax `pymax/api/session/payloads.py`, `MobileHandshakePayload`):
/// `{mt_instanceid, userAgent, clientSessionId, deviceId}`; web (`WebHandshakePayload`): `{userAgent, deviceId}`.
/// The server requires `userAgent.deviceType` and `deviceId`.
public struct SessionInitRequest: Codable, Hashable, Sendable {
    /// The device's instance id; present in the mobile shape only (wire key `mt_instanceid`).
    public var instanceId: String?
    /// The device and app description (wire key `userAgent`).
    public var userAgent: UserAgent
    /// A small per-process session number; mobile shape only (wire key `clientSessionId`).
    public var clientSessionId: Int?
    /// The sending device's identifier (wire key `deviceId`).
    public var deviceId: String

    /// Creates a SESSION_INIT request; with an `instanceId` it has the mobile shape, without it the web shape.
    public init(deviceId: String, userAgent: UserAgent, instanceId: String? = nil, clientSessionId: Int? = nil) {
        self.deviceId = deviceId
        self.userAgent = userAgent
        self.instanceId = instanceId
        self.clientSessionId = clientSessionId
    }

    /// The mobile shape the reference client sends: an Android-like user agent of app version `"syncsim"`.
    public static func mobile(deviceId: String) -> SessionInitRequest {
        SessionInitRequest(
            deviceId: deviceId, userAgent: UserAgent(deviceType: "ANDROID", appVersion: "syncsim"),
            instanceId: deviceId, clientSessionId: 1)
    }

    /// Whether this is the mobile shape (it carries `mt_instanceid`).
    public var isMobile: Bool { instanceId != nil }

    private enum CodingKeys: String, CodingKey {
        case instanceId = "mt_instanceid"
        case userAgent, clientSessionId, deviceId
    }
}

/// SESSION_INIT response: `{callsSeed, time}`.
///
/// `callsSeed` is what a mobile client hashes into its LOGIN fingerprint; PyMax's mobile login refuses to proceed
/// without it (`pymax/api/auth/service.py`, parsed by `pymax/types/domain/handshake.py`). `time` is the server clock.
public struct SessionInitResponse: Codable, Hashable, Sendable {
    /// A per-connection seed for the mobile client's call fingerprint (wire key `callsSeed`).
    public var callsSeed: Int64
    /// The server clock in milliseconds since the Unix epoch (wire key `time`).
    public var time: Int64

    /// Creates a SESSION_INIT response carrying the server clock `time` in milliseconds since the Unix epoch.
    public init(time: Int64, callsSeed: Int64 = 0) {
        self.time = time
        self.callsSeed = callsSeed
    }

    private enum CodingKeys: String, CodingKey { case callsSeed, time }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        callsSeed = try container.decodeIfPresent(Int64.self, forKey: .callsSeed) ?? 0
        time = try container.decodeIfPresent(Int64.self, forKey: .time) ?? 0
    }
}

/// LOGIN request by token, in the shapes PyMax `pymax/api/auth/payloads.py` sends (`SyncPayload` from a mobile
/// client, `WebSyncPayload` from a web client): `{token, chatsSync, contactsSync, chatsCount?, interactive?, ...}`.
///
/// `chatsSync` and `contactsSync` are last-sync timestamps in server milliseconds; the field's "never synced" is
/// `-1` (0 is read the same way). `chatsCount` is optional and caps how many changed chats the response lists.
/// Other keys field clients send (`userAgent`, `presenceSync`, `draftsSync`, `configHash`, `exp`,
/// `chatCacheFingerprint`) are accepted and ignored.
public struct LoginRequest: Codable, Hashable, Sendable {
    /// The session token that identifies the user (wire key `token`).
    public var token: String
    /// Last chat sync, server milliseconds since the Unix epoch; -1 when never synced (wire key `chatsSync`).
    public var chatsSync: Int64
    /// Last contact sync, server milliseconds since the Unix epoch; -1 when never synced (wire key `contactsSync`).
    public var contactsSync: Int64
    /// The most changed chats the response may list; nil leaves it to the server (wire key `chatsCount`).
    public var chatsCount: Int?
    /// Whether the user is looking at the app (wire key `interactive`).
    public var interactive: Bool?

    /// The field's "never synced" value of `chatsSync` and `contactsSync` (PyMax `pymax/types/domain/sync.py`).
    public static let neverSynced: Int64 = -1

    /// Creates a LOGIN request; `chatsSync` and `contactsSync` are server milliseconds since the Unix epoch.
    public init(token: String, chatsSync: Int64, contactsSync: Int64, chatsCount: Int?, interactive: Bool? = true) {
        self.token = token
        self.chatsSync = chatsSync
        self.contactsSync = contactsSync
        self.chatsCount = chatsCount
        self.interactive = interactive
    }

    private enum CodingKeys: String, CodingKey { case token, chatsCount, chatsSync, contactsSync, interactive }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(String.self, forKey: .token)
        chatsSync = try container.decodeIfPresent(Int64.self, forKey: .chatsSync) ?? LoginRequest.neverSynced
        contactsSync = try container.decodeIfPresent(Int64.self, forKey: .contactsSync) ?? LoginRequest.neverSynced
        chatsCount = try container.decodeIfPresent(Int.self, forKey: .chatsCount)
        interactive = try container.decodeIfPresent(Bool.self, forKey: .interactive)
    }
}

/// A user's own profile, sent as the field's `{contact: {id, names[]}, profileOptions[]}`
/// (PyMax `pymax/types/domain/profile.py`, `Profile`); with `fullKeys`, the contact carries `accountStatus`, `phone`
/// and `updateTime` too, which PyMax 1.2.5 requires (`pymax/types.py`, `Me.from_dict`: without them its LOGIN
/// handling fails and the client never starts), and the profile itself carries `phone` (the same number), which
/// vkmax 1.0.2 reads after LOGIN (PyPI `vkmax`, `vkmax/client.py`, `MaxClient.login_by_token`:
/// `payload.profile.phone`; without it its login raises `KeyError`).
public struct Profile: Codable, Hashable, Sendable {
    /// The user's id (wire key `contact.id`).
    public var id: Int64
    /// The user's display name (wire key `contact.names[0].name`).
    public var name: String
    /// Whether the encoder adds the keys PyMax 1.x requires (`Contact.fullKeys`, and `phone`); not decoded, not
    /// compared (`==`, `hash`).
    public var fullKeys = false

    /// Creates a profile for user `id` named `name`.
    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }

    private enum CodingKeys: String, CodingKey { case contact, phone, profileOptions }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let contact = try container.decode(Contact.self, forKey: .contact)
        self.init(id: contact.id, name: contact.name)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(contact, forKey: .contact)
        if fullKeys { try container.encode(contact.syntheticPhone, forKey: .phone) }
        try container.encode([Int](), forKey: .profileOptions)
    }

    /// The contact the profile is sent as: with the user's `phone` when `fullKeys`.
    var contact: Contact {
        var contact = Contact(id: id, name: name)
        contact.fullKeys = fullKeys
        contact.isOwnProfile = true
        return contact
    }

    public static func == (lhs: Profile, rhs: Profile) -> Bool { lhs.id == rhs.id && lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
    }
}

/// A contact (a user), sent as the field's `{id, names: [{name, firstName, type}]}`
/// (PyMax `pymax/types/domain/user.py` and `name.py`); with `fullKeys`, `{id, accountStatus, phone?, updateTime,
/// names}`, the keys PyMax 1.2.5 requires of a contact (`pymax/types.py`, `User.from_dict`): `accountStatus` 0 (an
/// active account), `updateTime` 0 (no profile change to date), and for the user's own profile `phone` (an integer,
/// as 2.x types it, `user.py`): 79_000_000_000 + id, since SyncSim's users have no number.
public struct Contact: Codable, Hashable, Sendable {
    /// The contact's user id (wire key `id`).
    public var id: Int64
    /// The contact's display name (wire key `names[0].name`, or `firstName` when `name` is absent).
    public var name: String
    /// Whether the encoder adds the keys PyMax 1.x requires; not decoded, not compared (`==`, `hash`).
    public var fullKeys = false
    /// The contact is the user's own profile, so `fullKeys` adds its `phone`.
    var isOwnProfile = false

    /// The phone number sent for the user's own profile.
    var syntheticPhone: Int64 { 79_000_000_000 &+ id }

    /// Creates a contact for user `id` named `name`.
    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }

    private enum CodingKeys: String, CodingKey { case id, accountStatus, phone, updateTime, names }
    private struct Name: Codable {
        var name: String?
        var firstName: String?
        var type: String?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        let names = try container.decodeIfPresent([Name].self, forKey: .names) ?? []
        name = names.first.flatMap { $0.name ?? $0.firstName } ?? ""
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        if fullKeys {
            try container.encode(0, forKey: .accountStatus)
            if isOwnProfile { try container.encode(syntheticPhone, forKey: .phone) }
            try container.encode(0, forKey: .updateTime)
        }
        try container.encode([Name(name: name, firstName: name, type: "ONEME")], forKey: .names)
    }

    public static func == (lhs: Contact, rhs: Contact) -> Bool { lhs.id == rhs.id && lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(name)
    }
}

/// A chat-list entry in the field's shape: `{id, type, status, owner, participants, modified, lastMessage?}`
/// (PyMax `pymax/types/domain/chat.py`, `Chat`, which requires `id`, `type`, `status` and `owner`).
///
/// `participants` maps each member's user id (a string key on the wire) to server milliseconds; the model keeps the
/// member ids. With `fullKeys`, the entry carries `created`, `joinTime` and `lastEventTime` (each `modified`: the
/// model keeps no other time of a chat) and `lastDelayedUpdateTime` and `lastFireDelayedErrorTime` (0) after
/// `modified`: PyMax 1.2.5 requires them of a dialog (`pymax/types.py`, `Dialog.from_dict`) and drops an entry without
/// them; 2.x declares them with defaults (`chat.py`). `type` is `"DIALOG"` for a chat of at most two members, else
/// `"CHAT"`; `owner` is the lowest member id; `status` is `"ACTIVE"`.
public struct ChatSummary: Codable, Hashable, Sendable {
    /// The chat's id (wire key `id`).
    public var id: Int64
    /// The user ids of the chat's members, ascending (wire key `participants`, the map's keys).
    public var members: [Int64]
    /// When the chat last changed, server milliseconds since the Unix epoch (wire key `modified`).
    public var modified: Int64
    /// The chat's newest message, if it has one (wire key `lastMessage`).
    public var lastMessage: ChatMessage?
    /// Whether the encoder adds the times PyMax 1.x requires; not decoded, not compared (`==`, `hash`).
    public var fullKeys = false
    /// What CHAT_UPDATE and group creation set (pin, title, description, owner, invite link, options), held out of
    /// line; nil when nothing was set.
    private var details: ChatDetails?

    /// The pinned message, as it is now (wire key `pinnedMessage`; PyMax 2.5.0 `pymax/types/domain/chat.py`,
    /// `Chat.pinned_message`), or nil when none is pinned.
    public var pinnedMessage: ChatMessage? {
        get { details?.fields.pinnedMessage }
        set { updateDetails { $0.pinnedMessage = newValue } }
    }

    /// The chat's title as CHAT_UPDATE's `theme` set it (wire key `title`; PyMax 2.5.0 `Chat.title`), or nil.
    public var title: String? {
        get { details?.fields.title }
        set { updateDetails { $0.title = newValue } }
    }

    /// The chat's description (wire key `description`; PyMax 2.5.0 `Chat.description`), or nil.
    public var descriptionText: String? {
        get { details?.fields.description }
        set { updateDetails { $0.description = newValue } }
    }

    /// The creator of a group made by a real client (`GroupCreateRequest`), or nil for a chat of the scenario's.
    /// A group is `"CHAT"` whatever its size and owned by its creator. Decoded from `owner` where the wire's `type`
    /// and `owner` differ from what the members alone give (a `"CHAT"` of at most two, or an owner other than the
    /// lowest member); a group of more than two owned by its lowest member reads back as nil, from the same bytes.
    public var groupOwner: Int64? {
        get { details?.fields.groupOwner }
        set { updateDetails { $0.groupOwner = newValue } }
    }

    /// The group's invite link, made by CHAT_UPDATE's `revokePrivateLink` (wire key `link`; PyMax 2.5.0
    /// `Chat.link`, which `join_group` and `resolve_group_by_link` take), or nil when it has none.
    public var link: String? {
        get { details?.fields.link }
        set { updateDetails { $0.link = newValue } }
    }

    /// The group's settings as CHAT_UPDATE's `options` set them, by option name (wire key `options`, a map with its
    /// keys in ascending order; PyMax 2.5.0 `Chat.options`, `dict[str, bool]`, and `ChatOption` for the names);
    /// empty when none was set.
    public var options: [String: Bool] {
        get { details?.fields.options ?? [:] }
        set { updateDetails { $0.options = newValue } }
    }

    /// The client id of the MSG_SEND that made the group (wire key `cid`; PyMax 2.5.0 `Chat.cid`, "if Max's payload
    /// has one"; vkmax 1.0.2 `functions/groups.py` `join_group_by_link` reads it from CHAT_JOIN's answer and sends it
    /// as CHAT_HISTORY's `from`), or nil for a chat no client made.
    public var cid: Int64? {
        get { details?.fields.cid }
        set { updateDetails { $0.cid = newValue } }
    }

    /// Whether anything out of line is set (the entry then goes through Codable, not the fast paths).
    var hasDetails: Bool { details != nil }

    private mutating func updateDetails(_ change: (inout ChatDetails.Fields) -> Void) {
        var fields = details?.fields ?? ChatDetails.Fields()
        change(&fields)
        details = fields == ChatDetails.Fields() ? nil : ChatDetails(fields)
    }

    /// Creates a chat-list entry; `modified` is server milliseconds since the Unix epoch.
    public init(id: Int64, members: [Int64], modified: Int64, lastMessage: ChatMessage?) {
        self.id = id
        self.members = members
        self.modified = modified
        self.lastMessage = lastMessage
    }

    /// `"DIALOG"` for at most two members (a member listed twice counts once), else `"CHAT"`; `"CHAT"` for a group
    /// (wire key `type`).
    public var type: String {
        if groupOwner != nil { return "CHAT" }
        guard members.count > 2, let first = members.first else { return "DIALOG" }
        var second: Int64?
        for member in members where member != first && member != second {
            if second == nil { second = member } else { return "CHAT" }
        }
        return "DIALOG"
    }
    /// The chat's owner: a group's creator, else its lowest member id (wire key `owner`).
    public var owner: Int64 { groupOwner ?? members.min() ?? 0 }

    private enum CodingKeys: String, CodingKey {
        case id, type, status, owner, participants, modified, created, joinTime, lastEventTime, lastDelayedUpdateTime
        case lastFireDelayedErrorTime, lastMessage, pinnedMessage, title, description, link, options, cid
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        let participants = try container.nestedContainer(keyedBy: NamedKey.self, forKey: .participants)
        // One id per member: a map may repeat a key, or spell one id twice ("1001", "01001"); sorted, so the set's
        // order never shows.
        members = Set(participants.allKeys.compactMap { Int64($0.stringValue) }).sorted()
        modified = try container.decodeIfPresent(Int64.self, forKey: .modified) ?? 0
        lastMessage = try container.decodeIfPresent(ChatMessage.self, forKey: .lastMessage)
        let pinned = try container.decodeIfPresent(ChatMessage.self, forKey: .pinnedMessage)
        let title = try container.decodeIfPresent(String.self, forKey: .title)
        let description = try container.decodeIfPresent(String.self, forKey: .description)
        let link = try container.decodeIfPresent(String.self, forKey: .link)
        // The field also sends `options` as an integer of flags (PyMax 2.5.0 `Chat.options: dict[str, bool] | int`):
        // only the map is kept.
        let options = (try? container.decodeIfPresent([String: Bool].self, forKey: .options)) ?? nil
        // Read leniently too (a field chat list is read by the engine and by replay): an integer or its decimal
        // string, as every id; a value of another type is dropped, not an undecodable LOGIN.
        let cid = ((try? container.decodeIfPresent(FieldId.self, forKey: .cid)) ?? nil)?.value
        // Read leniently, as before they were read at all: a value of another type is no group.
        let type = (try? container.decodeIfPresent(String.self, forKey: .type)) ?? nil
        let owner = (try? container.decodeIfPresent(Int64.self, forKey: .owner)) ?? nil
        var groupOwner: Int64?
        if let owner, (type == "CHAT" && members.count <= 2) || owner != (members.first ?? 0) { groupOwner = owner }
        updateDetails {
            $0 = ChatDetails.Fields(pinnedMessage: pinned, title: title, description: description,
                                    groupOwner: groupOwner, link: link, options: options ?? [:], cid: cid)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode("ACTIVE", forKey: .status)
        try container.encode(owner, forKey: .owner)
        var participants = container.nestedContainer(keyedBy: NamedKey.self, forKey: .participants)
        for member in members.sorted() { try participants.encode(modified, forKey: NamedKey(stringValue: "\(member)")) }
        try container.encode(modified, forKey: .modified)
        if fullKeys {
            for key in [CodingKeys.created, .joinTime, .lastEventTime] { try container.encode(modified, forKey: key) }
            try container.encode(0, forKey: .lastDelayedUpdateTime)
            try container.encode(0, forKey: .lastFireDelayedErrorTime)
        }
        try container.encodeIfPresent(lastMessage, forKey: .lastMessage)
        try container.encodeIfPresent(pinnedMessage, forKey: .pinnedMessage)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(descriptionText, forKey: .description)
        try container.encodeIfPresent(link, forKey: .link)
        try container.encodeInKeyOrder(options, forKey: .options)
        try container.encodeIfPresent(cid, forKey: .cid)
    }

    public static func == (lhs: ChatSummary, rhs: ChatSummary) -> Bool {
        lhs.id == rhs.id && lhs.members == rhs.members && lhs.modified == rhs.modified
            && lhs.lastMessage == rhs.lastMessage && lhs.details == rhs.details
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(members)
        hasher.combine(modified)
        hasher.combine(lastMessage)
        hasher.combine(details)
    }
}

/// A chat's pin, title, description, group owner, invite link, options and cid: set by CHAT_UPDATE and group creation
/// (real clients only), so held out of line, and a chat-list entry without them stays small. Empty details are not
/// kept (`ChatSummary` then holds nil).
private final class ChatDetails: Hashable, Sendable {
    struct Fields: Hashable, Sendable {
        var pinnedMessage: ChatMessage?
        var title: String?
        var description: String?
        var groupOwner: Int64?
        var link: String?
        var options: [String: Bool] = [:]
        var cid: Int64?
    }

    let fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    static func == (lhs: ChatDetails, rhs: ChatDetails) -> Bool { lhs.fields == rhs.fields }

    func hash(into hasher: inout Hasher) { hasher.combine(fields) }
}

/// LOGIN response: `{profile, chats[], contacts[], messages?, token?, time}`, parsed by PyMax
/// `pymax/types/domain/login.py` (`LoginResponse`); `time` is the server clock (milliseconds) to store as the next
/// last-sync.
///
/// `token` is the session token the client logged in with, echoed back. PyMax 2.0.0 declares it required
/// (`token: str`: a LOGIN answer without it fails its validation and the client closes the connection); 2.4.1 and
/// 2.5.0 declare it optional (`token: str | None = None`). SyncSim's server always sends it; the decoder accepts
/// an answer without it (nil).
///
/// `messages` is the field's map of chat id (a string key on the wire) to messages, which PyMax's `LoginResponse`
/// declares (`messages: dict[int, list[Message]]`) without saying what fills it. SyncSim's server fills it with the
/// messages of the listed chats edited or deleted after `chatsSync`, in their newest version: the only way a client
/// that was away (backgrounded, killed, on a dead connection) learns of a change to a message that is not the
/// chat's last. The key is left out when empty, so a LOGIN with nothing changed keeps its field shape.
public struct LoginResponse: Codable, Hashable, Sendable {
    /// The user's own profile, `{contact, profileOptions}` (wire key `profile`).
    public var profile: Profile
    /// The user's chats modified after `chatsSync`, newest first, at most `chatsCount` (wire key `chats`).
    public var chats: [ChatSummary]
    /// The other members of the user's chats when `contactsSync` was "never synced", else empty (wire key
    /// `contacts`).
    public var contacts: [Contact]
    /// Messages of the listed chats edited or removed after `chatsSync`, in their newest version, ascending by id,
    /// by chat id (wire key `messages`, chat ids as string keys in ascending order); empty when none changed.
    public var messages: [Int64: [ChatMessage]]
    /// The session token the client logged in with (wire key `token`); nil when the answer has none.
    public var token: String?
    /// The server clock in milliseconds since the Unix epoch, the next last-sync to store (wire key `time`).
    public var time: Int64

    /// Creates a LOGIN response; `time` is server milliseconds since the Unix epoch, `token` the session token.
    public init(
        profile: Profile, chats: [ChatSummary], contacts: [Contact], messages: [Int64: [ChatMessage]] = [:],
        token: String? = nil, time: Int64
    ) {
        self.profile = profile
        self.chats = chats
        self.contacts = contacts
        self.messages = messages
        self.token = token
        self.time = time
    }

    private enum CodingKeys: String, CodingKey {
        case profile, chats, contacts, messages, token, time
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        profile = try container.decode(Profile.self, forKey: .profile)
        chats = try container.decode([ChatSummary].self, forKey: .chats)
        contacts = try container.decode([Contact].self, forKey: .contacts)
        time = try container.decode(Int64.self, forKey: .time)
        token = try container.decodeIfPresent(String.self, forKey: .token)
        messages = [:]
        guard container.contains(.messages), try !container.decodeNil(forKey: .messages) else { return }
        let map = try container.nestedContainer(keyedBy: NamedKey.self, forKey: .messages)
        for key in map.allKeys {
            guard let chatId = Int64(key.stringValue) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: map, debugDescription: "chat id \"\(key.stringValue)\" is not an integer")
            }
            // A map may spell one chat twice ("7", "07"): both lists count.
            messages[chatId, default: []] += try map.decode([ChatMessage].self, forKey: key)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profile, forKey: .profile)
        try container.encode(chats, forKey: .chats)
        try container.encode(contacts, forKey: .contacts)
        if !messages.isEmpty {
            var map = container.nestedContainer(keyedBy: NamedKey.self, forKey: .messages)
            for chatId in messages.keys.sorted() {
                try map.encode(messages[chatId]!, forKey: NamedKey(stringValue: "\(chatId)"))
            }
        }
        try container.encodeIfPresent(token, forKey: .token)
        try container.encode(time, forKey: .time)
    }
}

/// CHAT_HISTORY request, paged by server time: `{chatId, from, forward, backward, backwardTime?, forwardTime?,
/// getChat?, getMessages?, itemType?, interactive?}` (PyMax `pymax/api/messages/payloads.py`, `ChatHistoryPayload`).
///
/// Asks for up to `backward` messages with `time` at or before `from` and up to `forward` messages after it, in
/// ascending order. `from` is server milliseconds since the Unix epoch (PyMax sends the current time for "newest").
/// The optional keys are accepted and ignored by the model's server.
public struct ChatHistoryRequest: Codable, Hashable, Sendable {
    /// The chat whose history is asked for (wire key `chatId`).
    public var chatId: Int64
    /// The server time in milliseconds the page is anchored at (wire key `from`).
    public var from: Int64
    /// How many messages after `from` to return at most (wire key `forward`).
    public var forward: Int
    /// How many messages at or before `from` to return at most (wire key `backward`).
    public var backward: Int
    /// Whether the client wants messages at all (wire key `getMessages`); nil means yes.
    public var getMessages: Bool?

    /// Creates a CHAT_HISTORY request for `chatId` around server time `from` (milliseconds); `forward` and
    /// `backward` are counts.
    public init(chatId: Int64, from: Int64, forward: Int, backward: Int, getMessages: Bool? = nil) {
        self.chatId = chatId
        self.from = from
        self.forward = forward
        self.backward = backward
        self.getMessages = getMessages
    }

    private enum CodingKeys: String, CodingKey { case chatId, from, forward, backward, getMessages }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        from = try container.decode(Int64.self, forKey: .from)
        forward = try container.decodeIfPresent(Int.self, forKey: .forward) ?? 0
        backward = try container.decodeIfPresent(Int.self, forKey: .backward) ?? 0
        getMessages = try container.decodeIfPresent(Bool.self, forKey: .getMessages)
    }
}

/// CHAT_HISTORY response: `{messages[]}` in ascending time order.
public struct ChatHistoryResponse: Codable, Hashable, Sendable {
    /// The page of messages in ascending time (and id) order (wire key `messages`).
    public var messages: [ChatMessage]

    /// Creates a CHAT_HISTORY response from `messages` in ascending order.
    public init(messages: [ChatMessage]) { self.messages = messages }
}

/// CHAT_MARK request: `{type, chatId, messageId, mark}` (PyMax `pymax/api/messages/payloads.py`,
/// `ReadMessagesPayload`): the newest message read, `mark` being the client's time of reading in milliseconds.
/// `{type: "SET_AS_UNREAD", chatId, mark}`, without `messageId`, marks the chat unread instead (python-max-client
/// 1.0.2 `functions/chats.py`, `mark_chat_as_unread`; the NOTIF_MARK push's `setAsUnread`, PyMax 2.5.0
/// `pymax/types/events/mark.py`).
public struct ChatMarkRequest: Codable, Hashable, Sendable {
    /// `ChatMarkRequest.type` of a read mark.
    public static let readMessage = "READ_MESSAGE"
    /// `ChatMarkRequest.type` of a chat marked unread.
    public static let setAsUnread = "SET_AS_UNREAD"

    /// The mark's kind, `"READ_MESSAGE"` or `"SET_AS_UNREAD"` (wire key `type`).
    public var type: String
    /// The chat being marked (wire key `chatId`).
    public var chatId: Int64
    /// The newest message id the user has read (wire key `messageId`; nil in a SET_AS_UNREAD, which names none).
    public var messageId: Int64?
    /// When it was read, milliseconds since the Unix epoch (wire key `mark`).
    public var mark: Int64

    /// Creates a CHAT_MARK request marking `chatId` read up to message `messageId` at time `mark` (milliseconds).
    public init(chatId: Int64, messageId: Int64?, mark: Int64, type: String = ChatMarkRequest.readMessage) {
        self.type = type
        self.chatId = chatId
        self.messageId = messageId
        self.mark = mark
    }

    private enum CodingKeys: String, CodingKey { case type, chatId, messageId, mark }

    /// - Throws: `DecodingError` when `type`, `chatId` or `mark` is missing, or `messageId` is missing from a
    ///   mark that is not SET_AS_UNREAD.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        chatId = try container.decodeFieldId(forKey: .chatId)
        messageId = type == Self.setAsUnread
            ? try container.decodeIfPresent(FieldId.self, forKey: .messageId)?.value
            : try container.decodeFieldId(forKey: .messageId)
        mark = try container.decode(Int64.self, forKey: .mark)
    }
}

/// CHAT_MARK response: `{unread, mark}` (PyMax `pymax/types/domain/message.py`, `ReadState`, requires both).
public struct ChatMarkResponse: Codable, Hashable, Sendable {
    /// Messages of the chat still unread by the user (wire key `unread`).
    public var unread: Int
    /// The stored read time, milliseconds (wire key `mark`).
    public var mark: Int64

    /// Creates a CHAT_MARK response.
    public init(unread: Int, mark: Int64) {
        self.unread = unread
        self.mark = mark
    }
}

/// MSG_SEND request: `{chatId, message: {text, cid, elements[], attaches[]}, notify}`
/// (PyMax `pymax/api/messages/payloads.py`, `SendMessagePayload`).
public struct MsgSendRequest: Codable, Hashable, Sendable {
    /// The chat to send into (wire key `chatId`).
    public var chatId: Int64
    /// The message to send, with its idempotency key `cid` (wire key `message`).
    public var message: OutgoingMessage
    /// Whether the other members get a notification (wire key `notify`; absent means true).
    public var notify: Bool
    /// The channel post a comment is under, nil for an ordinary message (wire key `postId`; PyMax 2.5.0
    /// `pymax/api/messages/payloads.py`, `SendCommentPayload`). Not modelled: serve refuses a comment rather than
    /// store it in the chat as an ordinary message.
    public var postId: Int64?

    /// Creates a MSG_SEND request sending `message` into `chatId`.
    public init(chatId: Int64, message: OutgoingMessage, notify: Bool = true) {
        self.chatId = chatId
        self.message = message
        self.notify = notify
    }

    private enum CodingKeys: String, CodingKey { case chatId, message, notify, postId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        message = try container.decode(OutgoingMessage.self, forKey: .message)
        notify = try container.decodeIfPresent(Bool.self, forKey: .notify) ?? true
        postId = try container.decodeIfPresent(FieldId.self, forKey: .postId)?.value
    }
}

/// MSG_SEND response: `{chatId, message}`, the stored message (the original one when `cid` was seen before).
/// PyMax `pymax/types/domain/message.py` unwraps `message` and takes `chatId` beside it. A group's creation
/// (`GroupCreateRequest`) is answered `{chatId, chat, message}`: PyMax 2.5.0 `create_group` reads `chat` too.
public struct MsgSendResponse: Codable, Hashable, Sendable {
    /// The chat the message was stored in (wire key `chatId`).
    public var chatId: Int64
    /// The stored message with its server id and time (wire key `message`).
    public var message: ChatMessage
    /// The chat a group's creation made, as LOGIN lists it (wire key `chat`); nil for a message sent.
    public var chat: ChatSummary?

    /// Creates a MSG_SEND response for the message stored in `chatId`.
    public init(chatId: Int64, message: ChatMessage, chat: ChatSummary? = nil) {
        self.chatId = chatId
        self.message = message
        self.chat = chat
    }

    private enum CodingKeys: String, CodingKey { case chatId, chat, message }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decode(Int64.self, forKey: .chatId)
        chat = try container.decodeIfPresent(ChatSummary.self, forKey: .chat)
        message = try container.decode(ChatMessage.self, forKey: .message)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chatId, forKey: .chatId)
        try container.encodeIfPresent(chat, forKey: .chat)
        try container.encode(message, forKey: .message)
    }
}

/// PHOTO_UPLOAD request: asks where to upload a photo.
///
/// The field's clients send `{count, type, uploaderType, profile}` (PyMax 2.5.0 `pymax/api/uploads/payloads.py`,
/// `UploadPayload`) and learn the size nowhere: none of those keys is read here. SyncSim's clients send
/// `{sizeBytes}`, the size of the photo they will upload **(SyncSim's CDN model)**, which the CDN then checks.
public struct PhotoUploadRequest: Codable, Hashable, Sendable {
    /// The photo's size in bytes, or nil when the client does not say (wire key `sizeBytes`).
    public var sizeBytes: Int?

    /// Creates a PHOTO_UPLOAD request for a photo of `sizeBytes` bytes (nil: as the field's clients ask).
    public init(sizeBytes: Int?) { self.sizeBytes = sizeBytes }
}

/// PHOTO_UPLOAD response: `{photoToken, url}`.
///
/// - `url`, where to POST the photo: `<cdn>/upload?photoIds=<photoId>`. The field's clients read it, take the photo
///   id from its `photoIds` query parameter (PyMax 2.1.0 reads only that one; 2.5.0 also `photos`) and get the token
///   from the upload's answer, `{"photos": {id: {"token"}}}` (PyMax 2.5.0 and 2.1.0 `pymax/api/uploads/service.py`,
///   `upload_photo`; `pymax/api/uploads/models.py`).
/// - `photoToken`, the token the upload will be stored under **(SyncSim's CDN model)**: SyncSim's clients upload
///   over the simulated link and attach it to the message without waiting for the CDN's answer.
public struct PhotoUploadResponse: Codable, Hashable, Sendable {
    /// The CDN token to upload the photo under and attach to the message (wire key `photoToken`).
    public var photoToken: String
    /// Where to upload the photo (wire key `url`); nil in SyncSim's captures before 2026-12-05.
    public var url: String?

    /// Creates a PHOTO_UPLOAD response carrying the CDN token `photoToken` and the upload `url`.
    public init(photoToken: String, url: String? = nil) {
        self.photoToken = photoToken
        self.url = url
    }
}

/// PING request: `{interactive}`; the response is an empty map. PyMax `pymax/app.py` pings every 30 s.
public struct PingRequest: Codable, Hashable, Sendable {
    /// Whether the user is looking at the app; the server ignores it (wire key `interactive`).
    public var interactive: Bool

    /// Creates a PING request; the reference client's keep-alive pings send `interactive: false`.
    public init(interactive: Bool) { self.interactive = interactive }
}

/// NOTIF_MESSAGE push (`cmd` 0): `{chatId, message}`, a new, edited (`status` EDITED) or removed (REMOVED)
/// message in a chat the user belongs to. PyMax `pymax/dispatch/resolvers.py` tells the three apart by `status`.
public struct NotifMessage: Codable, Hashable, Sendable {
    /// The chat the message belongs to (wire key `chatId`).
    public var chatId: Int64
    /// The message (wire key `message`).
    public var message: ChatMessage

    /// Creates a NOTIF_MESSAGE push for `message` in `chatId`.
    public init(chatId: Int64, message: ChatMessage) {
        self.chatId = chatId
        self.message = message
    }
}

/// NOTIF_MARK push (`cmd` 0): `{chatId, userId, mark, setAsUnread}` (PyMax `pymax/types/events/mark.py`, which
/// requires all four): a member read the chat at time `mark` (milliseconds).
public struct NotifMark: Codable, Hashable, Sendable {
    /// The chat that was read (wire key `chatId`).
    public var chatId: Int64
    /// The member who read it (wire key `userId`).
    public var userId: Int64
    /// When it was read, milliseconds (wire key `mark`).
    public var mark: Int64
    /// Whether the chat was marked unread instead (wire key `setAsUnread`).
    public var setAsUnread: Bool

    /// Creates a NOTIF_MARK push: `userId` read `chatId` at time `mark`.
    public init(chatId: Int64, userId: Int64, mark: Int64, setAsUnread: Bool = false) {
        self.chatId = chatId
        self.userId = userId
        self.mark = mark
        self.setAsUnread = setAsUnread
    }
}

/// An error frame's payload (`cmd` 3) in the field's shape: `{error, message, localizedMessage, title}`
/// (PyMax `pymax/types/domain/error.py`, `MaxApiError`, which requires `error` and `message`).
public struct ErrorPayload: Codable, Hashable, Sendable {
    /// A machine-readable error code such as `"login.token"` (wire key `error`).
    public var error: String
    /// A human-readable explanation (wire key `message`).
    public var message: String
    /// The explanation for showing to a user (wire key `localizedMessage`).
    public var localizedMessage: String?
    /// A short heading (wire key `title`).
    public var title: String?

    /// Creates an error payload with machine code `error` and text `message`; `localizedMessage` defaults to the
    /// text and `title` to `"Error"`.
    public init(error: String, message: String, localizedMessage: String? = nil, title: String? = "Error") {
        self.error = error
        self.message = message
        self.localizedMessage = localizedMessage ?? message
        self.title = title
    }
}

