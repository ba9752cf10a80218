extension Packet {
    /// Types a frame's payload by its (cmd, opcode) (DESIGN.md §3).
    ///
    /// `cmd` 3 gives `.error`; an empty-map response gives `.empty`; an unknown opcode, or a known one whose payload
    /// does not fit the typed shape, keeps the payload as `.raw`. Never fails for a decoded frame: the `throws` is
    /// reserved for checks a later protocol version may add.
    /// - Throws: nothing today.
    public init(frame: Frame) throws {
        self.init(cmd: frame.cmd, seq: frame.seq, opcode: frame.opcode, body: Packet.body(of: frame))
    }

    private static func body(of frame: Frame) -> Body {
        let payload = frame.payload
        func typed<T: Decodable>(_ type: T.Type, _ wrap: (T) -> Body) -> Body {
            Packet.typed(type, payload, wrap)
        }
        switch frame.cmd {
        case .error:
            return typed(ErrorPayload.self, Body.error)
        case .request:
            switch frame.opcode {
            case .sessionInit: return typed(SessionInitRequest.self, Body.sessionInit)
            case .login: return typed(LoginRequest.self, Body.login)
            case .contactInfo: return typed(ContactInfoRequest.self, Body.contactInfo)
            case .chatInfo: return typed(ChatInfoRequest.self, Body.chatInfo)
            case .msgGet: return typed(MsgGetRequest.self, Body.msgGet)
            case .msgReaction: return typed(MsgReactionRequest.self, Body.msgReaction)
            case .msgCancelReaction: return typed(MsgCancelReactionRequest.self, Body.msgCancelReaction)
            case .msgGetReactions: return typed(MsgGetReactionsRequest.self, Body.msgGetReactions)
            case .msgGetDetailedReactions:
                return typed(MsgGetDetailedReactionsRequest.self, Body.msgGetDetailedReactions)
            case .chatUpdate: return typed(ChatUpdateRequest.self, Body.chatUpdate)
            case .chatHistory: return typed(ChatHistoryRequest.self, Body.chatHistory)
            case .chatMark: return typed(ChatMarkRequest.self, Body.chatMark)
            case .chatsList: return typed(ChatsListRequest.self, Body.chatsList)
            case .msgSend:
                if let fast = MsgSendRequest(fastPayload: payload) { return .msgSend(fast) }
                let send = typed(MsgSendRequest.self, Body.msgSend)
                guard case .raw = send else { return send }
                return typed(GroupCreateRequest.self, Body.groupCreate)
            case .chatMembersUpdate: return typed(ChatMembersUpdateRequest.self, Body.chatMembersUpdate)
            case .chatLeave: return typed(ChatLeaveRequest.self, Body.chatLeave)
            case .chatMembers: return typed(ChatMembersRequest.self, Body.chatMembers)
            case .profile: return typed(ProfileRequest.self, Body.profile)
            case .config: return typed(ConfigRequest.self, Body.config)
            case .msgEdit: return typed(MsgEditRequest.self, Body.msgEdit)
            case .msgDelete: return typed(MsgDeleteRequest.self, Body.msgDelete)
            case .photoUpload: return typed(PhotoUploadRequest.self, Body.photoUpload)
            case .fileUpload, .videoUpload: return typed(MediaUploadRequest.self, Body.mediaUpload)
            case .fileDownload, .videoPlay: return typed(MediaFetchRequest.self, Body.mediaFetch)
            case .msgTyping: return typed(MsgTypingRequest.self, Body.msgTyping)
            case .chatSubscribe: return typed(ChatSubscribeRequest.self, Body.chatSubscribe)
            case .contactInfoByPhone: return typed(ContactByPhoneRequest.self, Body.contactByPhone)
            case .contactUpdate: return typed(ContactUpdateRequest.self, Body.contactUpdate)
            case .chatJoin, .linkInfo: return typed(ChatLinkRequest.self, Body.chatLink)
            case .foldersGet: return typed(FoldersGetRequest.self, Body.foldersGet)
            case .foldersUpdate: return typed(FolderUpdateRequest.self, Body.folderUpdate)
            case .foldersDelete: return typed(FoldersDeleteRequest.self, Body.foldersDelete)
            case .ping:
                if let fast = PingRequest(fastPayload: payload) { return .ping(fast) }
                return typed(PingRequest.self, Body.ping)
            case .notifMessage, .notifMark, .notifMsgDelete, .notifMsgReactionsChanged, .notifChat, .notifAttach,
                 .notifTyping:
                return pushBody(of: frame)
            default: return .raw(payload)
            }
        case .response:
            if payload == .map([]) { return .empty }
            switch frame.opcode {
            case .sessionInit: return typed(SessionInitResponse.self, Body.sessionInitResponse)
            case .login:
                if let fast = LoginResponse(fastPayload: payload) { return .loginResponse(fast) }
                return typed(LoginResponse.self, Body.loginResponse)
            case .chatHistory:
                if let fast = ChatHistoryResponse(fastPayload: payload) { return .chatHistoryResponse(fast) }
                return typed(ChatHistoryResponse.self, Body.chatHistoryResponse)
            case .contactInfo: return typed(ContactInfoResponse.self, Body.contactInfoResponse)
            case .contactInfoByPhone, .contactUpdate:
                return typed(ContactByPhoneResponse.self, Body.contactByPhoneResponse)
            case .sessionsClose: return typed(SessionsCloseResponse.self, Body.sessionsCloseResponse)
            case .sessionsInfo: return typed(SessionsInfoResponse.self, Body.sessionsInfoResponse)
            case .chatInfo: return typed(ChatInfoResponse.self, Body.chatInfoResponse)
            case .msgGet: return typed(MsgGetResponse.self, Body.msgGetResponse)
            case .msgReaction, .msgCancelReaction: return typed(MsgReactionResponse.self, Body.msgReactionResponse)
            case .msgGetReactions: return typed(MsgGetReactionsResponse.self, Body.msgGetReactionsResponse)
            case .msgGetDetailedReactions:
                return typed(MsgGetDetailedReactionsResponse.self, Body.msgGetDetailedReactionsResponse)
            case .chatUpdate, .chatJoin, .linkInfo: return typed(ChatUpdateResponse.self, Body.chatUpdateResponse)
            case .foldersGet, .foldersUpdate, .foldersDelete: return typed(FoldersResponse.self, Body.foldersResponse)
            case .chatMembersUpdate: return typed(ChatMembersUpdateResponse.self, Body.chatMembersUpdateResponse)
            case .chatMembers: return typed(ChatMembersResponse.self, Body.chatMembersResponse)
            case .profile: return typed(ProfileResponse.self, Body.profileResponse)
            case .config: return typed(ConfigResponse.self, Body.configResponse)
            case .chatMark: return typed(ChatMarkResponse.self, Body.chatMarkResponse)
            case .chatsList: return typed(ChatsListResponse.self, Body.chatsListResponse)
            case .msgSend:
                if let fast = MsgSendResponse(fastPayload: payload) { return .msgSendResponse(fast) }
                return typed(MsgSendResponse.self, Body.msgSendResponse)
            case .msgEdit: return typed(MsgEditResponse.self, Body.msgEditResponse)
            case .photoUpload: return typed(PhotoUploadResponse.self, Body.photoUploadResponse)
            case .fileUpload, .videoUpload: return typed(MediaUploadResponse.self, Body.mediaUploadResponse)
            case .fileDownload, .videoPlay: return typed(MediaFetchResponse.self, Body.mediaFetchResponse)
            default: return .raw(payload)
            }
        case .push:
            return pushBody(of: frame)
        }
    }

    /// `payload` decoded as `type`; failing that, as `type` once the field's wrapped values are unwrapped (ids in
    /// extension type 1, integer map keys: `MessagePackValue.unwrappingFieldWrapping()`); failing both, raw.
    private static func typed<T: Decodable>(_ type: T.Type, _ payload: MessagePackValue, _ wrap: (T) -> Body) -> Body {
        if let value = try? MessagePackDecoder().decode(type, from: payload) { return wrap(value) }
        guard let unwrapped = payload.unwrappingFieldWrapping(),
              let value = try? MessagePackDecoder().decode(type, from: unwrapped) else { return .raw(payload) }
        return wrap(value)
    }

    /// A push's body: NOTIF_MESSAGE, NOTIF_MARK and NOTIF_MSG_DELETE are typed, whether sent as `cmd` 0 or 2.
    private static func pushBody(of frame: Frame) -> Body {
        switch frame.opcode {
        case .notifMessage:
            // The hot types decode directly (Packet+FastDecode.swift); Codable is the fallback and the reference.
            if let fast = NotifMessage(fastPayload: frame.payload) { .notifMessage(fast) } else {
                typed(NotifMessage.self, frame.payload, Body.notifMessage)
            }
        case .notifMark: typed(NotifMark.self, frame.payload, Body.notifMark)
        case .notifMsgDelete: typed(NotifMsgDelete.self, frame.payload, Body.notifMsgDelete)
        case .notifMsgReactionsChanged:
            typed(NotifMsgReactionsChanged.self, frame.payload, Body.notifMsgReactionsChanged)
        case .notifChat: typed(NotifChat.self, frame.payload, Body.notifChat)
        case .notifAttach: typed(NotifAttach.self, frame.payload, Body.notifAttach)
        case .notifTyping: typed(NotifTyping.self, frame.payload, Body.notifTyping)
        default: .raw(frame.payload)
        }
    }
}

