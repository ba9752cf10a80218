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
        /// What to do with connections that carry TLS (their bytes start like a TLS record).
        public var tls: TLSHandling

        /// Options with an optional port filter, the truncation policy and the TLS policy.
        public init(ports: Set<UInt16>? = nil, keepsTruncatedTail: Bool = false, tls: TLSHandling = .keepEncrypted) {
            self.ports = ports
            self.keepsTruncatedTail = keepsTruncatedTail
            self.tls = tls
        }
    }

    /// What the reader does with a connection that carries TLS.
    public enum TLSHandling: Hashable, Sendable {
        /// Keep the TLS records as the connection's bytes (they decode to no frames).
        case keepEncrypted
        /// Throw `TraceError(.encryptedTLS)` naming the TLS connections: their frames cannot be read.
        case rejectEncrypted
        /// Decrypt with the NSS key log at `keyLog` through tshark (`TLSDecryption`; nil `tshark`: found on PATH).
        case decrypt(keyLog: String, tshark: String? = nil)
    }

    /// Reads the capture at `path` to the end.
    ///
    /// A packet stamped earlier than one before it is read at the latest time before it (`Trace.timeSteppedBack`
    /// counts them), so capture times never run backwards.
    /// - Returns: packet counts, skips by reason, and every TCP connection with both directions reassembled.
    /// - Throws: `TraceError` naming the file (and packet number) when the file cannot be opened, is not a
    ///   capture, has an unsupported link type, or is truncated or corrupt (unless `keepsTruncatedTail`); with
    ///   `.rejectEncrypted`, when a connection carries TLS; with `.decrypt`, as `TLSDecryption.decrypt(_:)`.
    public static func read(path: String, options: Options = Options()) throws -> Trace {
        let file = try CaptureFile(path: path)
        var trace = Trace(file: path, format: file.format, linkType: file.linkType, snapLength: file.snapLength)
        var tracker = ConnectionTracker()
        var latest: CaptureTimestamp?
        while true {
            var record: CaptureRecord
            do {
                guard let next = try file.nextRecord() else { break }
                record = next
            } catch let error as TraceError where options.keepsTruncatedTail && error.kind == .truncatedFile {
                trace.truncation = error
                break
            }
            trace.packetCount += 1
            if let latest, record.timestamp < latest {
                let step = latest.nanoseconds(since: record.timestamp)
                var stepBack = trace.timeSteppedBack
                    ?? .init(packetCount: 0, firstPacketNumber: record.number, largestStepNanoseconds: 0)
                stepBack.packetCount += 1
                stepBack.largestStepNanoseconds = max(stepBack.largestStepNanoseconds, step)
                trace.timeSteppedBack = stepBack
                record.timestamp = latest
            }
            latest = record.timestamp
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
        switch options.tls {
        case .keepEncrypted:
            break
        case .rejectEncrypted:
            let encrypted = trace.connections.filter { $0.tlsRecordHeader != nil }
            if let first = encrypted.first, let (direction, header) = first.tlsRecordHeader {
                let rest = encrypted.dropFirst().map { String($0.number) }
                let others = switch rest.count {
                case 0: ""
                case 1: "; so does connection \(rest[0])"
                default: "; so do connections " + rest.joined(separator: ", ")
                }
                throw TraceError(
                    .encryptedTLS, file: path,
                    detail: "connection \(first.number) carries TLS (\(first.client) -> \(first.server): its "
                        + "\(direction) bytes start with a TLS \(header.contentTypeName) record, content type "
                        + "\(header.contentType), version 3.\(header.versionMinor), where a frame should be)\(others): "
                        + "\(rest.isEmpty ? "its" : "their") frames are encrypted; give the session's key log with "
                        + "--tls-keylog FILE (NSS key log format, as SSLKEYLOGFILE writes; docs/traces.md), or leave "
                        + "the connection out with --port ('syncsim trace-summary \(path)' summarizes TCP and TLS "
                        + "records without the key log)")
            }
        case .decrypt(let keyLog, let tshark):
            try TLSDecryption(keyLog: keyLog, tshark: tshark).decrypt(&trace)
        }
        return trace
    }
}
