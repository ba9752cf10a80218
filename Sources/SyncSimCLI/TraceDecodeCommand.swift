import SyncProtocol
import SyncTrace

/// `syncsim trace-summary FILE`: what the capture reader finds in a pcap or pcapng file, per TCP connection,
/// and optionally the protocol frames in it.
enum TraceDecodeCommand {
    static let spec = CommandSpec(
        name: "trace-summary",
        summary: "summarize the TCP connections (and protocol frames) in a pcap/pcapng capture",
        help: """
            usage: syncsim trace-summary FILE [--port N]... [--frames] [--summary] [--keep-truncated]
                                         [--layout cmd8-seq16|cmd16-seq8] [--max-payload-bytes N]

            Reads a pcap or pcapng capture (Ethernet with VLAN tags, Linux cooked v1/v2, raw IP, BSD loopback;
            IPv4 and IPv6), reassembles every TCP connection and prints per connection the packets, bytes per
            direction, gaps (bytes the capture missed or the snap length cut) and anomalies, then the packets
            skipped and why.

              --port N               keep only connections with port N on either end (repeatable)
              --frames               also print the protocol frames, per connection in time order:
                                     capture time, connection, direction, cmd, seq, opcode, payload
              --summary              also print frame counts per opcode and request/response latencies by seq
              --keep-truncated       print what was read before a truncated record instead of failing
              --layout L             frame header layout: cmd8-seq16 (default) or cmd16-seq8
              --max-payload-bytes N  largest frame payload accepted (default 8388608, 8 MiB)

            example: syncsim trace-summary Fixtures/pcap/dns_tcp.pcap
            """,
        run: { arguments, console in try run(&arguments, &console) }
    )

    static func run(_ arguments: inout ArgumentList, _ console: inout Console) throws -> Int32 {
        let ports = try arguments.values(of: "--port").map { text -> UInt16 in
            guard let port = UInt16(text) else {
                throw UsageError("option --port: expected a port number in 0...65535, got '\(text)'")
            }
            return port
        }
        let layoutName = try arguments.value(of: "--layout") ?? HeaderLayout.standard.rawValue
        guard let layout = HeaderLayout(rawValue: layoutName) else {
            throw UsageError("option --layout: expected cmd8-seq16 or cmd16-seq8, got '\(layoutName)'")
        }
        let maxPayloadBytes = try arguments.int("--max-payload-bytes", in: 0...FrameHeader.maxPayloadLengthField)
            ?? FrameDecoder.defaultMaxPayloadBytes
        let printsFrames = arguments.flag("--frames")
        let printsSummary = arguments.flag("--summary")
        let keepsTruncatedTail = arguments.flag("--keep-truncated")
        let files = arguments.positionals()
        try arguments.finish()
        guard files.count == 1, let file = files.first else {
            throw UsageError("expected one capture file, got \(files.count)")
        }
        let options = TraceReader.Options(ports: ports.isEmpty ? nil : Set(ports), keepsTruncatedTail: keepsTruncatedTail)
        let decoder = TraceDecoder(frameDecoder: FrameDecoder(layout: layout, maxPayloadBytes: maxPayloadBytes))
        let decoding = try decoder.decode(path: file, readOptions: options)
        for line in decoding.trace.summaryLines() { console.out(line) }
        if printsFrames {
            for connection in decoding.connections {
                for frame in connection.frames { console.out(line(for: frame)) }
                for issue in connection.issues { console.out("issue: \(issue)") }
            }
        }
        if printsSummary {
            for line in TraceFrameSummary(decoding.connections).lines() { console.out(line) }
        }
        return ExitCode.success
    }

    /// `1700000000.005000000 conn 1 client->server request seq 9 MSG_SEND 61 bytes {"text": "hi"}`.
    static func line(for frame: TraceFrame) -> String {
        var text = "\(frame.timestamp) conn \(frame.connectionNumber) \(frame.direction) \(frame.cmd) seq \(frame.seq) "
        text += "\(frame.opcode) \(frame.decoded.payloadByteCount) bytes"
        if frame.decoded.header.isCompressed { text += " (LZ4 \(frame.decoded.header.payloadLength) on the wire)" }
        var rendered = render(frame.payload)
        if rendered.count > 200 { rendered = String(rendered.prefix(197)) + "..." }
        return text + " " + rendered
    }

    /// A compact one-line rendering of a payload; binary values show their size only.
    private static func render(_ value: MessagePackValue) -> String {
        switch value {
        case .nil: "nil"
        case .bool(let flag): "\(flag)"
        case .int(let number): "\(number)"
        case .uint(let number): "\(number)"
        case .float(let number): "\(number)"
        case .double(let number): "\(number)"
        case .string(let string): "\"\(string)\""
        case .binary(let bytes): "<\(bytes.count) bytes>"
        case .array(let items): "[" + items.map(render).joined(separator: ", ") + "]"
        case .map(let pairs): "{" + pairs.map { render($0.key) + ": " + render($0.value) }.joined(separator: ", ") + "}"
        case .ext(let type, let data): "<ext \(type), \(data.count) bytes>"
        case .timestamp(let seconds, let nanoseconds): "<timestamp \(seconds).\(nanoseconds)>"
        }
    }
}
