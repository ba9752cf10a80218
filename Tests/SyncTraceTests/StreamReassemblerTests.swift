import SimCore
import Testing

@testable import SyncTrace

/// Reassembly through whole synthetic captures: each test writes a pcap file byte by byte and reads it back.
@Suite struct StreamReassemblerTests {
    let flow = SyntheticFlow()

    func read(_ frames: [[UInt8]], snapKeep: [Int: Int] = [:]) throws -> TCPConnectionTrace {
        var capture = SyntheticCapture()
        for (index, frame) in frames.enumerated() {
            capture.add(frame, microseconds: index * 1000, keep: snapKeep[index])
        }
        let trace = try TraceReader.read(path: capture.write())
        #expect(trace.connections.count == 1)
        return try #require(trace.connections.first)
    }

    static let text = Array("The quick brown fox jumps over the lazy dog".utf8)

    @Test("in-order segments after a handshake form one stream with no gaps or anomalies")
    func inOrder() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<10])), flow.client(10, Array(Self.text[10...])),
            ])
        #expect(connection.client.port == 40000)
        #expect(connection.clientToServer.bytesIgnoringGaps == Self.text)
        #expect(connection.clientToServer.gaps.isEmpty)
        #expect(connection.clientToServer.anomalies.isEmpty)
        #expect(connection.clientToServer.runs.map(\.packetNumber) == [4, 5])
    }

    @Test("out-of-order segments wait and take the timestamp of the packet that completed them")
    func outOfOrder() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(20, Array(Self.text[20...])), flow.client(10, Array(Self.text[10..<20])),
                flow.client(0, Array(Self.text[0..<10])),
            ])
        let stream = connection.clientToServer
        #expect(stream.bytesIgnoringGaps == Self.text)
        #expect(stream.gaps.isEmpty)
        #expect(stream.runs.count == 1)
        #expect(stream.runs.first?.packetNumber == 6)
        #expect(stream.runs.first?.timestamp.description == "1700000000.005000000")
    }

    @Test("a retransmission is counted, not repeated")
    func retransmission() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<20])), flow.client(0, Array(Self.text[0..<20])),
                flow.client(10, Array(Self.text[10...])),
            ])
        let stream = connection.clientToServer
        #expect(stream.bytesIgnoringGaps == Self.text)
        #expect(stream.retransmittedSegmentCount == 2)
        #expect(stream.retransmittedByteCount == 30)
        #expect(stream.anomalies.isEmpty)
        // The handshake's SYN and ACK, then the three data segments: the last two repeat bytes.
        #expect(stream.segmentTimes.map(\.isRetransmission) == [false, false, false, true, true])
    }

    @Test("a keep-alive probe (one garbage byte before the next expected byte) is not data and not a conflict")
    func keepAlive() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<10])), flow.client(9, [0]), flow.client(10, Array(Self.text[10...])),
            ])
        let stream = connection.clientToServer
        #expect(stream.bytesIgnoringGaps == Self.text)
        #expect(stream.keepAliveCount == 1)
        #expect(stream.anomalies.isEmpty)
        #expect(stream.retransmittedSegmentCount == 0)
    }

    @Test("overlapping copies that disagree keep the first copy and are reported")
    func overlapConflict() throws {
        var altered = Array(Self.text[5..<15])
        altered[3] = UInt8(ascii: "#")  // stream offset 8
        altered[4] = UInt8(ascii: "#")  // stream offset 9
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<10])), flow.client(5, altered),
                flow.client(15, Array(Self.text[15...])),
            ])
        let stream = connection.clientToServer
        #expect(stream.bytesIgnoringGaps == Self.text)
        #expect(stream.anomalies == [StreamAnomaly(kind: .overlapConflict, packetNumber: 5, offset: 8, length: 2)])
    }

    @Test("an out-of-order overlap that disagrees with waiting bytes is reported too")
    func pendingOverlapConflict() throws {
        var altered = Array(Self.text[20..<30])
        altered[7] = 0  // stream offset 27, already waiting from packet 4
        let connection = try read(
            flow.handshake() + [
                flow.client(25, Array(Self.text[25...])), flow.client(20, altered),
                flow.client(0, Array(Self.text[0..<20])),
            ])
        let stream = connection.clientToServer
        #expect(stream.bytesIgnoringGaps == Self.text)
        #expect(stream.anomalies == [StreamAnomaly(kind: .overlapConflict, packetNumber: 5, offset: 27, length: 1)])
    }

    @Test("sequence numbers wrap past 2^32 without a gap")
    func sequenceWrap() throws {
        let wrapping = SyntheticFlow(clientISN: UInt32.max - 20, serverISN: UInt32.max)
        let chunks = stride(from: 0, to: Self.text.count, by: 8).map {
            Array(Self.text[$0..<min($0 + 8, Self.text.count)])
        }
        var frames = wrapping.handshake()
        for (index, chunk) in chunks.enumerated() { frames.append(wrapping.client(index * 8, chunk)) }
        frames.append(wrapping.server(0, Array("pong".utf8), ack: Self.text.count))
        let connection = try read(frames)
        #expect(connection.clientToServer.bytesIgnoringGaps == Self.text)
        #expect(connection.clientToServer.gaps.isEmpty)
        #expect(connection.serverToClient.bytesIgnoringGaps == Array("pong".utf8))
    }

    @Test("bytes cut by the snap length become a gap of that cause, and the stream goes on after it")
    func snapLengthCut() throws {
        let frames =
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<20])), flow.client(20, Array(Self.text[20...])),
            ]
        // Ethernet 14 + IPv4 20 + TCP 20 = 54 header bytes; keep 5 payload bytes of the first data packet.
        let connection = try read(frames, snapKeep: [3: 59])
        let stream = connection.clientToServer
        #expect(
            stream.gaps == [
                StreamGap(
                    offset: 5, length: 15, cause: .cutBySnapLength, packetNumber: 4,
                    timestamp: stream.gaps.first?.timestamp ?? .init(nanosecondsSinceEpoch: 0))
            ])
        #expect(stream.runs.map(\.offset) == [0, 20])
        #expect(stream.bytesIgnoringGaps == Array(Self.text[0..<5]) + Self.text[20...])
    }

    @Test("bytes the peer acknowledged but the capture missed become a gap when the ACK arrives")
    func gapShownByACK() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<10])),
                // bytes 10..<20 never captured
                flow.server(0, [], flags: PacketBytes.ack, ack: 20),
                flow.client(20, Array(Self.text[20...])),
            ])
        let stream = connection.clientToServer
        let gap = try #require(stream.gaps.first)
        #expect(stream.gaps.count == 1)
        #expect((gap.offset, gap.length, gap.cause, gap.packetNumber) == (10, 10, .notCaptured, 5))
        #expect(stream.pieces.map(\.offset) == [0, 10, 20])
    }

    @Test("data captured after the ACK that declared its gap fills the gap late and is reported")
    func gapFilledLate() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<10])),
                flow.server(0, [], flags: PacketBytes.ack, ack: 30),
                flow.client(15, Array(Self.text[15..<20])),
                flow.client(20, Array(Self.text[20...])),
            ])
        let stream = connection.clientToServer
        #expect(stream.invariantViolation() == nil)
        #expect(stream.gaps.map { [$0.offset, $0.length] } == [[10, 5]])
        #expect(
            stream.anomalies == [
                StreamAnomaly(kind: .gapFilledLate, packetNumber: 6, offset: 15, length: 5),
                StreamAnomaly(kind: .gapFilledLate, packetNumber: 7, offset: 20, length: 10),
            ])
        #expect(stream.runs.map(\.offset) == [0, 15, 20])
        #expect(stream.bytesIgnoringGaps == Array(Self.text[0..<10]) + Self.text[15...])
    }

    @Test("a one-byte segment that ends a gap reported early fills it late and is no keep-alive probe")
    func oneByteFillsGapLate() throws {
        // The ACK for 11 bytes comes before the 11th byte, which then arrives alone (a capture that put the ACK
        // before the data, tiny segments): it is the missing byte, at the offset just below the next expected one,
        // where a keep-alive probe would be. Before, it was counted as a probe and a 1-byte gap stayed.
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<10])),
                flow.server(0, [], flags: PacketBytes.ack, ack: 11),
                flow.client(10, [Self.text[10]]),
                flow.client(11, Array(Self.text[11...])),
            ])
        let stream = connection.clientToServer
        #expect(stream.invariantViolation() == nil)
        #expect(stream.keepAliveCount == 0)
        #expect(stream.gaps.isEmpty)
        #expect(stream.bytesIgnoringGaps == Self.text)
        #expect(stream.anomalies == [StreamAnomaly(kind: .gapFilledLate, packetNumber: 6, offset: 10, length: 1)])
    }

    @Test("decode and replay are told of overlapping copies that disagree and of IP fragments behind gaps")
    func unreadBytesNotes() throws {
        var capture = SyntheticCapture()
        var fragment = flow.client(10, Array(Self.text[10..<20]))
        fragment[14 + 6] = 0x20  // IPv4 flags: more fragments (offset 0): skipped as an IP fragment
        let packets = flow.handshake() + [
            flow.client(0, Array(Self.text[0..<10])),
            flow.client(0, Array("The quack ".utf8)),  // a retransmission whose bytes differ from the first copy
            fragment,
            flow.server(0, [], flags: PacketBytes.ack, ack: 20),
            flow.client(20, Array(Self.text[20...])),
        ]
        for (index, packet) in packets.enumerated() { capture.add(packet, microseconds: index * 1000) }
        let trace = try TraceReader.read(path: capture.write())
        #expect(trace.skipCounts[.ipFragment] == 1)
        // Before, only trace-summary's lines showed either; decode's JSON lines and replay said nothing.
        #expect(
            trace.unreadBytesNotes() == [
                "1 IP fragment skipped (fragments are not reassembled); the bytes missing in connection 1 may be in "
                    + "them, not lost by the capture ('syncsim trace-summary' lists the gaps)",
                "overlapping copies disagree at 1 place (the first: connection 1 client->server, packet 5, 1 byte at "
                    + "offset 6); the first copy captured is the one decoded and replayed ('syncsim trace-summary' "
                    + "lists them)",
            ])
    }

    @Test("bytes waiting behind a hole at the end of the capture are delivered after a gap")
    func gapAtEnd() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<10])), flow.client(30, Array(Self.text[30...])),
            ])
        let stream = connection.clientToServer
        #expect(stream.gaps.map { [$0.offset, $0.length] } == [[10, 20]])
        #expect(stream.runs.map(\.offset) == [0, 30])
        #expect(stream.missingByteCount == 20)
    }

    @Test("a FIN after a hole reports the bytes missing before it")
    func gapBeforeFIN() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array(Self.text[0..<10])), flow.client(20, [], flags: PacketBytes.fin | PacketBytes.ack),
            ])
        let stream = connection.clientToServer
        #expect(stream.sawFIN)
        #expect(stream.gaps.map { [$0.offset, $0.length] } == [[10, 10]])
    }

    @Test("FIN and RST are recorded; segments after a RST are ignored and reported")
    func finAndReset() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array("bye".utf8), flags: PacketBytes.fin | PacketBytes.ack),
                flow.server(0, [], flags: PacketBytes.rst | PacketBytes.ack, ack: 4),
                flow.server(0, Array("late".utf8)),
            ])
        #expect(connection.clientToServer.sawFIN)
        #expect(connection.serverToClient.sawRST)
        #expect(connection.serverToClient.byteCount == 0)
        #expect(connection.serverToClient.anomalies.map(\.kind) == [.segmentAfterReset])
        #expect(connection.clientToServer.gaps.isEmpty)
    }

    @Test("a capture that starts mid-connection anchors on the first segment and says so")
    func midStream() throws {
        let connection = try read([flow.server(100, Array("tail".utf8)), flow.client(7, Array("more".utf8), ack: 104)])
        #expect(connection.server.port == 443)
        #expect(connection.serverToClient.bytesIgnoringGaps == Array("tail".utf8))
        #expect(connection.serverToClient.anomalies.map(\.kind) == [.startedWithoutSYN])
        #expect(connection.clientToServer.anomalies.map(\.kind) == [.startedWithoutSYN])
    }

    @Test("a new SYN on a closed port pair starts a second connection")
    func portReuse() throws {
        let second = SyntheticFlow(clientISN: 900_000, serverISN: 7_000_000)
        var capture = SyntheticCapture()
        let frames =
            flow.handshake() + [
                flow.client(0, Array("one".utf8), flags: PacketBytes.rst | PacketBytes.ack)
            ] + second.handshake() + [second.client(0, Array("two".utf8))]
        for frame in frames { capture.add(frame) }
        let trace = try TraceReader.read(path: capture.write())
        #expect(trace.connections.map(\.number) == [1, 2])
        #expect(trace.connections.map(\.clientToServer.bytesIgnoringGaps) == [Array("one".utf8), Array("two".utf8)])
    }

    @Test(
        "a SYN with a new ISN on a port pair still open starts a second connection (the first's close not captured)",
        arguments: [900_000, 3_000_000_000] as [UInt32])
    func portReuseWithoutClose(secondISN: UInt32) throws {
        // Both ISNs below and above the first's: the second connection's bytes once fell outside the first's
        // sequence space (lost) or became a gap of gigabytes.
        let second = SyntheticFlow(clientISN: secondISN, serverISN: secondISN &+ 77)
        var capture = SyntheticCapture()
        let frames =
            flow.handshake() + [flow.client(0, Array("one".utf8)), flow.server(0, Array("1".utf8), ack: 3)]
            + second.handshake() + [second.client(0, Array("two".utf8)), second.server(0, Array("2".utf8), ack: 3)]
        for (index, frame) in frames.enumerated() { capture.add(frame, microseconds: index * 1000) }
        let trace = try TraceReader.read(path: capture.write())
        #expect(trace.connections.map(\.number) == [1, 2])
        #expect(trace.connections.map(\.clientToServer.bytesIgnoringGaps) == [Array("one".utf8), Array("two".utf8)])
        #expect(trace.connections.map(\.serverToClient.bytesIgnoringGaps) == [Array("1".utf8), Array("2".utf8)])
        #expect(trace.connections.allSatisfy { $0.clientToServer.gaps.isEmpty && $0.serverToClient.gaps.isEmpty })
        #expect(trace.connections.allSatisfy { $0.clientToServer.anomalies.isEmpty && $0.serverToClient.anomalies.isEmpty })
    }

    @Test("a retransmitted SYN (the same ISN) stays in its connection")
    func retransmittedSYN() throws {
        let frames = flow.handshake()
        let connection = try read([frames[0], frames[0]] + frames[1...] + [flow.client(0, Array("hi".utf8))])
        #expect(connection.clientToServer.bytesIgnoringGaps == Array("hi".utf8))
        #expect(connection.clientToServer.anomalies.isEmpty)
    }

    @Test("bytes after a FIN are reported and not delivered, and the FIN's sequence number is no missing byte")
    func dataAfterFIN() throws {
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array("bye".utf8), flags: PacketBytes.fin | PacketBytes.ack),
                flow.client(4, Array("late".utf8)),
                flow.server(0, [], flags: PacketBytes.ack, ack: 8),
            ])
        let stream = connection.clientToServer
        #expect(stream.bytesIgnoringGaps == Array("bye".utf8))
        #expect(stream.gaps.isEmpty)
        #expect(stream.anomalies.map(\.kind) == [.dataAfterFIN])
    }

    @Test("an ACK past bytes sent after a RST declares no gap: they were captured and set aside")
    func ackPastReset() throws {
        let connection = try read(
            flow.handshake() + [
                flow.server(0, Array("half".utf8)),
                flow.server(4, [], flags: PacketBytes.rst | PacketBytes.ack),
                flow.server(4, Array("more".utf8)),
                flow.client(0, [], flags: PacketBytes.ack, ack: 8),
            ])
        let stream = connection.serverToClient
        #expect(stream.bytesIgnoringGaps == Array("half".utf8))
        #expect(stream.gaps.isEmpty)
        #expect(stream.anomalies.map(\.kind) == [.segmentAfterReset])
    }

    @Test("capture times that go back are read at the latest time before them, counted, and the first named")
    func timeGoesBack() throws {
        var capture = SyntheticCapture()
        let frames = flow.handshake() + [flow.client(0, Array("ab".utf8)), flow.client(2, Array("cd".utf8)),
                                         flow.client(4, Array("ef".utf8))]
        // Packet 5 is stamped 5 s before packet 4, packet 6 3 s before it: a clock stepped back.
        let times = [0, 1000, 2000, 10_000_000, 5_000_000, 7_000_000]
        for (frame, time) in zip(frames, times) { capture.add(frame, microseconds: time) }
        let trace = try TraceReader.read(path: capture.write())
        let stepBack = try #require(trace.timeSteppedBack)
        #expect(stepBack.packetCount == 2)
        #expect(stepBack.firstPacketNumber == 5)
        #expect(stepBack.largestStepNanoseconds == 5_000_000_000)
        let times4to6 = try #require(trace.connections.first).clientToServer.runs.map(\.timestamp)
        #expect(times4to6.count == 3)
        #expect(Set(times4to6).count == 1, "all three read at packet 4's time")
        #expect(trace.summaryLines().contains {
            $0.contains("time went back: 2 packets are stamped earlier than a packet before them (the first: packet 5, "
                + "the largest step back 5.000000000 s)")
        })
    }

    @Test("a segment whose sequence number is far outside the stream is ignored and reported")
    func outOfWindow() throws {
        var far = flow
        far.clientISN = flow.clientISN &+ 0x8000_0000
        let connection = try read(
            flow.handshake() + [
                flow.client(0, Array("ok".utf8)), far.client(0, Array("bogus".utf8)),
            ])
        #expect(connection.clientToServer.bytesIgnoringGaps == Array("ok".utf8))
        #expect(connection.clientToServer.anomalies.map(\.kind) == [.outOfWindow])
    }
}

