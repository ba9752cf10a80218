import SimCore
import Testing
@testable import SimNet

@Suite struct NetworkLinkTests {
    @Test("a full drop-tail queue drops packets, and TCP still delivers everything")
    func queueOverflow() {
        let profile = LinkProfile.edge.withQueueCapacity(bytes: 15_000)   // 10 full packets
        let world = TestWorld(seed: 1, client: profile, keepsRecords: false)
        let elapsed = world.transferFromServer(bytes: 300_000)
        #expect(elapsed != nil)
        #expect(world.network.linkStatistics(of: world.client, .downlink).packetsDroppedByQueue > 0)
        #expect(world.network.linkStatistics(of: world.client, .downlink).packetsLost == 0)
    }

    @Test("a handover away from a CoDel cell keeps the packets its CoDel stage held, and the link goes on sending")
    func handoverFromCoDel() throws {
        // Session 39: packets a clog left in the CoDel stage stayed there after a handover to a cell without CoDel;
        // nothing moved them on, and every later packet waited behind them in a queue nothing served (explore
        // seeds 39002382, T5, and 39003409, V1: the client's link dead for the rest of the run).
        var codel = LinkProfile.edge
        codel.name = "EDGE-codel"
        codel.downlink.queueCapacityPackets = 2
        codel.downlink.activeQueue = .codel(target: .milliseconds(5), interval: .milliseconds(100))
        let world = TestWorld(seed: 1, client: codel, keepsRecords: false)
        let network = world.network
        let socket = network.connect(from: world.server, to: world.client)
        network.run(for: .milliseconds(5_000))
        network.inject(.clog, on: world.client)
        let payload = TestWorld.pattern(count: 60_000)
        network.send(payload, on: socket)
        network.run(for: .milliseconds(3_000))
        network.inject(.release, on: world.client)
        network.changeProfile(of: world.client, to: .edge)
        network.run(for: .minutes(10))
        let received = world.bytes(at: socket.peer)
        let inOrder = sameBytes(received, payload)
        #expect(received.count == payload.count && inOrder, "received \(received.count) of \(payload.count) bytes")
    }

    @Test("two connections on one access link share its rate")
    func sharing() throws {
        let profile = LinkProfile.threeG.withQueueCapacity(bytes: 100_000_000)
        let size = 500_000
        let single = TestWorld(seed: 1, client: profile, keepsRecords: false)
        let alone = try #require(single.transferFromServer(bytes: size))

        let world = TestWorld(seed: 1, client: profile, keepsRecords: false)
        let network = world.network
        let cdn = network.addHost(named: "cdn", link: .datacenter)
        let first = network.connect(from: world.server, to: world.client)
        let second = network.connect(from: cdn, to: world.client)
        network.send(TestWorld.pattern(count: size), on: first)
        network.send(TestWorld.pattern(count: size, salt: 1), on: second)
        network.run(for: .minutes(10))
        #expect(world.bytes(at: first.peer).count == size && world.bytes(at: second.peer).count == size)
        let firstDone = try #require(world.lastByteTime[first.peer]).sinceStart.seconds
        let secondDone = try #require(world.lastByteTime[second.peer]).sinceStart.seconds
        let both = max(firstDone, secondDone)
        // Twice the bytes over the same downlink: about twice the time, each connection slowed down.
        #expect(both > 1.8 * alone.seconds && both < 2.2 * alone.seconds, "alone \(alone), both \(both)")
        #expect(min(firstDone, secondDone) > 1.3 * alone.seconds)
    }

