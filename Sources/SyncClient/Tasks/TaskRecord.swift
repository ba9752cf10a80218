import SimCore

/// One task of the persistent queue, as stored in the `tasks` table (DESIGN.md §7).
public struct TaskRecord: Hashable, Sendable {
    /// What a task does.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// MSG_SEND of a text message.
        case sendText = "send-text"
        /// Simulated CPU work on a photo (a timer of `photoProcessingTime`).
        case processPhoto = "process-photo"
        /// PHOTO_UPLOAD for a token, then the bytes to the CDN.
        case uploadPhoto = "upload-photo"
        /// MSG_SEND of a message whose attachment is the uploaded photo.
        case sendPhoto = "send-photo"

        /// Whether the task sends a message (and keeps per-chat order with other sends).
        public var isSend: Bool { self == .sendText || self == .sendPhoto }
    }

    /// Where a task is in its life. Running is not stored: a task running at a restart is pending again.
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// Waiting to run, or to be retried at `nextAttemptAt`.
        case pending
        /// Finished successfully.
        case done
        /// Given up, with an error the user can see.
        case failed
    }

    /// Allocation order; per-chat send order follows it.
    public var id: Int64
    /// What the task does.
    public var kind: Kind
    /// Pending, done or failed.
    public var state: State
    /// The chat the task sends to.
    public var chatId: Int64
    /// Message text or photo caption.
    public var text: String
    /// Photo size in bytes (photo tasks), else 0.
    public var sizeBytes: Int
    /// The idempotency key of a send, created once at enqueue and stored with the task; 0 for other kinds.
    public var cid: Int64
    /// The CDN token an upload task obtained.
    public var photoToken: String?
    /// The task that must be done before this one runs.
    public var dependsOn: Int64?
    /// Failed attempts so far (errors and timeouts; disconnects do not count).
    public var attempts: Int
    /// Not before this instant.
    public var nextAttemptAt: SimInstant
    /// When the user asked for it (send-to-ack latency starts here).
    public var enqueuedAt: SimInstant
    /// The visible error of a failed task, or the last retryable one.
    public var lastError: String?
    /// The server message id once a send is acknowledged.
    public var messageId: Int64?
}

extension TaskRecord {
    /// Every stored property equal, as a synthesized `==` would compare them (`areEqual(_:_:)` on the two values).
    public static func == (lhs: TaskRecord, rhs: TaskRecord) -> Bool {
        withUnsafePointer(to: lhs) { left in withUnsafePointer(to: rhs) { right in areEqual(left, right) } }
    }

    /// Whether the records at `lhs` and `rhs` are equal (`==`), each property read where it lies, the integers and
    /// states first. For callers comparing records in place in an array (the checker's walks over a client's tasks
    /// after each change): passing them to `==` copied both first, their three strings retained and released. A
    /// test holds this to a comparison of every stored property (`Mirror`), so a property added later cannot be
    /// left out unnoticed.
    @inlinable
    public static func areEqual(_ lhs: UnsafePointer<TaskRecord>, _ rhs: UnsafePointer<TaskRecord>) -> Bool {
        lhs.pointee.id == rhs.pointee.id && lhs.pointee.kind == rhs.pointee.kind
            && lhs.pointee.state == rhs.pointee.state && lhs.pointee.chatId == rhs.pointee.chatId
            && lhs.pointee.sizeBytes == rhs.pointee.sizeBytes && lhs.pointee.cid == rhs.pointee.cid
            && lhs.pointee.dependsOn == rhs.pointee.dependsOn && lhs.pointee.attempts == rhs.pointee.attempts
            && lhs.pointee.nextAttemptAt == rhs.pointee.nextAttemptAt
            && lhs.pointee.enqueuedAt == rhs.pointee.enqueuedAt && lhs.pointee.messageId == rhs.pointee.messageId
            && lhs.pointee.text == rhs.pointee.text && lhs.pointee.photoToken == rhs.pointee.photoToken
            && lhs.pointee.lastError == rhs.pointee.lastError
    }
}
