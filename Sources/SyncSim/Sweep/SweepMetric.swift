/// A per-run metric a sweep aggregates: the name the world's executor reports in `RunResult.metrics`, its unit
/// and what it measures.
///
/// The executor reports each as one value per run, summed or averaged over the run's clients as stated below;
/// a run that has nothing to report for a metric (no chat opened, nothing sent) leaves it out.
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

    /// Mean time from tapping a chat to enough messages on screen, over the run's opens
    /// (`ClientMetrics.chatOpenTimes`).
    public static let chatOpenMilliseconds = SweepMetric(
        name: "chatOpenMilliseconds", unit: "ms", summary: "time to open a chat (mean over the run's opens)")
    /// Total time scrolls waited at the top of the cache for a page, over the run (`ClientMetrics.scrollWaitTimes`).
    public static let scrollWaitMilliseconds = SweepMetric(
        name: "scrollWaitMilliseconds", unit: "ms", summary: "time scrolls waited at the top (sum over the run)")
    /// Mean time from enqueueing a send to its MSG_SEND response (`ClientMetrics.sendToAckLatencies`).
    public static let sendToAckMilliseconds = SweepMetric(
        name: "sendToAckMilliseconds", unit: "ms", summary: "send-to-ack latency (mean over the run's sends)")
    /// Bytes the clients sent on the air: frames as encoded (compressed where the encoder chose to), plus headers.
    public static let bytesUpOnAir = SweepMetric(
        name: "bytesUpOnAir", unit: "bytes", summary: "bytes sent by the clients on the air, as compressed")
    /// Bytes the clients received on the air, as compressed.
    public static let bytesDownOnAir = SweepMetric(
        name: "bytesDownOnAir", unit: "bytes", summary: "bytes received by the clients on the air, as compressed")
    /// What the clients' uplink bytes would have been with every payload sent raw.
    public static let bytesUpUncompressed = SweepMetric(
        name: "bytesUpUncompressed", unit: "bytes", summary: "bytes sent by the clients with every payload raw")
    /// What the clients' downlink bytes would have been with every payload sent raw.
    public static let bytesDownUncompressed = SweepMetric(
        name: "bytesDownUncompressed", unit: "bytes", summary: "bytes received by the clients with every payload raw")
    /// Connection attempts after each client's first (`ClientMetrics.reconnects`), summed over clients.
    public static let reconnects = SweepMetric(
        name: "reconnects", unit: "count", summary: "reconnects, summed over clients")
    /// Requests sent, every opcode (`ClientMetrics.requestsByOpcode`), summed over clients.
    public static let requests = SweepMetric(
        name: "requests", unit: "count", summary: "requests sent, every opcode, summed over clients")
    /// CHAT_HISTORY requests sent, summed over clients.
    public static let chatHistoryRequests = SweepMetric(
        name: "chatHistoryRequests", unit: "count", summary: "CHAT_HISTORY requests sent, summed over clients")
    /// From the run's first enqueued task to the moment every client's task queue was empty, latest client.
    public static let taskQueueDrainMilliseconds = SweepMetric(
        name: "taskQueueDrainMilliseconds", unit: "ms", summary: "time until the task queues drained (latest client)")

    /// Every metric a sweep reports, in report order. The world's executor emits exactly these names.
    public static let all: [SweepMetric] = [
        chatOpenMilliseconds, scrollWaitMilliseconds, sendToAckMilliseconds, bytesUpOnAir, bytesDownOnAir,
        bytesUpUncompressed, bytesDownUncompressed, reconnects, requests, chatHistoryRequests,
        taskQueueDrainMilliseconds,
    ]

    /// The known metric called `name`, or one with an empty unit for a metric the sweep does not know.
    public static func named(_ name: String) -> SweepMetric {
        all.first { $0.name == name } ?? SweepMetric(name: name, unit: "", summary: "reported by the executor")
    }
}
