import SyncProtocol

/// An upload slot FILE_UPLOAD or VIDEO_UPLOAD handed out, and what reached the CDN under it.
public struct MediaUpload: Hashable, Sendable {
    /// What the slot is for.
    public var kind: MediaKind
    /// The slot's id: the attachment's `fileId`, `videoId` or `audioId`.
    public var id: Int64
    /// The token the attachment refers to the upload by.
    public var token: String
    /// The user who asked for the slot (the NOTIF_ATTACH goes to their connections).
    public var owner: Int64
    /// The name the upload gave (`Content-Disposition`'s `filename`), or nil before it came or without one.
    public var fileName: String?
    /// The bytes received, or nil while nothing was uploaded.
    public var sizeBytes: Int?
}

/// Files, videos, video notes and voice messages of the field's clients (`syncsim serve` only: SyncSim's simulated
/// clients send photos): FILE_UPLOAD and VIDEO_UPLOAD hand out a slot, the bytes come to the CDN end, NOTIF_ATTACH
/// tells the uploader they were processed, and a MSG_SEND's attachment referring to the slot reaches readers with
/// the keys PyMax 2.5.0's models require (`pymax/types/domain/attachments/file.py` `FileAttachment`: `fileId`,
/// `name`, `size`, `token`; `video.py` `VideoAttachment`: `videoId`, `token`, `width`, `height`, `thumbnail`,
/// `videoType`, and for 2.1.0-2.3.x also `duration` and `previewData`; `audio.py` `AudioAttachment`: `audioId`,
/// `token`, `url`, and `duration`, which 2.1.0 requires).
struct MediaUploads: Hashable, Sendable {
    private var slots: [Int64: MediaUpload] = [:]
    private var idsByToken: [String: Int64] = [:]
    private var nextId: Int64 = 1

    /// Hands out a slot of `kind` for `owner`.
    mutating func issue(_ kind: MediaKind, owner: Int64) -> MediaUpload {
        let id = nextId
        nextId += 1
        let prefix = switch kind {
        case .file: "file"
        case .video, .videoNote: "video"
        case .voice: "audio"
        }
        let slot = MediaUpload(kind: kind, id: id, token: "\(prefix)-\(id)", owner: owner)
        slots[id] = slot
        idsByToken[slot.token] = id
        return slot
    }

    /// Records the bytes of slot `id`; nil when no slot `id` was handed out or the slot already holds bytes (a
    /// second upload would replace what a message sent with the slot serves).
    mutating func receive(id: Int64, fileName: String?, sizeBytes: Int) -> MediaUpload? {
        guard slots[id] != nil, slots[id]!.sizeBytes == nil else { return nil }
        slots[id]!.sizeBytes = sizeBytes
        if let fileName { slots[id]!.fileName = fileName }
        return slots[id]
    }

    subscript(id: Int64) -> MediaUpload? { slots[id] }

    /// The slot an attachment of kind `_type` refers to: by its `fileId`, `videoId` or `audioId`, else its `token`.
    func slot(for attach: Attach) -> MediaUpload? {
        let idKey = switch attach.type {
        case "FILE": "fileId"
        case "VIDEO": "videoId"
        default: "audioId"
        }
        if let id = attach.otherInteger(idKey) { return slots[id] }
        if case .string(let token)? = attach[other: "token"], let id = idsByToken[token] { return slots[id] }
        return nil
    }
}

extension SyncServer {
    /// Takes the bytes of a FILE_UPLOAD or VIDEO_UPLOAD slot that reached the CDN end (`syncsim serve`'s HTTP POST).
    /// - Parameters:
    ///   - id: the slot's id, from the upload URL's `fileIds` or `videoIds`.
    ///   - fileName: the name the upload gave, if any.
    ///   - sizeBytes: the body's length.
    /// - Returns: nil when no slot `id` was handed out or it already holds an upload's bytes (`MediaUpload.sizeBytes`
    ///   non-nil: a second upload is refused, the first's bytes stay); else the NOTIF_ATTACH pushes to the
    ///   uploader's open connections (`{fileId}`, `{videoId}` or `{audioId}`), in connection order.
    public mutating func receiveMediaUpload(id: Int64, fileName: String?, sizeBytes: Int) -> [ServerAction]? {
        guard let slot = media.receive(id: id, fileName: fileName, sizeBytes: sizeBytes) else { return nil }
        let push = switch slot.kind {
        case .file: NotifAttach(fileId: id)
        case .video, .videoNote: NotifAttach(videoId: id)
        case .voice: NotifAttach(audioId: id)
        }
        return pushToUser(.notifAttach(push), opcode: .notifAttach, userId: slot.owner)
    }

    /// The FILE_UPLOAD or VIDEO_UPLOAD slot `id`, or nil for none.
    public func mediaUpload(id: Int64) -> MediaUpload? { media[id] }

    /// The slot a file, video or voice message attachment refers to (by its `fileId`, `videoId` or `audioId`, else
    /// its `token`), or nil for another kind or an unknown slot.
    public func mediaSlot(for attach: Attach) -> MediaUpload? {
        attach.refersToMediaUpload ? media.slot(for: attach) : nil
    }

