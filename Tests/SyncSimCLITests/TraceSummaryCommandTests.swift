import Foundation
import Testing
@testable import SyncSimCLI

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
        let result = run(["trace-summary", path, "--summary", "--frames"])
        #expect(result.code == 0)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(path): pcap, Ethernet, 11 packets, 11 TCP, 0 skipped, 1 connections")
        #expect(lines.contains { $0.hasPrefix("connection 1: 192.168.1.11:33779 -> 209.87.249.18:53, 11 packets") })
        #expect(lines.contains("  client->server: 6 segments, 58 bytes, 0 gaps (0 bytes missing), SYN FIN"))
        // DNS is not this protocol: nothing decodes, every byte is skipped while looking for a header.
        #expect(lines.contains { $0.hasPrefix("issue: connection 1 client->server: bytes skipped to resync") })
    }

    @Test("a file that is not a capture fails with exit code 2 and one line naming it")
    func notACapture() {
        let path = Self.fixture("README.md")
        let result = run(["trace-summary", path])
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("syncsim trace-summary: \(path): not a capture file"))
    }

    @Test("a bad --port is a usage error")
    func badPort() {
        let result = run(["trace-summary", Self.fixture("dns_tcp.pcap"), "--port", "70000"])
        #expect(result.code == 2)
        #expect(result.err.contains("--port"))
    }
}
