/// A message as the server stores and sends it: `{id, time, sender, text, cid?, attaches?}`.
///
/// `id` grows with `time` within a chat. `time` is server time in milliseconds since the Unix epoch.
/// `cid` is the sending client's idempotency key, echoed back so the sender can match its local echo.
public struct ChatMessage: Codable, Hashable, Sendable {
    /// The message id, unique within its chat and growing with `time` (wire key `id`).
    public var id: Int64
    /// When the server stored the message, server milliseconds since the Unix epoch (wire key `time`).
    public var time: Int64
    /// The user id of the sender (wire key `sender`).
    public var sender: Int64
    /// The message text (wire key `text`).
    public var text: String
    /// The sender's idempotency key, if the message was sent with one (wire key `cid`).
    public var cid: Int64?
    /// The message's attachments, if any (wire key `attaches`).
    public var attaches: [Attach]?

    /// Creates a stored message; `time` is server milliseconds since the Unix epoch.
    public init(id: Int64, time: Int64, sender: Int64, text: String, cid: Int64? = nil, attaches: [Attach]? = nil) {
        self.id = id
        self.time = time
        self.sender = sender
        self.text = text
        self.cid = cid
        self.attaches = attaches
    }
}

/// An attachment of a message: `{type, photoToken?}`. The model knows photos (`type == "PHOTO"`).
public struct Attach: Codable, Hashable, Sendable {
    /// The attachment kind, `"PHOTO"` for photos (wire key `type`).
    public var type: String
    /// The CDN token of an uploaded photo (wire key `photoToken`).
    public var photoToken: String?

    /// Creates an attachment of kind `type`, optionally referring to the upload `photoToken`.
    public init(type: String, photoToken: String? = nil) {
        self.type = type
        self.photoToken = photoToken
    }

    /// A photo attachment that refers to an upload the CDN accepted under `token`.
    public static func photo(token: String) -> Attach { Attach(type: "PHOTO", photoToken: token) }
}

/// A message the client asks to send: `{text, cid, attaches}` (no id or time yet).
public struct OutgoingMessage: Codable, Hashable, Sendable {
    /// The message text (wire key `text`).
    public var text: String
    /// The idempotency key, created once per task and stored with it; a retry reuses it.
    public var cid: Int64
    /// The attachments, empty for a text-only message (wire key `attaches`).
    public var attaches: [Attach]

    /// Creates an outgoing message with idempotency key `cid`.
    public init(text: String, cid: Int64, attaches: [Attach] = []) {
        self.text = text
        self.cid = cid
        self.attaches = attaches
    }
}
