import SimCore

/// Tunable parameters of the reference client, with defaults and their sources.
public struct ClientParameters: Hashable, Sendable {
    /// The LOGIN token identifying the user.
    public var token: String
    /// Sent in SESSION_INIT.
    public var deviceId: String
    /// Interval between PINGs while logged in. Default 30 s: field clients (DESIGN.md §3).
    public var pingInterval: SimDuration
    /// A PING unanswered this long drops the connection. Default 20 s, the field clients' request timeout.
    public var pongTimeout: SimDuration
    /// A request unanswered this long fails with a timeout. Default 20 s: field clients (DESIGN.md §3).
    public var requestTimeout: SimDuration
    /// A connection attempt not connected this long is given up (closed) and retried after the reconnect backoff.
    /// Default 10 s: OkHttp's default `connectTimeout`. Without it an attempt whose SYN goes into a dead path waits
    /// for TCP's own SYN retries (about 2 min with Linux's `tcp_syn_retries` 6).
    public var connectTimeout: SimDuration
    /// First reconnect delay. Default 1 s (our choice).
    public var backoffBase: SimDuration
    /// Growth factor of the reconnect delay per failed attempt. Default 2 (exponential backoff).
    public var backoffFactor: Double
    /// Largest reconnect delay. Default 60 s (our choice).
    public var backoffCap: SimDuration
    /// Jitter as a fraction of the delay: the delay is drawn uniformly in `[d·(1-jitter), d]`. Default 0.5.
    public var backoffJitter: Double
    /// Seq slots: 65536 for the default header layout, 256 for field clients reading an 8-bit seq (DESIGN.md §3).
    public var seqModulus: Int
    /// The first seq the request tracker hands out (it then counts up modulo `seqModulus`). Default 1; start near
    /// 65535 to exercise seq wrap-around.
    public var initialSeq: Int
    /// Messages per CHAT_HISTORY page. Default 30 (our choice; a sweep parameter).
    public var historyPageSize: Int
    /// Load the next page when this many or fewer cached messages remain beyond the viewport. Default 10.
    public var prefetchDistance: Int
    /// Messages visible at once in a chat. Default 20.
    public var visibleMessageCount: Int
    /// `chatsCount` asked for in LOGIN. Default 100.
    public var loginChatsCount: Int
    /// First retry delay of a failed task. Default 1 s.
    public var taskRetryBase: SimDuration
    /// Largest retry delay of a failed task. Default 60 s.
    public var taskRetryCap: SimDuration
    /// A task failing this many times (errors or timeouts, not disconnects) ends failed. Default 10.
    public var maxTaskAttempts: Int
    /// Simulated CPU time to process (resize, compress) a photo before upload. Default 2 s.
    public var photoProcessingTime: SimDuration
    /// Photo uploads running at once (asking PHOTO_UPLOAD for a token or sending the photo to the CDN); the others
    /// wait in task id order. Default 1, as Telegram for Android's `FileLoader` starts a queued upload only when no
    /// other of its kind is running (`currentUploadOperationsCount < 1`). Without a limit, a client with many photos
    /// queued on a 9.6 kbit/s or 2G link opened a CDN connection for each, filled the uplink's buffer, lost handshakes
    /// and PINGs behind minutes of queue, and restarted uploads from byte 0 (explore on new cells, session 27).
    public var maxConcurrentUploads: Int
    /// The device clock at `SimInstant.start`, in milliseconds since the Unix epoch; skew it against the server's.
    public var deviceEpochMilliseconds: Int64
    /// The broken variant to run, or nil for the reference engine.
    public var mutant: Mutant?

    /// Parameters with the documented defaults; only the LOGIN token is required.
    public init(
        token: String,
        deviceId: String = "device",
        pingInterval: SimDuration = .seconds(Int64(30)),
        pongTimeout: SimDuration = .seconds(Int64(20)),
        requestTimeout: SimDuration = .seconds(Int64(20)),
        connectTimeout: SimDuration = .seconds(Int64(10)),
        backoffBase: SimDuration = .seconds(Int64(1)),
        backoffFactor: Double = 2,
        backoffCap: SimDuration = .seconds(Int64(60)),
        backoffJitter: Double = 0.5,
        seqModulus: Int = 65_536,
        initialSeq: Int = 1,
        historyPageSize: Int = 30,
        prefetchDistance: Int = 10,
        visibleMessageCount: Int = 20,
        loginChatsCount: Int = 100,
        taskRetryBase: SimDuration = .seconds(Int64(1)),
        taskRetryCap: SimDuration = .seconds(Int64(60)),
        maxTaskAttempts: Int = 10,
        photoProcessingTime: SimDuration = .seconds(Int64(2)),
        maxConcurrentUploads: Int = 1,
        deviceEpochMilliseconds: Int64 = 1_700_000_000_000,
        mutant: Mutant? = nil
    ) {
        self.token = token
        self.deviceId = deviceId
        self.pingInterval = pingInterval
        self.pongTimeout = pongTimeout
        self.requestTimeout = requestTimeout
        self.connectTimeout = connectTimeout
        self.backoffBase = backoffBase
        self.backoffFactor = backoffFactor
        self.backoffCap = backoffCap
        self.backoffJitter = backoffJitter
        self.seqModulus = seqModulus
        self.initialSeq = initialSeq
        self.historyPageSize = historyPageSize
        self.prefetchDistance = prefetchDistance
        self.visibleMessageCount = visibleMessageCount
        self.loginChatsCount = loginChatsCount
        self.taskRetryBase = taskRetryBase
        self.taskRetryCap = taskRetryCap
        self.maxTaskAttempts = maxTaskAttempts
        self.photoProcessingTime = photoProcessingTime
        self.maxConcurrentUploads = maxConcurrentUploads
        self.deviceEpochMilliseconds = deviceEpochMilliseconds
        self.mutant = mutant
    }
}

extension ClientParameters {
    /// How many times a SESSION_INIT or LOGIN timeout doubles at most: each handshake request that timed out since the
    /// last LOGIN answer doubles the next one's timeout (RFC 6298 §5.5), up to `maximumHandshakeTimeout`.
    public static let handshakeTimeoutDoublings = 2

    /// The longest a SESSION_INIT or LOGIN waits for its answer when the request timeout is `requestTimeout`:
    /// `requestTimeout` doubled `handshakeTimeoutDoublings` times (four times it).
    public static func maximumHandshakeTimeout(requestTimeout: SimDuration) -> SimDuration {
        requestTimeout * Int64(1 << handshakeTimeoutDoublings)
    }

    /// The longest a SESSION_INIT or LOGIN waits for its answer: four times `requestTimeout`.
    public var maximumHandshakeTimeout: SimDuration { Self.maximumHandshakeTimeout(requestTimeout: requestTimeout) }
}
