import Foundation
import SimCore
import Testing

@testable import SyncTrace

/// `TLSRecordTally`: a TLS direction's records without its keys, and the version a plaintext ServerHello selected.
@Suite struct TLSRecordTallyTests {
    /// One run of `bytes` from offset 0, then a gap of `gap` bytes when given.
    static func stream(_ bytes: [UInt8], gap: Int64? = nil) -> TCPStreamTrace {
        var stream = TCPStreamTrace()
        let time = CaptureTimestamp(nanosecondsSinceEpoch: 0)
        stream.pieces = [.data(ByteRun(offset: 0, bytes: bytes, timestamp: time, packetNumber: 1))]
        if let gap {
            stream.pieces.append(.gap(StreamGap(offset: Int64(bytes.count), length: gap, cause: .notCaptured,
                                                packetNumber: 2, timestamp: time)))
        }
        return stream
    }

    /// A TLS record: content type, version 3.3, the fragment.
    static func record(_ type: UInt8, _ fragment: [UInt8]) -> [UInt8] {
        [type, 3, 3, UInt8(fragment.count >> 8), UInt8(fragment.count & 0xFF)] + fragment
    }

    /// A ServerHello handshake message selecting `legacy` and, when given, `supported` in supported_versions.
    static func serverHello(legacy: UInt16 = 0x0303, supported: UInt16? = nil) -> [UInt8] {
        var extensions: [UInt8] = [0x00, 0x17, 0x00, 0x00]  // extended_master_secret, empty: skipped
        if let supported { extensions += [0x00, 0x2B, 0x00, 0x02, UInt8(supported >> 8), UInt8(supported & 0xFF)] }
        var body: [UInt8] = [UInt8(legacy >> 8), UInt8(legacy & 0xFF)] + [UInt8](repeating: 7, count: 32)
        body += [3, 1, 2, 3]  // legacy_session_id of 3 bytes
        body += [0x13, 0x01, 0x00]  // cipher_suite, legacy_compression_method
        body += [UInt8(extensions.count >> 8), UInt8(extensions.count & 0xFF)] + extensions
        return [2, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    /// Handshake, change cipher spec, alert and application data records.
    static func kinds(_ tally: TLSRecordTally) -> [Int] {
        [tally.handshakeRecords, tally.changeCipherSpecRecords, tally.alertRecords, tally.applicationDataRecords]
    }

    @Test("the captured PyMax TLS legs: records by content type as tshark dissects them, the ServerHello's version")
    func pymaxCapture() throws {
        var url = URL(fileURLWithPath: #filePath)
        while url.lastPathComponent != "Tests" { url.deleteLastPathComponent() }
        let path = url.deletingLastPathComponent().appendingPathComponent("Fixtures/tls/pymax-tls.pcap").path
        let trace = try TraceReader.read(path: path, options: .init(ports: [43653, 37009]))
        let tallies = trace.connections.map { (TLSRecordTally($0.clientToServer), TLSRecordTally($0.serverToClient)) }
        try #require(tallies.count == 2)
        // Counted with `tshark -d tcp.port==P,tls -T fields -e tls.record.content_type -e tls.record.opaque_type`.
        let (client13, server13) = tallies[0]
        #expect(server13.selectedVersion == "TLS 1.3" && client13.selectedVersion == nil)
        #expect(Self.kinds(client13) == [1, 1, 0, 7])
        #expect(Self.kinds(server13) == [1, 1, 0, 13])
        let (client12, server12) = tallies[1]
        #expect(server12.selectedVersion == "TLS 1.2")
        #expect(Self.kinds(client12) == [3, 1, 1, 4])
        #expect(Self.kinds(server12) == [6, 1, 1, 5])
        #expect(client12.applicationDataBytes == 1114 && server12.applicationDataBytes == 818)
        #expect(tallies.allSatisfy { $0.0.end == nil && $0.1.end == nil })
        // Every byte is a record: five header bytes per record plus the fragments.
        #expect(trace.connections[1].clientToServer.byteCount == 1775)
    }

    @Test("the ServerHello's supported_versions wins over its legacy_version; without it the legacy one counts",
          arguments: [(nil, "TLS 1.2"), (0x0304, "TLS 1.3")] as [(UInt16?, String)])
    func serverHelloVersion(supported: UInt16?, expected: String) {
        let tally = TLSRecordTally(Self.stream(Self.record(22, Self.serverHello(supported: supported))))
        #expect(tally.selectedVersion == expected)
        #expect(tally.handshakeRecords == 1 && tally.end == nil)
    }

    @Test("a TLS record header split over segments of fewer than 5 bytes still marks the connection as TLS")
    func recordHeaderOverSegments() throws {
        let flow = SyntheticFlow()
        let record = Self.record(22, [1, 0, 0, 3, 3, 3, 3])
        var capture = SyntheticCapture()
        // The ClientHello's record in pieces of 2 bytes (a client, or a rewriter, cutting its first segment short).
        var packets = flow.handshake()
        for start in stride(from: 0, to: record.count, by: 2) {
            packets.append(flow.client(start, Array(record[start..<min(start + 2, record.count)])))
        }
        for (index, packet) in packets.enumerated() { capture.add(packet, microseconds: index * 1000) }
        let trace = try TraceReader.read(path: capture.write())
        let connection = try #require(trace.connections.first)
        // Before: nil (the first run held 2 bytes), so decode read the records as bad frame headers.
        #expect(connection.tlsRecordHeader?.direction == .clientToServer)
        #expect(connection.tlsRecordHeader?.header.contentType == 22)
    }

    @Test("a ServerHello split over two records is read whole; a handshake that is no ServerHello gives no version")
    func splitAndOtherHandshakes() {
        let hello = Self.serverHello(supported: 0x0304)
        let split = Self.record(22, Array(hello.prefix(10))) + Self.record(22, Array(hello.dropFirst(10)))
        #expect(TLSRecordTally(Self.stream(split)).selectedVersion == "TLS 1.3")
        var clientHello = hello
        clientHello[0] = 1
        #expect(TLSRecordTally(Self.stream(Self.record(22, clientHello))).selectedVersion == nil)
        let cut = Self.record(22, Array(hello.prefix(hello.count - 1)))
        #expect(TLSRecordTally(Self.stream(cut)).selectedVersion == nil, "a ServerHello cut short names no version")
    }

    @Test("the walk stops at a gap, at bytes that are no record, at a record the capture ends inside, and says where")
    func stops() {
        let records = Self.record(22, [1, 2, 3]) + Self.record(23, [UInt8](repeating: 9, count: 20))
        let whole = TLSRecordTally(Self.stream(records))
        #expect(whole.recordCount == 2 && whole.applicationDataBytes == 20 && whole.end == nil)
        let gap = TLSRecordTally(Self.stream(records, gap: 100))
        #expect(gap.recordCount == 2 && gap.end == .gap(offset: 33))
        #expect("\(gap.end!)" == "stopped at the gap at offset 33")
        let foreign = TLSRecordTally(Self.stream(records + [10, 0, 0, 0, 0, 0]))
        #expect(foreign.recordCount == 2 && foreign.end == .notARecord(offset: 33))
        let cut = TLSRecordTally(Self.stream(records + Self.record(23, [1, 2, 3, 4]).dropLast()))
        #expect(cut.recordCount == 2 && cut.end == .cutShort(offset: 33))
        let cutHeader = TLSRecordTally(Self.stream(records + [23, 3]))
        #expect(cutHeader.end == .cutShort(offset: 33))
        let cutByGap = TLSRecordTally(Self.stream(records + [23, 3, 3, 0, 50, 1], gap: 10))
        #expect(cutByGap.recordCount == 2 && cutByGap.end == .gap(offset: 39))
        #expect(TLSRecordTally(TCPStreamTrace()).recordCount == 0 && TLSRecordTally(TCPStreamTrace()).end == nil)
    }

    @Test("randomly damaged TLS streams are walked or stopped with a reason, never a trap",
          arguments: [1, 2, 3] as [UInt64])
    func damagedStreams(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let original = Self.record(22, Self.serverHello(supported: 0x0304)) + Self.record(20, [1])
            + Self.record(23, [UInt8](repeating: 5, count: 40))
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            let tally = TLSRecordTally(Self.stream(bytes))
            // The records counted lie within the bytes: a header each, and the application data fragments.
            #expect(tally.recordCount * 5 + Int(tally.applicationDataBytes) <= bytes.count, "seed \(seed)")
            // Read to the end without a stop: every byte was a record.
            if tally.end == nil { #expect(bytes.isEmpty || tally.recordCount > 0, "seed \(seed)") }
        }
    }
}
