import SimCore
import SyncProtocol

/// Fault-injection knobs of the virtual server (DESIGN.md §6). The defaults describe a perfect server.
public struct ServerKnobs: Hashable, Sendable {
    /// Processing delay per opcode; a request is executed (and answered) after its drawn delay, so responses to
    /// requests sent in order may overtake each other.
    public var processingDelay: [Opcode: DelayDistribution]
    /// Processing delay for opcodes absent from `processingDelay`.
    public var defaultProcessingDelay: DelayDistribution
    /// Probability that a push (NOTIF_MESSAGE, NOTIF_MARK) is silently not sent.
    public var pushLossProbability: Double
    /// Probability that a push that is sent is sent twice.
    public var pushDuplicationProbability: Double
    /// Probability per opcode that a request is answered with an error frame (`"server.injected"`) and has
    /// no effect.
    public var errorRate: [Opcode: Double]
    /// At most this many changed chats (the most recently modified) per LOGIN, whatever the client asks:
    /// a "gappy" sync, older changes are not listed.
    public var loginChatsCap: Int?
    /// Periods during which requests (every request, or one opcode's, or one user's) take extra processing time.
    public var slowPeriods: [SlowPeriod]
    /// The most chats one CHATS_LIST page lists (and the page size when the request names no `count`). Default 40,
    /// the `chatsCount` PyMax's web login asks for (`pymax/api/auth/payloads.py`).
    public var chatsListPageSize: Int = 40
    /// When set, CHAT_HISTORY pages show an edit or delete only once it is this old: a lagging read replica, so a
    /// client can get a message in an older version after the change's push (what invariant C7 is about).
    public var historyEditLag: SimDuration?
    /// Server-side liveness: a connection silent this long is closed (its client vanished without a FIN, so pushes
    /// into it are lost; the client's next LOGIN lists what it missed). Default 50 s: the clients' ping interval
    /// (30 s) plus their request timeout (20 s), DESIGN.md §3 (ejabberd #1673). Nil: never (the field bug).
    public var idleTimeout: SimDuration? = .seconds(Int64(50))
    /// At most one live session per (user, device): a LOGIN closes the user's older connections from the same
    /// SESSION_INIT device id (wire-webapp PR #21448). False keeps them (the field bug: pushes go to a dead one).
    public var replacesOlderSessions = true
    /// Whether LOGIN and CHATS_LIST answers (and NOTIF_MSG_DELETE's chat) carry the keys PyMax's 1.x line requires
    /// (PyMax 1.2.5 `pymax/types.py`: `Me`, `User` and `Dialog.from_dict`): the profile's and each contact's
    /// `accountStatus` (0) and `updateTime` (0), the profile's `phone` (79_000_000_000 + user id: SyncSim's users
    /// have none), and each chat's `created`, `joinTime` and `lastEventTime` (its `modified`) with
    /// `lastDelayedUpdateTime` and `lastFireDelayedErrorTime` (0). `syncsim serve` sends them; a simulated run
    /// leaves them out unless its server parameter `fullListKeys` is true, so that its bytes, and every digest,
    /// stay those of the lean shape.
    public var fullListKeys = false
    /// A reply whose request's connection closed before it was ready goes to the newest open connection of the same
    /// user and device instead of being lost, as Slack's RTM server resends its last reply on a client's new
    /// connection (node-slack-sdk #251). A client whose seqs restart on each connection may take it for the answer to
    /// its new request with that seq. Default false: such a reply is lost, as with a plain server.
    public var repliesFollowDevice = false
    /// How a connection hears that messages were deleted, unless its driver chose for it
    /// (`SyncServer.setDeleteNotice(_:of:)`; `syncsim serve` chooses `.removedMessage` for PyMax 1.x's TCP frames).
    public var deleteNotice = DeleteNotice.notifMsgDelete
    /// The CDN's base URL, without a trailing slash: PHOTO_UPLOAD answers `<cdnURL>/upload?photoIds=<photoId>` and a
    /// stored photo's `baseUrl` is `<cdnURL>/photo/<photoId>`. The default names no real host (`.invalid`, RFC 2606);
    /// `syncsim serve` sets its own address, where it takes the upload's HTTP POST.
    public var cdnURL = "https://cdn.syncsim.invalid"
    /// The start of every group invite link, up to its token: CHAT_UPDATE's `revokePrivateLink` makes
    /// `<inviteLinkBase><token>`. It must end in `join/`, the part PyMax 2.5.0 looks for and sends on
    /// (`pymax/api/chats/enums.py`, `ChatLinkPrefix.JOIN`). The default names no real host (`.invalid`, RFC 2606).
    public var inviteLinkBase = "https://syncsim.invalid/join/"
    /// Periods during which every request of one opcode is answered at once with an error (`"server.unavailable"`)
    /// and has no effect: a failing backend or a proxy in front of it (mtxclient #8's retry storm).
    public var failingPeriods: [FailingPeriod] = []

