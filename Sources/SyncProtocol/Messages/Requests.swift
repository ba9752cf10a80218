/// SESSION_INIT request: `{deviceId, clientVersion}`. Sent first on every connection.
public struct SessionInitRequest: Codable, Hashable, Sendable {
    /// The sending device's identifier (wire key `deviceId`).
    public var deviceId: String
    /// The client's software version string (wire key `clientVersion`).
    public var clientVersion: String

    /// Creates a SESSION_INIT request for `deviceId`; `clientVersion` defaults to `"syncsim"`.
    public init(deviceId: String, clientVersion: String = "syncsim") {
        self.deviceId = deviceId
        self.clientVersion = clientVersion
    }
}

/// SESSION_INIT response: `{time}`, the server clock in milliseconds since the Unix epoch.
public struct SessionInitResponse: Codable, Hashable, Sendable {
    /// The server clock in milliseconds since the Unix epoch (wire key `time`).
    public var time: Int64

    /// Creates a SESSION_INIT response carrying the server clock `time` in milliseconds since the Unix epoch.
    public init(time: Int64) { self.time = time }
}

/// LOGIN request: `{token, chatsSync, contactsSync, chatsCount}`.
///
/// `chatsSync` and `contactsSync` are last-sync timestamps in server milliseconds (0 for a first login);
/// `chatsCount` caps how many changed chats the response lists.
public struct LoginRequest: Codable, Hashable, Sendable {
    /// The session token that identifies the user (wire key `token`).
    public var token: String
    /// Last chat sync, server milliseconds since the Unix epoch; 0 on a first login (wire key `chatsSync`).
    public var chatsSync: Int64
    /// Last contact sync, server milliseconds since the Unix epoch; 0 on a first login (wire key `contactsSync`).
    public var contactsSync: Int64
    /// The most changed chats the response may list (wire key `chatsCount`).
    public var chatsCount: Int

    /// Creates a LOGIN request; `chatsSync` and `contactsSync` are server milliseconds since the Unix epoch.
    public init(token: String, chatsSync: Int64, contactsSync: Int64, chatsCount: Int) {
        self.token = token
        self.chatsSync = chatsSync
        self.contactsSync = contactsSync
        self.chatsCount = chatsCount
    }
}

/// A user's own profile: `{id, name}`.
public struct Profile: Codable, Hashable, Sendable {
    /// The user's id (wire key `id`).
    public var id: Int64
    /// The user's display name (wire key `name`).
    public var name: String

    /// Creates a profile for user `id` named `name`.
    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// A contact: `{id, name}`.
public struct Contact: Codable, Hashable, Sendable {
    /// The contact's user id (wire key `id`).
    public var id: Int64
    /// The contact's display name (wire key `name`).
    public var name: String

    /// Creates a contact for user `id` named `name`.
    public init(id: Int64, name: String) {
        self.id = id
        self.name = name
    }
}

/// A chat-list entry: `{id, members, modified, lastMessage?}`. `modified` is server milliseconds.
public struct ChatSummary: Codable, Hashable, Sendable {
    /// The chat's id (wire key `id`).
    public var id: Int64
    /// The user ids of the chat's members (wire key `members`).
    public var members: [Int64]
    /// When the chat last changed, server milliseconds since the Unix epoch (wire key `modified`).
    public var modified: Int64
    /// The chat's newest message, if it has one (wire key `lastMessage`).
    public var lastMessage: ChatMessage?

    /// Creates a chat-list entry; `modified` is server milliseconds since the Unix epoch.
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
    /// The user's own profile (wire key `profile`).
    public var profile: Profile
    /// The user's chats modified after `chatsSync`, newest first, at most `chatsCount` (wire key `chats`).
    public var chats: [ChatSummary]
    /// The other members of the user's chats when `contactsSync` was 0, else empty (wire key `contacts`).
    public var contacts: [Contact]
    /// The server clock in milliseconds since the Unix epoch, the next last-sync to store (wire key `time`).
    public var time: Int64

    /// Creates a LOGIN response; `time` is server milliseconds since the Unix epoch.
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
    /// The chat whose history is asked for (wire key `chatId`).
    public var chatId: Int64
    /// The message id the page is anchored at (wire key `from`).
    public var from: Int64
    /// How many messages with ids above `from` to return at most (wire key `forward`).
    public var forward: Int
    /// How many messages with ids at or below `from` to return at most (wire key `backward`).
    public var backward: Int

    /// Creates a CHAT_HISTORY request for `chatId` around message id `from`; `forward` and `backward` are counts.
    public init(chatId: Int64, from: Int64, forward: Int, backward: Int) {
        self.chatId = chatId
        self.from = from
        self.forward = forward
        self.backward = backward
    }
}

/// CHAT_HISTORY response: `{messages[]}` in ascending id order.
public struct ChatHistoryResponse: Codable, Hashable, Sendable {
    /// The page of messages in ascending id order (wire key `messages`).
    public var messages: [ChatMessage]

