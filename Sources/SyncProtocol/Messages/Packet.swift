/// A decoded frame with a typed body: what the sans-IO cores (server, client) consume and produce.
///
/// Drivers turn bytes into `Frame`s with `FrameDecoder` and frames into packets with `Packet(frame:)`;
/// the way back is `Frame(packet:)` and `FrameEncoder`. An unknown opcode, or a known one whose payload does not
/// match its typed shape, keeps its payload as `.raw`.
public struct Packet: Hashable, Sendable {
    /// The header's `cmd`: request, response, push or error. Field servers send pushes as `cmd` 0 (`.request`)
    /// with a NOTIF_* opcode; `isPush` says which frames are pushes.
    public var cmd: Command
    /// The header's `seq`, tying a response to its request.
    public var seq: UInt16
    /// The header's opcode, saying which operation the body belongs to.
    public var opcode: Opcode
    /// The payload decoded into its typed shape, or `.raw` when it has none.
    public var body: Body

    /// Creates a packet from its header fields and typed body.
    public init(cmd: Command, seq: UInt16, opcode: Opcode, body: Body) {
        self.cmd = cmd
        self.seq = seq
        self.opcode = opcode
        self.body = body
    }

    /// Whether this is a server push: a NOTIF_* opcode sent as `cmd` 0, as the field sends them (PyMax
    /// `pymax/dispatch/mapping.py` dispatches only those), or a legacy `cmd` 2 frame.
    public var isPush: Bool { cmd == .push || (cmd == .request && opcode.isNotification) }

