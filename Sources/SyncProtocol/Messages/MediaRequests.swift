/// FILE_UPLOAD or VIDEO_UPLOAD request: asks where to upload a file, a video, a video note or a voice message.
///
/// The field's clients send `{count, type, uploaderType, profile}` (PyMax 2.5.0 `pymax/api/uploads/payloads.py`,
/// `UploadPayload`, sent by `pymax/api/uploads/service.py`: `upload_file` with FILE_UPLOAD; `upload_video` with
/// VIDEO_UPLOAD and `type` 0 for a video, 1 for a video note; `upload_voice` with `type` 2; `upload_story_video`
/// with 3). Only `type` is read; every key may be absent, and each is written back as it came.
public struct MediaUploadRequest: Codable, Hashable, Sendable {
    /// How many uploads are asked for (wire key `count`; the server hands out one slot).
    public var count: Int?
    /// What a VIDEO_UPLOAD is for: 0 a video, 1 a video note, 2 a voice message, 3 a story (wire key `type`; nil
    /// when absent, as 0).
    public var type: Int?
    /// Who uploads (wire key `uploaderType`; not read).
    public var uploaderType: Int?
    /// Whether the upload is a profile's (wire key `profile`; not read).
    public var profile: Bool?

    /// Creates a request for an upload of kind `type` (see the property), the other keys as PyMax sends them.
    public init(count: Int? = 1, type: Int? = 0, uploaderType: Int? = 0, profile: Bool? = false) {
        self.count = count
        self.type = type
        self.uploaderType = uploaderType
        self.profile = profile
    }

    /// The kind of upload a VIDEO_UPLOAD with this request is for (`.video` for a FILE_UPLOAD's).
    public var videoKind: MediaKind {
        switch type {
        case 1: .videoNote
        case 2: .voice
        default: .video
        }
    }
}

extension Attach {
    /// Whether the attachment refers to a FILE_UPLOAD or VIDEO_UPLOAD slot: a FILE, VIDEO or AUDIO (voice message).
    public var refersToMediaUpload: Bool { type == "FILE" || type == "VIDEO" || type == "AUDIO" }
}

/// What an upload slot was handed out for; it decides the push that says the upload was processed and the
/// attachment keys readers get.
public enum MediaKind: String, Codable, Hashable, Sendable {
    /// A file (FILE_UPLOAD); attached as `{_type: "FILE", fileId}`.
    case file
    /// A video (VIDEO_UPLOAD `type` 0); attached as `{_type: "VIDEO", videoId, token}`.
    case video
    /// A video note (VIDEO_UPLOAD `type` 1); attached as `{_type: "VIDEO", token, videoType: 1}`.
    case videoNote
    /// A voice message (VIDEO_UPLOAD `type` 2); attached as `{_type: "AUDIO", token}`.
    case voice
}

/// FILE_UPLOAD or VIDEO_UPLOAD response: `{info: [{url, fileId | videoId, token}]}`, one slot.
///
/// PyMax 2.5.0 `pymax/api/uploads/models.py` (`FileUploadResponse`, `VideoUploadResponse`) requires `url`, `token`
/// and `fileId` (FILE_UPLOAD) or `videoId` (VIDEO_UPLOAD) in `info[0]`, POSTs the bytes to `url` and, for a file or a
/// video, waits for NOTIF_ATTACH naming the id before it sends the message.
public struct MediaUploadResponse: Codable, Hashable, Sendable {
    /// The upload slots, one per file asked for (wire key `info`).
    public var info: [MediaUploadSlot]

    /// Creates a response with the slots `info`.
    public init(info: [MediaUploadSlot]) { self.info = info }
}

/// One upload slot of a `MediaUploadResponse`.
public struct MediaUploadSlot: Codable, Hashable, Sendable {
    /// Where to POST the bytes (wire key `url`).
    public var url: String
    /// The file's id, for a FILE_UPLOAD (wire key `fileId`).
    public var fileId: Int64?
    /// The video's id, for a VIDEO_UPLOAD (wire key `videoId`).
    public var videoId: Int64?
    /// The token the attachment refers to the upload by (wire key `token`).
    public var token: String

    /// Creates a slot for file `fileId` or video `videoId` under `token`, uploaded to `url`.
    public init(url: String, fileId: Int64? = nil, videoId: Int64? = nil, token: String) {
        self.url = url
        self.fileId = fileId
        self.videoId = videoId
        self.token = token
    }
}

/// NOTIF_ATTACH push (136): an upload was processed, `{fileId}`, `{videoId}` or `{audioId}`.
///
/// PyMax 2.5.0 `pymax/dispatch/resolvers.py` (`resolve_attach`) tells them apart by key
/// (`pymax/types/events/file.py` `FileUploadSignal`, `video.py` `VideoUploadSignal`, `AudioUploadSignal`) and
/// `pymax/api/uploads/service.py` resolves the upload waiting for that id. A payload with any other key, or with
/// none of the three, does not decode as this type (the frame keeps it raw, so nothing is lost re-encoding it).
public struct NotifAttach: Codable, Hashable, Sendable {
    /// The processed file (wire key `fileId`).
    public var fileId: Int64?
    /// The processed video or video note (wire key `videoId`).
    public var videoId: Int64?
    /// The processed voice message (wire key `audioId`).
    public var audioId: Int64?

