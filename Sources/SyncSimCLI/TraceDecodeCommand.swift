import SyncTrace

/// `syncsim trace-summary FILE`: what the capture reader finds in a pcap or pcapng file, per TCP connection.
///
/// A stand-in until `syncsim decode` takes captures: it prints packets, bytes per direction, gaps, anomalies
/// and skipped packets by reason, without decoding protocol frames.
enum TraceDecodeCommand {
    static let spec = CommandSpec(
        name: "trace-summary",
        summary: "summarize the TCP connections in a pcap/pcapng capture",
        help: """
            usage: syncsim trace-summary FILE [--port N]... [--keep-truncated]

            Reads a pcap or pcapng capture (Ethernet, Linux cooked v1/v2, raw IP, BSD loopback), reassembles
            every TCP connection and prints per connection the packets, bytes per direction, gaps (bytes the
            capture missed or the snap length cut) and anomalies, then the packets skipped and why.

              --port N          keep only connections with port N on either end (repeatable)
              --keep-truncated  print what was read before a truncated record instead of failing

            example: syncsim trace-summary Fixtures/pcap/dns_tcp.pcap
            """,
        run: { arguments, console in
            let ports = try arguments.values(of: "--port").map { text -> UInt16 in
                guard let port = UInt16(text) else {
                    throw UsageError("option --port: expected a port number in 0...65535, got '\(text)'")
                }
                return port
            }
            let keepsTruncatedTail = arguments.flag("--keep-truncated")
            let files = arguments.positionals()
            try arguments.finish()
            guard files.count == 1, let file = files.first else {
                throw UsageError("expected one capture file, got \(files.count)")
            }
            let options = TraceReader.Options(
                ports: ports.isEmpty ? nil : Set(ports), keepsTruncatedTail: keepsTruncatedTail)
            let trace = try TraceReader.read(path: file, options: options)
            for line in trace.summaryLines() { console.out(line) }
            return ExitCode.success
        }
    )
}