    /// The typed payload of a packet. Which case goes with which (cmd, opcode) is fixed by DESIGN.md §3.
    ///
    /// Indirect: every payload lives in a shared, immutable box, so a `Body` is one reference and a packet 16 bytes.
    /// Inline, the largest payload (a MSG_SEND response, about 300 bytes) set the size of every packet, and each
    /// packet was copied whole at every hand-over between the codec, the cores, the checks and the trace
    /// (docs/performance.md, eighteenth pass).
    public indirect enum Body: Hashable, Sendable {
        /// A SESSION_INIT request.
        case sessionInit(SessionInitRequest)
        /// A SESSION_INIT response: the server clock.
        case sessionInitResponse(SessionInitResponse)
        /// A LOGIN request.
        case login(LoginRequest)
        /// A LOGIN response: profile, changed chats, contacts and the next last-sync.
        case loginResponse(LoginResponse)
        /// A CONTACT_INFO request.
        case contactInfo(ContactInfoRequest)
        /// A CONTACT_INFO response: the users asked about.
        case contactInfoResponse(ContactInfoResponse)
        /// A CHAT_INFO request.
        case chatInfo(ChatInfoRequest)
        /// A CHAT_INFO response: the chats asked about.
        case chatInfoResponse(ChatInfoResponse)
        /// A MSG_GET request.
        case msgGet(MsgGetRequest)
        /// A MSG_GET response: the messages asked about.
        case msgGetResponse(MsgGetResponse)
        /// A MSG_REACTION request.
        case msgReaction(MsgReactionRequest)
        /// A MSG_CANCEL_REACTION request.
        case msgCancelReaction(MsgCancelReactionRequest)
        /// The answer to MSG_REACTION or MSG_CANCEL_REACTION: the message's reactions.
        case msgReactionResponse(MsgReactionResponse)
        /// A MSG_GET_REACTIONS request.
        case msgGetReactions(MsgGetReactionsRequest)
        /// A MSG_GET_REACTIONS response: reactions by message.
        case msgGetReactionsResponse(MsgGetReactionsResponse)
        /// A MSG_GET_DETAILED_REACTIONS request.
        case msgGetDetailedReactions(MsgGetDetailedReactionsRequest)
        /// A MSG_GET_DETAILED_REACTIONS response: who gave which reaction.
        case msgGetDetailedReactionsResponse(MsgGetDetailedReactionsResponse)
        /// A NOTIF_MSG_REACTIONS_CHANGED push.
        case notifMsgReactionsChanged(NotifMsgReactionsChanged)
        /// A CHAT_UPDATE request.
        case chatUpdate(ChatUpdateRequest)
        /// A CHAT_UPDATE response: the chat as changed.
        case chatUpdateResponse(ChatUpdateResponse)
        /// A NOTIF_CHAT push.
        case notifChat(NotifChat)
        /// A MSG_SEND request that creates a group (no `chatId`, a CONTROL attachment).
        case groupCreate(GroupCreateRequest)
        /// A CHAT_MEMBERS_UPDATE request.
        case chatMembersUpdate(ChatMembersUpdateRequest)
        /// A CHAT_MEMBERS_UPDATE response: the group as it is now.
        case chatMembersUpdateResponse(ChatMembersUpdateResponse)
        /// A CHAT_LEAVE request.
        case chatLeave(ChatLeaveRequest)
        /// A PROFILE request.
        case profile(ProfileRequest)
        /// A PROFILE response: the changed profile.
        case profileResponse(ProfileResponse)
        /// A CONFIG request.
        case config(ConfigRequest)
        /// A CONFIG response: the settings' hash.
        case configResponse(ConfigResponse)
        /// A CHAT_MEMBERS request.
        case chatMembers(ChatMembersRequest)
        /// A CHAT_MEMBERS response: a page of members.
        case chatMembersResponse(ChatMembersResponse)
        /// A CHAT_HISTORY request.
        case chatHistory(ChatHistoryRequest)
        /// A CHAT_HISTORY response: a page of messages.
        case chatHistoryResponse(ChatHistoryResponse)
        /// A CHAT_MARK request.
        case chatMark(ChatMarkRequest)
        /// A CHAT_MARK response: unread count and stored mark.
        case chatMarkResponse(ChatMarkResponse)
        /// A CHATS_LIST request.
        case chatsList(ChatsListRequest)
        /// A CHATS_LIST response: a page of chats.
        case chatsListResponse(ChatsListResponse)
        /// A MSG_EDIT request.
        case msgEdit(MsgEditRequest)
        /// A MSG_EDIT response: the edited message.
        case msgEditResponse(MsgEditResponse)
        /// A MSG_DELETE request.
        case msgDelete(MsgDeleteRequest)
        /// A NOTIF_MSG_DELETE push.
        case notifMsgDelete(NotifMsgDelete)
        /// A MSG_SEND request.
        case msgSend(MsgSendRequest)
        /// A MSG_SEND response: the stored message.
        case msgSendResponse(MsgSendResponse)
        /// A PHOTO_UPLOAD request.
        case photoUpload(PhotoUploadRequest)
        /// A PHOTO_UPLOAD response: the CDN token.
        case photoUploadResponse(PhotoUploadResponse)
        /// A FILE_UPLOAD or VIDEO_UPLOAD request (the opcode tells which).
        case mediaUpload(MediaUploadRequest)
        /// A FILE_UPLOAD or VIDEO_UPLOAD response: the upload slot.
        case mediaUploadResponse(MediaUploadResponse)
        /// A FILE_DOWNLOAD or VIDEO_PLAY request (the opcode tells which).
        case mediaFetch(MediaFetchRequest)
        /// A FILE_DOWNLOAD or VIDEO_PLAY response: where to fetch the bytes.
        case mediaFetchResponse(MediaFetchResponse)
        /// A SESSIONS_INFO response: the user's sessions.
        case sessionsInfoResponse(SessionsInfoResponse)
        /// A CONTACT_UPDATE request.
        case contactUpdate(ContactUpdateRequest)
        /// A SESSIONS_CLOSE response: the token the asking session keeps.
        case sessionsCloseResponse(SessionsCloseResponse)
        /// A CHAT_SUBSCRIBE request.
        case chatSubscribe(ChatSubscribeRequest)
        /// A CHAT_JOIN or LINK_INFO request (the opcode tells which); both are answered `.chatUpdateResponse`.
        case chatLink(ChatLinkRequest)
        /// A FOLDERS_GET request.
        case foldersGet(FoldersGetRequest)
        /// A FOLDERS_UPDATE request.
        case folderUpdate(FolderUpdateRequest)
        /// A FOLDERS_DELETE request.
        case foldersDelete(FoldersDeleteRequest)
        /// A FOLDERS_GET, FOLDERS_UPDATE or FOLDERS_DELETE response.
        case foldersResponse(FoldersResponse)
        /// A CONTACT_INFO_BY_PHONE request.
        case contactByPhone(ContactByPhoneRequest)
        /// A CONTACT_INFO_BY_PHONE response: the user found.
        case contactByPhoneResponse(ContactByPhoneResponse)
        /// A MSG_TYPING request.
        case msgTyping(MsgTypingRequest)
        /// A NOTIF_TYPING push.
        case notifTyping(NotifTyping)
        /// A NOTIF_ATTACH push: an upload was processed.
        case notifAttach(NotifAttach)
        /// A PING request.
        case ping(PingRequest)
        /// A NOTIF_MESSAGE push.
        case notifMessage(NotifMessage)
        /// A NOTIF_MARK push.
        case notifMark(NotifMark)
        /// An empty-map response (PING, LOG, MSG_DELETE, CHAT_LEAVE, MSG_TYPING, CHAT_SUBSCRIBE).
        case empty
        /// The payload of an error frame (`cmd` 3).
        case error(ErrorPayload)
        /// A payload the typed model does not cover.
        case raw(MessagePackValue)
    }
}