    /// Creates the push for a processed file, video or voice message (one of the three ids set).
    public init(fileId: Int64? = nil, videoId: Int64? = nil, audioId: Int64? = nil) {
        self.fileId = fileId
        self.videoId = videoId
        self.audioId = audioId
    }

    private enum CodingKeys: String, CodingKey { case fileId, videoId, audioId }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let keys = try decoder.container(keyedBy: NamedKey.self).allKeys
        guard !keys.isEmpty, keys.allSatisfy({ CodingKeys(stringValue: $0.stringValue) != nil }) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "NOTIF_ATTACH carries keys other than fileId, videoId, audioId"))
        }
        fileId = try container.decodeIfPresent(Int64.self, forKey: .fileId)
        videoId = try container.decodeIfPresent(Int64.self, forKey: .videoId)
        audioId = try container.decodeIfPresent(Int64.self, forKey: .audioId)
    }
}

/// FILE_DOWNLOAD (88) or VIDEO_PLAY (83) request: where to fetch an attachment of a message,
/// `{chatId, messageId, fileId | videoId}`, or of a video by its id alone, `{videoId, token}`.
///
/// PyMax 2.5.0 `pymax/api/messages/payloads.py` (`GetFilePayload`, `GetVideoPayload`), whose `messageId` is an
/// integer or a string of digits; both are read, and so for `chatId`, `fileId` and `videoId` (MaxBridge 1.5.4
/// `MaxBridge/max_api.py`, `get_file`, sends the ids it is given, strings when the caller holds strings). MaxBridge 1.8.0 (`MaxBridge/max_api.py`, `get_video`) sends
/// VIDEO_PLAY with `videoId` and a `token` (its session's), without chat or message.
public struct MediaFetchRequest: Codable, Hashable, Sendable {
    /// The chat of the message (wire key `chatId`); nil when the request names only the attachment.
    public var chatId: Int64?
    /// The message carrying the attachment (wire key `messageId`, an integer or a string of digits); nil when the
    /// request names only the attachment.
    public var messageId: Int64?
    /// The file asked for, for FILE_DOWNLOAD (wire key `fileId`).
    public var fileId: Int64?
    /// The video asked for, for VIDEO_PLAY (wire key `videoId`).
    public var videoId: Int64?
    /// A token sent beside the id (wire key `token`; MaxBridge sends its session's), read by no one here.
    public var token: String?
    /// Whether `messageId` came as a string (it is written back so).
    public var messageIdIsText = false

    /// Creates a request for file `fileId` or video `videoId` of message `messageId` in chat `chatId`.
    public init(chatId: Int64?, messageId: Int64?, fileId: Int64? = nil, videoId: Int64? = nil, token: String? = nil) {
        self.chatId = chatId
        self.messageId = messageId
        self.fileId = fileId
        self.videoId = videoId
        self.token = token
    }

    private enum CodingKeys: String, CodingKey { case chatId, messageId, fileId, videoId, token }

