import SyncProtocol

/// A protocol frame found in a capture: the decoded frame, its connection and direction, and when it completed.
public struct TraceFrame: Hashable, Sendable {
    /// `TCPConnectionTrace.number` of the connection that carried it.
    public var connectionNumber: Int
    /// Which way the frame travelled.
    public var direction: TraceDirection
    /// Capture time of the packet that completed the frame (carried its last byte, or filled the hole before it).
    public var timestamp: CaptureTimestamp
    /// Number of that packet.
    public var packetNumber: Int
    /// The frame with its header, stream offset (bytes since the direction's first byte) and sizes.
    public var decoded: DecodedFrame
    /// Where the frame's bytes end in the captured stream, when that is not `decoded.offset` plus its size: set for a
    /// frame unwrapped from a WebSocket message, which ends where the message's last WebSocket frame ends (a
    /// compressed message takes fewer bytes than the frame it holds). Nil for a frame straight on TCP.
    public var capturedEnd: Int64?

    /// The frame's bytes in the captured TCP stream (offsets since the direction's first byte): what a replay
    /// compares with acknowledgements. For a frame unwrapped from a WebSocket message, from `decoded.offset` (never
    /// before the message's first WebSocket frame) to where the message ends.
    public var capturedBytes: Range<Int64> {
        let start = Int64(decoded.offset)
        return start..<max(start, capturedEnd ?? start + Int64(decoded.wireByteCount))
    }
    /// For a frame that travelled as a WebSocket text message (`JSONFrame`), what that message was; `decoded` is
    /// then the frame re-encoded uncompressed, so its header's version and sizes are not the wire's. Nil for a frame
    /// that travelled in the binary layout (TCP, or a binary WebSocket message).
    public var jsonMessage: JSONMessage?
    /// For a frame that travelled in a WebSocket message compressed by permessage-deflate (RFC 7692), the message's
    /// compressed size in bytes (its WebSocket frames' payloads; every frame of the message shows the same); nil
    /// otherwise.
    public var deflatedMessageBytes: Int?

    /// A WebSocket text message holding a JSON frame.
    public struct JSONMessage: Hashable, Sendable {
        /// The message's `ver` field (11 from PyMax's `WsProtocol`), nil when it had none.
        public var version: UInt64?
        /// The message's size in bytes: its UTF-8 JSON text, without the WebSocket framing.
        public var textByteCount: Int

        /// An instance from its fields.
        public init(version: UInt64?, textByteCount: Int) {
            self.version = version
            self.textByteCount = textByteCount
        }
    }

    /// An instance from its fields.
    public init(
        connectionNumber: Int, direction: TraceDirection, timestamp: CaptureTimestamp, packetNumber: Int,
        decoded: DecodedFrame
    ) {
        self.connectionNumber = connectionNumber
        self.direction = direction
        self.timestamp = timestamp
        self.packetNumber = packetNumber
        self.decoded = decoded
    }

    /// The frame's `cmd`.
    public var cmd: Command { decoded.frame.cmd }
    /// The frame's `seq`.
    public var seq: UInt16 { decoded.frame.seq }
    /// The frame's opcode.
    public var opcode: Opcode { decoded.frame.opcode }
    /// The decoded payload (decompressed when it was LZ4 on the wire).
    public var payload: MessagePackValue { decoded.frame.payload }
}
