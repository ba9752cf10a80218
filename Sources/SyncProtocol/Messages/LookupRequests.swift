/// MSG_GET request: `{chatId, messageIds[]}`, messages of one chat by id (PyMax 2.5.0
/// `pymax/api/messages/service.py`, `get_messages`; `Chat.get_message`). Ids may be integers or decimal strings
/// (`FieldId`). MSG_GET_REACTIONS asks in the same shape (`MsgGetReactionsRequest`).
public struct MsgGetRequest: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`).
    public var chatId: Int64
    /// The messages asked for (wire key `messageIds`).
    public var messageIds: [Int64]
    /// The channel post whose comments are asked for, nil for the chat's own messages (wire key `postId`; PyMax
    /// 2.5.0 `pymax/api/messages/payloads.py`, `GetCommentsPayload`). Not modelled: serve refuses it rather than
    /// answer with the chat's messages.
    public var postId: Int64?

    /// Creates a MSG_GET request.
    public init(chatId: Int64, messageIds: [Int64]) {
        self.chatId = chatId
        self.messageIds = messageIds
    }

    private enum CodingKeys: String, CodingKey { case chatId, messageIds, postId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        messageIds = try container.decodeFieldIds(forKey: .messageIds)
        postId = try container.decodeIfPresent(FieldId.self, forKey: .postId)?.value
    }
}

/// MSG_GET response: `{messages[]}`, the messages found in the order asked, each as history pages carry it (a
/// removed one with its REMOVED status); an unknown id is left out (PyMax 2.5.0 `get_message` then returns None).
public struct MsgGetResponse: Codable, Hashable, Sendable {
    /// The messages found (wire key `messages`).
    public var messages: [ChatMessage]

    /// Creates a MSG_GET response.
    public init(messages: [ChatMessage]) { self.messages = messages }
}

/// CHAT_INFO request: `{chatIds[]}`, chats by id (PyMax 2.5.0 `pymax/api/chats/service.py`, `get_chats` for ids
/// not cached from LOGIN or CHATS_LIST; PyMax 1.2.5 `get_chats`; vkmax 1.0.2 `resolve_channel_id`).
public struct ChatInfoRequest: Codable, Hashable, Sendable {
    /// The chats asked for (wire key `chatIds`).
    public var chatIds: [Int64]

    /// Creates a CHAT_INFO request.
    public init(chatIds: [Int64]) { self.chatIds = chatIds }

    private enum CodingKeys: String, CodingKey { case chatIds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatIds = try container.decodeFieldIds(forKey: .chatIds)
    }
}

/// CHAT_INFO response: `{chats[]}`, each chat the user is a member of as LOGIN and CHATS_LIST list it, in the order
/// asked; other ids are left out (PyMax 2.5.0 `get_chat` then raises "Chat not found in response").
public struct ChatInfoResponse: Codable, Hashable, Sendable {
    /// The chats found (wire key `chats`).
    public var chats: [ChatSummary]

    /// Creates a CHAT_INFO response.
    public init(chats: [ChatSummary]) { self.chats = chats }
}
