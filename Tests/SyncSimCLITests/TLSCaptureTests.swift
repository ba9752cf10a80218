import Foundation
import SyncProtocol
import SyncTrace
import Testing

@testable import SyncSimCLI

/// tshark's path, or nil: the TLS suite runs only with it.
private let tsharkForTLSTests = TLSDecryption.locateTShark()

/// TLS captures with a key log, over Fixtures/tls/pymax-tls.pcap: PyMax 2.5.0 through a TLS terminator in front of
/// `syncsim serve`, both legs in one loopback capture (made by scripts/pymax-tls-interop.sh; Fixtures/tls/README.md).
/// The decrypted legs must give the frames of the plain leg. Needs tshark (it decrypts); skipped without it.
@Suite(.enabled(if: tsharkForTLSTests != nil,
                "tshark is not installed (make deps): the TLS decryption path of --tls-keylog is not tested"))
struct TLSCaptureTests {
    static let capture = TraceDecodeCommandTests.fixture("tls/pymax-tls.pcap")
    static let keyLog = TraceDecodeCommandTests.fixture("tls/pymax-tls.keys")
    /// The terminator's TLS 1.3 and TLS 1.2 ports and `syncsim serve`'s plain port in the capture.
    static let tls13Port = "43653"
    static let tls12Port = "37009"
    static let plainPort = "45075"
    static let tlsPorts = ["--port", tls13Port, "--port", tls12Port]

    /// Per connection, its client's and its server's frames in stream order (the legs interleave directions
    /// differently: the terminator adds a hop).
    private func frames(_ decoding: TraceDecoder.Decoding) -> [[DecodedFrame]] {
        decoding.connections.flatMap { connection in
            TraceDirection.allCases.map { direction in
                connection.frames.filter { $0.direction == direction }.map(\.decoded).sorted { $0.offset < $1.offset }
            }
        }
    }

    @Test("the TLS 1.3 and TLS 1.2 legs decrypted with the key log give the plain leg's frames, byte for byte")
    func sameFramesAsThePlainTwin() throws {
        let decrypted = try TraceDecoder().decode(
            path: Self.capture,
            readOptions: .init(ports: [UInt16(Self.tls13Port)!, UInt16(Self.tls12Port)!],
                               tls: .decrypt(keyLog: Self.keyLog)))
        let plain = try TraceDecoder().decode(
            path: Self.capture, readOptions: .init(ports: [UInt16(Self.plainPort)!], tls: .rejectEncrypted))
        #expect(decrypted.connections.map { $0.connection.tls?.version } == ["TLS 1.3", "TLS 1.2"])
        #expect(plain.connections.allSatisfy { $0.connection.tls == nil })
        #expect(decrypted.connections.allSatisfy { $0.issues.isEmpty })
        let frameCount = decrypted.connections.reduce(0) { $0 + $1.frames.count }
        #expect(frameCount == 20)
        #expect(frames(decrypted) == frames(plain))
        // Timestamps and packets are the capture's: each frame is stamped with the packet that completed its record.
        let first = try #require(decrypted.connections.first?.frames.first)
        #expect(first.opcode == .sessionInit && first.packetNumber > decrypted.connections[0].connection.firstPacketNumber)
        #expect(first.timestamp > decrypted.connections[0].connection.firstTimestamp)
        // The TCP facts stay: both legs opened and closed.
        #expect(decrypted.connections.allSatisfy { $0.connection.clientToServer.sawSYN && $0.connection.clientToServer.sawFIN })
    }

