import Foundation
import Testing

@testable import SyncTrace

/// A TLS connection captured after its ClientHello but with its ServerHello: no key log can decrypt it, and the error
/// says the handshake is missing rather than blaming the key log. Needs tshark (skipped without it).
@Suite(.enabled(if: TLSDecryption.locateTShark() != nil, "tshark is not installed (apt-get install tshark)"))
struct TLSHandshakeMissingTests {
    static func fixture(_ name: String) -> String {
        var url = URL(fileURLWithPath: #filePath)
        while url.lastPathComponent != "Tests" { url.deleteLastPathComponent() }
        return url.deletingLastPathComponent().appendingPathComponent("Fixtures/tls/\(name)").path
    }

    @Test("a capture that lacks a connection's ClientHello is said to lack its handshake, not its key")
    func clientHelloMissing() throws {
        // pymax-tls-no-clienthello.pcap: Fixtures/tls/pymax-tls.pcap without packets 15-17, 22 and 23 (the TLS 1.2
        // connection's handshake packets up to and with its ClientHello; its ServerHello, packet 25, is kept), as a
        // capture started in between would hold it. The key log is the right one. Before, the error read "holds no
        // key for connection 1": the check looked for a ServerHello only.
        let keyLog = Self.fixture("pymax-tls.keys")
        do {
            _ = try TraceReader.read(
                path: Self.fixture("pymax-tls-no-clienthello.pcap"),
                options: .init(ports: [37009], tls: .decrypt(keyLog: keyLog)))
            Issue.record("the connection decrypted without its ClientHello")
        } catch let error as TraceError {
            #expect(error.kind == .tlsKeyLog)
            #expect(error.description.contains("the capture lacks its TLS handshake"), "\(error)")
            #expect(!error.description.contains("holds no key"), "\(error)")
        }
    }
}
