import Foundation
import Testing

@testable import SyncSimCLI
import SyncTrace

@Suite struct TraceSummaryCommandTests {
    static func fixture(_ name: String, filePath: String = #filePath) -> String {
        var url = URL(fileURLWithPath: filePath)
        while url.lastPathComponent != "Tests" { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("Fixtures/pcap/\(name)").path
    }

    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        var out = ""
        var err = ""
        var console = Console(out: { out += $0 }, err: { err += $0 })
        let code = runSyncSim(arguments: arguments, console: &console)
        return (code, out, err)
    }

    @Test("prints the connections of a capture with bytes per direction")
    func summary() {
        let path = Self.fixture("dns_tcp.pcap")
        let result = run(["trace-summary", path])
        #expect(result.code == 0)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(path): pcap, Ethernet, 11 packets, 11 TCP, 0 skipped, 1 connection")
        #expect(lines.contains { $0.hasPrefix("connection 1: 192.168.1.11:33779 -> 209.87.249.18:53, 11 packets") })
        #expect(lines.contains("  client->server: 6 segments, 58 bytes, 0 gaps (0 bytes missing), SYN FIN"))
        #expect(lines.count == 4)
    }

    @Test("a TLS capture without a key log is summarized (TCP, TLS records, version), with a note naming --tls-keylog")
    func tlsWithoutKeyLog() {
        let path = Self.fixture("../tls/pymax-tls.pcap")
        let result = run(["trace-summary", path, "--port", "43653", "--port", "37009"])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out == """
            \(path): pcap, Ethernet, 95 packets, 95 TCP, 0 skipped, 2 connections, 40 TCP packets filtered out by port
            connection 1: 127.0.0.1:40138 -> 127.0.0.1:43653, 28 packets from packet 1, 0.444256000 s
              TLS 1.3, not decrypted: its frames cannot be read without the session's key log (--tls-keylog FILE)
                client->server: 9 TLS records: 1 handshake, 1 change cipher spec, 7 application data (1309 bytes encrypted)
                server->client: 15 TLS records: 1 handshake, 1 change cipher spec, 13 application data (2237 bytes encrypted)
              client->server: 14 segments, 1867 bytes, 0 gaps (0 bytes missing), SYN FIN
              server->client: 14 segments, 2435 bytes, 0 gaps (0 bytes missing), SYN FIN
            connection 2: 127.0.0.1:52754 -> 127.0.0.1:37009, 27 packets from packet 15, 0.425576000 s
              TLS 1.2, not decrypted: its frames cannot be read without the session's key log (--tls-keylog FILE)
                client->server: 9 TLS records: 3 handshake, 1 change cipher spec, 1 alert, 4 application data (1114 bytes encrypted)
                server->client: 13 TLS records: 6 handshake, 1 change cipher spec, 1 alert, 5 application data (818 bytes encrypted)
              client->server: 15 segments, 1775 bytes, 0 gaps (0 bytes missing), SYN FIN
              server->client: 12 segments, 1730 bytes, 0 gaps (0 bytes missing), SYN FIN

            """)
        #expect(result.err == "note: connections 1 and 2 carry TLS: their frames are encrypted "
            + "and were not decoded (above: TCP and TLS records only); give the session's key log with --tls-keylog "
            + "FILE (NSS key log format, as SSLKEYLOGFILE writes; docs/traces.md, \"TLS captures\") to read them\n")
        // The plain leg alone: no TLS line and no note.
        let plain = run(["trace-summary", path, "--port", "45075"])
        #expect(plain.code == 0 && plain.err.isEmpty && !plain.out.contains("TLS"))
        // decode and replay need the frames: they still refuse, naming the option.
        for command in [["decode"], ["decode", "--summary"], ["replay", "--against", "server"], ["replay", "--run"]] {
            let refused = run(command + [path])
            #expect(refused.code == 2 && refused.out.isEmpty, "\(command)")
            #expect(refused.err.contains("connection 1 carries TLS") && refused.err.contains("--tls-keylog FILE"))
        }
    }

    @Test("counts of one read in the singular: 1 packet, 1 connection, 1 segment, 1 gap (1 byte missing)")
    func singular() {
        let path = Self.fixture("tcp_rst_data-trunc.pcap")
        let result = run(["trace-summary", path])
        #expect(result.code == 0)
        #expect(result.out == """
            \(path): pcap, Ethernet, 1 packet, 1 TCP, 0 skipped, 1 connection
            connection 1: 172.16.133.41:52875 -> 199.204.31.89:80, 1 packet from packet 1, 0.000000000 s
              client->server: 0 segments, 0 bytes, 0 gaps (0 bytes missing)
              server->client: 1 segment, 57 bytes, 1 gap (1 byte missing), RST
                gap of 1 byte at offset 57 (cut by snap length), packet 1
                started without SYN, packet 1

            """)
        // Its 57 bytes are HTTP, no frame: decode --summary says so (exit 2) rather than print an empty table.
        let decode = run(["decode", path, "--summary"])
        #expect(decode.code == 2 && decode.err.contains("no SyncSim frame found in its TCP connection"))
        #expect(counted(1, "run") == "1 run" && counted(0, "run") == "0 runs" && counted(2, "run") == "2 runs")
        #expect(counted(Int64(1), "byte") == "1 byte")
    }

    @Test("--keep-truncated prints what was read before a cut record")
    func keepTruncated() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.fixture("dns_tcp.pcap")))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "syncsim-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("cut.pcap").path
        try bytes.dropLast(5).write(to: URL(fileURLWithPath: path))
        let result = run(["trace-summary", path, "--keep-truncated"])
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("\(path): pcap, Ethernet, 10 packets"))
        #expect(result.out.contains("  stopped early: \(path): packet 11: truncated file"))
    }

    @Test("a file that is not a capture fails with exit code 2 and one line naming it")
    func notACapture() {
        let path = Self.fixture("README.md")
        let result = run(["trace-summary", path])
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("syncsim trace-summary: \(path): not a capture file"))
    }

    @Test("a directory is an input error saying so")
    func directory() {
        let path = URL(fileURLWithPath: Self.fixture("README.md")).deletingLastPathComponent().path
        let result = run(["trace-summary", path])
        #expect(result.code == 2)
        #expect(result.err == "syncsim trace-summary: cannot read \(path): is a directory\n")
    }

    @Test("a capture without a TCP connection is an input error, as for decode and replay, after its summary")
    func noConnection() {
        let path = Self.fixture("empty.pcapng")
        let result = run(["trace-summary", path])
        #expect(result.code == 2)
        #expect(result.out == "\(path): pcapng, Ethernet, 0 packets, 0 TCP, 0 skipped, 0 connections\n")
        #expect(result.err == "syncsim trace-summary: \(path): no TCP connection to summarize\n")
        let decode = run(["decode", path])
        #expect(decode.code == 2)
        #expect(decode.err.hasPrefix("syncsim decode: \(path): no TCP connection to decode ("))
        let filtered = run(["trace-summary", Self.fixture("dns_tcp.pcap"), "--port", "1"])
        #expect(filtered.code == 2)
        #expect(filtered.err == "syncsim trace-summary: \(Self.fixture("dns_tcp.pcap")): no TCP connection to "
            + "summarize on port 1\n")
    }

    @Test("a bad --port is a usage error")
    func badPort() {
        let result = run(["trace-summary", Self.fixture("dns_tcp.pcap"), "--port", "70000"])
        #expect(result.code == 2)
        #expect(result.err.contains("--port"))
    }
}