    /// Knobs with every fault off unless given.
    public init(
        processingDelay: [Opcode: DelayDistribution] = [:],
        defaultProcessingDelay: DelayDistribution = .none,
        pushLossProbability: Double = 0,
        pushDuplicationProbability: Double = 0,
        errorRate: [Opcode: Double] = [:],
        loginChatsCap: Int? = nil,
        slowPeriods: [SlowPeriod] = []
    ) {
        self.processingDelay = processingDelay
        self.defaultProcessingDelay = defaultProcessingDelay
        self.pushLossProbability = pushLossProbability
        self.pushDuplicationProbability = pushDuplicationProbability
        self.errorRate = errorRate
        self.loginChatsCap = loginChatsCap
        self.slowPeriods = slowPeriods
    }

    /// A span of virtual time `[start, end)` during which each `opcode` request is answered at once with an error.
    public struct FailingPeriod: Hashable, Sendable {
        /// The opcode whose requests fail.
        public var opcode: Opcode
        /// First instant of the period.
        public var start: SimInstant
        /// First instant after the period.
        public var end: SimInstant

        /// A failing period `[start, end)` for `opcode` requests.
        public init(opcode: Opcode, start: SimInstant, end: SimInstant) {
            self.opcode = opcode
            self.start = start
            self.end = end
        }
    }

    /// A span of virtual time `[start, end)` during which each request (of `opcode` and of `userId`, where they are
    /// set) takes `extraDelay` longer.
    public struct SlowPeriod: Hashable, Sendable {
        /// First instant of the period.
        public var start: SimInstant
        /// First instant after the period.
        public var end: SimInstant
        /// Added to the processing delay of every request the period covers.
        public var extraDelay: SimDuration
        /// Only requests of this opcode; nil: every opcode.
        public var opcode: Opcode?
        /// Only requests arriving on a connection logged in as this user (at receipt); nil: every connection.
        public var userId: Int64?

        /// A slow period `[start, end)` for the requests of `opcode` (every opcode when nil) of user `userId` (every
        /// connection when nil).
        public init(start: SimInstant, end: SimInstant, extraDelay: SimDuration, opcode: Opcode? = nil,
                    userId: Int64? = nil) {
            self.start = start
            self.end = end
            self.extraDelay = extraDelay
            self.opcode = opcode
            self.userId = userId
        }

        /// Whether a request of `opcode` from `userId` arriving at `now` waits this period's extra delay.
        func covers(_ opcode: Opcode, of userId: Int64?, at now: SimInstant) -> Bool {
            start <= now && now < end && (self.opcode == nil || self.opcode == opcode)
                && (self.userId == nil || self.userId == userId)
        }
    }
}

/// How the server tells a connection that messages were deleted. The field's clients disagree: PyMax 2.x and vkmax
/// read NOTIF_MSG_DELETE (PyMax 2.5.0 `pymax/dispatch/mapping.py`, `MessageDeleteEvent`), while PyMax 1.2.5 hears of
/// a delete only from a NOTIF_MESSAGE whose message has status `REMOVED` (`pymax/interfaces.py`,
/// `_handle_message_notifications`, which calls its `on_message_delete` handlers for it) and has no handler for
/// NOTIF_MSG_DELETE. PyMax 2.5.0 fails to read the second shape (its `MessageDeleteEvent` requires `messageIds`), so
/// a connection gets one or the other, never both.
public enum DeleteNotice: String, Hashable, Sendable, CaseIterable {
    /// One NOTIF_MSG_DELETE (142) push `{chatId, chat, messageIds, ttl, updateTime}` per delete request.
    case notifMsgDelete = "notif-msg-delete"
    /// One NOTIF_MESSAGE (128) push `{chatId, message}` per deleted message, the message in its removed version
    /// (status `REMOVED`, empty text, its `updateTime`).
    case removedMessage = "removed-message"
}
