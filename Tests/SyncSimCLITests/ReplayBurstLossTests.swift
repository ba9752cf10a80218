import Foundation
import SimCore
import SyncProtocol
import SyncSim
import SyncTrace
import Testing

@testable import SyncSimCLI

/// `replay --emit-scenario` on captures whose retransmissions come in bursts or one at a time
/// (`ReplayInference.BurstLoss`): bursty loss becomes a profile of the client's own with Gilbert-Elliott loss, the
/// rest keeps the catalog's profiles.
@Suite struct ReplayBurstLossTests {
    /// One client, alice (198.18.0.3), on an 840 ms RTT (EDGE's 440 + 400 ms): SESSION_INIT, LOGIN, then 192 sends 2 s
    /// apart, each request and answer one segment; the sends in `copies` are sent again that many times, 100 ms
    /// apart, before their answer (a fade that took the first copies). 4 + 2 · 192 = 388 payload segments plus the
    /// copies.
    static func capture(copies: [Int: Int]) throws -> PcapngWriter {
        let server = TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 0), port: 5443)
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 2), port: 40_000),
            server: server)
        let encoder = FrameEncoder()
        let roundTrip: Int64 = 840_000_000, processing: Int64 = 10_000_000
        var packets: [(time: Int64, bytes: [UInt8])] = []
        let handshake = connection.open()
        packets += [(0, handshake[0]), (roundTrip, handshake[1]), (roundTrip, handshake[2])]
        let epoch: Int64 = 1_700_000_000_000
        func exchange(at time: Int64, _ request: Packet, _ answer: Packet, copies: Int = 0) throws {
            let sent = connection.send(try encoder.encode(request), .clientToServer)
            packets += sent.map { (time, $0) }
            for copy in 0..<copies { packets += sent.map { (time + Int64(copy + 1) * 100_000_000, $0) } }
            let answered = time + Int64(copies) * 100_000_000 + roundTrip + processing
            packets += connection.send(try encoder.encode(answer), .serverToClient).map { (answered, $0) }
        }
        try exchange(at: roundTrip + 1_000_000,
                     Packet(cmd: .request, seq: 1, opcode: .sessionInit,
                            body: .sessionInit(.mobile(deviceId: "alice"))),
                     Packet(cmd: .response, seq: 1, opcode: .sessionInit,
                            body: .sessionInitResponse(SessionInitResponse(time: epoch))))
        let chat = ChatSummary(id: 1, members: [1, 2], modified: epoch, lastMessage: nil)
        try exchange(at: 3_000_000_000,
                     Packet(cmd: .request, seq: 2, opcode: .login,
                            body: .login(LoginRequest(token: "token-alice", chatsSync: -1, contactsSync: -1,
                                                      chatsCount: 100))),
                     Packet(cmd: .response, seq: 2, opcode: .login,
                            body: .loginResponse(LoginResponse(profile: Profile(id: 1, name: "alice"), chats: [chat],
                                                               contacts: [Contact(id: 2, name: "bob")], time: epoch))))
        for index in 0..<192 {
            let time = 5_000_000_000 + Int64(index) * 2_000_000_000
            let seq = UInt16(3 + index), cid = Int64(1000 + index)
            let stored = ChatMessage(id: Int64(index + 1), time: epoch + time / 1_000_000, sender: 1, text: "m\(index)",
                                     cid: cid)
            try exchange(at: time,
                         Packet(cmd: .request, seq: seq, opcode: .msgSend,
                                body: .msgSend(MsgSendRequest(chatId: 1, message: OutgoingMessage(text: "m\(index)",
                                                                                                   cid: cid)))),
                         Packet(cmd: .response, seq: seq, opcode: .msgSend,
                                body: .msgSendResponse(MsgSendResponse(chatId: 1, message: stored))),
                         copies: copies[index] ?? 0)
        }
        var writer = PcapngWriter(interfaces: [.init(name: "synthetic")])
        let base: Int64 = 1_700_000_000_000_000_000
        for packet in packets.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }) {
            writer.append(packet.element.bytes,
                          timestamp: CaptureTimestamp(nanosecondsSinceEpoch: base + packet.element.time))
        }
        return writer
    }

    /// Three fades that each took a send four times over: 12 retransmissions in 3 runs of 4.
    static let clustered = [40: 4, 100: 4, 160: 4]
    /// The same 12 retransmissions, one at a time.
    static let spread = Dictionary(uniqueKeysWithValues: (0..<12).map { (10 + 15 * $0, 1) })
    /// Two runs of 3: bursty-looking, but fewer than 8 retransmissions to judge by.
    static let tooFew = [50: 3, 120: 3]

    static func write(_ copies: [Int: Int], name: String) throws -> String {
        let path = NSTemporaryDirectory() + "syncsim-burst-\(name)-\(UUID().uuidString).pcapng"
        try capture(copies: copies).write(to: path)
        return path
    }

    static func emission(_ path: String) throws -> ReplayScenarioEmitter.Emission {
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: path))
        return ReplayScenarioEmitter(timeline: timeline, model: ReplayWorldModel(timeline))
            .emission(named: "replayed-burst")
    }

    @Test("retransmissions in runs: alice gets EDGE-lossy's link with Gilbert-Elliott loss estimated from the runs")
    func clusteredRetransmissionsGiveGilbertElliott() throws {
        let path = try Self.write(Self.clustered, name: "clustered")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emission(path)
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: path))
        let burstLoss = ReplayInference.burstLoss(timeline.connections, excluding: [])
        #expect(burstLoss == ReplayInference.BurstLoss(segments: 400, retransmitted: 12, bursts: 3))
        #expect(burstLoss.meanBurstLength == 4)
        #expect(abs(burstLoss.independentMeanBurstLength - 1 / 0.97) < 1e-12)
        // r = 1 / 4; p = r · 0.03 / 0.97 = 0.0077319..., rounded to hundredths of a percent.
        let loss = LossModel.gilbertElliott(p: 0.0077, r: 0.25, oneMinusH: 1, oneMinusK: 0)
        #expect(burstLoss.lossModel == loss)

        #expect(emission.scenario.clients.map(\.profile.rawValue) == ["alice-bursty"])
        let profile = try #require(emission.scenario.linkProfiles.first)
        #expect(emission.scenario.linkProfiles.count == 1)
        #expect(profile.name == "alice-bursty")
        let edgeLossy = try #require(LinkProfile.named("EDGE-lossy"))
        #expect(profile.uplink == edgeLossy.withLoss(loss).uplink)
        #expect(profile.downlink == edgeLossy.withLoss(loss).downlink)
        #expect(abs(loss.stationaryLossRate - 0.03) < 0.001, "the estimate keeps the captured share")
        #expect(emission.headerComments.contains(
            "alice: loss found bursty, 12 of 400 payload segments retransmitted in 3 bursts, mean 4.0 (independent "
                + "loss at that share: 1.03): Gilbert-Elliott p 0.77%, r 25%, 1-h 100%, 1-k 0%; link profile "
                + "alice-bursty (EDGE-lossy with that loss)"), "\(emission.headerComments)")

        let source = emission.source()
        #expect(source.contains("name: \"alice-bursty\""))
        #expect(source.contains("loss: .gilbertElliott(p: 0.0077, r: 0.25, oneMinusH: 1"))
        #expect(source.contains("Client(\"alice\", profile: \"alice-bursty\")"))
        #expect(emission.scenario.problems() == [])
        let run = WorldExecutor().run(emission.scenario, seed: 1, options: RunOptions())
        #expect(run.violations.map(\.description) == [])
        // And as the command runs it.
        let replayed = TraceDecodeCommandTests.run(["replay", path, "--run"])
        #expect(replayed.code == 0, "\(replayed.err)")
        #expect(replayed.out.first?.hasPrefix("PASS  replayed-") == true, "\(replayed.out)")
    }

    @Test("the same share of retransmissions one at a time keeps the catalog's lossy twin, output as before")
    func spreadRetransmissionsKeepCatalogProfile() throws {
        let path = try Self.write(Self.spread, name: "spread")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: path))
        let burstLoss = ReplayInference.burstLoss(timeline.connections, excluding: [])
        #expect(burstLoss == ReplayInference.BurstLoss(segments: 400, retransmitted: 12, bursts: 12))
        #expect(!burstLoss.isBursty)
        #expect(burstLoss.lossModel == nil)
        let emission = try Self.emission(path)
        #expect(emission.scenario.clients.map(\.profile) == [.edgeLossy])
        #expect(emission.scenario.linkProfiles == [])
        #expect(!emission.source().contains("loss found bursty"))
        #expect(emission.scenario.problems() == [])
    }

    @Test("runs of retransmissions too few to judge (6 of 8 needed) keep the catalog's lossy twin")
    func tooFewRetransmissionsKeepOldRule() throws {
        let path = try Self.write(Self.tooFew, name: "few")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: path))
        let burstLoss = ReplayInference.burstLoss(timeline.connections, excluding: [])
        #expect(burstLoss == ReplayInference.BurstLoss(segments: 394, retransmitted: 6, bursts: 2))
        #expect(burstLoss.meanBurstLength >= ReplayInference.BurstLoss.clusteringFactor
            * burstLoss.independentMeanBurstLength, "the runs alone would count as bursty")
        #expect(!burstLoss.isBursty)
        let emission = try Self.emission(path)
        #expect(emission.scenario.clients.map(\.profile) == [.edgeLossy])
        #expect(emission.scenario.linkProfiles == [])
        #expect(!emission.source().contains("loss found bursty"))
    }

    @Test("retransmissions inside a span the scenario explains otherwise (an outage) are left out and end a run")
    func excludedSpansEndRuns() throws {
        let path = try Self.write(Self.clustered, name: "excluded")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: path))
        // Send 40 at 85 s: its original and four copies, 85.0 ... 85.4 s, then its answer at 86.25 s. Leaving out the
        // second copy splits its run in two.
        let span = (from: SimInstant(nanosecondsSinceStart: 85_150_000_000),
                    until: SimInstant(nanosecondsSinceStart: 85_250_000_000))
        let burstLoss = ReplayInference.burstLoss(timeline.connections, excluding: [span])
        #expect(burstLoss == ReplayInference.BurstLoss(segments: 399, retransmitted: 11, bursts: 4))
    }

    @Test("the burst figures print without Foundation: one and two decimals")
    func decimals() {
        #expect(SweepTable.fixed(4, decimals: 1) == "4.0")
        #expect(SweepTable.fixed(1 / 0.97, decimals: 2) == "1.03")
        #expect(SweepTable.fixed(1.05, decimals: 2) == "1.05")
        #expect(SweepTable.fixed(12.25, decimals: 0) == "12")
    }
}
