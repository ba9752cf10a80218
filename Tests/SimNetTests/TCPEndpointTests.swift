import SimCore
import Testing
@testable import SimNet

@Suite struct TCPEndpointTests {
    /// The analytic time for the server to deliver `bytes` to a client on `profile` (no loss, no queue limit):
    /// the handshake, then round k of slow start sends 10·2^(k-1) segments back to back, with an idle stall of
    /// max(0, 2·s + RTT − w·s) before the next round (the first ACK of a round covers two segments: delayed ACKs),
    /// then every segment serialized at the downlink rate and one downlink delay. s is a full segment's
    /// serialization time, RTT the two one-way delays plus an ACK's serialization on the uplink.
    static func analyticTransferTime(bytes: Int, profile: LinkProfile, tcp: TCPConfiguration = .linux) -> Double {
        let down = profile.downlink, up = profile.uplink
        let header = tcp.headerBytes, mss = tcp.mssBytes
        func serialization(_ direction: LinkDirectionProfile, _ ipBytes: Int) -> Double {
            Double((ipBytes + direction.perPacketOverheadBytes) * 8) / Double(direction.rateBitsPerSecond)
        }
        let handshake = serialization(down, header) + down.oneWayDelay.seconds + serialization(up, header)
            + up.oneWayDelay.seconds
        let fullSegments = bytes / mss
        let tail = bytes % mss
        let segmentCount = fullSegments + (tail > 0 ? 1 : 0)
        let s = serialization(down, header + mss)
        let rtt = down.oneWayDelay.seconds + up.oneWayDelay.seconds + serialization(up, header)
        var stalls = 0.0
        var window = tcp.initialWindowSegments
        var sent = 0
        while sent + window < segmentCount {
            stalls += max(0, 2 * s + rtt - Double(window) * s)
            sent += window
            window *= 2
        }
        let wire = Double(fullSegments) * s + (tail > 0 ? serialization(down, header + tail) : 0)
        return handshake + stalls + wire + down.oneWayDelay.seconds
    }