    @Test("jitter does not reorder a flow unless the profile asks for it")
    func jitterKeepsOrder() throws {
        var profile = LinkProfile.threeG.withQueueCapacity(bytes: 100_000_000)
        profile.downlink.jitter = .uniform(maximum: .milliseconds(200))
        let world = TestWorld(seed: 4, client: profile, keepsRecords: false)
        let socket = world.network.connect(from: world.server, to: world.client)
        world.network.send(TestWorld.pattern(count: 200_000), on: socket)
        world.network.run(for: .minutes(2))
        #expect(sameBytes(world.bytes(at: socket.peer), TestWorld.pattern(count: 200_000)))
        #expect(try #require(world.network.statistics(of: socket)).fastRetransmits == 0)

        profile.downlink.reordersPackets = true
        let reordering = TestWorld(seed: 4, client: profile, keepsRecords: false)
        let other = reordering.network.connect(from: reordering.server, to: reordering.client)
        reordering.network.send(TestWorld.pattern(count: 200_000), on: other)
        reordering.network.run(for: .minutes(2))
        #expect(sameBytes(reordering.bytes(at: other.peer), TestWorld.pattern(count: 200_000)))
        #expect(try #require(reordering.network.statistics(of: other)).fastRetransmits > 0)
    }

    @Test("outages from the profile drop packets during their windows", arguments: [UInt64(1), 2])
    func scheduledOutage(seed: UInt64) {
        var profile = LinkProfile.threeG
        profile.uplink.outages = .scheduled([OutageWindow(start: .milliseconds(10_000), length: .milliseconds(5_000))])
        profile.downlink.outages = profile.uplink.outages
        let world = TestWorld(seed: seed, client: profile)
        let network = world.network
        let socket = network.connect(from: world.client, to: world.server)
        network.run(for: .milliseconds(11_000))
        network.send([1, 2, 3], on: socket)
        network.run(for: .milliseconds(3_000))
        #expect(world.bytes(at: socket.peer).isEmpty)
        network.run(for: .milliseconds(30_000))
        #expect(world.bytes(at: socket.peer) == [1, 2, 3])
        #expect(network.linkStatistics(of: world.client, .uplink).packetsDroppedWhileDown > 0)
    }

    @Test("random outages and delay spikes come and go")
    func randomOutages() {
        var profile = LinkProfile.edge
        profile.downlink.outages = .random(meanInterval: .milliseconds(60_000), meanLength: .milliseconds(5_000))
        profile.downlink.delaySpikes = DelaySpikeModel(meanInterval: .milliseconds(30_000),
                                                       meanLength: .milliseconds(2_000),
                                                       extraDelay: .milliseconds(2_000))
        let world = TestWorld(seed: 11, client: profile)
        world.network.run(for: .minutes(30))
        let starts = world.network.trace.records(ofKind: "outage-start").count
        let ends = world.network.trace.records(ofKind: "outage-end").count
        #expect(starts > 10 && starts < 60 && ends >= starts - 1)
        #expect(world.network.trace.records(ofKind: "spike-start").count > 20)
    }
}

extension NetworkLinkTests {
    @Test("a packet lost on the client's uplink never reaches the server's link")
    func lossUpstream() {
        let world = TestWorld(seed: 3, client: LinkProfile.threeG.withLoss(.bernoulli(probability: 0.2)))
        let network = world.network
        let socket = network.connect(from: world.client, to: world.server)
        network.run(for: .milliseconds(5_000))
        network.send(TestWorld.pattern(count: 50_000), on: socket)
        network.run(for: .minutes(5))
        let uplink = network.linkStatistics(of: world.client, .uplink)
        let serverDownlink = network.linkStatistics(of: world.server, .downlink)
        #expect(uplink.packetsLost > 0)
        #expect(serverDownlink.packetsOffered == uplink.packetsPassed)
        #expect(serverDownlink.packetsOffered == uplink.packetsSerialized - uplink.packetsLost)
    }

    @Test("a fault on the server's own link hits every client's connection")
    func serverLinkDown() {
        let world = TestWorld(seed: 3, client: .fourG)
        let network = world.network
        let other = network.addHost(named: "phone2", link: .wifi)
        let first = network.connect(from: world.client, to: world.server)
        let second = network.connect(from: other, to: world.server)
        network.run(for: .milliseconds(2_000))
        network.setLinkDown(world.server, resetting: .remoteSide)
        #expect(world.events(of: first).last == .reset)
        #expect(world.events(of: second).last == .reset)
        #expect(network.state(of: first.peer) == .open, "only the remote side was told")
    }
}
