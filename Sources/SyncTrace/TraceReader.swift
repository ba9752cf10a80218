/// Reads a pcap or pcapng capture and reassembles the TCP connections in it.
///
/// ```swift
/// let trace = try TraceReader.read(path: "field.pcapng", options: .init(ports: [443]))
/// for connection in trace.connections { print(connection.client, connection.clientToServer.byteCount) }
/// ```
public enum TraceReader {
    /// What to read and how strictly.
    public struct Options: Hashable, Sendable {
        /// Keep only TCP packets with one of these ports on either end; nil keeps every port.
        public var ports: Set<UInt16>?
        /// When the file ends inside a record: true keeps what was read and sets `Trace.truncation`;
        /// false throws the `TraceError`.
        public var keepsTruncatedTail: Bool

        /// Options with an optional port filter and the truncation policy.
        public init(ports: Set<UInt16>? = nil, keepsTruncatedTail: Bool = false) {
            self.ports = ports
            self.keepsTruncatedTail = keepsTruncatedTail
        }
    }

    /// Reads the capture at `path` to the end.
    /// - Returns: packet counts, skips by reason, and every TCP connection with both directions reassembled.
    /// - Throws: `TraceError` naming the file (and packet number) when the file cannot be opened, is not a
    ///   capture, has an unsupported link type, or is truncated or corrupt (unless `keepsTruncatedTail`).
    public static func read(path: String, options: Options = Options()) throws -> Trace {
        let file = try CaptureFile(path: path)
        var trace = Trace(file: path, format: file.format, linkType: file.linkType, snapLength: file.snapLength)
        var tracker = ConnectionTracker()
        while true {
            let record: CaptureRecord
            do {
                guard let next = try file.nextRecord() else { break }
                record = next
            } catch let error as TraceError where options.keepsTruncatedTail && error.kind == .truncatedFile {
                trace.truncation = error
                break
            }
            trace.packetCount += 1
            switch PacketParser.parse(record, linkType: file.linkType) {
            case .skipped(let reason):
                trace.skipCounts[reason, default: 0] += 1
            case .tcp(let segment):
                trace.tcpPacketCount += 1
                if let ports = options.ports,
                    !ports.contains(segment.source.port) && !ports.contains(segment.destination.port)
                {
                    trace.filteredOutPacketCount += 1
                    continue
                }
                tracker.receive(segment)
            }
        }
        trace.connections = tracker.finish()
        return trace
    }
}
