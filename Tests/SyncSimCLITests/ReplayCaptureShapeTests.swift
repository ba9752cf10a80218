import Foundation
import SimCore
import SyncProtocol
import SyncTrace
import Testing

@testable import SyncSimCLI

/// Captures whose shape a replay cannot judge (a helper's capture trial, session 37): cut by a snap length, or started
/// after the client logged in. Each is said, not read as differences of the server's (or as a pass).
@Suite struct ReplayCaptureShapeTests {
    /// A capture of one connection from 10.0.0.1:40000 to 10.0.0.2:443 carrying a PING and its answer (and
    /// `filler` bytes of text in each payload), with or without the TCP handshake, written with `snapLength`.
    static func capture(name: String, handshake: Bool, snapLength: UInt32 = 0, filler: Int = 0) throws -> String {
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 1), port: 40000),
            server: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 2), port: 443))
        let text = MessagePackValue.string(String(repeating: "x", count: filler))
        let request = try FrameEncoder().encode(Frame(
            cmd: .request, seq: 1, opcode: .ping,
            payload: .map([MessagePackPair(.string("interactive"), .bool(true)), MessagePackPair(.string("pad"), text)])))
        let answer = try FrameEncoder().encode(Frame(cmd: .response, seq: 1, opcode: .ping, payload: .map([])))
        var packets: [[UInt8]] = handshake ? connection.open() : []
        packets += connection.send(request, .clientToServer)
        packets += connection.send(answer, .serverToClient)
        var writer = PcapngWriter(interfaces: [.init(name: "raw", snapLength: snapLength)])
        for (index, packet) in packets.enumerated() {
            writer.append(packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: Int64(1_000_000 * (index + 1))))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-\(name)-\(getpid()).pcapng").path
        try writer.write(to: path)
        return path
    }

    @Test("a capture whose snap length cut protocol bytes is refused in every replay mode, naming the cut")
    func snapLengthCut() throws {
        let path = try Self.capture(name: "snap", handshake: true, snapLength: 120, filler: 400)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for mode in [["--against", "server"], ["--against", "client"], ["--emit-scenario", "cut"]] {
            let result = ReplayCommandTests.run(["replay", path] + mode)
            #expect(result.code == 2, "\(mode): \(result)")
            #expect(result.err.contains("cut short by the capture (its snap length) lost protocol bytes: connection 1 "
                                        + "client-to-server"),
                    "\(result.err)")
            #expect(result.err.contains("tcpdump -s 0"))
        }
        // The same capture without the cut replays with its one answer compared.
        let whole = try Self.capture(name: "whole", handshake: true, filler: 400)
        defer { try? FileManager.default.removeItem(atPath: whole) }
        let result = ReplayCommandTests.run(["replay", whole, "--against", "server"])
        #expect(result.code == 0 && result.out.last?.contains("1 answer compared, 0 differences") == true, "\(result)")
    }

    @Test("a connection captured after its LOGIN is not compared, and a replay that compares nothing is no pass")
    func loggedInBeforeCapture() throws {
        let path = try Self.capture(name: "midstream", handshake: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = ReplayCommandTests.run(["replay", path, "--against", "server"])
        // Before: "1 answer compared, 1 difference" (the rebuilt server refused the PING: not logged in).
        #expect(result.code == 2, "\(result)")
        #expect(result.out.last?.contains("0 answers compared, 0 differences") == true, "\(result.out)")
        #expect(result.err.contains("note: connection 1: no handshake in the capture"), "\(result.err)")
        #expect(result.err.contains("no captured answer could be compared"), "\(result.err)")
    }
}

/// The order concurrent requests of different connections reach the rebuilt server (`ReplayAgainstServer.feedTimes`).
@Suite struct ReplayFeedOrderTests {
    static func connection(_ number: Int, requestAt request: Int64, answerAt answer: Int64) -> ReplayTimeline.Connection {
        let ping = Packet(cmd: .request, seq: 1, opcode: .ping, body: .ping(PingRequest(interactive: true)))
        let pong = Packet(cmd: .response, seq: 1, opcode: .ping, body: .empty)
        return ReplayTimeline.Connection(
            number: number, client: "10.0.0.\(number):4000", opensAt: .start,
            entries: [
                .init(time: .start + .microseconds(request), connection: number, direction: .clientToServer, packet: ping),
                .init(time: .start + .microseconds(answer), connection: number, direction: .serverToClient, packet: pong),
            ])
    }