    @Test("lossless transfer time matches the analytic value within 5%", arguments: [
        ("EDGE", 100), ("EDGE", 1_000), ("EDGE", 10_000), ("EDGE", 100_000), ("EDGE", 1_000_000),
        ("3G", 100), ("3G", 1_000), ("3G", 10_000), ("3G", 100_000), ("3G", 1_000_000),
    ])
    func analytic(profileName: String, bytes: Int) throws {
        let profile = try #require(LinkProfile.named(profileName)).withQueueCapacity(bytes: 100_000_000)
        let world = TestWorld(seed: 1, client: profile, keepsRecords: false)
        let simulated = try #require(world.transferFromServer(bytes: bytes)).seconds
        let analytic = Self.analyticTransferTime(bytes: bytes, profile: profile)
        #expect(abs(simulated - analytic) <= 0.05 * analytic,
                "\(profileName) \(bytes) B: simulated \(simulated) s, analytic \(analytic) s")
    }

    @Test("with loss every byte arrives exactly once and in order", arguments: [
        LossModel.bernoulli(probability: 0.01), .bernoulli(probability: 0.05), .bernoulli(probability: 0.10),
        .gilbertElliott(p: 0.01, r: 0.3, oneMinusH: 0.5, oneMinusK: 0.005),
        .gilbertElliott(p: 0.03, r: 0.25, oneMinusH: 0.7, oneMinusK: 0.01),
    ])
    func reliableUnderLoss(loss: LossModel) {
        var totalLost = 0
        for seed: UInt64 in 1...8 {
            let world = TestWorld(seed: seed, client: LinkProfile.threeG.withLoss(loss), keepsRecords: false)
            let network = world.network
            let socket = network.connect(from: world.client, to: world.server)
            let up = TestWorld.pattern(count: 40_000, salt: Int(seed))
            let down = TestWorld.pattern(count: 60_000, salt: Int(seed) + 1)
            network.send(up, on: socket)
            network.run(for: .milliseconds(5_000))
            #expect(network.send(down, on: socket.peer), "seed \(seed): the acceptor exists")
            network.run(for: .minutes(30))
            #expect(world.bytes(at: socket.peer).count == up.count, "seed \(seed), loss \(loss)")
            #expect(sameBytes(world.bytes(at: socket.peer), up), "seed \(seed), loss \(loss)")
            #expect(sameBytes(world.bytes(at: socket), down), "seed \(seed), loss \(loss)")
            totalLost += network.linkStatistics(of: world.client, .downlink).packetsLost
                + network.linkStatistics(of: world.client, .uplink).packetsLost
        }
        #expect(totalLost > 0, "the loss model never struck")
    }

    @Test("blackholed path: RTO doubles per RFC 6298 up to the maximum and the connection aborts at the retry limit")
    func rtoBackoff() throws {
        let world = TestWorld(seed: 5, client: .threeG)
        let network = world.network
        let socket = network.connect(from: world.client, to: world.server)
        network.send([1, 2, 3], on: socket)
        network.run(for: .milliseconds(2_000))
        network.inject(.down(resetting: .none), on: world.client)
        let rto = try #require(network.statistics(of: socket.peer)).retransmissionTimeout
        // A few samples of a ~200 ms RTT: srtt + 4 rttvar, well above the 200 ms minimum.
        #expect(rto > .milliseconds(200) && rto < .milliseconds(1_000))
        let sentAt = network.now
        network.send([4, 5, 6], on: socket.peer)
        network.run(for: .hours(2))
        let retransmissions = network.trace.records(ofKind: "rto", component: "tcp.0.a").map(\.time)
        #expect(retransmissions.count == TCPConfiguration.linux.retryLimit)
        var expected: [SimInstant] = []
        var time = sentAt
        var current = rto
        for _ in 0...TCPConfiguration.linux.retryLimit {
            time += current
            expected.append(time)
            current = min(current * 2, .milliseconds(120_000))
        }
        #expect(retransmissions == Array(expected.prefix(15)))
        let timedOut = world.events.filter { $0.socket == socket.peer && $0.kind == .timedOut }
        #expect(timedOut.map(\.time) == [expected[15]])
        // The client sent nothing: its socket is still open (half-open).
        #expect(network.state(of: socket) == .open)
    }

    @Test("half-open: the silent side stays open until its own traffic gives up; later it meets an RST")
    func halfOpen() {
        let world = TestWorld(seed: 9, client: .edge)
        let network = world.network
        let socket = network.connect(from: world.client, to: world.server)
        network.run(for: .milliseconds(5_000))
        network.setLinkDown(world.client)            // silently: NAT rebinding, radio gone
        network.abandon(socket)                      // the phone's app and socket are gone too
        network.run(for: .hours(1))
        #expect(network.state(of: socket.peer) == .open, "the server never sent: it cannot know")
        network.send(Array("push".utf8), on: socket.peer)
        network.run(for: .minutes(5))
        #expect(network.state(of: socket.peer) == .open, "still retrying")
        network.setLinkUp(world.client)
        network.run(for: .minutes(20))
        // The retransmission reaches a host without the socket, which answers RST.
        #expect(world.events(of: socket.peer).last == .reset)
    }

    @Test("SYN to a dead path is retried with 1 s doubling and given up after the SYN retry limit")
    func synTimeout() {
        let world = TestWorld(seed: 2, client: .edge)
        let network = world.network
        network.setLinkDown(world.client)
        let socket = network.connect(from: world.client, to: world.server)
        network.run(for: .minutes(10))
        let times = network.trace.records(ofKind: "rto", component: "tcp.0.i").map { $0.time.sinceStart }
        #expect(times == [1, 3, 7, 15, 31, 63].map { SimDuration.milliseconds(Int64($0) * 1_000) })
        #expect(world.events(of: socket) == [.timedOut])
        #expect(world.events.filter { $0.kind == .timedOut }.first?.time == .start + .milliseconds(127_000))
    }

    @Test("fast retransmit repairs a single loss without a timeout")
    func fastRetransmit() throws {
        let profile = LinkProfile.threeG.withQueueCapacity(bytes: 10_000_000)
        let world = TestWorld(seed: 1, client: profile)
        let network = world.network
        let socket = network.connect(from: world.server, to: world.client)
        network.run(for: .milliseconds(1_000))
        network.send(TestWorld.pattern(count: 100_000), on: socket)
        // Lose what leaves the downlink transmitter in a short window mid-transfer.
        network.schedule(after: .milliseconds(300)) {
            network.inject(.lossBurst(probability: 1, duration: .milliseconds(10)), on: world.client,
                           directions: [.downlink])
        }
        network.run(for: .minutes(2))
        #expect(sameBytes(world.bytes(at: socket.peer), TestWorld.pattern(count: 100_000)))
        let statistics = try #require(network.statistics(of: socket))
        #expect(statistics.fastRetransmits == 1)
        #expect(statistics.retransmissionTimeouts == 0)
    }
}