    /// A message's attachments as they are stored (a send's or an edit's): each photo must have reached the CDN,
    /// then each as readers get it (`readerAttachment`).
    /// - Throws: `photo.notUploaded` for a photo token the CDN does not hold; `proto.payload` for a POLL (no poll
    ///   is modelled: stored as sent, it lacked the `pollId`, `version` and `state` PyMax 2.5.0's `PollAttachment`
    ///   requires, and a chat whose last message it was failed PyMax's LOGIN); what `readerAttachment` throws.
    func storedAttachments(_ attaches: [Attach]) throws(AttachmentError) -> [Attach] {
        for attach in attaches {
            if attach.type == "PHOTO", attach.photoToken.map(cdn.hasUpload(token:)) != true {
                throw AttachmentError(payload: ErrorPayload(
                    error: "photo.notUploaded",
                    message: "photo \(attach.photoToken ?? "nil") was not uploaded to the CDN"))
            }
            if attach.type == "POLL" {
                throw AttachmentError(payload: ErrorPayload(
                    error: "proto.payload", message: "POLL attachments are not modelled: serve stores no polls"))
            }
        }
        var stored: [Attach] = []
        for attach in attaches { stored.append(try readerAttachment(attach)) }
        return stored
    }

    /// The attachment as readers get it: a photo the CDN knows with its id, URL and size (PyMax 2.5.0
    /// `PhotoAttachment` requires them), a file, video or voice message with the keys its model requires, filled from
    /// its slot; any other attachment as it came.
    /// - Throws: `attachment.notFound` for a file, video or voice message whose slot was never handed out,
    ///   `attachment.not.ready` for one whose bytes did not come yet (the error PyMax 2.5.0's `send_message` waits on
    ///   and retries after, `pymax/api/messages/service.py`).
    func readerAttachment(_ attach: Attach) throws(AttachmentError) -> Attach {
        if attach.type == "PHOTO", let token = attach.photoToken, let photoId = cdn.photoId(token: token) {
            var photo = Attach(type: attach.type, photoToken: token, photoId: photoId,
                               baseUrl: "\(knobs.cdnURL)/photo/\(photoId)", width: 0, height: 0)
            photo.otherKeys = attach.otherKeys
            return photo
        }
        guard attach.refersToMediaUpload else { return attach }
        guard let slot = media.slot(for: attach), slot.kind.attachType == attach.type else {
            throw AttachmentError(payload: ErrorPayload(
                error: "attachment.notFound", message: "\(attach.type) attachment refers to no upload this server handed out"))
        }
        guard let sizeBytes = slot.sizeBytes else {
            throw AttachmentError(payload: ErrorPayload(
                error: "attachment.not.ready", message: "\(attach.type) \(slot.id) was not uploaded yet"))
        }
        var filled = attach
        let base = knobs.cdnURL
        switch slot.kind {
        case .file:
            filled[other: "fileId"] = .uint(UInt64(slot.id))
            filled[other: "name"] = .string(slot.fileName ?? "file-\(slot.id)")
            filled[other: "size"] = .uint(UInt64(sizeBytes))
            filled[other: "token"] = .string(slot.token)
        case .video, .videoNote:
            // SyncSim's CDN keeps no pixels: width and height 0, as a photo's.
            filled[other: "videoId"] = .uint(UInt64(slot.id))
            filled[other: "token"] = .string(slot.token)
            filled.width = filled.width ?? 0
            filled.height = filled.height ?? 0
            filled[other: "thumbnail"] = .string("\(base)/video/\(slot.id)/thumbnail")
            if filled[other: "videoType"] == nil {
                filled[other: "videoType"] = .uint(slot.kind == .videoNote ? 1 : 0)
            }
            // PyMax 2.1.0-2.3.x require both (2.1.0 `duration` as an integer): the sender's duration or 0, and an
            // empty preview (SyncSim renders none).
            if filled[other: "duration"] == nil || filled[other: "duration"] == .nil { filled[other: "duration"] = .uint(0) }
            if filled[other: "previewData"] == nil { filled[other: "previewData"] = .binary([]) }
        case .voice:
            filled[other: "audioId"] = .uint(UInt64(slot.id))
            filled[other: "token"] = .string(slot.token)
            filled[other: "url"] = .string("\(base)/audio/\(slot.id)")
            // PyMax 2.1.0's `AudioAttachment` requires `duration`.
            if filled[other: "duration"] == nil || filled[other: "duration"] == .nil { filled[other: "duration"] = .uint(0) }
        }
        return filled
    }
}

extension MediaKind {
    /// The `_type` of the attachment that refers to an upload of this kind.
    var attachType: String {
        switch self {
        case .file: "FILE"
        case .video, .videoNote: "VIDEO"
        case .voice: "AUDIO"
        }
    }
}

/// Why a MSG_SEND's attachment cannot reach readers: the error frame's payload.
struct AttachmentError: Error {
    var payload: ErrorPayload
}
