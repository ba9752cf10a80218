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

    @Test("the timed Gilbert-Elliott chain: its long-run loss is each state's loss weighted by its share of time")
    func timedStationaryLoss() {
        let model = LossModel.gilbertElliottTimed(
            meanGood: .milliseconds(20_000), meanBad: .milliseconds(2_000), oneMinusH: 0.8, oneMinusK: 0.01)
        // (20 s · 1% + 2 s · 80%) / 22 s
        #expect(abs(model.stationaryLossRate - 1.8 / 22) < 1e-12)
        let profile = LinkDirectionProfile(rateBitsPerSecond: 1_000_000, oneWayDelay: .zero, loss: model)
        var state = LinkDirectionState(component: "link.test.down", profile: profile,
                                       streams: RandomStreams(runSeed: 20_261_206))
        // A packet every 100 ms for 100,000 s: about 4,500 bad states.
        var lost = 0
        for index in 0..<1_000_000 where state.drawLoss(at: .start + .milliseconds(Int64(index) * 100)) { lost += 1 }
        let observed = Double(lost) / 1_000_000
        #expect(abs(observed - model.stationaryLossRate) < 0.05 * model.stationaryLossRate, "observed \(observed)")
    }

    @Test("the timed chain moves with time, not packets: a quiet link leaves its bad state; netem's chain does not")
    func timedChainMovesWhileQuiet() {
        func lossAfterQuiet(_ model: LossModel, seed: UInt64) -> (before: Double, after: Double) {
            var state = LinkDirectionState(
                component: "link.test.up",
                profile: LinkDirectionProfile(rateBitsPerSecond: 1, oneWayDelay: .zero, loss: model),
                streams: RandomStreams(runSeed: seed))
            // Send until a packet is lost, then wait 60 s (a TCP backing off) and try 20 times, a minute apart.
            var time = SimInstant.start
            while !state.drawLoss(at: time) { time = time + .milliseconds(10) }
            var lostAfter = 0
            for _ in 0..<20 {
                time = time + .milliseconds(60_000)
                if state.drawLoss(at: time) { lostAfter += 1 }
            }
            return (1, Double(lostAfter) / 20)
        }
        var timedLost = 0.0, perPacketLost = 0.0
        for seed in UInt64(1)...50 {
            // Bad states of 1 s on average, losing every packet; good states of 10 s losing none.
            timedLost += lossAfterQuiet(.gilbertElliottTimed(
                meanGood: .milliseconds(10_000), meanBad: .milliseconds(1_000), oneMinusH: 1, oneMinusK: 0),
                seed: seed).after
            // About 1/r = 20 packets of bad state, whatever the time between them.
            perPacketLost += lossAfterQuiet(.gilbertElliott(p: 0.1, r: 0.05, oneMinusH: 1, oneMinusK: 0),
                                            seed: seed).after
        }
        // Tries a minute apart meet the bad state about 1/11 of the time on the timed chain; the per-packet chain,
        // entered with a loss, keeps losing for some 20 tries.
        #expect(timedLost / 50 < 0.2)
        #expect(perPacketLost / 50 > 0.5)
    }

    @Test("after a long quiet spell the timed chain is drawn afresh: packets an hour apart on 1 ms fades still lose the stationary share")
    func timedChainAfterLongQuiet() {
        // Fades of 1 ms every 3 ms losing everything: a quarter of the time bad.
        let model = LossModel.gilbertElliottTimed(
            meanGood: .milliseconds(3), meanBad: .milliseconds(1), oneMinusH: 1, oneMinusK: 0)
        var state = LinkDirectionState(
            component: "link.test.up",
            profile: LinkDirectionProfile(rateBitsPerSecond: 1, oneWayDelay: .zero, loss: model),
            streams: RandomStreams(runSeed: 11))
        var lost = 0
        // 20,000 packets an hour apart (over two years): each would walk 900,000 state changes one by one.
        for hour in 0..<20_000 where state.drawLoss(at: .start + .hours(Int64(hour))) { lost += 1 }
        #expect(abs(Double(lost) / 20_000 - 0.25) < 0.02, "\(lost)")
        // A packet right after one draws the chain's short stays one by one, and a very long mean cannot overflow.
        #expect(state.timedLossStateUntil.map { $0 > .start + .hours(19_999) } == true)
        var slow = LinkDirectionState(
            component: "link.test.up",
            profile: LinkDirectionProfile(rateBitsPerSecond: 1, oneWayDelay: .zero, loss: .gilbertElliottTimed(
                meanGood: .milliseconds(9_000_000_000_000), meanBad: .milliseconds(1), oneMinusH: 1, oneMinusK: 0)),
            streams: RandomStreams(runSeed: 11))
        let isLost = slow.drawLoss(at: .start + .hours(24 * 365))
        #expect(!isLost)
    }

    @Test("the timed chain starts again in the good state after a profile change, and draws the same on every run")
    func timedChainRestartsOnProfileChange() {
        let model = LossModel.gilbertElliottTimed(
            meanGood: .milliseconds(1), meanBad: .hours(1), oneMinusH: 1, oneMinusK: 0)
        let profile = LinkDirectionProfile(rateBitsPerSecond: 1, oneWayDelay: .zero, loss: model)
        func draws() -> [Bool] {
            var state = LinkDirectionState(component: "link.test.up", profile: profile,
                                           streams: RandomStreams(runSeed: 3))
            var seen: [Bool] = []
            // Good for about 1 ms, then bad for about an hour: a packet at 1 s is lost.
            seen.append(state.drawLoss(at: .start))
            seen.append(state.drawLoss(at: .start + .milliseconds(1_000)))
            state.profile = profile
            // The chain starts again, good, at the next packet.
            seen.append(state.drawLoss(at: .start + .milliseconds(2_000)))
            return seen
        }
        #expect(draws() == [false, true, false])
        #expect(draws() == draws())
        #expect(profile.problems().isEmpty)
        let broken = LinkDirectionProfile(rateBitsPerSecond: 1, oneWayDelay: .zero, loss: .gilbertElliottTimed(
            meanGood: .zero, meanBad: .milliseconds(-1_000), oneMinusH: 1.5, oneMinusK: 0))
        #expect(broken.problems() == [
            "timed Gilbert-Elliott mean good time 0s must be positive",
            "timed Gilbert-Elliott mean bad time -1s must be positive",
            "Gilbert-Elliott 1-h 1.5 is not in 0...1",
        ])
    }
}