    @Test("requests of different connections captured within 2 ms are fed in the order the server answered them")
    func answerOrder() throws {
        var timeline = try ReplayTimeline(TraceDecoder().decode(path: ReplayCommandTests.offlineSends))
        // Eight clients' LOGINs, as a helper's capture had them: connection 8's captured first, answered last.
        timeline.connections = [Self.connection(8, requestAt: 943_291, answerAt: 959_018),
                                Self.connection(3, requestAt: 943_621, answerAt: 958_819),
                                Self.connection(5, requestAt: 943_768, answerAt: 958_950)]
        let fed = ReplayAgainstServer.feedTimes(timeline)
        let three = try #require(fed[.init(connection: 3, index: 0)])
        let five = try #require(fed[.init(connection: 5, index: 0)])
        let eight = try #require(fed[.init(connection: 8, index: 0)])
        #expect(three < five && five < eight, "\(fed)")
        #expect(three == .start + .microseconds(943_621) && eight - five == .nanoseconds(1))
        // Answered in capture order, or more than 2 ms apart: every request at its capture time.
        timeline.connections = [Self.connection(8, requestAt: 943_291, answerAt: 958_000),
                                Self.connection(3, requestAt: 943_621, answerAt: 958_819)]
        #expect(ReplayAgainstServer.feedTimes(timeline).isEmpty)
        timeline.connections = [Self.connection(8, requestAt: 943_291, answerAt: 959_018),
                                Self.connection(3, requestAt: 946_000, answerAt: 958_819)]
        #expect(ReplayAgainstServer.feedTimes(timeline).isEmpty)
    }

    /// A connection sending PINGs of seq 1, 2, ... at the given times (microseconds), each answered at its time.
    static func connection(_ number: Int, _ exchanges: [(request: Int64, answer: Int64)]) -> ReplayTimeline.Connection {
        var entries: [ReplayTimeline.Entry] = []
        for (offset, exchange) in exchanges.enumerated() {
            let seq = UInt16(offset + 1)
            entries.append(.init(time: .start + .microseconds(exchange.request), connection: number,
                                 direction: .clientToServer,
                                 packet: Packet(cmd: .request, seq: seq, opcode: .ping,
                                                body: .ping(PingRequest(interactive: true)))))
            entries.append(.init(time: .start + .microseconds(exchange.answer), connection: number,
                                 direction: .serverToClient,
                                 packet: Packet(cmd: .response, seq: seq, opcode: .ping, body: .empty)))
        }
        entries.sort { $0.time < $1.time }
        return ReplayTimeline.Connection(number: number, client: "10.0.0.\(number):4000", opensAt: .start,
                                         entries: entries)
    }

    @Test("a connection's requests back to back do not keep another connection's out of the answer order")
    func answerOrderWithSeveralRequestsOfOneConnection() throws {
        var timeline = try ReplayTimeline(TraceDecoder().decode(path: ReplayCommandTests.offlineSends))
        // Connection 1 sends two requests 0.2 ms apart; connection 2's, captured between them, was answered first.
        timeline.connections = [Self.connection(1, [(100, 1_000), (300, 1_500)]),
                                Self.connection(2, [(200, 500)])]
        let fed = ReplayAgainstServer.feedTimes(timeline)
        // Before: capture order (a cluster holding two requests of one connection kept it), nothing moved.
        let two = try #require(fed[.init(connection: 2, index: 0)], "\(fed)")
        let first = try #require(fed[.init(connection: 1, index: 0)], "\(fed)")
        #expect(two == .start + .microseconds(200) && first == two + .nanoseconds(1), "\(fed)")
        // Connection 1's second request keeps its place and time.
        #expect(fed[.init(connection: 1, index: 2)] == nil, "\(fed)")
        // A connection's own requests never pass each other, whatever their answers say.
        timeline.connections = [Self.connection(1, [(100, 1_000), (300, 400)])]
        #expect(ReplayAgainstServer.feedTimes(timeline).isEmpty)
    }

    @Test("PyMax 2.5.0: a page answered before another client's send captured first replays with 0 differences")
    func interleavedHistory() throws {
        let path = TraceDecodeCommandTests.fixture("pymax-session/pymax-2.5.0-interleaved-history.pcapng")
        let result = ReplayCommandTests.run(["replay", path, "--against", "server"])
        // Before: 1 difference, seq 9 CHAT_HISTORY: the replay's page held "msg 1 x", sent after serve answered it.
        #expect(result.code == 0, "\(result)")
        #expect(result.out.last?.contains("20 answers compared, 0 differences") == true, "\(result.out)")
    }

    @Test("PyMax 2.5.0: a FIN the server answered before a request captured 30 µs earlier closes first")
    func closeBeforeConcurrentRequest() throws {
        let path = TraceDecodeCommandTests.fixture("pymax-session/pymax-2.5.0-websocket-deflate-close-race.pcap")
        let result = ReplayCommandTests.run(["replay", path, "--against", "server"])
        // Before: 1 difference, connection 8 NOTIF_CHAT pushes: 0 captured, 1 replayed (the CHAT_UPDATE fed before the
        // raw connection's FIN, which serve read first).
        #expect(result.code == 0, "\(result)")
        #expect(result.out.last?.contains("47 answers compared, 0 differences") == true, "\(result.out)")
    }
}

