/// SESSION_INIT request: `{deviceId, clientVersion}`. Sent first on every connection.
public struct SessionInitRequest: Codable, Hashable, Sendable {
    public var deviceId: String
    public var clientVersion: String

    public init(deviceId: String, clientVersion: String = "syncsim") {
        self.deviceId = deviceId
        self.clientVersion = clientVersion
    }
}

/// SESSION_INIT response: `{time}`, the server clock in milliseconds since the Unix epoch.
public struct SessionInitResponse: Codable, Hashable, Sendable {
    public var time: Int64

    public init(time: Int64) { self.time = time }
}

/// LOGIN request: `{token, chatsSync, contactsSync, chatsCount}`.
///
/// `chatsSync` and `contactsSync` are last-sync timestamps in server milliseconds (0 for a first login);
/// `chatsCount` caps how many changed chats the response lists.
public struct LoginRequest: Codable, Hashable, Sendable {
    public var token: String
    public var chatsSync: Int64
    public var contactsSync: Int64
    public var chatsCount: Int

    public init(token: String, chatsSync: Int64, contactsSync: Int64, chatsCount: Int) {
        self.token = token
        self.chatsSync = chatsSync
        self.contactsSync = contactsSync
        self.chatsCount = chatsCount
    }
}

/// A user's own profile: `{id, name}`.
public struct Profile: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// A contact: `{id, name}`.
public struct Contact: Codable, Hashable, Sendable {
    public var id: Int64
    public var name: String

    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// A chat-list entry: `{id, members, modified, lastMessage?}`. `modified` is server milliseconds.
public struct ChatSummary: Codable, Hashable, Sendable {
    public var id: Int64
    public var members: [Int64]
    public var modified: Int64
    public var lastMessage: ChatMessage?

    public init(id: Int64, members: [Int64], modified: Int64, lastMessage: ChatMessage?) {
        self.id = id
        self.members = members
        self.modified = modified
        self.lastMessage = lastMessage
    }
}

/// LOGIN response: `{profile, chats[], contacts[], time}`; `time` is the server clock (milliseconds) to store
/// as the next last-sync.
public struct LoginResponse: Codable, Hashable, Sendable {
    public var profile: Profile
    public var chats: [ChatSummary]
    public var contacts: [Contact]
    public var time: Int64

    public init(profile: Profile, chats: [ChatSummary], contacts: [Contact], time: Int64) {
        self.profile = profile
        self.chats = chats
        self.contacts = contacts
        self.time = time
    }
}

/// CHAT_HISTORY request: `{chatId, from, forward, backward}`.
///
/// Asks for up to `backward` messages with ids at or below `from` and up to `forward` messages above it,
/// in ascending id order.
public struct ChatHistoryRequest: Codable, Hashable, Sendable {
    public var chatId: Int64
    public var from: Int64
    public var forward: Int
    public var backward: Int

    public init(chatId: Int64, from: Int64, forward: Int, backward: Int) {
        self.chatId = chatId
        self.from = from
        self.forward = forward
        self.backward = backward
    }
}

/// CHAT_HISTORY response: `{messages[]}` in ascending id order.
public struct ChatHistoryResponse: Codable, Hashable, Sendable {
    public var messages: [ChatMessage]

    public init(messages: [ChatMessage]) { self.messages = messages }
}

/// CHAT_MARK request: `{chatId, mark}`, the newest message id the user has read.
public struct ChatMarkRequest: Codable, Hashable, Sendable {
    public var chatId: Int64
    public var mark: Int64

    public init(chatId: Int64, mark: Int64) {
        self.chatId = chatId
        self.mark = mark
    }
}

/// MSG_SEND request: `{chatId, message: {text, cid, attaches[]}}`.
public struct MsgSendRequest: Codable, Hashable, Sendable {
    public var chatId: Int64
    public var message: OutgoingMessage

    public init(chatId: Int64, message: OutgoingMessage) {
        self.chatId = chatId
        self.message = message
    }
}

/// MSG_SEND response: `{chatId, message}`, the stored message (the original one when `cid` was seen before).
public struct MsgSendResponse: Codable, Hashable, Sendable {
    public var chatId: Int64
    public var message: ChatMessage

    public init(chatId: Int64, message: ChatMessage) {
        self.chatId = chatId
        self.message = message
    }
}

/// PHOTO_UPLOAD request: `{sizeBytes}`, asking where to upload a photo of that size.
public struct PhotoUploadRequest: Codable, Hashable, Sendable {
    public var sizeBytes: Int

    public init(sizeBytes: Int) { self.sizeBytes = sizeBytes }
}

/// PHOTO_UPLOAD response: `{photoToken}`, the CDN token to upload under and attach to the message.
public struct PhotoUploadResponse: Codable, Hashable, Sendable {
    public var photoToken: String

    public init(photoToken: String) { self.photoToken = photoToken }
}

/// PING request: `{interactive}`; the response is an empty map.
public struct PingRequest: Codable, Hashable, Sendable {
    public var interactive: Bool

    public init(interactive: Bool) { self.interactive = interactive }
}

/// NOTIF_MESSAGE push: `{chatId, message}`, a new message in a chat the user belongs to.
public struct NotifMessage: Codable, Hashable, Sendable {
    public var chatId: Int64
    public var message: ChatMessage

    public init(chatId: Int64, message: ChatMessage) {
        self.chatId = chatId
        self.message = message
    }
}

/// NOTIF_MARK push: `{chatId, userId, mark}`, another member read up to message id `mark`.
public struct NotifMark: Codable, Hashable, Sendable {
    public var chatId: Int64
    public var userId: Int64
    public var mark: Int64

    public init(chatId: Int64, userId: Int64, mark: Int64) {
        self.chatId = chatId
        self.userId = userId
        self.mark = mark
    }
}

/// An error frame's payload (`cmd` 3): `{error, message}`, a machine code such as `"login.token"` and text.
public struct ErrorPayload: Codable, Hashable, Sendable {
    public var error: String
    public var message: String

    public init(error: String, message: String) {
        self.error = error
        self.message = message
    }
}