extension Frame {
    /// Encodes a packet's typed body as its payload map (`.empty` as `{}`, `.raw` as is).
    public init(packet: Packet) {
        self.init(cmd: packet.cmd, seq: packet.seq, opcode: packet.opcode, payload: Frame.payload(of: packet.body))
    }

    private static func payload(of body: Packet.Body) -> MessagePackValue {
        switch body {
        case .sessionInit(let value): encoded(value)
        case .sessionInitResponse(let value): encoded(value)
        case .login(let value): encoded(value)
        case .loginResponse(let value): value.fastPayload
        case .contactInfo(let value): encoded(value)
        case .contactInfoResponse(let value): encoded(value)
        case .chatInfo(let value): encoded(value)
        case .chatInfoResponse(let value): encoded(value)
        case .msgGet(let value): encoded(value)
        case .msgGetResponse(let value): encoded(value)
        case .msgReaction(let value): encoded(value)
        case .msgCancelReaction(let value): encoded(value)
        case .msgReactionResponse(let value): encoded(value)
        case .msgGetReactions(let value): encoded(value)
        case .msgGetReactionsResponse(let value): encoded(value)
        case .msgGetDetailedReactions(let value): encoded(value)
        case .msgGetDetailedReactionsResponse(let value): encoded(value)
        case .notifMsgReactionsChanged(let value): encoded(value)
        case .chatUpdate(let value): encoded(value)
        case .chatUpdateResponse(let value): encoded(value)
        case .groupCreate(let value): encoded(value)
        case .chatMembersUpdate(let value): encoded(value)
        case .chatMembersUpdateResponse(let value): encoded(value)
        case .chatLeave(let value): encoded(value)
        case .chatMembers(let value): encoded(value)
        case .chatMembersResponse(let value): encoded(value)
        case .profile(let value): encoded(value)
        case .profileResponse(let value): encoded(value)
        case .config(let value): encoded(value)
        case .configResponse(let value): encoded(value)
        case .notifChat(let value): encoded(value)
        case .chatHistory(let value): encoded(value)
        case .chatHistoryResponse(let value): value.fastPayload
        case .chatMark(let value): encoded(value)
        case .chatMarkResponse(let value): encoded(value)
        case .chatsList(let value): encoded(value)
        case .chatsListResponse(let value): encoded(value)
        case .msgEdit(let value): encoded(value)
        case .msgEditResponse(let value): encoded(value)
        case .msgDelete(let value): encoded(value)
        case .notifMsgDelete(let value): encoded(value)
        // A comment's `postId` and a scheduled message's attributes are written by `encode(to:)` only.
        case .msgSend(let value): value.postId == nil && value.message.delayedAttributes == nil
            ? value.fastPayload : encoded(value)
        case .msgSendResponse(let value): value.fastPayload
        case .photoUpload(let value): encoded(value)
        case .photoUploadResponse(let value): encoded(value)
        case .mediaUpload(let value): encoded(value)
        case .mediaUploadResponse(let value): encoded(value)
        case .mediaFetch(let value): encoded(value)
        case .mediaFetchResponse(let value): encoded(value)
        case .notifAttach(let value): encoded(value)
        case .msgTyping(let value): encoded(value)
        case .chatSubscribe(let value): encoded(value)
        case .contactByPhone(let value): encoded(value)
        case .contactByPhoneResponse(let value): encoded(value)
        case .sessionsInfoResponse(let value): encoded(value)
        case .contactUpdate(let value): encoded(value)
        case .sessionsCloseResponse(let value): encoded(value)
        case .chatLink(let value): encoded(value)
        case .foldersGet(let value): encoded(value)
        case .folderUpdate(let value): encoded(value)
        case .foldersDelete(let value): encoded(value)
        case .foldersResponse(let value): encoded(value)
        case .notifTyping(let value): encoded(value)
        case .ping(let value): value.fastPayload
        case .notifMessage(let value): value.fastPayload
        case .notifMark(let value): encoded(value)
        case .empty: .map([])
        case .error(let value): encoded(value)
        case .raw(let value): value
        }
    }

    private static func encoded(_ value: some Encodable) -> MessagePackValue {
        do {
            return try MessagePackEncoder().encode(value)
        } catch {
            // The message types' synthesized encoders only call containers that never throw.
            preconditionFailure("encoding \(type(of: value)) failed: \(error)")
        }
    }
}
