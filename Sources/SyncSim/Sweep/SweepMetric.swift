/// A per-run metric: its name in `RunResult.metrics`, its unit and what it measures. `SweepMetric.all` is the one
/// list of metric names: the world reports exactly these (`World.collectMetrics`), `syncsim sweep` aggregates them,
/// `MetricBound` names them and docs/models.md ("The simulated world") lists them.
///
/// Each is one value per run, summed over the run's clients and app launches unless stated otherwise. A mean over
/// events is left out of a run that had no such event (no chat opened, nothing sent); every other metric is always
/// reported.
public struct SweepMetric: Hashable, Sendable {
    /// The name in `RunResult.metrics` (units in the name: `chatOpenMilliseconds`).
    public var name: String
    /// The unit for tables and chart axes: `ms`, `bytes`, `count`.
    public var unit: String
    /// What it measures, one line.
    public var summary: String

    /// A metric called `name` in `unit`.
    public init(name: String, unit: String, summary: String) {
        self.name = name
        self.unit = unit
        self.summary = summary
    }

    /// Chat opens that showed a screenful (`ClientMetrics.chatOpenTimes`).
    public static let chatOpens = SweepMetric(
        name: "chatOpens", unit: "count", summary: "chat opens that reached a screenful")
    /// Mean time from tapping a chat to enough messages on screen, over the run's opens; left out without opens.
    public static let chatOpenMilliseconds = SweepMetric(
        name: "chatOpenMilliseconds", unit: "ms", summary: "time to open a chat (mean over the run's opens)")
    /// Scrolls that waited at the top of the cache for a page (`ClientMetrics.scrollWaitTimes`).
    public static let scrollWaits = SweepMetric(
        name: "scrollWaits", unit: "count", summary: "scrolls that waited at the top for a page")
    /// Total time scrolls waited at the top of the cache for a page, over the run (0 when none waited).
    public static let scrollWaitMilliseconds = SweepMetric(
        name: "scrollWaitMilliseconds", unit: "ms", summary: "time scrolls waited at the top (sum over the run)")
    /// Sends acknowledged by a MSG_SEND response (`ClientMetrics.sendToAckLatencies`).
    public static let acknowledgedSends = SweepMetric(
        name: "acknowledgedSends", unit: "count", summary: "sends acknowledged by a MSG_SEND response")
    /// Mean time from enqueueing a send to its MSG_SEND response; left out without acknowledged sends.
    public static let sendToAckMilliseconds = SweepMetric(
        name: "sendToAckMilliseconds", unit: "ms", summary: "send-to-ack latency (mean over the run's sends)")
    /// Frame and upload bytes the clients' sockets sent (`ClientMetrics.bytesUp`), before TCP/IP headers.
    public static let bytesUpOnSockets = SweepMetric(
        name: "bytesUpOnSockets", unit: "bytes", summary: "frame and upload bytes the clients' sockets sent")
    /// Frame bytes the clients' sockets received (`ClientMetrics.bytesDown`), before TCP/IP headers.
    public static let bytesDownOnSockets = SweepMetric(
        name: "bytesDownOnSockets", unit: "bytes", summary: "frame bytes the clients' sockets received")
    /// Bytes serialized on the clients' access uplinks: frames as encoded (compressed where the encoder chose to),
    /// per-packet headers and retransmissions included.
    public static let bytesUpOnAir = SweepMetric(
        name: "bytesUpOnAir", unit: "bytes", summary: "bytes sent by the clients on the air, as compressed")
    /// Bytes serialized on the clients' access downlinks, as compressed, headers and retransmissions included.
    public static let bytesDownOnAir = SweepMetric(
        name: "bytesDownOnAir", unit: "bytes", summary: "bytes received by the clients on the air, as compressed")
    /// `bytesUpOnAir` plus what LZ4 saved: the uplink bytes with every payload sent raw.
    public static let bytesUpUncompressed = SweepMetric(
        name: "bytesUpUncompressed", unit: "bytes", summary: "bytes sent by the clients with every payload raw")
    /// `bytesDownOnAir` plus what LZ4 saved: the downlink bytes with every payload sent raw.
    public static let bytesDownUncompressed = SweepMetric(
        name: "bytesDownUncompressed", unit: "bytes", summary: "bytes received by the clients with every payload raw")
    /// Connection attempts after each client's first (`ClientMetrics.reconnects`).
    public static let reconnects = SweepMetric(
        name: "reconnects", unit: "count", summary: "reconnects, summed over clients")
    /// Successful LOGINs (`ClientMetrics.logins`).
    public static let logins = SweepMetric(
        name: "logins", unit: "count", summary: "successful LOGINs, summed over clients")
    /// LOGIN requests sent, answered or not.
    public static let loginAttempts = SweepMetric(
        name: "loginAttempts", unit: "count", summary: "LOGIN requests sent, summed over clients")
    /// Requests sent, every opcode (`ClientMetrics.requestsByOpcode`).
    public static let requests = SweepMetric(
        name: "requests", unit: "count", summary: "requests sent, every opcode, summed over clients")
    /// CHAT_HISTORY requests sent.
    public static let chatHistoryRequests = SweepMetric(
        name: "chatHistoryRequests", unit: "count", summary: "CHAT_HISTORY requests sent, summed over clients")
    /// Requests that timed out (`ClientMetrics.requestTimeouts`), PINGs past `pongTimeout` included.
    public static let requestTimeouts = SweepMetric(
        name: "requestTimeouts", unit: "count", summary: "requests that timed out, summed over clients")
    /// From the run's first enqueued task to the moment every client's task queue was last empty (to the end of
    /// the run when a queue never drained; 0 without tasks).
    public static let taskQueueDrainMilliseconds = SweepMetric(
        name: "taskQueueDrainMilliseconds", unit: "ms", summary: "time until the task queues drained (latest client)")
    /// Messages the server holds at the end of the run, every chat, seeded history included.
    public static let serverMessages = SweepMetric(
        name: "serverMessages", unit: "count", summary: "messages on the server at the end, every chat")
    /// MSG_SEND requests the server answered from its idempotency table (a repeated cid).
    public static let duplicateSendsAbsorbed = SweepMetric(
        name: "duplicateSendsAbsorbed", unit: "count", summary: "repeated sends the server's cid table absorbed")
    /// Tasks in the failed state at the end of the run.
    public static let tasksFailed = SweepMetric(
        name: "tasksFailed", unit: "count", summary: "tasks failed at the end, summed over clients")

    /// Every metric, in report order: the world reports them in this order and a sweep's table shows them so.
    public static let all: [SweepMetric] = [
        chatOpens, chatOpenMilliseconds, scrollWaits, scrollWaitMilliseconds, acknowledgedSends,
        sendToAckMilliseconds, bytesUpOnSockets, bytesDownOnSockets, bytesUpOnAir, bytesDownOnAir,
        bytesUpUncompressed, bytesDownUncompressed, reconnects, logins, loginAttempts, requests, chatHistoryRequests,
        requestTimeouts, taskQueueDrainMilliseconds, serverMessages, duplicateSendsAbsorbed, tasksFailed,
    ]

    /// The known metric called `name`, or one with an empty unit for a metric the sweep does not know.
    public static func named(_ name: String) -> SweepMetric {
        all.first { $0.name == name } ?? SweepMetric(name: name, unit: "", summary: "reported by the executor")
    }
}
