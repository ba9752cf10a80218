/// A frame's operation code (bytes 4-5 of the header). Unknown values are kept, never rejected.
///
/// Numbers are those seen in the field's public client implementations (DESIGN.md §3).
public struct Opcode: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The opcode number as carried in header bytes 4-5, big-endian.
    public var rawValue: UInt16

    /// Wraps an opcode number, known to the model or not.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// PING (1): keep-alive request, `{interactive}`; answered with an empty map. Sent by PyMax `pymax/app.py`.
    public static let ping = Opcode(rawValue: 1)
    /// LOG (5): client telemetry, `{events[]}`; the server acknowledges it with an empty map.
    /// Sent by PyMax `pymax/telemetry/service.py`.
    public static let log = Opcode(rawValue: 5)
    /// SESSION_INIT (6): the first request on every connection, `{userAgent, deviceId, mt_instanceid?,
    /// clientSessionId?}`. Sent by PyMax `pymax/api/session/service.py`.
    public static let sessionInit = Opcode(rawValue: 6)
    /// PROFILE (16): the user changes their name, `{firstName, lastName?, ...}`, answered `{profile}`. Sent by PyMax
    /// 2.5.0 `pymax/api/self/service.py` (`change_profile`).
    public static let profile = Opcode(rawValue: 16)
    /// LOGIN (19): authenticates by token and returns chats and contacts changed since the last sync.
    /// Sent by PyMax `pymax/api/auth/service.py`.
    public static let login = Opcode(rawValue: 19)
    /// LOGOUT (20): ends the session, `{}`, answered `{}`. Sent by PyMax 2.5.0 `pymax/api/self/service.py` (`logout`).
    public static let logout = Opcode(rawValue: 20)
    /// CONFIG (22): the user changes privacy settings, `{settings: {user: {...}}}`, answered `{hash}`. Sent by PyMax
    /// 2.5.0 `pymax/api/self/service.py` (`change_profile_settings`).
    public static let config = Opcode(rawValue: 22)
    /// CONTACT_INFO (32): the users of the ids `contactIds`, answered `{contacts[]}`. Sent by PyMax
    /// `pymax/api/users/service.py` (`fetch_users`) and vkmax 1.0.2 `vkmax/functions/users.py` (`resolve_users`).
    public static let contactInfo = Opcode(rawValue: 32)
    /// CONTACT_INFO_BY_PHONE (46): a user by phone number, `{phone}`, answered `{contact}`. Sent by PyMax 2.5.0
    /// `pymax/api/users/service.py` (`search_by_phone`) and MaxBridge 1.8.0 (`get_contact_by_phone`).
    public static let contactInfoByPhone = Opcode(rawValue: 46)
    /// CONTACT_UPDATE (34): adds a user to the contact list or removes one, `{contactId, action: ADD|REMOVE}`,
    /// answered `{contact}` for ADD and `{}` for REMOVE. Sent by PyMax 2.5.0 `pymax/api/users/service.py`
    /// (`add_contact`, `remove_contact`; `payloads.py`, `ContactActionPayload`).
    public static let contactUpdate = Opcode(rawValue: 34)
    /// CHAT_INFO (48): chats by id, `{chatIds[]}`, answered `{chats[]}`. Sent by PyMax
    /// `pymax/api/chats/service.py` (`get_chats`) and vkmax 1.0.2 `vkmax/functions/channels.py`.
    public static let chatInfo = Opcode(rawValue: 48)
    /// CHAT_HISTORY (49): a page of a chat's messages around a server time in milliseconds.
    /// Sent by PyMax `pymax/api/messages/service.py` (`fetch_history`).
    public static let chatHistory = Opcode(rawValue: 49)
    /// CHAT_MARK (50): marks a chat read up to a message. Sent by PyMax `pymax/api/messages/service.py`.
    public static let chatMark = Opcode(rawValue: 50)
    /// CHATS_LIST (53): a page of the user's chats modified at or before a time `marker`.
    /// Sent by PyMax `pymax/api/chats/service.py` (`fetch_chats`).
    public static let chatsList = Opcode(rawValue: 53)
    /// CHAT_UPDATE (55): changes a chat, `{chatId, pinMessageId?, notifyPin?, theme?, description?, ...}`, answered
    /// `{chat}`. Sent by PyMax `pymax/api/messages/service.py` (`pin_message`) and `pymax/api/chats/service.py`
    /// (`change_group_profile`, `change_group_settings`, `rework_invite_link`), and vkmax 1.0.2
    /// `vkmax/functions/messages.py` (`pin_message`).
    public static let chatUpdate = Opcode(rawValue: 55)
    /// CHAT_JOIN (57): the user joins a group by its invite link, `{link}`, answered `{chat}`. Sent by PyMax 2.5.0
    /// `pymax/api/chats/service.py` (`join_group`, `join_channel`).
    public static let chatJoin = Opcode(rawValue: 57)
    /// CHAT_LEAVE (58): the user leaves a group, `{chatId}`, answered `{}`. Sent by PyMax 2.5.0
    /// `pymax/api/chats/service.py` (`leave_group`).
    public static let chatLeave = Opcode(rawValue: 58)
    /// CHAT_MEMBERS (59): a page of a chat's members, `{type, chatId, marker, count}`, answered `{members[], marker}`.
    /// Sent by PyMax 2.5.0 `pymax/api/chats/service.py` (`get_chat_members`).
    public static let chatMembers = Opcode(rawValue: 59)
    /// CHAT_SUBSCRIBE (75): whether the connection wants a chat's updates, `{chatId, subscribe}`, answered `{}`. Sent
    /// by MaxBridge 1.8.0 (`subscribe_to_chat`) and PyMax 2.5.0 `pymax/api/messages/service.py` (`subscribe_comments`).
    public static let chatSubscribe = Opcode(rawValue: 75)
    /// CHAT_MEMBERS_UPDATE (77): adds users to a group or removes them, `{chatId, userIds, operation, ...}`, answered
    /// `{chat}`. Sent by PyMax 2.5.0 `pymax/api/chats/service.py` (`invite_users_to_group`, `remove_users_from_group`).
    public static let chatMembersUpdate = Opcode(rawValue: 77)
    /// MSG_SEND (64): sends a message with an idempotency key `cid`. Sent by PyMax `pymax/api/messages/service.py`.
    public static let msgSend = Opcode(rawValue: 64)
    /// MSG_TYPING (65): the user is composing in a chat, `{chatId, type?}`, answered `{}`. Sent by python-max-client
    /// 1.0.2 `functions/uploads.py` (`_upload`); named by PyMax 2.5.0 `pymax/protocol/enums.py`.
    public static let msgTyping = Opcode(rawValue: 65)
    /// MSG_DELETE (66): deletes messages by id. Sent by PyMax `pymax/api/messages/service.py`.
    public static let msgDelete = Opcode(rawValue: 66)
    /// MSG_EDIT (67): replaces a message's text. Sent by PyMax `pymax/api/messages/service.py`.
    public static let msgEdit = Opcode(rawValue: 67)
    /// MSG_GET (71): messages of a chat by id, `{chatId, messageIds[]}`, answered `{messages[]}`. Sent by PyMax
    /// `pymax/api/messages/service.py` (`get_messages`).
    public static let msgGet = Opcode(rawValue: 71)
    /// PHOTO_UPLOAD (80): asks for a CDN token to upload a photo under.
    public static let photoUpload = Opcode(rawValue: 80)
    /// VIDEO_UPLOAD (82): asks where to upload a video, video note or voice message, `{count, type, uploaderType,
    /// profile}`, answered `{info: [{url, videoId, token}]}`. Sent by PyMax 2.5.0 `pymax/api/uploads/service.py`
    /// (`upload_video`, `upload_voice`).
    public static let videoUpload = Opcode(rawValue: 82)
    /// VIDEO_PLAY (83): where to watch a message's video, `{chatId, messageId, videoId}`, answered `{url, ...}`. Sent by
    /// PyMax 2.5.0 `pymax/api/messages/service.py` (`get_video_by_id`).
    public static let videoPlay = Opcode(rawValue: 83)
    /// FILE_UPLOAD (87): asks where to upload a file, `{count, type, uploaderType, profile}`, answered
    /// `{info: [{url, fileId, token}]}`. Sent by PyMax 2.5.0 `pymax/api/uploads/service.py` (`upload_file`).
    public static let fileUpload = Opcode(rawValue: 87)
    /// FILE_DOWNLOAD (88): where to fetch a message's file, `{chatId, messageId, fileId}`, answered `{url, unsafe}`.
    /// Sent by PyMax 2.5.0 `pymax/api/messages/service.py` (`get_file_by_id`).
    public static let fileDownload = Opcode(rawValue: 88)
    /// LINK_INFO (89): the group an invite link leads to, `{link}`, answered `{chat}`. Sent by PyMax 2.5.0
    /// `pymax/api/chats/service.py` (`resolve_group_by_link`).
    public static let linkInfo = Opcode(rawValue: 89)
    /// SESSIONS_INFO (96): the user's open sessions, `{}`, answered `{sessions[]}`. Sent by PyMax 2.5.0
    /// `pymax/api/users/service.py` (`get_sessions`).
    public static let sessionsInfo = Opcode(rawValue: 96)
    /// SESSIONS_CLOSE (97): ends the user's other sessions, `{}`, answered `{token}`, the token the asking session
    /// keeps. Sent by PyMax 2.5.0 `pymax/api/self/service.py` (`close_all_sessions`, which stores that token).
    public static let sessionsClose = Opcode(rawValue: 97)
    /// NOTIF_MESSAGE (128): push of a new (or edited, or removed) message in one of the user's chats.
    /// Parsed by PyMax `pymax/dispatch/resolvers.py` and `pymax/types/domain/message.py`.
    public static let notifMessage = Opcode(rawValue: 128)
    /// NOTIF_TYPING (129): push that a member is composing, `{chatId, userId, type?}`. Parsed by PyMax 2.5.0
    /// `pymax/types/events/typing.py` (`TypingEvent`).
    public static let notifTyping = Opcode(rawValue: 129)
    /// NOTIF_MARK (130): push that a member read a chat. Parsed by PyMax `pymax/types/events/mark.py`.
    public static let notifMark = Opcode(rawValue: 130)
    /// NOTIF_CHAT (135): push that a chat changed, `{chat}`. Parsed by PyMax `pymax/dispatch/mapping.py`
    /// (`on_chat_update`) and PyMax 1.2.5 `pymax/interfaces.py` (`_handle_chat_updates`).
    public static let notifChat = Opcode(rawValue: 135)
    /// NOTIF_ATTACH (136): push that an upload was processed, `{fileId}`, `{videoId}` or `{audioId}`. Parsed by PyMax
    /// 2.5.0 `pymax/dispatch/resolvers.py` (`resolve_attach`).
    public static let notifAttach = Opcode(rawValue: 136)
    /// NOTIF_MSG_REACTIONS_CHANGED (155): push that a message's reactions changed, `{chatId, messageId, totalCount,
    /// counters[]}`. Parsed by PyMax `pymax/types/events/reaction.py` (`ReactionUpdateEvent`).
    public static let notifMsgReactionsChanged = Opcode(rawValue: 155)
    /// MSG_REACTION (178): the user's reaction to a message, `{chatId, messageId, reaction{reactionType, id}}`,
    /// answered `{reactionInfo}`. Sent by PyMax `pymax/api/messages/service.py` (`add_reaction`).
    public static let msgReaction = Opcode(rawValue: 178)
    /// MSG_CANCEL_REACTION (179): takes the user's reaction back, `{chatId, messageId}`, answered `{reactionInfo}`.
    /// Sent by PyMax `pymax/api/messages/service.py` (`remove_reaction`).
    public static let msgCancelReaction = Opcode(rawValue: 179)
    /// MSG_GET_REACTIONS (180): messages' reactions, `{chatId, messageIds[]}`, answered `{messagesReactions}`. Sent by
    /// PyMax `pymax/api/messages/service.py` (`get_reactions`).
    public static let msgGetReactions = Opcode(rawValue: 180)
    /// MSG_GET_DETAILED_REACTIONS (181): who gave which reaction to one message, `{chatId, messageId, count}`. Named by
    /// PyMax 2.5.0 `pymax/protocol/enums.py` (and 1.2.5 `pymax/static/enum.py`), which never sends it; sent by
    /// python-max-client 1.0.2 `python_max_client/functions/groups.py` (`react_to_message`: `messageId` a string,
    /// `count` 100), which does not read the answer. SyncSim answers `{reactionInfo, reactions[{userId, reaction}]}`
    /// (`MsgGetDetailedReactionsResponse`: the shape is **SyncSim's choice**, none of those clients reads one).
    public static let msgGetDetailedReactions = Opcode(rawValue: 181)
    /// FOLDERS_GET (272): the user's chat folders, `{folderSync}`, answered `{foldersOrder, folders[],
    /// allFilterExcludeFolders, folderSync}`. Sent by PyMax 2.5.0 `pymax/api/self/service.py` (`get_folders`).
    public static let foldersGet = Opcode(rawValue: 272)
    /// FOLDERS_UPDATE (274): creates or replaces a chat folder, `{id, title, include[], filters[], options?}`,
    /// answered `{foldersOrder, folder, folderSync}`. Sent by PyMax 2.5.0 `pymax/api/self/service.py`
    /// (`create_folder`, `update_folder`).
    public static let foldersUpdate = Opcode(rawValue: 274)
    /// FOLDERS_DELETE (276): deletes chat folders, `{folderIds[]}`, answered `{foldersOrder, folderSync}`. Sent by
    /// PyMax 2.5.0 `pymax/api/self/service.py` (`delete_folder`).
    public static let foldersDelete = Opcode(rawValue: 276)
    /// NOTIF_MSG_DELETE (142): push that messages were deleted, `{chatId, messageIds[]}`.
    /// Parsed by PyMax `pymax/types/events/message.py` (`MessageDeleteEvent`).
    public static let notifMsgDelete = Opcode(rawValue: 142)

    /// Every opcode the model types, in numeric order.
    public static let known: [Opcode] = [
        .ping, .log, .sessionInit, .profile, .login, .logout, .config, .contactUpdate, .contactInfo, .contactInfoByPhone, .chatInfo, .chatHistory, .chatMark,
        .chatsList, .chatUpdate, .chatJoin, .chatLeave, .chatMembers, .msgSend, .msgTyping, .msgDelete, .msgEdit, .msgGet, .chatSubscribe, .chatMembersUpdate, .photoUpload,
        .videoUpload, .videoPlay, .fileUpload, .fileDownload, .linkInfo, .sessionsInfo, .sessionsClose, .notifMessage, .notifTyping, .notifMark, .notifChat, .notifAttach,
        .notifMsgDelete, .notifMsgReactionsChanged, .msgReaction, .msgCancelReaction, .msgGetReactions,
        .msgGetDetailedReactions, .foldersGet, .foldersUpdate, .foldersDelete,
    ]

    /// Whether the server sends this opcode unsolicited (as a `cmd` 0 frame the client does not answer):
    /// every NOTIF_* opcode, as PyMax `pymax/dispatch/mapping.py` dispatches them.
    public var isNotification: Bool { Self.notificationTable[Int(rawValue)] }

    /// `isNotification` for every opcode number, made once from the names: it is read on every frame
    /// (`Packet.isPush`), where comparing the name's prefix cost a string search each time.
    private static let notificationTable: [Bool] = (0...Int(UInt16.max)).map {
        fieldName(of: UInt16($0))?.hasPrefix("NOTIF_") == true
    }

    /// The field's name (`"LOGIN"`), or nil for an opcode no field client knows.
    public var name: String? { Opcode.fieldName(of: rawValue) }

    /// The name, or `OPCODE_<n>` for an unknown opcode.
    public var description: String { name ?? "OPCODE_\(rawValue)" }

    public static func < (lhs: Opcode, rhs: Opcode) -> Bool { lhs.rawValue < rhs.rawValue }
}