    /// Creates a CHAT_HISTORY response from `messages` in ascending id order.
    public init(messages: [ChatMessage]) { self.messages = messages }
}

/// CHAT_MARK request: `{chatId, mark}`, the newest message id the user has read.
public struct ChatMarkRequest: Codable, Hashable, Sendable {
    /// The chat being marked read (wire key `chatId`).
    public var chatId: Int64
    /// The newest message id the user has read (wire key `mark`).
    public var mark: Int64

    /// Creates a CHAT_MARK request marking `chatId` read up to message id `mark`.
    public init(chatId: Int64, mark: Int64) {
        self.chatId = chatId
        self.mark = mark
    }
}

/// MSG_SEND request: `{chatId, message: {text, cid, attaches[]}}`.
public struct MsgSendRequest: Codable, Hashable, Sendable {
    /// The chat to send into (wire key `chatId`).
    public var chatId: Int64
    /// The message to send, with its idempotency key `cid` (wire key `message`).
    public var message: OutgoingMessage

    /// Creates a MSG_SEND request sending `message` into `chatId`.
    public init(chatId: Int64, message: OutgoingMessage) {
        self.chatId = chatId
        self.message = message
    }
}

/// MSG_SEND response: `{chatId, message}`, the stored message (the original one when `cid` was seen before).
public struct MsgSendResponse: Codable, Hashable, Sendable {
    /// The chat the message was stored in (wire key `chatId`).
    public var chatId: Int64
    /// The stored message with its server id and time (wire key `message`).
    public var message: ChatMessage

    /// Creates a MSG_SEND response for the message stored in `chatId`.
    public init(chatId: Int64, message: ChatMessage) {
        self.chatId = chatId
        self.message = message
    }
}

/// PHOTO_UPLOAD request: `{sizeBytes}`, asking where to upload a photo of that size.
public struct PhotoUploadRequest: Codable, Hashable, Sendable {
    /// The photo's size in bytes (wire key `sizeBytes`).
    public var sizeBytes: Int

    /// Creates a PHOTO_UPLOAD request for a photo of `sizeBytes` bytes.
    public init(sizeBytes: Int) { self.sizeBytes = sizeBytes }
}

/// PHOTO_UPLOAD response: `{photoToken}`, the CDN token to upload under and attach to the message.
public struct PhotoUploadResponse: Codable, Hashable, Sendable {
    /// The CDN token to upload the photo under and attach to the message (wire key `photoToken`).
    public var photoToken: String

    /// Creates a PHOTO_UPLOAD response carrying the CDN token `photoToken`.
    public init(photoToken: String) { self.photoToken = photoToken }
}

/// PING request: `{interactive}`; the response is an empty map.
public struct PingRequest: Codable, Hashable, Sendable {
    /// The client's interactive flag; the server ignores it and keep-alive pings send `false` (wire key `interactive`).
    public var interactive: Bool

    /// Creates a PING request; the reference client's keep-alive pings send `interactive: false`.
    public init(interactive: Bool) { self.interactive = interactive }
}

/// NOTIF_MESSAGE push: `{chatId, message}`, a new message in a chat the user belongs to.
public struct NotifMessage: Codable, Hashable, Sendable {
    /// The chat the new message belongs to (wire key `chatId`).
    public var chatId: Int64
    /// The new message (wire key `message`).
    public var message: ChatMessage

    /// Creates a NOTIF_MESSAGE push for `message` in `chatId`.
    public init(chatId: Int64, message: ChatMessage) {
        self.chatId = chatId
        self.message = message
    }
}

/// NOTIF_MARK push: `{chatId, userId, mark}`, another member read up to message id `mark`.
public struct NotifMark: Codable, Hashable, Sendable {
    /// The chat that was read (wire key `chatId`).
    public var chatId: Int64
    /// The member who read it (wire key `userId`).
    public var userId: Int64
    /// The newest message id that member has read (wire key `mark`).
    public var mark: Int64

    /// Creates a NOTIF_MARK push: `userId` read `chatId` up to message id `mark`.
    public init(chatId: Int64, userId: Int64, mark: Int64) {
        self.chatId = chatId
        self.userId = userId
        self.mark = mark
    }
}

/// An error frame's payload (`cmd` 3): `{error, message}`, a machine code such as `"login.token"` and text.
public struct ErrorPayload: Codable, Hashable, Sendable {
    /// A machine-readable error code such as `"login.token"` (wire key `error`).
    public var error: String
    /// A human-readable explanation (wire key `message`).
    public var message: String

    /// Creates an error payload with machine code `error` and text `message`.
    public init(error: String, message: String) {
        self.error = error
        self.message = message
    }
}
