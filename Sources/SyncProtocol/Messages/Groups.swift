/// A group's creation: a MSG_SEND (64) request without `chatId` whose message carries one CONTROL attachment,
/// `{message: {cid, attaches: [{_type: "CONTROL", event: "new", chatType: "CHAT", title, userIds}]}, notify}`
/// (PyMax 2.5.0 `pymax/api/chats/payloads.py`: `CreateGroupPayload`, `CreateGroupMessage`, `CreateGroupAttach`;
/// sent by `pymax/api/chats/service.py`, `create_group`). The answer is MSG_SEND's `{chatId, message}` with the new
/// chat beside them (`MsgSendResponse.chat`): PyMax reads `chat` and the message from the same payload.
///
/// The creation is idempotent on `cid`, as a send is: a retry answers the group already made.
public struct GroupCreateRequest: Codable, Hashable, Sendable {
    /// The idempotency key (wire key `message.cid`; PyMax makes it from its clock in ms).
    public var cid: Int64
    /// The group's title (the CONTROL attachment's `title`).
    public var title: String
    /// The users to add beside the creator (the CONTROL attachment's `userIds`).
    public var userIds: [Int64]
    /// Whether members are notified (wire key `notify`; absent means true).
    public var notify: Bool

    /// Creates a group creation with idempotency key `cid`.
    public init(cid: Int64, title: String, userIds: [Int64], notify: Bool = true) {
        self.cid = cid
        self.title = title
        self.userIds = userIds
        self.notify = notify
    }

    private enum CodingKeys: String, CodingKey { case chatId, message, notify }
    private enum MessageKeys: String, CodingKey { case cid, attaches }

    /// - Throws: `DecodingError` when the payload names a chat, or its message does not carry exactly one CONTROL
    ///   attachment with `event` `"new"` and a `title`, or that attachment's `chatType` is other than `"CHAT"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard !container.contains(.chatId) else {
            throw DecodingError.dataCorruptedError(forKey: .chatId, in: container,
                                                   debugDescription: "a group's creation names no chat")
        }
        let message = try container.nestedContainer(keyedBy: MessageKeys.self, forKey: .message)
        cid = try message.decodeFieldId(forKey: .cid)
        let attaches = try message.decode([Attach].self, forKey: .attaches)
        guard attaches.count == 1, let control = attaches.first, control.type == "CONTROL", control.event == "new",
              let title = control.title else {
            throw DecodingError.dataCorruptedError(
                forKey: .attaches, in: message,
                debugDescription: "a group's creation carries one CONTROL attachment with event \"new\" and a title")
        }
        // A channel (vkmax 1.0.2 `functions/channels.py`, `create_channel`: `chatType` `"CHANNEL"`) is not modelled:
        // refused by name rather than made as a group.
        if let chatType = control.chatType, chatType != "CHAT" {
            throw DecodingError.dataCorruptedError(
                forKey: .attaches, in: message,
                debugDescription: "chatType \"\(chatType.prefix(40))\" is not modelled: serve makes groups (\"CHAT\") only")
        }
        self.title = title
        userIds = control.userIds ?? []
        notify = try container.decodeIfPresent(Bool.self, forKey: .notify) ?? true
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var message = container.nestedContainer(keyedBy: MessageKeys.self, forKey: .message)
        try message.encode(cid, forKey: .cid)
        try message.encode([Attach.control(event: "new", chatType: "CHAT", title: title, userIds: userIds)],
                           forKey: .attaches)
        try container.encode(notify, forKey: .notify)
    }
}

/// CHAT_MEMBERS_UPDATE (77) request: adds users to a group, `{chatId, userIds, showHistory, operation: "add"}`, or
/// removes them, `{chatId, userIds, operation: "remove", cleanMsgPeriod}` (PyMax 2.5.0 `pymax/api/chats/payloads.py`:
/// `InviteUsersPayload`, `RemoveUsersPayload`; `enums.py`, `ChatMemberOperation`). `showHistory` and
/// `cleanMsgPeriod` are read by no one here: every member reads the whole history. Answered `{chat}`
/// (`ChatMembersUpdateResponse`). The same opcode changes other lists by `type`: `"ADMIN"` (PyMax 2.5.0
/// `AddAdminPayload`, with `permissions`; python-max-client 1.0.2 `functions/groups.py`, `remove_admin`),
/// `"JOIN_REQUEST"` (`JoinRequestActionPayload`), `"COMMENTS_BLACKLIST"`; serve models membership only, so a `type`
/// other than `"MEMBER"` is refused (`proto.payload`) rather than read as a membership change (an admin's removal
/// removed the user from the group).
public struct ChatMembersUpdateRequest: Codable, Hashable, Sendable {
    /// What the request does to the users (wire key `operation`).
    public enum Operation: String, Codable, Hashable, Sendable {
        case add
        case remove
    }

    /// The group (wire key `chatId`).
    public var chatId: Int64
    /// The users added or removed (wire key `userIds`).
    public var userIds: [Int64]
    /// Add or remove (wire key `operation`).
    public var operation: Operation