    /// - Throws: `DecodingError` when a key has the wrong type, `messageId` is a string spelling no id, or the request
    ///   names neither a message (`chatId` and `messageId`) nor a `videoId` alone.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chatId = try container.decodeIfPresent(FieldId.self, forKey: .chatId)?.value
        if !container.contains(.messageId) {
            messageId = nil
        } else if let number = try? container.decode(Int64.self, forKey: .messageId) {
            messageId = number
        } else {
            let text = try container.decode(String.self, forKey: .messageId)
            guard let number = Int64(text) else {
                throw DecodingError.dataCorruptedError(forKey: .messageId, in: container,
                                                       debugDescription: "'\(text.prefix(40))' is not a message id")
            }
            messageId = number
            messageIdIsText = true
        }
        fileId = try container.decodeIfPresent(FieldId.self, forKey: .fileId)?.value
        videoId = try container.decodeIfPresent(FieldId.self, forKey: .videoId)?.value
        token = try container.decodeIfPresent(String.self, forKey: .token)
        // A message, or a video alone.
        if chatId == nil || messageId == nil, videoId == nil || fileId != nil || chatId != nil || messageId != nil {
            let missing: CodingKeys = chatId == nil ? .chatId : .messageId
            throw DecodingError.keyNotFound(missing, DecodingError.Context(
                codingPath: container.codingPath,
                debugDescription: "the request names neither a message (chatId and messageId) nor a videoId alone"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(chatId, forKey: .chatId)
        if let messageId {
            if messageIdIsText {
                try container.encode(String(messageId), forKey: .messageId)
            } else {
                try container.encode(messageId, forKey: .messageId)
            }
        }
        try container.encodeIfPresent(fileId, forKey: .fileId)
        try container.encodeIfPresent(videoId, forKey: .videoId)
        try container.encodeIfPresent(token, forKey: .token)
    }
}

/// FILE_DOWNLOAD or VIDEO_PLAY response.
/// - A file: `{url, unsafe}` (PyMax 2.5.0 `pymax/types/domain/attachments/file.py`, `FileRequest`, requires both).
/// - A video: `{EXTERNAL, cache, MP4_<quality>: url, ...}`, the address under a key naming its quality. PyMax 2.5.0
///   (`video.py`, `VideoRequest`) takes the highest `MP4_<n>` key as the URL, PyMax 2.1.0 and 1.2.5
///   (`pymax/types.py`, `VideoRequest.from_dict`, which indexes `EXTERNAL` and `cache`) and python-max-client 1.0.2
///   (`functions/uploads.py`, `download_video`, which deletes both keys) the first key that is neither `EXTERNAL`
///   nor `cache`. A video answer carrying `url` is read as is.
public struct MediaFetchResponse: Codable, Hashable, Sendable {
    /// Where to fetch the bytes (wire key `url`, or `qualityKey` for a video).
    public var url: String
    /// Whether the file is flagged unsafe, for FILE_DOWNLOAD (wire key `unsafe`; SyncSim: always false).
    public var unsafe: Bool?
    /// Whether the video may be cached, for VIDEO_PLAY (wire key `cache`; SyncSim: always false).
    public var cache: Bool?
    /// The video's external player address, for VIDEO_PLAY (wire key `EXTERNAL`; a string or a flag in the field).
    public var external: MessagePackValue?
    /// The key `url` is written under, `MP4_720` say; nil: `url`.
    public var qualityKey: String?
    /// The keys after `qualityKey` in a decoded answer (other qualities), kept in order to be written back.
    public var otherQualities: [MessagePackPair] = []

    /// Creates an answer pointing at `url` (under `qualityKey` when given, after `EXTERNAL` and `cache`).
    public init(
        url: String, unsafe: Bool? = nil, cache: Bool? = nil, external: MessagePackValue? = nil,
        qualityKey: String? = nil
    ) {
        self.url = url
        self.unsafe = unsafe
        self.cache = cache
        self.external = external
        self.qualityKey = qualityKey
    }

    /// - Throws: `DecodingError` when the map has neither `url` nor a key other than `EXTERNAL`, `cache` and
    ///   `unsafe` holding a string (the first such key is the URL, as PyMax 1.2.5 and 2.1.0 read it), or a known
    ///   key has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NamedKey.self)
        unsafe = try container.decodeIfPresent(Bool.self, forKey: NamedKey("unsafe"))
        cache = try container.decodeIfPresent(Bool.self, forKey: NamedKey("cache"))
        external = try container.decodeIfPresent(MessagePackValue.self, forKey: NamedKey("EXTERNAL"))
        if let url = try container.decodeIfPresent(String.self, forKey: NamedKey("url")) {
            self.url = url
            return
        }
        // The whole map in wire order (`MessagePackDecoder` hands it over as it is): the first other key is the URL,
        // any after it are kept to be written back.
        var found: (key: String, url: String)?
        if case .map(let pairs)? = try? decoder.singleValueContainer().decode(MessagePackValue.self) {
            for pair in pairs {
                guard case .string(let name) = pair.key, !["EXTERNAL", "cache", "unsafe"].contains(name) else { continue }
                if found == nil, case .string(let url) = pair.value {
                    found = (name, url)
                } else {
                    otherQualities.append(pair)
                }
            }
        }
        guard let found else {
            throw DecodingError.keyNotFound(NamedKey("url"), DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "a FILE_DOWNLOAD or VIDEO_PLAY answer names no URL (neither `url` nor `MP4_<quality>`)"))
        }
        url = found.url
        qualityKey = found.key
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NamedKey.self)
        guard let qualityKey else {
            try container.encode(url, forKey: NamedKey("url"))
            try container.encodeIfPresent(unsafe, forKey: NamedKey("unsafe"))
            try container.encodeIfPresent(cache, forKey: NamedKey("cache"))
            try container.encodeIfPresent(external, forKey: NamedKey("EXTERNAL"))
            return
        }
        try container.encodeIfPresent(external, forKey: NamedKey("EXTERNAL"))
        try container.encodeIfPresent(cache, forKey: NamedKey("cache"))
        try container.encodeIfPresent(unsafe, forKey: NamedKey("unsafe"))
        try container.encode(url, forKey: NamedKey(qualityKey))
        for pair in otherQualities {
            guard case .string(let name) = pair.key else { continue }
            try container.encode(pair.value, forKey: NamedKey(name))
        }
    }
}
