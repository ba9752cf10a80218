import Foundation
import Testing

@testable import SyncSimCLI

/// `syncsim decode` on pcap/pcapng captures.
@Suite struct TraceDecodeCommandTests {
    static func fixture(_ path: String, filePath: String = #filePath) -> String {
        var url = URL(fileURLWithPath: filePath)
        while url.lastPathComponent != "Tests" { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("Fixtures/\(path)").path
    }

    static func run(_ arguments: [String]) -> (code: Int32, out: [String], err: String) {
        var out = ""
        var err = ""
        var console = Console(out: { out += $0 }, err: { err += $0 })
        let code = runSyncSim(arguments: arguments, console: &console)
        return (code, out.split(separator: "\n").map(String.init), err)
    }

    @Test("a pcapng capture prints its connection, its frames in time order with timestamps, then its issues")
    func frames() {
        let result = Self.run(["decode", Self.fixture("pcap/sync-session.pcapng")])
        #expect(result.code == 0)
        #expect(result.err == "")
        #expect(result.out.count == 1 + 8 + 3)
        #expect(
            result.out.first?.hasPrefix(
                "{\"connection\":1,\"client\":\"198.18.0.1:50001\",\"server\":\"198.18.0.2:443\"") == true)
        #expect(
            result.out[1].hasPrefix(
                "{\"time\":\"1767225600.605000000\",\"connection\":1,\"direction\":\"client->server\",\"packet\":4,"
                    + "\"frame\":1,\"offset\":0,\"ver\":10,\"cmd\":0,\"cmdName\":\"request\",\"seq\":1,\"opcode\":6,"))
        #expect(
            result.out.last == "{\"issue\":\"bytes skipped to resync\",\"connection\":1,"
                + "\"direction\":\"server->client\",\"offset\":2491,\"bytes\":534,\"packet\":11,\"detail\":\"\"}")
    }

    @Test("--summary prints the connections and the opcode table with latencies")
    func summary() {
        let result = Self.run(["decode", Self.fixture("pcap/sync-session.pcapng"), "--summary"])
        #expect(result.code == 0)
        #expect(
            result.out.contains(
                "PING                  1          1       0       0          1   350.0      350.0   350.0   350.0"))
        #expect(result.out.last == "unanswered requests: 1, unmatched responses: 0, opcode mismatches: 0")
    }

    @Test("--port keeps only matching connections; none matching is an input error, as in replay")
    func portFilter() {
        let path = Self.fixture("pcap/sync-session.pcapng")
        let kept = Self.run(["decode", path, "--port", "443"])
        #expect(kept.code == 0)
        #expect(kept.out.first?.hasPrefix("{\"connection\":1,") == true)
        let result = Self.run(["decode", path, "--port", "80"])
        #expect(result.code == 2)
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix("syncsim decode: \(path): no TCP connection to decode on port 80"))
    }

    @Test("--summary and --port on a raw stream are usage errors")
    func rawStreamOptions() {
        let result = Self.run(["decode", Self.fixture("pcap/README.md"), "--summary"])
        #expect(result.code == 2)
        #expect(result.err.contains("captures only"))
    }

    @Test("a truncated capture fails with one line naming the file and packet; exit 2")
    func truncatedCapture() throws {
        let bytes = try #require(FileManager.default.contents(atPath: Self.fixture("pcap/dns_tcp.pcap")))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "syncsim-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("cut.pcap").path
        try bytes.dropLast(5).write(to: URL(fileURLWithPath: path))
        let result = Self.run(["decode", path])
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("syncsim decode: \(path): packet 11: truncated file"))
    }

    @Test("a capture without this protocol decodes to no frames and reports the skipped bytes")
    func foreignProtocol() {
        let result = Self.run(["decode", Self.fixture("pcap/dns_tcp.pcap")])
        #expect(result.code == 0)
        #expect(result.out.first?.contains("\"frames\":0") == true)
        #expect(result.out.dropFirst().allSatisfy { $0.hasPrefix("{\"issue\":") })
    }

    /// Before: `decode --summary` printed an empty opcode table and "unanswered requests: 0" with exit 0, which read
    /// as a quiet session of the protocol (a fresh user's trial, session 34).
    @Test("decode --summary of a capture of another protocol is an input error naming what decode finds")
    func foreignProtocolSummary() {
        let path = Self.fixture("pcap/dns_tcp.pcap")
        let result = Self.run(["decode", "--summary", path])
        #expect(result.code == 2)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("\(path): no SyncSim frame found in its TCP connection, nothing to summarize; "
                                    + "decode finds: connection 1 client->server: bad frame header"))
    }

    @Test("decode --summary notes frame issues on stderr; capture options on a non-capture name the file")
    func summaryNotesAndNonCapture() {
        let capture = Self.fixture("pcap/sync-session.pcapng")
        let summary = Self.run(["decode", "--summary", capture])
        #expect(summary.code == 0)
        #expect(summary.err == "note: \(capture): 3 frame issues in connection 1 ('syncsim decode \(capture)' "
                + "lists them)\n")
        let stream = Self.fixture("wire/error-unsupported-opcode.bin")
        let refused = Self.run(["decode", "--summary", "--port", "7", stream])
        #expect(refused.code == 2)
        #expect(refused.err.contains("\(stream) is not a pcap/pcapng capture (it starts with no capture magic "
                                     + "number), and --port, --summary apply to captures only; without them"))
        let traced = Self.run(["trace-summary", stream])
        #expect(traced.code == 2)
        #expect(traced.err.contains("; 'syncsim decode \(stream)' reads a raw frame stream"))
    }
}
