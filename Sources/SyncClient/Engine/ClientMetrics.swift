import SimCore
import SyncProtocol

/// User-facing metrics one engine instance collected since it started (DESIGN.md §1, job 3).
public struct ClientMetrics: Hashable, Sendable {
    /// Per opened chat: from the tap to enough messages on screen.
    public var chatOpenTimes: [SimDuration] = []
    /// Per scroll that hit an uncached edge: how long it waited at the top for the page.
    public var scrollWaitTimes: [SimDuration] = []
    /// Per acknowledged send: from enqueueing the task to the MSG_SEND response.
    public var sendToAckLatencies: [SimDuration] = []
    /// Bytes the driver reported sent, in bytes.
    public var bytesUp = 0
    /// Bytes the driver reported received, in bytes.
    public var bytesDown = 0
    /// Connection attempts after the first.
    public var reconnects = 0
    /// Successful LOGINs.
    public var logins = 0
    /// Requests sent, by opcode.
    public var requestsByOpcode: [Opcode: Int] = [:]
    /// Requests that timed out.
    public var requestTimeouts = 0
    /// Connection attempts given up after `connectTimeout`.
    public var connectTimeouts = 0

    /// Empty metrics.
    public init() {}
}