    /// Creates a CHAT_MEMBERS_UPDATE request.
    public init(chatId: Int64, userIds: [Int64], operation: Operation) {
        self.chatId = chatId
        self.userIds = userIds
        self.operation = operation
    }

    private enum CodingKeys: String, CodingKey { case chatId, userIds, operation }
    private enum ListKey: String, CodingKey { case type }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let list = try decoder.container(keyedBy: ListKey.self)
        if let type = try list.decodeIfPresent(String.self, forKey: .type), type != "MEMBER" {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: list,
                debugDescription: "type \"\(type.prefix(40))\" is not modelled: serve changes members (\"MEMBER\") only")
        }
        chatId = try container.decodeFieldId(forKey: .chatId)
        userIds = try container.decodeFieldIds(forKey: .userIds)
        operation = try container.decode(Operation.self, forKey: .operation)
    }
}

/// CHAT_MEMBERS_UPDATE response: `{chat}`, the group as it is now (PyMax reads it as `Chat`).
public typealias ChatMembersUpdateResponse = NotifChat

/// CHAT_LEAVE (58) request: the user leaves a group, `{chatId}` (PyMax 2.5.0 `pymax/api/chats/payloads.py`,
/// `LeaveChatPayload`; sent by `service.py`, `leave_group`, which reads nothing of the answer). Answered `{}`.
public struct ChatLeaveRequest: Codable, Hashable, Sendable {
    /// The group to leave (wire key `chatId`).
    public var chatId: Int64

    /// Creates a CHAT_LEAVE request.
    public init(chatId: Int64) { self.chatId = chatId }

    private enum CodingKeys: String, CodingKey { case chatId }

    public init(from decoder: any Decoder) throws {
        chatId = try decoder.container(keyedBy: CodingKeys.self).decodeFieldId(forKey: .chatId)
    }
}

/// CHAT_MEMBERS (59) request: a page of a chat's members, `{type: "MEMBER", chatId, marker, count}` (PyMax 2.5.0
/// `pymax/api/chats/payloads.py`, `GetChatMembersPayload`; sent by `service.py`, `get_chat_members`). `type` is read
/// by no one here (join requests are not modelled).
public struct ChatMembersRequest: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`).
    public var chatId: Int64
    /// Where the page starts: members with a greater user id; 0 (or absent) for the first page (wire key `marker`;
    /// SyncSim's reading: PyMax passes back the answer's `marker`).
    public var marker: Int64
    /// At most this many members (wire key `count`; absent means 50, PyMax's default).
    public var count: Int
    /// Which list: `"MEMBER"` (absent means it; PyMax 2.5.0 `GetChatMembersPayload`) or `"JOIN_REQUEST"` (PyMax's
    /// `get_join_requests`), which serve answers with no one: it models no join requests (wire key `type`). Other
    /// lists are refused when decoded.
    public var type: String

    /// Creates a CHAT_MEMBERS request.
    public init(chatId: Int64, marker: Int64 = 0, count: Int = 50, type: String = "MEMBER") {
        self.chatId = chatId
        self.marker = marker
        self.count = count
        self.type = type
    }

    private enum CodingKeys: String, CodingKey { case chatId, marker, count, type }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        marker = try container.decodeIfPresent(Int64.self, forKey: .marker) ?? 0
        count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 50
        type = try container.decodeIfPresent(String.self, forKey: .type) ?? "MEMBER"
        guard type == "MEMBER" || type == "JOIN_REQUEST" else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "type \"\(type.prefix(40))\" is not modelled: serve lists members (\"MEMBER\") and no join requests")
        }
    }
}

/// CHAT_MEMBERS response: `{members: [{contact, presence}], marker}`, members by ascending user id; `marker` is the
/// last one's id when more follow, else 0 (PyMax 2.5.0 `pymax/types/domain/member.py`, `Member`: `contact` a `User`
/// as CONTACT_INFO gives it, `presence` a `Presence` whose keys are all optional; the model keeps no presence: `{}`).
public struct ChatMembersResponse: Codable, Hashable, Sendable {
    /// One member: the user and their presence.
    public struct Member: Codable, Hashable, Sendable {
        /// The user (wire key `contact`).
        public var contact: Contact

        /// Creates a member entry.
        public init(contact: Contact) { self.contact = contact }

        private enum CodingKeys: String, CodingKey { case contact, presence }
        private struct Presence: Codable {}

        public init(from decoder: any Decoder) throws {
            contact = try decoder.container(keyedBy: CodingKeys.self).decode(Contact.self, forKey: .contact)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(contact, forKey: .contact)
            try container.encode(Presence(), forKey: .presence)
        }
    }

    /// The page (wire key `members`).
    public var members: [Member]
    /// Where the next page starts, or 0 when this one is the last (wire key `marker`).
    public var marker: Int64

    /// Creates a CHAT_MEMBERS response.
    public init(members: [Member], marker: Int64) {
        self.members = members
        self.marker = marker
    }
}
