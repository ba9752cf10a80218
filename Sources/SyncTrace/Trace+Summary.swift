extension Trace {
    /// A human-readable account of the capture: one line for the file, then per connection its packets, bytes
    /// per direction, gaps and anomalies, then skipped packets by reason.
    ///
    /// Lines look like `connection 1: 10.0.0.1:40000 -> 10.0.0.2:443, 12 packets, 0.250000000 s`.
    public func summaryLines() -> [String] {
        var lines: [String] = []
        var header =
            "\(file): \(format), \(linkType), \(packetCount) packets, \(tcpPacketCount) TCP, "
            + "\(skippedPacketCount) skipped, \(connections.count) connections"
        if filteredOutPacketCount > 0 { header += ", \(filteredOutPacketCount) TCP packets filtered out by port" }
        lines.append(header)
        if let truncation { lines.append("  stopped early: \(truncation)") }
        for connection in connections {
            let seconds = CaptureTimestamp(
                nanosecondsSinceEpoch: connection.lastTimestamp.nanoseconds(since: connection.firstTimestamp))
            lines.append(
                "connection \(connection.number): \(connection.client) -> \(connection.server), "
                    + "\(connection.packetCount) packets from packet \(connection.firstPacketNumber), \(seconds) s"
            )
            if let tls = connection.tls {
                lines.append(
                    "  \(tls.version) decrypted with key log \(tls.keyLog): application data client->server "
                        + "\(connection.clientToServer.byteCount) bytes, server->client "
                        + "\(connection.serverToClient.byteCount) bytes (TCP below: the encrypted bytes)")
            }
            for direction in TraceDirection.allCases {
                let stream = connection.tls.map { direction == .clientToServer
                    ? $0.ciphertextClientToServer : $0.ciphertextServerToClient } ?? connection.stream(direction)
                var flags: [String] = []
                if stream.sawSYN { flags.append("SYN") }
                if stream.sawFIN { flags.append("FIN") }
                if stream.sawRST { flags.append("RST") }
                var line = "  \(direction): \(stream.segmentCount) segments, \(stream.byteCount) bytes"
                line += ", \(stream.gaps.count) gaps (\(stream.missingByteCount) bytes missing)"
                if stream.retransmittedSegmentCount > 0 {
                    line +=
                        ", \(stream.retransmittedSegmentCount) retransmissions (\(stream.retransmittedByteCount) bytes)"
                }
                if stream.keepAliveCount > 0 { line += ", \(stream.keepAliveCount) keep-alives" }
                if !flags.isEmpty { line += ", " + flags.joined(separator: " ") }
                lines.append(line)
                for gap in stream.gaps { lines.append("    \(gap)") }
                for anomaly in stream.anomalies { lines.append("    \(anomaly)") }
            }
        }
        for (reason, count) in skips { lines.append("skipped: \(count) \(reason)") }
        return lines
    }
}
