/// Something that kept bytes of a stream from becoming frames: a gap, a resync, an undecodable frame.
public struct TraceFrameIssue: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Hashable, Sendable {
        /// Bytes were missing from the capture (see `StreamGap`); decoding resynchronised after them.
        case gap = "gap"
        /// A frame had begun before a gap; its bytes were dropped.
        case frameCutByGap = "frame cut by gap"
        /// Bytes skipped while looking for the next plausible frame header.
        case skippedToResync = "bytes skipped to resync"
        /// A header that is not a frame header (version, cmd, length), where one was expected.
        case badHeader = "bad frame header"
        /// A frame whose header is plausible but whose payload does not decode; its bytes were skipped.
        case undecodablePayload = "undecodable payload"
        /// The stream ended inside a frame.
        case streamEndsInsideFrame = "stream ends inside a frame"
        /// A WebSocket connection's bytes that are no frame of RFC 6455, cut by a gap, or cut short: the rest of
        /// the direction is not decoded (`WebSocketStream`).
        case webSocket = "WebSocket"
    }

    /// What happened.
    public var kind: Kind
    /// `TCPConnectionTrace.number` of the connection.
    public var connectionNumber: Int
    /// The direction of the stream concerned.
    public var direction: TraceDirection
    /// Stream offset where the issue starts.
    public var offset: Int64
    /// Bytes concerned.
    public var byteCount: Int64
    /// The packet at which it was noticed.
    public var packetNumber: Int
    /// The decoder's message, when there is one.
    public var detail: String

    /// An instance from its fields.
    public init(
        kind: Kind, connectionNumber: Int, direction: TraceDirection, offset: Int64, byteCount: Int64,
        packetNumber: Int, detail: String = ""
    ) {
        self.kind = kind
        self.connectionNumber = connectionNumber
        self.direction = direction
        self.offset = offset
        self.byteCount = byteCount
        self.packetNumber = packetNumber
        self.detail = detail
    }

    /// `connection 1 client->server: gap, 1448 bytes at offset 2896, packet 12`.
    public var description: String {
        var text = "connection \(connectionNumber) \(direction): \(kind.rawValue), "
            + "\(counted(byteCount, "byte")) at offset \(offset)"
        text += ", packet \(packetNumber)"
        if !detail.isEmpty { text += ": \(detail)" }
        return text
    }
}
