/// The user sends one message with several photos:
/// `SendPhotos(from: "alice", count: 3, bytes: 60_000, caption: "trip", in: "alice+bob")`.
///
/// Each photo is processed and uploaded to the CDN; the message goes out only once every upload is done.
public struct SendPhotos: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Sends `count` photos of `bytes` bytes each, with `caption`, from `client` into `chat`; call site recorded.
    public init(
        from client: String,
        count: Int,
        bytes: Int,
        caption: String = "",
        in chat: String,
        fileID: String = #fileID,
        line: Int = #line
    ) {
        item = ActionItem(
            .sendPhotos(client: client, chat: chat, count: count, bytes: bytes, caption: caption),
            location: SourceLocation(fileID: fileID, line: line)
        )
    }
}
