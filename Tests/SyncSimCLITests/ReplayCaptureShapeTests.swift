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
}
