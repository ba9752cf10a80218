import SimCore
import SyncProtocol

/// A read-only snapshot of a client engine for checkers (DESIGN.md §8).
public struct ClientView: Hashable, Sendable {
    /// Per chat id: its history cache.
    public var chunkStores: [Int64: ChunkStore]
    /// Per chat id: the chat-list entry last received.
    public var chatList: [Int64: ChatSummary]
    /// Sends not yet acknowledged, as shown in the chat (the local echo), in enqueue order.
    public var localEchoes: [LocalEcho]
    /// Every task known to the engine, ascending by id.
    public var tasks: [TaskRecord]
    /// The last-sync timestamp, server milliseconds (0 before the first LOGIN).
    public var lastSyncMilliseconds: Int64
    /// Requests in flight as (seq, opcode), ascending by seq.
    public var inFlightRequests: [InFlightRequest]
    /// True while logged in on a connection.
    public var isOnline: Bool
    /// The open chat, if any, and the ids visible on screen.
    public var openChatId: Int64?
    /// Ids on screen in the open chat, ascending (empty when no chat is open).
    public var visibleMessageIds: [Int64]
    /// Tasks running now (waiting for a request, an upload or processing), ascending by id.
    public var runningTaskIds: [Int64] = []
    /// Tasks whose CDN upload is under way, ascending by id.
    public var uploadingTaskIds: [Int64] = []
    /// The user's contacts as LOGIN responses listed them (stored, so they outlive app restarts), ascending by id.
    public var contacts: [Contact] = []
    /// True while the open chat's view shows its newest messages and moves down as newer ones join them: after the
    /// open, and after a scroll down that reached them, until a scroll up moves the view (a scroll up at the start of
    /// a history that fits on screen moves nothing). False when no chat is open.
    public var followsNewest = false

    /// A send shown before the server acknowledged it.
    public struct LocalEcho: Hashable, Sendable {
        /// The chat the send goes to.
        public var chatId: Int64
        /// The send's idempotency key.
        public var cid: Int64
        /// The text or caption shown.
        public var text: String
    }

    /// A request waiting for its response.
    public struct InFlightRequest: Hashable, Sendable {
        /// The seq the request went out with.
        public var seq: UInt16
        /// The request's opcode.
        public var opcode: Opcode
        /// When it was sent.
        public var sentAt: SimInstant
        /// The task waiting for the response (MSG_SEND, PHOTO_UPLOAD), or nil for other requests.
        public var taskId: Int64? = nil
    }
}