/// Randomized reassembly: shuffled, duplicated, dropped and cut segments, checked against the bytes sent.
@Suite struct StreamReassemblerRandomizedTests {
    @Test(
        "shuffled and duplicated segments reassemble exactly; dropped or cut ones leave consistent gaps",
        arguments: [11, 12, 13, 14, 15, 16, 17, 18] as [UInt64])
    func randomized(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for round in 0..<12 {
            let flow = SyntheticFlow(clientISN: UInt32.random(in: 0...UInt32.max, using: &random), serverISN: 1)
            let sent = (0..<Int.random(in: 1...600, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            var segments: [(offset: Int, length: Int)] = []
            var offset = 0
            while offset < sent.count {
                let length = min(Int.random(in: 1...60, using: &random), sent.count - offset)
                segments.append((offset, length))
                offset += length
            }
            let isLossy = round % 2 == 1
            var order = segments
            order.shuffle(using: &random)
            order += (0..<Int.random(in: 0...3, using: &random)).compactMap { _ in
                segments.randomElement(using: &random)
            }
            var capture = SyntheticCapture()
            for frame in flow.handshake() { capture.add(frame) }
            for (index, segment) in order.enumerated() {
                if isLossy && Int.random(in: 0..<5, using: &random) == 0 { continue }
                let frame = flow.client(segment.offset, Array(sent[segment.offset..<(segment.offset + segment.length)]))
                let keep =
                    isLossy && Int.random(in: 0..<5, using: &random) == 0
                    ? 54 + Int.random(in: 0..<segment.length, using: &random) : nil
                capture.add(frame, microseconds: (index + 3) * 10, keep: keep)
            }
            let trace = try TraceReader.read(path: capture.write())
            let stream = try #require(trace.connections.first, "seed \(seed) round \(round)").clientToServer
            #expect(stream.invariantViolation() == nil, "seed \(seed) round \(round)")
            for run in stream.runs {
                #expect(Array(sent[Int(run.offset)..<Int(run.endOffset)]) == run.bytes, "seed \(seed) round \(round)")
            }
            #expect(stream.anomalies.allSatisfy { $0.kind == .gapFilledLate }, "seed \(seed) round \(round)")
            if !isLossy {
                #expect(stream.bytesIgnoringGaps == sent, "seed \(seed) round \(round)")
                #expect(stream.gaps.isEmpty, "seed \(seed) round \(round)")
            }
        }
    }
}
