import SimCore
import Testing
@testable import SimNet

@Suite struct LinkTapRecordTests {
    @Test("the tap sees every segment leave and arrive, retransmissions included, and changes nothing")
    func tapObservesWithoutChangingTheRun() {
        let plain = NetworkTests.lossyScenario(seed: 7)
        var records: [LinkTapRecord] = []
        let tapped = TestWorld(seed: 7, client: .edgeLossy, keepsRecords: false)
        tapped.network.linkTap = { records.append($0) }
        let network = tapped.network
        let socket = network.connect(from: tapped.client, to: tapped.server)
        network.send(TestWorld.pattern(count: 30_000), on: socket)
        network.schedule(after: .milliseconds(8_000)) {
            network.send(TestWorld.pattern(count: 20_000, salt: 3), on: socket.peer)
        }
        network.schedule(.lossBurst(probability: 0.3, duration: .milliseconds(2_000)), on: tapped.client,
                         at: .start + .milliseconds(3_000))
        network.schedule(.delaySpike(extraDelay: .milliseconds(2_000), duration: .milliseconds(1_000)),
                         on: tapped.client, at: .start + .milliseconds(6_000))
        network.schedule(.outage(duration: .milliseconds(3_000)), on: tapped.client,
                         at: .start + .milliseconds(9_000))
        network.schedule(at: .start + .milliseconds(40_000)) { network.close(socket) }
        network.run(until: .start + .milliseconds(120_000))

        #expect(network.trace.digest == plain.network.trace.digest, "seed 7: the tap changed the run")
        let sent = records.filter { $0.host == tapped.client && $0.direction == .uplink }
        let arrived = records.filter { $0.host == tapped.server && $0.direction == .downlink }
        #expect(sent.first?.isSYN == true)
        #expect(sent.allSatisfy { $0.sender == socket && $0.sourceHost == tapped.client })
        #expect(arrived.count < sent.count, "seed 7: a lossy link delivers fewer segments than were sent")
        // The payload sent, put together by sequence number, is the stream; some bytes were sent more than once.
        var stream = [UInt8](repeating: 0, count: 30_000)
        var sentBytes = 0
        for record in sent where !record.payload.isEmpty {
            let start = Int(record.sequence) - 1
            stream.replaceSubrange(start..<(start + record.payload.count), with: record.payload)
            sentBytes += record.payload.count
        }
        #expect(stream == TestWorld.pattern(count: 30_000))
        #expect(sentBytes >= 30_000)
        let allSent = records.filter { $0.direction == .uplink }.reduce(0) { $0 + $1.payload.count }
        #expect(allSent > 50_000, "seed 7: retransmissions are seen (50 000 bytes of data were sent in all)")
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.time <= $1.time })
    }
}
