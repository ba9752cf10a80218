/// A message as the server stores and sends it: `{id, time, sender, text, cid?, attaches?}`.
///
/// `id` grows with `time` within a chat. `time` is server time in milliseconds since the Unix epoch.
/// `cid` is the sending client's idempotency key, echoed back so the sender can match its local echo.
public struct ChatMessage: Codable, Hashable, Sendable {
    public var id: Int64
    public var time: Int64
    public var sender: Int64
    public var text: String
    public var cid: Int64?
    public var attaches: [Attach]?

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
    public var type: String
    public var photoToken: String?

    public init(type: String, photoToken: String? = nil) {
        self.type = type
        self.photoToken = photoToken
    }

    /// A photo attachment that refers to an upload the CDN accepted under `token`.
    public static func photo(token: String) -> Attach { Attach(type: "PHOTO", photoToken: token) }
}

/// A message the client asks to send: `{text, cid, attaches}` (no id or time yet).
public struct OutgoingMessage: Codable, Hashable, Sendable {
    public var text: String
    /// The idempotency key, created once per task and stored with it; a retry reuses it.
    public var cid: Int64
    public var attaches: [Attach]

    public init(text: String, cid: Int64, attaches: [Attach] = []) {
        self.text = text
        self.cid = cid
        self.attaches = attaches
    }
}
