extension ErrorPayload {
    /// The error code the server answers a MSG_SEND with when the sender already stored a message under that `cid`:
    /// the retry of a send whose response was lost. As in the field (stream-chat-react PR #2331: "Message with id
    /// XYZ already exists"), the answer is an error, not the stored message; a client counts the send delivered.
    public static let duplicateMessageCode = "message.duplicate"

    /// The error payload answering a send whose `cid` already stored a message.
    public static func duplicateMessage(cid: Int64) -> ErrorPayload {
        ErrorPayload(error: duplicateMessageCode, message: "a message with cid \(cid) already exists")
    }

    /// The error code a server answers a request of an opcode it does not handle with (SyncServer; a client that
    /// meets it knows the server lacks that request, not that it failed this once).
    public static let unknownOpcodeCode = "proto.opcode"
}
