import SimCore
import Testing
@testable import SimNet

@Suite struct LinkDirectionStateTests {
    @Test("observed long-run loss rate matches the model's stationary rate", arguments: [
        LossModel.bernoulli(probability: 0.01),
        .bernoulli(probability: 0.05),
        .bernoulli(probability: 0.10),
        .gilbertElliott(p: 0.01, r: 0.25, oneMinusH: 0.5, oneMinusK: 0),
        .gilbertElliott(p: 0.02, r: 0.2, oneMinusH: 0.8, oneMinusK: 0.01),
    ])
    func stationaryLoss(model: LossModel) {
        let seed: UInt64 = 20_261_129
        let profile = LinkDirectionProfile(rateBitsPerSecond: 1_000_000, oneWayDelay: .zero, loss: model)
        var state = LinkDirectionState(component: "link.test.down", profile: profile,
                                       streams: RandomStreams(runSeed: seed))
        let draws = 200_000
        var lost = 0
        for _ in 0..<draws where state.drawLoss(at: .start) { lost += 1 }
        let observed = Double(lost) / Double(draws)
        let expected = model.stationaryLossRate
        #expect(abs(observed - expected) < 0.1 * expected, "seed \(seed): observed \(observed), expected \(expected)")
    }

    @Test("Gilbert-Elliott losses come in bursts, Bernoulli ones do not")
    func burstiness() {
        func meanBurst(_ model: LossModel) -> Double {
            var state = LinkDirectionState(
                component: "link.test.down",
                profile: LinkDirectionProfile(rateBitsPerSecond: 1, oneWayDelay: .zero, loss: model),
                streams: RandomStreams(runSeed: 7))
            var bursts = 0, lost = 0, previous = false
            for _ in 0..<100_000 {
                let isLost = state.drawLoss(at: .start)
                if isLost { lost += 1; if !previous { bursts += 1 } }
                previous = isLost
            }
            return Double(lost) / Double(max(bursts, 1))
        }
        #expect(meanBurst(.gilbertElliott(p: 0.01, r: 0.2, oneMinusH: 1, oneMinusK: 0)) > 3)
        #expect(meanBurst(.bernoulli(probability: 0.05)) < 1.2)
    }
}
