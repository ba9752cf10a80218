/// A reaction as clients send it: `{reactionType, id}`, `reactionType` `"EMOJI"` and `id` the emoji (PyMax 2.5.0
/// `pymax/api/messages/payloads.py`, `ReactionInfoPayload`; PyMax 1.2.5 `mixins/message.py`, `add_reaction`).
public struct Reaction: Codable, Hashable, Sendable {
    /// The kind, `"EMOJI"` (wire key `reactionType`).
    public var reactionType: String
    /// The reaction itself, an emoji (wire key `id`).
    public var id: String

    /// Creates a reaction `id` of kind `reactionType`.
    public init(reactionType: String = "EMOJI", id: String) {
        self.reactionType = reactionType
        self.id = id
    }

    private enum CodingKeys: String, CodingKey { case reactionType, id }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reactionType = try container.decodeIfPresent(String.self, forKey: .reactionType) ?? "EMOJI"
        id = try container.decode(String.self, forKey: .id)
    }
}

/// MSG_REACTION request: `{chatId, messageId, reaction}`, the user's reaction to a message, replacing an earlier one
/// of theirs (PyMax 2.5.0 `pymax/api/messages/service.py`, `add_reaction`; PyMax 1.2.5 sends `messageId` as a string).
public struct MsgReactionRequest: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`).
    public var chatId: Int64
    /// The message reacted to (wire key `messageId`).
    public var messageId: Int64
    /// The reaction (wire key `reaction`).
    public var reaction: Reaction

    /// Creates a MSG_REACTION request.
    public init(chatId: Int64, messageId: Int64, reaction: Reaction) {
        self.chatId = chatId
        self.messageId = messageId
        self.reaction = reaction
    }

    private enum CodingKeys: String, CodingKey { case chatId, messageId, reaction }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        messageId = try container.decodeFieldId(forKey: .messageId)
        reaction = try container.decode(Reaction.self, forKey: .reaction)
    }
}

/// MSG_CANCEL_REACTION request: `{chatId, messageId}`, takes the user's reaction back (PyMax 2.5.0
/// `remove_reaction`).
public struct MsgCancelReactionRequest: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`).
    public var chatId: Int64
    /// The message (wire key `messageId`).
    public var messageId: Int64

    /// Creates a MSG_CANCEL_REACTION request.
    public init(chatId: Int64, messageId: Int64) {
        self.chatId = chatId
        self.messageId = messageId
    }

    private enum CodingKeys: String, CodingKey { case chatId, messageId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        messageId = try container.decodeFieldId(forKey: .messageId)
    }
}

/// MSG_GET_REACTIONS request: `{chatId, messageIds[]}` (PyMax 2.5.0 `get_reactions`), the shape of MSG_GET's.
public typealias MsgGetReactionsRequest = MsgGetRequest

/// How many members gave one reaction: `{count, reaction}` (PyMax 2.5.0 `pymax/types/domain/message.py`,
/// `ReactionCounter`).
public struct ReactionCounter: Codable, Hashable, Sendable {
    /// Members who gave it (wire key `count`).
    public var count: Int
    /// The reaction, an emoji (wire key `reaction`).
    public var reaction: String

    /// Creates a counter.
    public init(count: Int, reaction: String) {
        self.count = count
        self.reaction = reaction
    }
}

/// A message's reactions: `{totalCount, counters[], yourReaction?}`, counters by count (most first), then by reaction;
/// `yourReaction` is the asking user's, left out when they gave none (PyMax 2.5.0 `ReactionInfo`).
public struct ReactionInfo: Codable, Hashable, Sendable {
    /// Reactions in all (wire key `totalCount`).
    public var totalCount: Int
    /// One counter per reaction given (wire key `counters`).
    public var counters: [ReactionCounter]
    /// The asking user's reaction, nil for none (wire key `yourReaction`).
    public var yourReaction: String?

    /// Creates a summary.
    public init(totalCount: Int, counters: [ReactionCounter], yourReaction: String? = nil) {
        self.totalCount = totalCount
        self.counters = counters
        self.yourReaction = yourReaction
    }
}

/// The answer to MSG_REACTION and MSG_CANCEL_REACTION: `{reactionInfo}`, the message's reactions after the change
/// (PyMax 1.2.5 `remove_reaction` reads `reactionInfo` and fails without it).
public struct MsgReactionResponse: Codable, Hashable, Sendable {
    /// The reactions (wire key `reactionInfo`).
    public var reactionInfo: ReactionInfo

    /// Creates the answer.
    public init(reactionInfo: ReactionInfo) { self.reactionInfo = reactionInfo }
}

/// MSG_GET_REACTIONS answer: `{messagesReactions: {"<messageId>": reactionInfo}}`, one entry per message of the chat
/// asked about, keys in ascending id order (PyMax 2.5.0 `get_reactions` reads the map's items).
public struct MsgGetReactionsResponse: Codable, Hashable, Sendable {
    /// The messages' reactions, ascending by message id.
    public var messagesReactions: [MessageReactions]

