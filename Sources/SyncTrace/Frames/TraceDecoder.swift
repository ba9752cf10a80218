import SyncProtocol

/// Turns the TCP connections of a capture into protocol frames, per connection in time order.
///
/// ```swift
/// let decoding = try TraceDecoder().decode(path: "field.pcapng", readOptions: .init(ports: [443]))
/// for connection in decoding.connections { for frame in connection.frames { print(frame.opcode) } }
/// ```
public struct TraceDecoder: Sendable {
    /// Header layout and payload limits, as for a raw stream.
    public var frameDecoder: FrameDecoder

    /// A decoder cutting streams with `frameDecoder` (its layout and limits).
    public init(frameDecoder: FrameDecoder = FrameDecoder()) { self.frameDecoder = frameDecoder }

    /// The frames of one connection, both directions merged.
    public struct ConnectionFrames: Hashable, Sendable {
        /// The connection as reassembled.
        public var connection: TCPConnectionTrace
        /// Frames ordered by completion time, then packet number, then direction, then stream offset.
        public var frames: [TraceFrame]
        /// Gaps, resyncs and undecodable frames, client-to-server issues first, each direction in stream order.
        public var issues: [TraceFrameIssue]
    }

    /// A capture decoded: the reader's view (`trace`) and the frames per connection.
    public struct Decoding: Hashable, Sendable {
        /// What the reader found: counts, skips, connections.
        public var trace: Trace
        /// The frames of each connection, in `trace.connections` order.
        public var connections: [ConnectionFrames]

        /// Every frame of every connection, ordered by completion time (then connection, packet, direction).
        public var allFrames: [TraceFrame] {
            connections.flatMap(\.frames).sorted(by: TraceDecoder.precedes)
        }
    }

    /// Reads the capture at `path` and decodes its connections.
    /// - Throws: `TraceError` as `TraceReader.read(path:options:)`; frame faults are issues, never errors.
    public func decode(path: String, readOptions: TraceReader.Options = .init()) throws -> Decoding {
        let trace = try TraceReader.read(path: path, options: readOptions)
        return Decoding(trace: trace, connections: trace.connections.map(decode))
    }

    /// Decodes both directions of `connection`.
    public func decode(_ connection: TCPConnectionTrace) -> ConnectionFrames {
        var frames: [TraceFrame] = []
        var issues: [TraceFrameIssue] = []
        for direction in TraceDirection.allCases {
            let stream = connection.stream(direction)
            var extractor = StreamFrameExtractor(
                connectionNumber: connection.number, direction: direction, decoder: frameDecoder,
                startsMidStream: !stream.sawSYN
            )
            extractor.extract(stream)
            frames += extractor.frames
            issues += extractor.issues
        }
        frames.sort(by: Self.precedes)
        return ConnectionFrames(connection: connection, frames: frames, issues: issues)
    }

    static func precedes(_ lhs: TraceFrame, _ rhs: TraceFrame) -> Bool {
        func key(_ frame: TraceFrame) -> (Int64, Int, Int, Int, Int) {
            (
                frame.timestamp.nanosecondsSinceEpoch, frame.connectionNumber, frame.packetNumber,
                frame.direction == .clientToServer ? 0 : 1, frame.decoded.offset
            )
        }
        return key(lhs) < key(rhs)
    }
}
