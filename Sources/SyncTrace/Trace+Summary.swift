extension Trace {
    /// A human-readable account of the capture: one line for the file, then per connection its packets, bytes
    /// per direction, gaps and anomalies, then skipped packets by reason.
    ///
    /// Lines look like `connection 1: 10.0.0.1:40000 -> 10.0.0.2:443, 12 packets, 0.250000000 s`.
    public func summaryLines() -> [String] {
        var lines: [String] = []
        var header =
            "\(file): \(format), \(linkType), \(counted(packetCount, "packet")), \(tcpPacketCount) TCP, "
            + "\(skippedPacketCount) skipped, \(counted(connections.count, "connection"))"
        if filteredOutPacketCount > 0 {
            header += ", " + counted(filteredOutPacketCount, "TCP packet") + " filtered out by port"
        }
        lines.append(header)
        if let truncation { lines.append("  stopped early: \(truncation)") }
        if let timeSteppedBack { lines.append("  time went back: \(timeSteppedBack.description)") }
        for connection in connections {
            let seconds = CaptureTimestamp(
                nanosecondsSinceEpoch: connection.lastTimestamp.nanoseconds(since: connection.firstTimestamp))
            lines.append(
                "connection \(connection.number): \(connection.client) -> \(connection.server), "
                    + "\(counted(connection.packetCount, "packet")) from packet \(connection.firstPacketNumber), "
                    + "\(seconds) s"
            )
            if let tls = connection.tls {
                lines.append(
                    "  \(tls.version) decrypted with key log \(tls.keyLog): application data client->server "
                        + "\(counted(connection.clientToServer.byteCount, "byte")), server->client "
                        + "\(counted(connection.serverToClient.byteCount, "byte")) (TCP below: the encrypted bytes)")
            } else if connection.tlsRecordHeader != nil {
                lines += Self.encryptedTLSLines(connection)
            }
            for direction in TraceDirection.allCases {
                let stream = connection.tls.map { direction == .clientToServer
                    ? $0.ciphertextClientToServer : $0.ciphertextServerToClient } ?? connection.stream(direction)
                var flags: [String] = []
                if stream.sawSYN { flags.append("SYN") }
                if stream.sawFIN { flags.append("FIN") }
                if stream.sawRST { flags.append("RST") }
                var line = "  \(direction): \(counted(stream.segmentCount, "segment")), "
                    + counted(stream.byteCount, "byte")
                line += ", \(counted(stream.gaps.count, "gap")) (\(counted(stream.missingByteCount, "byte")) missing)"
                if stream.retransmittedSegmentCount > 0 {
                    line += ", \(counted(stream.retransmittedSegmentCount, "retransmission")) "
                        + "(\(counted(stream.retransmittedByteCount, "byte")))"
                }
                if stream.keepAliveCount > 0 { line += ", \(counted(stream.keepAliveCount, "keep-alive"))" }
                if !flags.isEmpty { line += ", " + flags.joined(separator: " ") }
                lines.append(line)
                for gap in stream.gaps { lines.append("    \(gap)") }
                for anomaly in stream.anomalies { lines.append("    \(anomaly)") }
            }
        }
        for (reason, count) in skips { lines.append("skipped: \(count) \(reason)") }
        return lines
    }

    /// Bytes the capture holds that the frames do not show, which `decode` and `replay` would otherwise pass over
    /// in silence (`trace-summary` lists them): IP fragments, which are not reassembled, when connections have
    /// bytes missing (those bytes may be in them: the gaps are not the capture's loss), and overlapping copies that
    /// disagree (a retransmission with other bytes: the first copy is the one decoded). Empty when there are none.
    public func unreadBytesNotes() -> [String] {
        var notes: [String] = []
        if let fragments = skipCounts[.ipFragment], fragments > 0 {
            let gapped = connections.filter { !$0.clientToServer.gaps.isEmpty || !$0.serverToClient.gaps.isEmpty }
            if !gapped.isEmpty {
                let numbers = gapped.map { "\($0.number)" }.joined(separator: ", ")
                notes.append(
                    "\(counted(fragments, "IP fragment")) skipped (fragments are not reassembled); the bytes missing "
                        + "in connection\(gapped.count == 1 ? "" : "s") \(numbers) may be in them, not lost by the "
                        + "capture ('syncsim trace-summary' lists the gaps)")
            }
        }
        var conflicts: [(connection: Int, direction: TraceDirection, anomaly: StreamAnomaly)] = []
        for connection in connections {
            for direction in TraceDirection.allCases {
                for anomaly in connection.stream(direction).anomalies where anomaly.kind == .overlapConflict {
                    conflicts.append((connection.number, direction, anomaly))
                }
            }
        }
        if let first = conflicts.first {
            var place = "connection \(first.connection) \(first.direction), packet \(first.anomaly.packetNumber)"
            if let offset = first.anomaly.offset, let length = first.anomaly.length {
                place += ", \(counted(length, "byte")) at offset \(offset)"
            }
            notes.append(
                "overlapping copies disagree at \(counted(conflicts.count, "place")) (the first: \(place)); the "
                    + "first copy captured is the one decoded and replayed ('syncsim trace-summary' lists them)")
        }
        return notes
    }

    /// What a TLS connection kept encrypted shows: the version its ServerHello selected, then per direction its
    /// records by content type (`TLSRecordTally`), and that its frames need the key log.
    static func encryptedTLSLines(_ connection: TCPConnectionTrace) -> [String] {
        let server = TLSRecordTally(connection.serverToClient)
        let version = server.selectedVersion ?? "TLS (version not shown: no whole ServerHello in the capture)"
        var lines = ["  \(version), not decrypted: its frames cannot be read without the session's key log "
            + "(--tls-keylog FILE)"]
        for direction in TraceDirection.allCases {
            let tally = direction == .clientToServer ? TLSRecordTally(connection.clientToServer) : server
            var line = "    \(direction): \(counted(tally.recordCount, "TLS record"))"
            if tally.recordCount > 0 {
                let kinds = [
                    (tally.handshakeRecords, "handshake"), (tally.changeCipherSpecRecords, "change cipher spec"),
                    (tally.alertRecords, "alert"), (tally.applicationDataRecords, "application data"),
                ]
                line += ": " + kinds.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
                if tally.applicationDataRecords > 0 {
                    line += " (\(counted(tally.applicationDataBytes, "byte")) encrypted)"
                }
            }
            if let end = tally.end { line += "; \(end)" }
            lines.append(line)
        }
        return lines
    }
}