    /// One message's reactions.
    public struct MessageReactions: Hashable, Sendable {
        /// The message.
        public var messageId: Int64
        /// Its reactions.
        public var reactionInfo: ReactionInfo

        /// Creates an entry.
        public init(messageId: Int64, reactionInfo: ReactionInfo) {
            self.messageId = messageId
            self.reactionInfo = reactionInfo
        }
    }

    /// Creates the answer; entries are sorted by message id.
    public init(messagesReactions: [MessageReactions]) {
        self.messagesReactions = messagesReactions.sorted { $0.messageId < $1.messageId }
    }

    private enum CodingKeys: String, CodingKey { case messagesReactions }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let byId = try container.nestedContainer(keyedBy: NamedKey.self, forKey: .messagesReactions)
        var entries: [MessageReactions] = []
        for key in byId.allKeys {
            guard let id = Int64(key.stringValue) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: byId,
                                                       debugDescription: "expected a message id, found \(key.stringValue)")
            }
            entries.append(MessageReactions(messageId: id, reactionInfo: try byId.decode(ReactionInfo.self, forKey: key)))
        }
        self.init(messagesReactions: entries)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var byId = container.nestedContainer(keyedBy: NamedKey.self, forKey: .messagesReactions)
        for entry in messagesReactions {
            try byId.encode(entry.reactionInfo, forKey: NamedKey(stringValue: String(entry.messageId)))
        }
    }
}

/// NOTIF_MSG_REACTIONS_CHANGED (155) push to the chat's other members: `{chatId, messageId, totalCount, counters[]}`
/// at the top level, where PyMax 1.2.5 reads them (`pymax/interfaces.py`, its reaction handler returns early without
/// `chatId` and `messageId`); PyMax 2.5.0 `pymax/types/events/reaction.py` (`ReactionUpdateEvent`) reads the same.
public struct NotifMsgReactionsChanged: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`).
    public var chatId: Int64
    /// The message (wire key `messageId`).
    public var messageId: Int64
    /// Reactions in all (wire key `totalCount`).
    public var totalCount: Int
    /// One counter per reaction given (wire key `counters`).
    public var counters: [ReactionCounter]

    /// Creates the push.
    public init(chatId: Int64, messageId: Int64, info: ReactionInfo) {
        self.chatId = chatId
        self.messageId = messageId
        totalCount = info.totalCount
        counters = info.counters
    }
}

/// MSG_GET_DETAILED_REACTIONS (181) request: `{chatId, messageId, count?}`, who gave which reaction to one message, at
/// most `count` of them. python-max-client 1.0.2 sends it after each reaction (`python_max_client/functions/groups.py`,
/// `react_to_message`: `messageId` as a decimal string, `count` 100); PyMax 2.5.0 only names the opcode
/// (`pymax/protocol/enums.py`).
public struct MsgGetDetailedReactionsRequest: Codable, Hashable, Sendable {
    /// The chat (wire key `chatId`).
    public var chatId: Int64
    /// The message (wire key `messageId`), an integer or its decimal string.
    public var messageId: Int64
    /// The most entries wanted (wire key `count`); nil for all.
    public var count: Int?

    /// Creates a MSG_GET_DETAILED_REACTIONS request.
    public init(chatId: Int64, messageId: Int64, count: Int? = nil) {
        self.chatId = chatId
        self.messageId = messageId
        self.count = count
    }

    private enum CodingKeys: String, CodingKey { case chatId, messageId, count }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeFieldId(forKey: .chatId)
        messageId = try container.decodeFieldId(forKey: .messageId)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
    }
}

/// One member's reaction to a message: `{userId, reaction}`, the reaction a bare emoji as in a `ReactionCounter`
/// (PyMax 2.5.0 `pymax/types/domain/message.py`). **SyncSim's choice of shape**: no public client reads one.
public struct ReactionUser: Codable, Hashable, Sendable {
    /// The member (wire key `userId`).
    public var userId: Int64
    /// Their reaction (wire key `reaction`).
    public var reaction: String

    /// Creates an entry.
    public init(userId: Int64, reaction: String) {
        self.userId = userId
        self.reaction = reaction
    }
}

/// The answer to MSG_GET_DETAILED_REACTIONS: `{reactionInfo, reactions[]}`, the message's reactions as MSG_REACTION
/// answers them (PyMax 2.5.0 `ReactionInfo`) and who gave which, in user id order, at most the request's `count`.
/// **SyncSim's choice of shape**: PyMax names the opcode only, and python-max-client 1.0.2, the one client that sends
/// it, does not read its answer.
public struct MsgGetDetailedReactionsResponse: Codable, Hashable, Sendable {
    /// The message's reactions, counted (wire key `reactionInfo`).
    public var reactionInfo: ReactionInfo
    /// Who gave which reaction (wire key `reactions`).
    public var reactions: [ReactionUser]

    /// Creates the answer.
    public init(reactionInfo: ReactionInfo, reactions: [ReactionUser]) {
        self.reactionInfo = reactionInfo
        self.reactions = reactions
    }
}
