import SyncProtocol
import SyncSim
import SyncTrace

/// `syncsim trace-summary FILE`: what the capture reader finds in a pcap or pcapng file, per TCP connection, without
/// decoding frames; and the capture path of `syncsim decode` (`decodeCapture`).
enum TraceDecodeCommand {
    static let spec = CommandSpec(
        name: "trace-summary",
        summary: "summarize the TCP connections, gaps and skipped packets of a pcap/pcapng capture",
        help: """
            usage: syncsim trace-summary FILE [--port N]... [--keep-truncated] [--tls-keylog FILE]

            Reads a pcap or pcapng capture (Ethernet with VLAN tags, Linux cooked v1/v2, raw IP, BSD loopback;
            IPv4 and IPv6), reassembles every TCP connection and prints per connection the packets, bytes per
            direction, gaps (bytes the capture missed or the snap length cut) and anomalies (overlapping copies
            that disagree, data after FIN or RST, ...), then the packets skipped and why. Frames are not decoded:
            `syncsim decode FILE` prints them.

              --port N          keep only connections with port N on either end (repeatable)
              --keep-truncated  print what was read before a truncated record instead of failing
              --tls-keylog FILE decrypt TLS connections with this NSS key log (SSLKEYLOGFILE) through tshark and
                                print each one's version and application data bytes; without it a capture with a
                                TLS connection is refused (exit 2). See docs/traces.md, "TLS captures"

            example: syncsim trace-summary Fixtures/pcap/tcp_rst_data-trunc.pcap
            """,
        run: { arguments, console in try run(&arguments, &console) }
    )

    static func run(_ arguments: inout ArgumentList, _ console: inout Console) throws -> Int32 {
        let captureOptions = try CaptureOptions(&arguments, takesSummary: false)
        let keepsTruncatedTail = arguments.flag("--keep-truncated")
        let files = arguments.positionals()
        try arguments.finish()
        guard files.count == 1, let file = files.first else {
            throw UsageError("expected one capture file, got \(files.count)")
        }
        try InputFile.requireNotDirectory(file)
        let options = TraceReader.Options(
            ports: captureOptions.ports, keepsTruncatedTail: keepsTruncatedTail, tls: captureOptions.tls)
        let trace = try TraceReader.read(path: file, options: options)
        for line in trace.summaryLines() { console.out(line) }
        return ExitCode.success
    }
}

extension TraceDecodeCommand {
    /// The options `syncsim decode` takes for captures only.
    struct CaptureOptions {
        var ports: Set<UInt16>?
        var printsSummary: Bool
        /// `--tls-keylog FILE`: the NSS key log TLS connections are decrypted with.
        var tlsKeyLog: String?

        /// Decrypt with the key log, or refuse TLS connections without one (their frames would be garbage).
        var tls: TraceReader.TLSHandling { tlsKeyLog.map { .decrypt(keyLog: $0) } ?? .rejectEncrypted }

        /// Takes `--port N` (repeatable), `--tls-keylog FILE` and, when `takesSummary`, `--summary` from `arguments`.
        /// - Throws: `UsageError` for a port outside 0...65535.
        init(_ arguments: inout ArgumentList, takesSummary: Bool = true) throws {
            let ports = try arguments.values(of: "--port").map { text -> UInt16 in
                guard let port = UInt16(text) else {
                    throw UsageError("option --port: expected a port number in 0...65535, got '\(text)'")
                }
                return port
            }
            self.ports = ports.isEmpty ? nil : Set(ports)
            self.printsSummary = takesSummary && arguments.flag("--summary")
            self.tlsKeyLog = try arguments.value(of: "--tls-keylog")
        }

        /// - Throws: `UsageError` when a capture-only option was given for a raw stream.
        func requireRawStreamDefaults() throws {
            if ports != nil || printsSummary || tlsKeyLog != nil {
                throw UsageError("--port, --summary and --tls-keylog apply to pcap/pcapng captures only")
            }
        }
    }

    /// Whether `path` starts with a pcap or pcapng magic number (false when it cannot be read).
    static func isCapture(path: String) -> Bool {
        ((try? CaptureFormat.sniff(path: path)) ?? nil) != nil
    }

    /// `syncsim decode` on a capture: per connection a JSON line describing it, its frames in capture-time order
    /// as JSON lines, then its issues; or, with `--summary`, the text summary and the opcode table.
    /// - Returns: the exit code (0: frame faults are issues in the output, not failures).
    /// - Throws: `TraceError` when the capture cannot be read (missing, corrupt, truncated, unsupported link type),
    ///   carries TLS without `--tls-keylog`, or the key log does not decrypt it.
    static func decodeCapture(
        path: String, decoder: FrameDecoder, options: CaptureOptions, console: inout Console
    ) throws -> Int32 {
        let decoding = try TraceDecoder(frameDecoder: decoder).decode(
            path: path, readOptions: TraceReader.Options(ports: options.ports, tls: options.tls))
        if options.printsSummary {
            for line in decoding.trace.summaryLines() { console.out(line) }
            for line in TraceFrameSummary(decoding.connections).lines() { console.out(line) }
            return ExitCode.success
        }
        for connection in decoding.connections {
            let tcp = connection.connection
            console.out(
                "{\"connection\":\(tcp.number),\"client\":\"\(tcp.client)\",\"server\":\"\(tcp.server)\""
                    + ",\"firstPacket\":\(tcp.firstPacketNumber),\"packets\":\(tcp.packetCount)"
                    + ",\"clientBytes\":\(tcp.clientToServer.byteCount),\"serverBytes\":\(tcp.serverToClient.byteCount)"
                    + ",\"frames\":\(connection.frames.count),\"issues\":\(connection.issues.count)}")
            for frame in connection.frames { console.out(jsonLine(for: frame)) }
            for issue in connection.issues { console.out(jsonLine(for: issue)) }
        }
        return ExitCode.success
    }

    /// A frame of a capture: `{"time":"1767225600.605000000","connection":1,"direction":"client->server",
    /// "packet":4,` followed by the fields of a raw-stream frame line.
    static func jsonLine(for frame: TraceFrame) -> String {
        let rawLine = DecodeCommand.jsonLine(for: frame.decoded)
        return "{\"time\":\"\(frame.timestamp)\",\"connection\":\(frame.connectionNumber)"
            + ",\"direction\":\"\(frame.direction)\",\"packet\":\(frame.packetNumber)," + rawLine.dropFirst()
    }

    /// An issue: `{"issue":"gap","connection":1,"direction":"server->client","offset":1291,"bytes":1200,...}`.
    static func jsonLine(for issue: TraceFrameIssue) -> String {
        var line = "{\"issue\":"
        JSONText.appendString(issue.kind.rawValue, to: &line)
        line += ",\"connection\":\(issue.connectionNumber),\"direction\":\"\(issue.direction)\""
        line += ",\"offset\":\(issue.offset),\"bytes\":\(issue.byteCount),\"packet\":\(issue.packetNumber),\"detail\":"
        JSONText.appendString(issue.detail, to: &line)
        return line + "}"
    }
}
