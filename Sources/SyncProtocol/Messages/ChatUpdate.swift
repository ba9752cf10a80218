/// CHAT_UPDATE (55) request: changes a chat. SyncSim's server takes five of the field's shapes:
/// - a pin, `{chatId, pinMessageId, notifyPin}` (PyMax 2.5.0 `pymax/api/messages/payloads.py`, `PinMessagePayload`;
///   PyMax 1.2.5 `pin_message`; vkmax 1.0.2 `vkmax/functions/messages.py`, `pin_message`, sends `pinMessageId` as a
///   decimal string; python-max-client 1.0.2, vkmax's fork, `functions/messages.py`, `pin_message`, names the message
///   `messageId` instead, as a decimal string, beside `notifyPin`). A pin of 0 clears it (SyncSim's choice: no public
///   client sends an unpin);
/// - a new title or description, `{chatId, theme?, description?}` (PyMax 2.5.0 `pymax/api/chats/payloads.py`,
///   `ChangeGroupProfilePayload`, where `theme` is the chat's name);
/// - a new invite link, `{chatId, revokePrivateLink: true}` (PyMax 2.5.0 `ReworkInviteLinkPayload`,
///   `rework_invite_link`);
/// - group settings, `{chatId, options: {NAME: Bool}}` (PyMax 2.5.0 `ChangeGroupSettingsPayload`,
///   `change_group_settings`; the names are `enums.py`, `ChatOption`).
/// Other keys (`photoToken`, ...) are read by no one here: a request with none of these is refused.
public struct ChatUpdateRequest: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`; an integer or its decimal string).
    public var chatId: Int64
    /// The message to pin, 0 to clear the pin, nil to leave it (wire key `pinMessageId`).
    public var pinMessageId: Int64?
    /// Whether members are told of the pin (wire key `notifyPin`); SyncSim pushes the change either way.
    public var notifyPin: Bool?
    /// The chat's new title (wire key `theme`).
    public var theme: String?
    /// The chat's new description (wire key `description`).
    public var descriptionText: String?
    /// Whether the pin came (and is written) under `messageId`, python-max-client's key, rather than `pinMessageId`.
    public var pinKeyIsMessageId = false
    /// True to give the group a new invite link, the old one no longer joining (wire key `revokePrivateLink`; PyMax
    /// 2.5.0 `pymax/api/chats/payloads.py`, `ReworkInviteLinkPayload`, sent by `rework_invite_link`).
    public var revokePrivateLink: Bool?
    /// Group settings to change, by option name (wire key `options`; PyMax 2.5.0 `ChangeGroupSettingsPayload`, sent
    /// by `change_group_settings` with only the options given, names as `pymax/api/chats/enums.py`, `ChatOption`);
    /// empty when the request changes none.
    public var options: [String: Bool] = [:]

    /// Creates a CHAT_UPDATE request.
    public init(
        chatId: Int64, pinMessageId: Int64? = nil, notifyPin: Bool? = nil, theme: String? = nil,
        descriptionText: String? = nil
    ) {
        self.chatId = chatId
        self.pinMessageId = pinMessageId
        self.notifyPin = notifyPin
        self.theme = theme
        self.descriptionText = descriptionText
    }

    /// Whether the request changes anything SyncSim's server models (a pin, a title, a description, the invite
    /// link or an option).
    public var changesModeledFields: Bool {
        pinMessageId != nil || theme != nil || descriptionText != nil || revokePrivateLink == true || !options.isEmpty
    }

    private enum CodingKeys: String, CodingKey {
        case chatId, pinMessageId, notifyPin, theme, messageId, revokePrivateLink, options
        case descriptionText = "description"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        pinMessageId = try container.decodeIfPresent(FieldId.self, forKey: .pinMessageId)?.value
        notifyPin = try container.decodeIfPresent(Bool.self, forKey: .notifyPin)
        if pinMessageId == nil, notifyPin != nil,
           let pin = try container.decodeIfPresent(FieldId.self, forKey: .messageId)?.value {
            pinMessageId = pin
            pinKeyIsMessageId = true
        }
        theme = try container.decodeIfPresent(String.self, forKey: .theme)
        descriptionText = try container.decodeIfPresent(String.self, forKey: .descriptionText)
        revokePrivateLink = try container.decodeIfPresent(Bool.self, forKey: .revokePrivateLink)
        options = try container.decodeIfPresent([String: Bool].self, forKey: .options) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chatId, forKey: .chatId)
        if pinKeyIsMessageId {
            try container.encodeIfPresent(notifyPin, forKey: .notifyPin)
            try container.encodeIfPresent(pinMessageId, forKey: .messageId)
        } else {
            try container.encodeIfPresent(pinMessageId, forKey: .pinMessageId)
            try container.encodeIfPresent(notifyPin, forKey: .notifyPin)
        }
        try container.encodeIfPresent(theme, forKey: .theme)
        try container.encodeIfPresent(descriptionText, forKey: .descriptionText)
        try container.encodeIfPresent(revokePrivateLink, forKey: .revokePrivateLink)
        try container.encodeInKeyOrder(options, forKey: .options)
    }
}

/// NOTIF_CHAT (135) push (`cmd` 0): `{chat}`, a chat whose pin, title or description changed, as chat lists carry
/// it (PyMax 2.5.0 `pymax/dispatch/mapping.py` validates `payload["chat"]` as a `Chat` for `on_chat_update`; PyMax
/// 1.2.5 `pymax/interfaces.py`, `_handle_chat_updates`). CHAT_UPDATE is answered in the same shape
/// (`ChatUpdateResponse`; PyMax 2.5.0 `change_group_settings` reads `chat`).
public struct NotifChat: Codable, Hashable, Sendable {
    /// The chat as it is now (wire key `chat`).
    public var chat: ChatSummary

    /// Creates a NOTIF_CHAT push or CHAT_UPDATE response.
    public init(chat: ChatSummary) { self.chat = chat }
}

/// CHAT_UPDATE response: `{chat}`, the chat as it is after the change (the shape of `NotifChat`).
public typealias ChatUpdateResponse = NotifChat
