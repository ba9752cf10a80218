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
            `syncsim decode FILE` prints them. A capture without a TCP connection (on the --port asked for) is
            an input error (exit 2), as for decode and replay, after the summary of what it holds.

              --port N          keep only connections with port N on either end (repeatable)
              --keep-truncated  \(CaptureOptions.keepTruncatedHelp)
              --tls-keylog FILE decrypt TLS connections with this NSS key log (SSLKEYLOGFILE) through tshark and
                                print each one's version and application data bytes. Without it a TLS connection
                                is summarized as captured: TCP as for any connection, the version its ServerHello
                                selected, its TLS records per direction by content type, and a note on stderr
                                that its frames need the key log (exit 0). See docs/traces.md, "TLS captures"

            example: syncsim trace-summary Fixtures/pcap/tcp_rst_data-trunc.pcap
            """,
        run: { arguments, console in try run(&arguments, &console) }
    )

    static func run(_ arguments: inout ArgumentList, _ console: inout Console) throws -> Int32 {
        let captureOptions = try CaptureOptions(&arguments, takesSummary: false)
        let files = arguments.positionals()
        try arguments.finish()
        guard files.count == 1, let file = files.first else {
            throw UsageError("expected one capture file, got \(files.count)")
        }
        try captureOptions.requireFiles(capture: file)
        // Without a key log TLS connections are summarized as captured (TCP, TLS records), not refused: nothing
        // here needs their frames.
        var readOptions = captureOptions.readOptions
        if captureOptions.tlsKeyLog == nil { readOptions.tls = .keepEncrypted }
        let trace: Trace
        do {
            trace = try captureOptions.reading { try TraceReader.read(path: file, options: readOptions) }
        } catch let error as TraceError where error.kind == .notACaptureFile && error.packetNumber == nil {
            // A frame stream (Fixtures/wire/*.bin, `syncsim run --trace` bytes) is no capture: say which command
            // reads it.
            throw InputFileError(description: "\(error); 'syncsim decode \(file)' reads a raw frame stream")
        }
        // The summary names the truncation itself ("stopped early: ..."), so no note on standard error.
        for line in trace.summaryLines() { console.out(line) }
        encryptedNote(trace.connections.filter { $0.tls == nil && $0.tlsRecordHeader != nil }).map(console.err)
        // As for decode and replay, a capture without a TCP connection is an input error; the summary above still
        // shows what it holds (packets skipped and why), which is where their error points.
        guard !trace.connections.isEmpty else {
            throw captureOptions.noConnection(file, verb: "summarize", pointsToSummary: false)
        }
        return ExitCode.success
    }
}

extension TraceDecodeCommand {
    /// `note: connection 1 carries TLS ...`: the frames of `connections` (TLS ones summarized without a key log)
    /// were not read, and the option that reads them; nil when there are none.
    static func encryptedNote(_ connections: [TCPConnectionTrace]) -> String? {
        guard !connections.isEmpty else { return nil }
        let numbers = connections.map { String($0.number) }
        let which = numbers.count == 1
            ? "connection \(numbers[0]) carries TLS: its frames"
            : "connections \(numbers.dropLast().joined(separator: ", ")) and \(numbers.last!) carry TLS: their frames"
        return "note: \(which) are encrypted and were not decoded (above: TCP and TLS records only); give the "
            + "session's key log with --tls-keylog FILE (NSS key log format, as SSLKEYLOGFILE writes; "
            + "docs/traces.md, \"TLS captures\") to read them"
    }

    /// The options of the commands that read captures (`trace-summary`, `decode`, `replay`): `--port N`,
    /// `--keep-truncated`, `--tls-keylog FILE`, and for `decode` `--summary`; parsed, explained and applied here
    /// once, so the commands say the same.
    struct CaptureOptions {
        var ports: Set<UInt16>?
        var printsSummary: Bool
        /// `--keep-truncated`: use the packets before a record the file breaks off in, instead of failing.
        var keepsTruncatedTail: Bool
        /// `--tls-keylog FILE`: the NSS key log TLS connections are decrypted with.
        var tlsKeyLog: String?

        /// What `--keep-truncated` does, in the words every capture command's `--help` uses.
        static let keepTruncatedHelp = "use the packets read before a truncated record instead of failing"

        /// The options as they are typed (`--port` ascending, then `--keep-truncated`, `--tls-keylog FILE`), for a
        /// command that repeats them.
        var arguments: [String] {
            var words = (ports ?? []).sorted().flatMap { ["--port", String($0)] }
            if keepsTruncatedTail { words.append("--keep-truncated") }
            if let tlsKeyLog { words += ["--tls-keylog", tlsKeyLog] }
            return words
        }

        /// Decrypt with the key log, or refuse TLS connections without one (their frames would be garbage).
        var tls: TraceReader.TLSHandling { tlsKeyLog.map { .decrypt(keyLog: $0) } ?? .rejectEncrypted }

        /// The capture reader's options: the port filter, the truncation policy and the TLS policy.
        var readOptions: TraceReader.Options {
            TraceReader.Options(ports: ports, keepsTruncatedTail: keepsTruncatedTail, tls: tls)
        }

        /// Takes `--port N` (repeatable), `--keep-truncated`, `--tls-keylog FILE` and, when `takesSummary`,
        /// `--summary` from `arguments`.
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
            self.keepsTruncatedTail = arguments.flag("--keep-truncated")
            self.tlsKeyLog = try arguments.value(of: "--tls-keylog")
        }

        /// - Throws: `UsageError` naming `path` when a capture-only option was given for a file that is no
        ///   pcap/pcapng capture (a raw frame stream, or not frames at all).
        func requireRawStreamDefaults(path: String) throws {
            let given = [("--port", ports != nil), ("--summary", printsSummary),
                         ("--keep-truncated", keepsTruncatedTail), ("--tls-keylog", tlsKeyLog != nil)]
                .filter(\.1).map(\.0)
            if !given.isEmpty {
                throw UsageError("\(path) is not a pcap/pcapng capture (it starts with no capture magic number), and "
                    + "\(given.joined(separator: ", ")) \(given.count == 1 ? "applies" : "apply") to captures only; "
                    + "without \(given.count == 1 ? "it" : "them") 'syncsim decode "
                    + "\(path)' reads it as a raw frame stream")
            }
        }

        /// Checks the capture file and the key log before the capture reader opens them.
        /// - Throws: `InputFileError` naming the file and the real reason (no such file, a directory, ...).
        func requireFiles(capture path: String) throws {
            try InputFile.requireCapture(path)
            if let tlsKeyLog { try InputFile.requireReadable(tlsKeyLog) }
        }

        /// Runs `body`, which reads a capture with `readOptions`, and adds to a truncated-file error the option
        /// that reads the packets before the break.
        /// - Throws: what `body` throws; a truncated file as `TruncatedCaptureError`.
        func reading<Result>(_ body: () throws -> Result) throws -> Result {
            do {
                return try body()
            } catch let error as TraceError where error.kind == .truncatedFile {
                throw TruncatedCaptureError(error: error)
            }
        }

        /// Notes for standard error on how the capture was read: `--keep-truncated` kept a capture that breaks
        /// off; packets stamped earlier than one before them were read at the latest time before them; bytes the
        /// capture holds but the reader did not use (`Trace.unreadBytesNotes()`).
        static func captureNotes(_ trace: Trace) -> [String] {
            [
                trace.truncation.map { "note: --keep-truncated: stopped early, using the packets before: \($0)" },
                trace.timeSteppedBack.map { "note: \(trace.file): capture time went back: \($0.description)" },
            ].compactMap { $0 } + trace.unreadBytesNotes().map { "note: \(trace.file): \($0)" }
        }

        /// `FILE: no TCP connection to VERB[ on port N]`: the capture holds nothing the command could use.
        /// - Parameter pointsToSummary: whether to add that `syncsim trace-summary FILE` shows what the capture
        ///   holds (false for `trace-summary` itself, which has just printed it).
        func noConnection(_ path: String, verb: String, pointsToSummary: Bool = true) -> InputFileError {
            let hint = pointsToSummary ? " ('syncsim trace-summary \(path)' shows what the capture holds)" : ""
            return InputFileError(description: "\(path): no TCP connection to \(verb)\(portFilter)\(hint)")
        }

        /// ` on port 443 or 7000` when `--port` was given, else empty: how an error names the ports asked for.
        var portFilter: String {
            ports.map { " on port " + $0.sorted().map(String.init).joined(separator: " or ") } ?? ""
        }
    }

    /// `FILE: no SyncSim frame found in its TCP connection[ on port N], nothing to VERB; decode finds: ISSUE (...)`:
    /// the capture has TCP connections but none carries a frame of the protocol (a capture of another protocol,
    /// or of connections that sent nothing). Names the first frame issue `decode` reports on it (a bad frame header,
    /// say), or says that the connections carried no payload.
    static func noFrame(_ path: String, decoding: TraceDecoder.Decoding, options: CaptureOptions, verb: String)
        -> InputFileError
    {
        let count = decoding.connections.count
        let filter = options.portFilter
        let connections = count == 1 ? "its TCP connection\(filter)" : "any of its \(count) TCP connections\(filter)"
        let issues = decoding.connections.flatMap(\.issues)
        let found = issues.first { $0.kind == .badHeader } ?? issues.first
        let http = decoding.connections.compactMap(\.httpRequestLine)
        let reason = found.map { "decode finds: \($0) ('syncsim decode \(path)' lists every issue)" }
            ?? http.first.map { line in
                (count == 1 ? "it is" : http.count == count ? "they are" : "\(http.count) of them are")
                    + " plain HTTP, not the protocol (first: '\(line)')"
            }
            ?? (count == 1 ? "it carries no payload bytes" : "they carry no payload bytes")
        return InputFileError(
            description: "\(path): no SyncSim frame found in \(connections), nothing to \(verb); \(reason)")
    }

    /// A capture that breaks off inside a record, with the option that reads up to the break; one that breaks off
    /// inside its file header has no packet before the break, so it says that instead of naming the option.
    struct TruncatedCaptureError: Error, CustomStringConvertible {
        var error: TraceError

        var description: String {
            error.packetNumber == nil
                ? "\(error); --keep-truncated cannot help"
                : "\(error); --keep-truncated uses the packets before it"
        }
    }

    /// Whether `path` starts with a pcap or pcapng magic number (false when it cannot be read).
    static func isCapture(path: String) -> Bool {
        ((try? CaptureFormat.sniff(path: path)) ?? nil) != nil
    }

    /// `syncsim decode` on a capture: per connection a JSON line describing it, its frames in capture-time order
    /// as JSON lines, then its issues; or, with `--summary`, the text summary and the opcode table.
    /// - Returns: the exit code (0: frame faults are issues in the output, not failures).
    /// - Throws: `TraceError` when the capture cannot be read (missing, corrupt, unsupported link type), carries TLS
    ///   without `--tls-keylog`, or the key log does not decrypt it; `TruncatedCaptureError` when it breaks off
    ///   (without `--keep-truncated`); `UsageError` when it holds no TCP connection (on the ports asked for).
    static func decodeCapture(
        path: String, decoder: FrameDecoder, options: CaptureOptions, console: inout Console
    ) throws -> Int32 {
        let decoding = try options.reading {
            try TraceDecoder(frameDecoder: decoder).decode(path: path, readOptions: options.readOptions)
        }
        guard !decoding.connections.isEmpty else { throw options.noConnection(path, verb: "decode") }
        if options.printsSummary {
            // A capture of another protocol (or the wrong port) has connections but no frame: an error, as replay
            // says, not an empty table that reads like a quiet session.
            guard decoding.connections.contains(where: { !$0.frames.isEmpty }) else {
                throw noFrame(path, decoding: decoding, options: options, verb: "summarize")
            }
            for line in decoding.trace.summaryLines() { console.out(line) }
            for line in TraceFrameSummary(decoding.connections).lines() { console.out(line) }
            let troubled = decoding.connections.filter { !$0.issues.isEmpty }
            if !troubled.isEmpty {
                let issues = troubled.reduce(0) { $0 + $1.issues.count }
                console.err("note: \(path): \(issues) frame issue\(issues == 1 ? "" : "s") in connection"
                    + "\(troubled.count == 1 ? "" : "s") " + troubled.map { "\($0.connection.number)" }
                        .joined(separator: ", ") + " ('syncsim decode \(path)' lists them)")
            }
            return ExitCode.success
        }
        for connection in decoding.connections {
            let tcp = connection.connection
            console.out(
                "{\"connection\":\(tcp.number),\"client\":\"\(tcp.client)\",\"server\":\"\(tcp.server)\""
                    + (connection.isWebSocket ? ",\"transport\":\"websocket\"" : "")
                    + (connection.httpRequestLine.map { ",\"transport\":\"http\",\"httpRequest\":" + JSONText.string($0) }
                        ?? "")
                    + (connection.webSocketDeflate.map {
                        ",\"webSocketExtension\":\"\($0.responseValue(serverWindowBits: 15))\""
                    } ?? "")
                    + ",\"firstPacket\":\(tcp.firstPacketNumber),\"packets\":\(tcp.packetCount)"
                    + ",\"clientBytes\":\(tcp.clientToServer.byteCount),\"serverBytes\":\(tcp.serverToClient.byteCount)"
                    + ",\"frames\":\(connection.frames.count),\"issues\":\(connection.issues.count)}")
            for frame in connection.frames { console.out(jsonLine(for: frame)) }
            for issue in connection.issues { console.out(jsonLine(for: issue)) }
        }
        CaptureOptions.captureNotes(decoding.trace).forEach { console.err($0) }
        return ExitCode.success
    }

    /// A frame of a capture: `{"time":"1767225600.605000000","connection":1,"direction":"client->server",
    /// "packet":4,` followed by the fields of a raw-stream frame line.
    /// A frame that travelled as a WebSocket text message shows the message's `ver`, `"encoding":"json"` and its
    /// text's size as `wirePayloadBytes` (the field frame decoded from it has no binary header on the wire). One
    /// that came in a message compressed by permessage-deflate has `"deflatedMessageBytes"` (the message's
    /// compressed size) after `packet`.
    static func jsonLine(for frame: TraceFrame) -> String {
        let rawLine = DecodeCommand.jsonLine(for: frame.decoded, jsonMessage: frame.jsonMessage)
        let deflated = frame.deflatedMessageBytes.map { "\"deflatedMessageBytes\":\($0)," } ?? ""
        return "{\"time\":\"\(frame.timestamp)\",\"connection\":\(frame.connectionNumber)"
            + ",\"direction\":\"\(frame.direction)\",\"packet\":\(frame.packetNumber)," + deflated + rawLine.dropFirst()
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