    @Test("trace-summary names the TLS version and key log; replay --against server agrees with the plain leg")
    func summaryAndReplay() {
        let summary = TraceDecodeCommandTests.run(["trace-summary", Self.capture, "--tls-keylog", Self.keyLog] + Self.tlsPorts)
        #expect(summary.code == 0, "\(summary.err)")
        #expect(summary.out.contains { $0.hasPrefix("  TLS 1.3 decrypted with key log \(Self.keyLog): application data") })
        #expect(summary.out.contains { $0.hasPrefix("  TLS 1.2 decrypted with key log") })
        let decrypted = TraceDecodeCommandTests.run(
            ["replay", Self.capture, "--against", "server", "--tls-keylog", Self.keyLog] + Self.tlsPorts)
        let plain = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "server", "--port", Self.plainPort])
        #expect(decrypted.code == 0 && plain.code == 0, "\(decrypted.err) \(plain.err)")
        // The same answers compared; the digests differ, since the two legs were captured at other times.
        func verdict(_ line: String?) -> String? { line?.components(separatedBy: "; digest ").first }
        #expect(verdict(decrypted.out.last) == verdict(plain.out.last))
        #expect(plain.out.last?.contains("0 differences; digest ") == true)
    }

    @Test("without the key log, or with another session's, decode and replay refuse with exit 2 and say why")
    func refusals() throws {
        // trace-summary needs no frames: it summarizes the TLS connections instead (TraceSummaryCommandTests).
        for command in [["decode"], ["replay", "--emit-scenario", "x"]] {
            let result = TraceDecodeCommandTests.run(command + [Self.capture])
            #expect(result.code == 2)
            #expect(result.err.contains("connection 1 carries TLS (127.0.0.1:"), "\(result.err)")
            #expect(result.err.contains("handshake record, content type 22") && result.err.contains("--tls-keylog FILE"))
            #expect(result.err.contains("; so does connection 3: their frames are encrypted"), "\(result.err)")
            #expect(result.out.isEmpty)
        }
        // The same labels and secrets under other client randoms: keys of sessions this capture does not hold.
        let text = try String(contentsOfFile: Self.keyLog, encoding: .utf8)
        let foreign = text.split(separator: "\n").map { line -> String in
            let fields = line.split(separator: " ")
            guard fields.count == 3 else { return String(line) }
            return "\(fields[0]) \(String(fields[1].reversed())) \(fields[2])"
        }.joined(separator: "\n")
        let path = NSTemporaryDirectory() + "syncsim-foreign-\(UUID().uuidString).keys"
        try foreign.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = TraceDecodeCommandTests.run(["decode", Self.capture, "--tls-keylog", path] + Self.tlsPorts)
        #expect(result.code == 2)
        #expect(result.err.contains("TLS key log: key log \(path) holds no key for connection 1 (127.0.0.1:"),
                "\(result.err)")
        #expect(result.err.contains("client random "))
    }
}

/// The TLS errors that need no tshark.
@Suite struct TLSCaptureErrorTests {
    @Test("a missing tshark is named with how to install it")
    func tsharkMissing() throws {
        var trace = try TraceReader.read(path: TLSCaptureTests.capture)
        #expect(throws: TraceError.self) {
            try TLSDecryption(keyLog: TLSCaptureTests.keyLog, tshark: "/nonexistent/tshark").decrypt(&trace)
        }
        do {
            try TLSDecryption(keyLog: TLSCaptureTests.keyLog, tshark: "/nonexistent/tshark").decrypt(&trace)
        } catch let error as TraceError {
            #expect(error.kind == .tshark)
            #expect(error.description.contains("tshark not found at /nonexistent/tshark"))
            #expect(error.description.contains("install it (`make deps`, or `apt-get install tshark`)"))
        }
    }

    @Test("a key log that is not NSS key log text, or missing, is named with its line")
    func badKeyLog() throws {
        let path = NSTemporaryDirectory() + "syncsim-badkeys-\(UUID().uuidString).keys"
        try "not a key log\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bad = TraceDecodeCommandTests.run(["decode", TLSCaptureTests.capture, "--tls-keylog", path])
        #expect(bad.code == 2)
        #expect(bad.err.contains("TLS key log: key log \(path): line 1: expected 'LABEL CLIENT_RANDOM SECRET'"))
        let missing = TraceDecodeCommandTests.run(
            ["decode", TraceDecodeCommandTests.fixture("pcap/sync-session.pcapng"), "--tls-keylog", "/nonexistent.keys"])
        #expect(missing.code == 2)
        #expect(missing.err.contains("/nonexistent.keys: no such file"))
        let raw = TraceDecodeCommandTests.run(
            ["decode", TraceDecodeCommandTests.fixture("wire/login-response.bin"), "--tls-keylog", path])
        #expect(raw.code == 2 && raw.err.contains("captures only"))
    }
}
