// The edit and delete words of a timeline (issue 11: edits and deletes, invariant C7).

/// Another device of a user edits that user's newest message in a chat:
/// `EditMessage(from: "bob", in: "alice+bob", text: "see you at 7")`. The server stores the new version (status
/// EDITED) and pushes it to the chat's connected members; nothing happens when the user has no message there.
public struct EditMessage: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Edits `client`'s newest message in `chat` to `text`; `fileID` and `line` record the call site.
    public init(from client: String, in chat: String, text: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.editMessage(client: client, chat: chat, text: text),
                          location: SourceLocation(fileID: fileID, line: line))
    }
}

/// Another device of a user deletes that user's newest message in a chat: `DeleteMessage(from: "bob", in:
/// "alice+bob")`. The server keeps a REMOVED tombstone and pushes NOTIF_MSG_DELETE to the chat's connected
/// members; nothing happens when the user has no message there.
public struct DeleteMessage: TimelineAction {
    /// The action with its label and source location.
    public let item: ActionItem

    /// Deletes `client`'s newest message in `chat`; `fileID` and `line` record the call site.
    public init(from client: String, in chat: String, fileID: String = #fileID, line: Int = #line) {
        item = ActionItem(.deleteMessage(client: client, chat: chat), location: SourceLocation(fileID: fileID, line: line))
    }
}