/// Requests a capture lost in a gap of a client-to-server stream whose answers it holds (`ReplayLostRequests`).
@Suite struct ReplayLostRequestTests {
    static let lostRequests = TraceDecodeCommandTests.fixture("pymax-session/pymax-2.5.0-lost-requests.pcap")

    @Test("lost plain MSG_SENDs are rebuilt from their answers; a lost page's answer is not compared; each gap noted")
    func lostRequests() throws {
        let result = ReplayCommandTests.run(["replay", Self.lostRequests, "--against", "server"])
        // Before: 38 differences and no note: a page before the lost send held its message (seeded as history), the
        // sends' answers were missing, and every page after them differed.
        #expect(result.code == 0, "\(result)")
        #expect(result.out.last?.contains("89 answers compared, 0 differences (1 answer to requests lost from the "
                                          + "capture not compared)") == true, "\(result.out)")
        #expect(result.err.contains("note: connection 1 client-to-server: 130 bytes missing at offset 251 (packet 12, "
                                    + "0.054s): the server got a request there the capture does not hold; rebuilt "
                                    + "from its captured answer and replayed: seq 4 MSG_SEND; not replayed, its "
                                    + "captured answer not compared: seq 5 CHAT_HISTORY"), "\(result.err)")
        #expect(result.err.contains("note: connection 2 client-to-server: 82 bytes missing at offset 2027"),
                "\(result.err)")
    }

    @Test("a rebuilt send goes into the timeline once, before its answer, spanning when the server can have taken it")
    func rebuiltEntry() throws {
        let timeline = try ReplayTimeline(TraceDecoder().decode(path: Self.lostRequests))
        let (restored, lost) = ReplayLostRequests.restoring(timeline)
        #expect(lost.map { "\($0.connection) \($0.seq) \($0.opcode) \($0.restored)" }
                == ["1 4 MSG_SEND true", "1 5 CHAT_HISTORY false", "2 12 MSG_SEND true"])
        let connection = try #require(restored.connections.first { $0.number == 2 })
        let rebuilt = connection.entries.enumerated().filter { $0.element.reachedServerBy != nil }
        #expect(rebuilt.count == 1)
        let (index, entry) = try #require(rebuilt.first)
        guard case .msgSend(let request) = entry.packet.body else { Issue.record("\(entry.packet)"); return }
        #expect(request.message.text == "msg 1 x" && entry.packet.seq == 12)
        let answer = try #require(connection.entries[(index + 1)...].first { $0.packet.seq == 12 })
        #expect(entry.time <= entry.reachedServerBy! && entry.reachedServerBy! <= answer.time)
        // A capture without gaps is left as it is.
        let whole = try ReplayTimeline(TraceDecoder().decode(path: ReplayCommandTests.offlineSends))
        #expect(ReplayLostRequests.restoring(whole).lost.isEmpty)
    }
}

/// A capture whose connections go to more than one server endpoint.
@Suite struct ReplayEndpointTests {
    @Test("connections to two server endpoints: a note names them and the --port of each")
    func twoEndpoints() throws {
        var packets: [[UInt8]] = []
        for (host, port) in [(2, UInt16(7402)), (3, 7416)] {
            var connection = SyntheticTCPConnection(
                client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 1), port: 40000 + port),
                server: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: host), port: port))
            packets += connection.open()
            packets += connection.send(try FrameEncoder().encode(Frame(
                cmd: .request, seq: 1, opcode: .ping,
                payload: .map([MessagePackPair(.string("interactive"), .bool(true))]))), .clientToServer)
            packets += connection.send(try FrameEncoder().encode(Frame(cmd: .response, seq: 1, opcode: .ping,
                                                                       payload: .map([]))), .serverToClient)
        }
        var writer = PcapngWriter(interfaces: [.init(name: "raw")])
        for (index, packet) in packets.enumerated() {
            writer.append(packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: Int64(1_000_000 * (index + 1))))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("syncsim-endpoints-\(getpid()).pcapng")
            .path
        try writer.write(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = ReplayCommandTests.run(["replay", path, "--against", "server"])
        // Before: no note; the two servers' connections went into one rebuilt server unsaid.
        #expect(result.err.contains("note: the capture's connections go to 2 server endpoints: "), "\(result.err)")
        #expect(result.err.contains(":7402 (connection 1), ") && result.err.contains(":7416 (connection 2)"),
                "\(result.err)")
        #expect(result.err.contains("replay each alone with --port 7402 or --port 7416"), "\(result.err)")
        // One endpoint: no note.
        let one = ReplayCommandTests.run(["replay", path, "--against", "server", "--port", "7402"])
        #expect(!one.err.contains("server endpoints"), "\(one.err)")
        // A scenario made from them mixes them as well (before: --emit-scenario and --run said nothing).
        for mode in [["--emit-scenario", "two"], ["--run"]] {
            let made = ReplayCommandTests.run(["replay", path] + mode)
            #expect(made.err.contains("note: the capture's connections go to 2 server endpoints: "), "\(made.err)")
        }
    }
}
