import Foundation
import Testing

@testable import SyncTrace

/// The parts of TLS decryption that need no tshark: telling TLS from the protocol, checking key logs, and reading
/// tshark's two outputs (texts as tshark 4.0 prints them).
@Suite struct TLSDecryptionParsingTests {
    @Test("a TLS record header is recognised; the protocol's frame header (version 10) is not")
    func recordHeader() throws {
        let hello = try #require(TLSRecordHeader([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]))
        #expect(hello.contentType == 22 && hello.versionMinor == 1 && hello.length == 512)
        #expect(hello.contentTypeName == "handshake")
        #expect(TLSRecordHeader([0x17, 0x03, 0x03, 0x00, 0x20])?.contentTypeName == "application data")
        #expect(TLSRecordHeader([0x0A, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00, 0x00, 0x10]) == nil)
        #expect(TLSRecordHeader([0x16, 0x03, 0x05, 0x00, 0x10]) == nil)  // no TLS 3.5
        #expect(TLSRecordHeader([0x16, 0x03, 0x03, 0xFF, 0xFF]) == nil)  // longer than 2^14 + 2048
        #expect(TLSRecordHeader([0x16, 0x03, 0x03, 0x00]) == nil)
    }

    private func keyLog(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "syncsim-keylog-\(UUID().uuidString).keys"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a key log is NSS lines, comments and blanks; anything else is named by its line")
    func keyLogFormat() throws {
        let good = try keyLog("# TLS secrets log file\n\nCLIENT_RANDOM 0a1b 2c3d\r\nCLIENT_TRAFFIC_SECRET_0 ab cd\n")
        defer { try? FileManager.default.removeItem(atPath: good) }
        #expect(try TLSKeyLog.validate(path: good) == 2)

        let bad = try keyLog("CLIENT_RANDOM 0a1b 2c3d\nhello world\n")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect(throws: TLSKeyLog.FormatError.self) { try TLSKeyLog.validate(path: bad) }
        do {
            _ = try TLSKeyLog.validate(path: bad)
        } catch {
            #expect("\(error)".hasPrefix("\(bad): line 2: expected 'LABEL CLIENT_RANDOM SECRET'"))
        }
        let empty = try keyLog("# nothing\n")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: TLSKeyLog.FormatError(path: empty, line: nil,
                                              detail: "holds no secrets (no 'LABEL CLIENT_RANDOM SECRET' line)")) {
            try TLSKeyLog.validate(path: empty)
        }
        #expect(throws: TLSKeyLog.FormatError.self) { try TLSKeyLog.validate(path: "/nonexistent/session.keys") }
    }

    @Test("tshark's field listing gives each TLS packet's stream, endpoints, version and client random")
    func packetListing() {
        let text = """
            4\t0\t127.0.0.1\t\t57086\t127.0.0.1\t\t44300\t1\t0x0304,0x0303\t0x0303\t2f:f0:7c:3c
            6\t0\t127.0.0.1\t\t44300\t127.0.0.1\t\t57086\t2,8,11,15,20\t0x0304\t0x0303\t
            9\t1\t\t::1\t40000\t\t::1\t443\t\t\t\t
            garbage line
            """
        let packets = TLSDecryption.parsePackets(text)
        #expect(packets.map(\.number) == [4, 6, 9])
        #expect(packets[0].clientRandom == "2ff07c3c" && packets[0].negotiatedVersion == nil)
        #expect(packets[1].negotiatedVersion == "TLS 1.3" && packets[1].handshakeTypes.contains(20))
        let client = TCPEndpoint(address: .v4(0x7F00_0001), port: 57086)
        let server = TCPEndpoint(address: .v4(0x7F00_0001), port: 44300)
        #expect(packets[1].matches(client, server) && packets[1].source(is: server))
        let loopback6 = IPAddress.v6([UInt8](repeating: 0, count: 15) + [1])
        #expect(packets[2].source(is: TCPEndpoint(address: loopback6, port: 40000)))
    }

    @Test("tshark's follow output gives each record's packet, capture time and bytes")
    func followOutput() {
        let text = """
            peers:
              - peer: 0
                host: 127.0.0.1
                port: 44300
              - peer: 1
                host:\u{20}
                port: 0
            packets:
              - packet: 9
                peer: 1
                timestamp: 1796045528.819257021
                data: !!binary |
                  aGVsbG8g
                  MA==
              - packet: 12
                peer: 0
                timestamp: 1796045528.8194
                data: !!binary |
                  ZWNobzpoZWxsbyAw
            """
        let records = TLSDecryption.parseFollow(text)
        #expect(records.map(\.packet) == [9, 12])
        #expect(records[0].bytes == Array("hello 0".utf8))
        #expect(records[0].timestamp == CaptureTimestamp(seconds: 1_796_045_528, nanoseconds: 819_257_021))
        #expect(records[1].timestamp == CaptureTimestamp(seconds: 1_796_045_528, nanoseconds: 819_400_000))
        #expect(records[1].bytes == Array("echo:hello 0".utf8))
    }

    @Test("a gap in the encrypted bytes becomes a gap in the plaintext, never a silent loss")
    func gapsInCiphertext() {
        let time = CaptureTimestamp(nanosecondsSinceEpoch: 0)
        func run(_ offset: Int64, _ count: Int, packet: Int) -> ByteRun {
            ByteRun(offset: offset, bytes: [UInt8](repeating: 7, count: count), timestamp: time, packetNumber: packet)
        }
        var ciphertext = TCPStreamTrace()
        ciphertext.pieces = [
            .data(run(0, 100, packet: 3)),
            .gap(StreamGap(offset: 100, length: 50, cause: .notCaptured, packetNumber: 9, timestamp: time)),
            .data(run(150, 80, packet: 8)),
        ]
        let before = run(0, 40, packet: 3)
        // Nothing decrypted after the gap: the gap runs to the stream's end.
        #expect(TLSDecryption.pieces([before], ciphertext: ciphertext) == [
            .data(before),
            .gap(StreamGap(offset: 40, length: 130, cause: .notCaptured, packetNumber: 9, timestamp: time)),
        ])
        // A record decrypted after the gap follows it, at the offset after the gap.
        let after = run(40, 30, packet: 8)
        var shifted = after
        shifted.offset = 90
        #expect(TLSDecryption.pieces([before, after], ciphertext: ciphertext) == [
            .data(before),
            .gap(StreamGap(offset: 40, length: 50, cause: .notCaptured, packetNumber: 9, timestamp: time)),
            .data(shifted),
        ])
        // Without gaps the runs stay as they are.
        var whole = TCPStreamTrace()
        whole.pieces = [.data(run(0, 100, packet: 3))]
        #expect(TLSDecryption.pieces([before, after], ciphertext: whole) == [.data(before), .data(after)])
    }
}
