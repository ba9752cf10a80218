/// MSG_TYPING (65) request: the user is composing something in a chat, `{chatId, type?}`. python-max-client 1.0.2
/// (`functions/uploads.py`, `_upload`) sends it before each upload with the attachment's kind as `type` (`"PHOTO"`,
/// `"FILE"`, `"VIDEO"`); PyMax 2.5.0 names the opcode (`pymax/protocol/enums.py`, `MSG_TYPING = 65`). Answered `{}`;
/// the chat's other members get NOTIF_TYPING.
public struct MsgTypingRequest: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`; an integer or its decimal string).
    public var chatId: Int64
    /// What is being composed (wire key `type`), passed on in the push; nil when the client sends none.
    public var type: String?

    /// Creates a MSG_TYPING request.
    public init(chatId: Int64, type: String? = nil) {
        self.chatId = chatId
        self.type = type
    }

    private enum CodingKeys: String, CodingKey { case chatId, type }

    /// - Throws: `DecodingError` when `chatId` is missing or spells no id, or `type` is not a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        type = try container.decodeIfPresent(String.self, forKey: .type)
    }
}

/// NOTIF_TYPING (129) push (`cmd` 0): `{chatId, userId, type?}`, a member is composing (PyMax 2.5.0
/// `pymax/types/events/typing.py`, `TypingEvent`, requires `chatId` and `userId`; `pymax/dispatch/mapping.py` maps
/// the opcode to `on_typing`). `type` is the request's, when it named one (SyncSim's choice).
public struct NotifTyping: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`).
    public var chatId: Int64
    /// Who is composing (wire key `userId`).
    public var userId: Int64
    /// What, as the request named it (wire key `type`).
    public var type: String?

    /// Creates a NOTIF_TYPING push.
    public init(chatId: Int64, userId: Int64, type: String? = nil) {
        self.chatId = chatId
        self.userId = userId
        self.type = type
    }
}
