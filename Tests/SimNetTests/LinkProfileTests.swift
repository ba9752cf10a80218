import SimCore
import Testing
@testable import SimNet

@Suite struct LinkProfileTests {
    @Test("catalog has the DESIGN §5 profiles, each with a source")
    func catalog() {
        let names = ["2G-rural", "GPRS", "EDGE", "EDGE-lossy", "3G", "4G", "WiFi", "offline"]
        #expect(LinkProfile.catalog.map(\.name) == names)
        for profile in LinkProfile.catalog { #expect(!profile.source.isEmpty) }
        #expect(LinkProfile.edge.downlink.rateBitsPerSecond == 240_000)
        #expect(LinkProfile.edge.uplink.oneWayDelay == .milliseconds(440))
        #expect(LinkProfile.edgeLossy.downlink.loss == .bernoulli(probability: 0.01))
        #expect(LinkProfile.threeG.downlink.rateBitsPerSecond == 780_000)
        #expect(LinkProfile.fourG.baseRTT == .milliseconds(150))
        #expect(LinkProfile.named("edge-lossy")?.name == "EDGE-lossy")
    }

    @Test("serialization time is the IP size plus overhead at the rate")
    func serialization() {
        let direction = LinkDirectionProfile(rateBitsPerSecond: 240_000, oneWayDelay: .zero, perPacketOverheadBytes: 2)
        // (1500 + 2) bytes * 8 / 240 kbit/s = 50.0667 ms
        #expect(direction.serializationTime(ipBytes: 1_500) == .nanoseconds(50_066_667))
    }

    @Test("stationary loss rate of Gilbert-Elliott weights each state's loss by its stationary share")
    func stationary() {
        let model = LossModel.gilbertElliott(p: 0.01, r: 0.3, oneMinusH: 0.5, oneMinusK: 0)
        #expect(abs(model.stationaryLossRate - 0.01 * 0.5 / 0.31) < 1e-12)
        #expect(LossModel.bernoulli(probability: 0.05).stationaryLossRate == 0.05)
        #expect(model.description == "gilbert-elliott(p=1%,r=30%,1-h=50%,1-k=0%)")
    }
}
