import Testing
import SimCore
@testable import SyncSim

/// The explorer's workload generator: deterministic, valid, and a quiet tail free of steps and faults.
@Suite struct ExploreGeneratorTests {
    static let generators: [ExploreGenerator] = [ExploreGenerator(), ExploreGenerator(usesSwarm: false)]

    @Test("the same seed gives the same scenario, printed byte for byte", arguments: [UInt64(1), 7, 12_345, .max])
    func sameSeedSameScenario(seed: UInt64) {
        for generator in Self.generators {
            let first = generator.generate(seed: seed)
            let second = generator.generate(seed: seed)
            #expect(first.scenario.dslSource() == second.scenario.dslSource(), "seed \(seed)")
            #expect(first.enabledKinds == second.enabledKinds)
            #expect(first.quietTailStart == second.quietTailStart)
        }
    }

    @Test("different seeds give different scenarios")
    func differentSeedsDiffer() {
        let sources = Set((UInt64(1)...20).map { ExploreGenerator().generate(seed: $0).scenario.dslSource() })
        #expect(sources.count == 20)
    }

    @Test("the same seed runs to the same trace digest")
    func sameSeedSameDigest() {
        // A small generated case keeps the test quick: the first seed from 1 with two clients and a short phase.
        let runner = ExploreRunner()
        let seed = (UInt64(1)...500).first {
            let generated = runner.generator.generate(seed: $0)
            return generated.scenario.clients.count == 2 && generated.scenario.steps.count <= 20
        } ?? 1
        let first = runner.run(seed: seed)
        let second = runner.run(seed: seed)
        #expect(first.result.digest == second.result.digest, "seed \(seed)")
        #expect(first.events == second.events)
        #expect(first.events > 0)
    }

    @Test("every generated scenario passes Scenario validation")
    func everyScenarioValidates() {
        for generator in Self.generators {
            for seed in UInt64(1)...300 {
                let problems = generator.generate(seed: seed).scenario.problems()
                #expect(problems.isEmpty, "seed \(seed) swarm \(generator.usesSwarm): \(problems)")
            }
        }
    }

    @Test("topologies span 2 to 12 clients, and runs cover every kind")
    func coversTopologiesAndKinds() {
        var counts: Set<Int> = []
        var kinds: Set<ExploreKind> = []
        var groupChats = 0
        for seed in UInt64(1)...400 {
            let generated = ExploreGenerator().generate(seed: seed)
            counts.insert(generated.scenario.clients.count)
            kinds.formUnion(generated.enabledKinds)
            groupChats += generated.scenario.chats.count
        }
        #expect(counts.min() == 2)
        #expect(counts.max()! >= 10)
        #expect(counts.max()! <= 12)
        #expect(kinds == Set(ExploreKind.allCases))
        #expect(groupChats > 0)
    }

    @Test("on a lossy link the quiet tail gives each queued send two minimum RTOs more (explore seed 919222)")
    func quietTailCountsRetransmissions() {
        let parameters: ParameterSet = ["compressionThresholdBytes": 0, "historyPageSize": 500, "prefetchDistance": 0]
        let generated = ExploreGenerator(clientParameters: parameters).generate(seed: 919_222)
        let tail = generated.scenario.runLength - generated.quietTailStart
        // About 300 sends queued on 2G-rural (2% loss): the tail was 1360.2 s (the run ended at 1676.2 s) and the
        // queue drained at about 1980 s; now the tail is 2044.2 s.
        #expect(generated.scenario.clients.contains { $0.profile == .twoGRural })
        #expect(generated.quietTailStart == .seconds(Int64(316)))
        #expect(tail == .milliseconds(2_044_200))
    }

    /// Explore seed 8802636 on Examples/link-profiles-hostile.json: 4.6 MB of photos on a 9.6 kbit/s cell were
    /// still uploading when the tail, cut at an hour, ended (T5). The photos' transfer time is no longer cut.
    @Test("on a 9.6 kbit/s cell the quiet tail is never shorter than the photos' transfer time, past the hour's cut")
    func quietTailCoversTransfer() {
        let cell = LinkProfile(
            name: "GSM-CSD", source: "assumption",
            uplink: .init(rateBitsPerSecond: 9_600, oneWayDelay: .milliseconds(300)),
            downlink: .init(rateBitsPerSecond: 9_600, oneWayDelay: .milliseconds(300)))
        let generator = ExploreGenerator(linkProfiles: [cell])
        var longest = SimDuration.zero
        for seed in UInt64(1)...40 {
            let generated = generator.generate(seed: seed)
            let scenario = generated.scenario
            let photoBytes = scenario.steps.reduce(0) { total, step in
                switch step.action {
                case .sendPhoto(_, _, let bytes, _): total + bytes
                case .sendPhotos(_, _, let count, let bytes, _): total + count * bytes
                default: total
                }
            }
            let historyBytes = scenario.server.history.reduce(0) { $0 + $1.messages } * 200
            let transfer = SimDuration.seconds(Int64((photoBytes + historyBytes) * 8 * 2 / 9_600))
            let tail = scenario.runLength - generated.quietTailStart
            #expect(tail >= generator.minimumQuietTail + transfer, "seed \(seed)")
            longest = max(longest, tail)
        }
        #expect(longest > .hours(1))
    }

    /// Session 32's cell (`p` 0.02, `r` 0.1, `1-h` 0.9 both ways): a 24 KB photo took 166 s to upload through its
    /// packet-counted bursts (explore seed 32014827), and seeds 33000047, 33000349 and nine more of 33000000-33001499
    /// ended the tail with uploads and sends still queued (T5). The tail now waits out a burst's backed-off tries.
    @Test("a cell with packet-counted loss bursts lengthens the quiet tail by a burst's backed-off tries")
    func quietTailCoversLossBursts() {
        func stall(_ loss: LossModel) -> SimDuration { ExploreGenerator.lossBurstAllowance(loss) }
        // q = 0.9·0.9 = 0.81: 33 tries fail together with probability under 10⁻³; 1 + 2 + ... + 64 s, then 26 × 120 s.
        #expect(stall(.gilbertElliott(p: 0.02, r: 0.1, oneMinusH: 0.9, oneMinusK: 0)) == .seconds(3_247))
        // EDGE-bursty (Examples/link-profiles.json): q = 0.7·0.2 + 0.3·0.001, four tries, 1 + 2 + 4 + 8 s.
        #expect(stall(.gilbertElliott(p: 0.02, r: 0.3, oneMinusH: 0.2, oneMinusK: 0.001)) == .seconds(15))
        #expect(stall(.gilbertElliott(p: 0.02, r: 0.3, oneMinusH: 0, oneMinusK: 0)) == .zero)
        #expect(stall(.bernoulli(probability: 0.1)) == .zero)
        #expect(stall(.none) == .zero)
        // A timed chain's bad state of 2 s on average outlasts 13.8 s once in a thousand: tries at 1, 3, 7 and 15 s,
        // and the one after them, 31 s in all.
        #expect(stall(.gilbertElliottTimed(meanGood: .seconds(30), meanBad: .seconds(2), oneMinusH: 0.8,
                                           oneMinusK: 0)) == .seconds(31))
        // A bad state of 10 minutes on average: 69 minutes, past the 120 s cap: 1 + ... + 64 s, then 34 tries of 120 s.
        #expect(stall(.gilbertElliottTimed(meanGood: .hours(10), meanBad: .minutes(10), oneMinusH: 1,
                                           oneMinusK: 0)) == .seconds(127 + 34 * 120 + 120))
        #expect(stall(.gilbertElliottTimed(meanGood: .seconds(1), meanBad: .seconds(1), oneMinusH: 0,
                                           oneMinusK: 0.5)) == .zero)

        let loss = LossModel.gilbertElliott(p: 0.02, r: 0.1, oneMinusH: 0.9, oneMinusK: 0)
        let cell = LinkProfile(
            name: "bursty", source: "assumption",
            uplink: .init(rateBitsPerSecond: 100_000, oneWayDelay: .milliseconds(300), loss: loss),
            downlink: .init(rateBitsPerSecond: 150_000, oneWayDelay: .milliseconds(300), loss: loss))
        let bursty = ExploreGenerator(linkProfiles: [cell])
        let generated = bursty.generate(seed: 33_000_349)
        #expect(generated.scenario.runLength - generated.quietTailStart >= bursty.minimumQuietTail + .seconds(3_247))

        // A timed cell's scenario prints its loss as DSL code a catalog file compiles.
        let fades = LossModel.gilbertElliottTimed(
            meanGood: .seconds(30), meanBad: .seconds(2), oneMinusH: 0.8, oneMinusK: 0.001)
        let fading = LinkProfile(
            name: "fading", source: "assumption",
            uplink: .init(rateBitsPerSecond: 200_000, oneWayDelay: .milliseconds(440), loss: fades),
            downlink: .init(rateBitsPerSecond: 240_000, oneWayDelay: .milliseconds(400), loss: fades))
        let timed = ExploreGenerator(linkProfiles: [fading]).generate(seed: 33_600_000)
        #expect(timed.scenario.dslSource().contains(
            "loss: .gilbertElliottTimed(meanGood: .seconds(30), meanBad: .seconds(2), oneMinusH: 0.8, oneMinusK: 0.001)"))
        #expect(timed.scenario.runLength - timed.quietTailStart >= ExploreGenerator().minimumQuietTail + .seconds(31))
    }

    @Test("the quiet tail starts after every scheduled outage of the cells in use; a loss of exactly 20% is refused")
    func quietTailAfterScheduledOutages() {
        // A metro line's 20-minute tunnel from 200 s (a helper's cell, session 37): runs ended inside it and broke T5.
        let tunnel = OutageModel.scheduled([OutageWindow(start: .seconds(200), length: .minutes(20))])
        let metro = LinkProfile(
            name: "metro-long-tunnel", source: "assumption",
            uplink: .init(rateBitsPerSecond: 330_000, oneWayDelay: .milliseconds(100), outages: tunnel),
            downlink: .init(rateBitsPerSecond: 780_000, oneWayDelay: .milliseconds(100), outages: tunnel))
        #expect(ExploreGenerator.reasonToRefuse(metro) == nil)
        let generator = ExploreGenerator(linkProfiles: [metro])
        for seed in UInt64(47_900_010)...47_900_016 {
            let generated = generator.generate(seed: seed)
            #expect(generated.quietTailStart >= .seconds(1_400), "seed \(seed): tail from \(generated.quietTailStart)")
            #expect(generated.scenario.runLength - generated.quietTailStart >= generator.minimumQuietTail)
        }
        // Gilbert-Elliott with a long-run loss of exactly 20% (p 0.01, r 0.04, 1-h 1) computes to 0.19999999999999998.
        let lossy = LossModel.gilbertElliott(p: 0.01, r: 0.04, oneMinusH: 1, oneMinusK: 0)
        let twenty = LinkProfile(
            name: "ge-20", source: "assumption",
            uplink: .init(rateBitsPerSecond: 100_000, oneWayDelay: .milliseconds(100), loss: lossy),
            downlink: .init(rateBitsPerSecond: 100_000, oneWayDelay: .milliseconds(100), loss: lossy))
        #expect(ExploreGenerator.reasonToRefuse(twenty)?.contains("loses 20% of packets") == true)
    }

    @Test("slow engine parameters of the user's own lengthen the quiet tail (photoProcessingTime, backoffCap)")
    func quietTailCountsSlowParameters() {
        func tail(_ parameters: ParameterSet, seed: UInt64) -> (SimDuration, Scenario) {
            let generated = ExploreGenerator(clientParameters: parameters).generate(seed: seed)
            return (generated.scenario.runLength - generated.quietTailStart, generated.scenario)
        }
        // `--param photoProcessingTime=600s`, seed 4200003 failed T5 before: each photo of the client that sends most
        // adds the 598 s above the default's 2 s (the other parameters are defaults: nothing else is added).
        let (usual, scenario) = tail(["photoProcessingTime": .duration(.seconds(Int64(2)))], seed: 4_200_003)
        let (slow, _) = tail(["photoProcessingTime": .duration(.seconds(Int64(600)))], seed: 4_200_003)
        var photos: [String: Int64] = [:]
        for step in scenario.steps {
            switch step.action {
            case .sendPhoto(let client, _, _, _): photos[client, default: 0] += 1
            case .sendPhotos(let client, _, let count, _, _): photos[client, default: 0] += Int64(count)
            default: break
            }
        }
        let most = photos.values.max() ?? 0
        #expect(most > 0)
        #expect(slow - usual == SimDuration(nanoseconds: 598_000_000_000 * most))
        // `--param backoffFactor=10 --param backoffCap=3600s`, seed 4000014: nine SESSION_INIT and LOGIN errors, each
        // a reconnect that may wait the cap at its jitter's upper end (5,400 s): the tail is no longer cut at an hour.
        let (backoff, _) = tail(["backoffFactor": .double(10), "backoffCap": .duration(.seconds(Int64(3600)))],
                                seed: 4_000_014)
        #expect(backoff > .hours(2))
    }

    @Test("no step runs in the quiet tail, and every fault has ended when it starts")
    func quietTailIsQuiet() throws {
        for generator in Self.generators {
            for seed in UInt64(1)...300 {
                let generated = generator.generate(seed: seed)
                let scenario = generated.scenario
                let tail = SimInstant.start + generated.quietTailStart
                #expect(scenario.runLength >= generated.quietTailStart + generator.minimumQuietTail)
                var linkDown: Set<String> = []
                var clogged: Set<String> = []
                var backgrounded: Set<String> = []
                var offline: Set<String> = []
                var capped = false
                for step in try scenario.schedule() {
                    #expect(step.time <= tail, "seed \(seed): \(step.step.action) at \(step.time)")
                    if let duration = step.step.action.duration {
                        #expect(step.time + duration <= tail, "seed \(seed): \(step.step.action) lasts past the tail")
                    }
                    switch step.step.action {
                    case .linkDown(let client, _): linkDown.insert(client)
                    case .linkUp(let client): linkDown.remove(client)
                    case .clog(let client): clogged.insert(client)
                    case .release(let client): clogged.remove(client)
                    case .background(let client): backgrounded.insert(client)
                    case .foreground(let client): backgrounded.remove(client)
                    case .changeProfile(let client, let profile):
                        if profile == .offline { offline.insert(client) } else { offline.remove(client) }
                    case .capLogin(let chats): capped = chats < 1_000_000
                    default: break
                    }
                }
                #expect(linkDown.isEmpty && clogged.isEmpty && offline.isEmpty, "seed \(seed)")
                #expect(backgrounded.isEmpty, "seed \(seed)")
                #expect(scenario.unhealedFaults.isEmpty, "seed \(seed): \(scenario.unhealedFaults)")
                if generated.checksLiveness {
                    #expect(!capped, "seed \(seed): LOGIN still capped in the tail")
                    let skipsV1 = scenario.steps.contains { if case .capLogin = $0.action { true } else { false } }
                        || ExploreGenerator.Builder.lagsChanges(scenario.server.parameters, scenario.steps.map(\.action))
                    let expected = skipsV1 ? InvariantID.allCases.filter { $0 != .V1 } : InvariantID.allCases
                    #expect(scenario.checkedInvariants == expected)
                } else {
                    #expect(scenario.checkedInvariants.allSatisfy { !$0.isLiveness })
                    #expect(scenario.expectations.metricBounds.map(\.metric) == ["loginAttempts"])
                }
            }
        }
    }

    @Test("lost pushes stay an unhealed fault until the client reconnects after the loss (seeds 600009, 600121, 600196)")
    func lostPushesNeedAReconnect() {
        func scenario(_ repair: [Step]) -> Scenario {
            var scenario = Scenario("lost-pushes", summary: "lost pushes and what repairs them", seeds: [1]) {
                Server()
                Client("alice", profile: .threeG)
                Client("bob", profile: .threeG)
                Timeline {
                    At(.seconds(10)) { PushLoss(probability: 1, for: .seconds(20)) }
                }
            }
            scenario.steps += repair
            return scenario
        }
        #expect(scenario([]).unhealedFaults == ["alice: pushes lost", "bob: pushes lost"])
        // A reconnect inside the loss repairs nothing: pushes after it are lost as well.
        let early = At(.seconds(15)) { LinkDown("alice", for: .seconds(1), .withReset) }.steps
        #expect(scenario(early).unhealedFaults == ["alice: pushes lost", "bob: pushes lost"])
        let resetAlice = At(.seconds(30)) { LinkDown("alice", for: .seconds(1), .withReset) }.steps
        let restartBob = At(.seconds(31)) { RestartApp("bob") }.steps
        #expect(scenario(resetAlice + restartBob).unhealedFaults.isEmpty)
        // A silent outage may end before any timer notices it: no reconnect is sure.
        let silentAlice = At(.seconds(30)) { LinkDown("alice", for: .seconds(1), .silently) }.steps
        #expect(scenario(silentAlice + restartBob).unhealedFaults == ["alice: pushes lost"])
    }

    @Test("the storm bound follows the backoff: 1, 2, 4, ... capped at 60 s, half of each at the least")
    func stormBound() {
        // Shortest delays 0.5, 1, 2, 4, 8, 16, 30, 30, ... s: 7 attempts by 31.5 s, one more every 30 s.
        #expect(ExploreGenerator.Builder.attempts(within: .seconds(31), parameters: [:]) == 6)
        #expect(ExploreGenerator.Builder.attempts(within: .seconds(32), parameters: [:]) == 7)
        #expect(ExploreGenerator.Builder.attempts(within: .seconds(92), parameters: [:]) == 9)
        #expect(ExploreGenerator.Builder.attempts(within: .seconds(10), parameters: ["backoffJitter": 0.0]) == 4)
    }

    @Test("the send-error bound follows the task retry backoff: 1, 2, 4, ... s capped at 60 s, half of each, at most maxTaskAttempts")
    func taskAttempts() {
        // Shortest delays 0.5, 1, 2, 4, 8, 16, 30, ... s: cumulative 0.5, 1.5, 3.5, 7.5, 15.5, 31.5, 61.5.
        #expect(ExploreGenerator.Builder.taskAttempts(within: .seconds(10), parameters: [:]) == 5)
        #expect(ExploreGenerator.Builder.taskAttempts(within: .seconds(60), parameters: [:]) == 7)
        #expect(ExploreGenerator.Builder.taskAttempts(within: .seconds(60), parameters: ["maxTaskAttempts": 3]) == 3)
        #expect(ExploreGenerator.Builder.taskAttempts(
            within: .seconds(10), parameters: ["taskRetryBase": .duration(.seconds(4))]) == 3)
    }

    @Test("send errors: a period inside the active phase, a send in it, a MSG_SEND bound per sending client")
    func sendErrorRuns() throws {
        var seen = 0
        for seed in UInt64(1)...200 {
            let generated = ExploreGenerator().generate(seed: seed)
            let parameters = generated.scenario.server.parameters
            guard let from = parameters["msgSendErrorsFrom"]?.durationValue else {
                #expect(generated.scenario.expectations.metricBounds.allSatisfy { $0.metric != "requests" })
                continue
            }
            seen += 1
            #expect(generated.enabledKinds.contains(.sendErrors))
            let until = try #require(parameters["msgSendErrorsUntil"]?.durationValue)
            #expect(from < until && until < generated.quietTailStart, "seed \(seed)")
            let sendsInPeriod = generated.scenario.steps.filter { step in
                guard case .sendText = step.action, case .at(let time) = step.timing else { return false }
                return time >= from && time < until
            }
            #expect(!sendsInPeriod.isEmpty, "seed \(seed)")
            let bounds = generated.scenario.expectations.metricBounds.filter { $0.metric == "requests" }
            #expect(!bounds.isEmpty && bounds.allSatisfy { $0.opcode == .msgSend && $0.client != nil }, "seed \(seed)")
        }
        #expect(seen > 10)
    }

    @Test("multi-photo sends each get an Always(.photosComplete) from their send on; edit lag is a server parameter")
    func photoAndEditRuns() {
        var photoRuns = 0
        var lagRuns = 0
        for seed in UInt64(1)...100 {
            let scenario = ExploreGenerator().generate(seed: seed).scenario
            let sends = scenario.steps.compactMap { step -> (String, String, Int)? in
                if case .sendPhotos(_, let chat, let count, _, let caption) = step.action { (chat, caption, count) } else { nil }
            }
            let always = scenario.expectations.always.map(\.condition).filter {
                if case .photosComplete = $0 { true } else { false }
            }
            #expect(Set(always) == Set(sends.map { .photosComplete(chat: $0.0, caption: $0.1, photos: $0.2) }),
                    "seed \(seed)")
            #expect(always.count == sends.count)
            if !sends.isEmpty { photoRuns += 1 }
            if scenario.server.parameters["historyEditLag"] != nil { lagRuns += 1 }
        }
        #expect(photoRuns > 10 && lagRuns > 10)
    }

    @Test("a client that lost pushes reconnects when the loss ends, so V1 can judge it (seeds 200087, 600009)")
    func pushLossEndsWithAReconnect() {
        var lossRuns = 0
        for seed in UInt64(1)...100 {
            let scenario = ExploreGenerator().generate(seed: seed).scenario
            var checkedLosses = 0
            for step in scenario.steps {
                guard case .at(let time) = step.timing, case .pushLoss(let target, _, let duration) = step.action else {
                    continue
                }
                checkedLosses += 1
                for client in target.map({ [$0] }) ?? scenario.clients.map(\.name) {
                    #expect(scenario.steps.contains { reset in
                        guard case .at(time + duration) = reset.timing,
                              case .outage(client, _, .withReset) = reset.action else { return false }
                        return true
                    }, "seed \(seed): \(client) lost pushes until \(time + duration) and does not reconnect then")
                }
            }
            if checkedLosses > 0 { lossRuns += 1 }
        }
        #expect(lossRuns > 10)
    }

    @Test("the storm bound counts a network restored as a launch: seed 7406's reference engine made 83 LOGINs")
    func stormBoundCountsRestoredNetwork() {
        let bounds = ExploreGenerator().generate(seed: 7406).scenario.expectations.metricBounds
        let limit = bounds.first { $0.metric == "loginAttempts" }?.atMost
        #expect((limit ?? 0) >= 83)
    }

    /// Session 35's far-lossy-9k6 cell (Examples/link-profiles-slow-deep.json: 9.6 kbit/s, 1.5 s one way, 5% loss):
    /// explore seeds 35505925 and 35508252 ended the tail with sends never tried (T5): their queue, hundreds of sends
    /// one at a time, needed more than the hour the tail was cut at. The queue is no longer cut.
    @Test("on a cell seconds away the quiet tail covers the sends' queue past the hour's cut (seed 35508252)")
    func quietTailCoversSendQueuePastTheHour() {
        let loss = LossModel.bernoulli(probability: 0.05)
        let cell = LinkProfile(
            name: "far-lossy-9k6", source: "assumption",
            uplink: .init(rateBitsPerSecond: 9_600, oneWayDelay: .milliseconds(1_500), loss: loss),
            downlink: .init(rateBitsPerSecond: 9_600, oneWayDelay: .milliseconds(1_500), loss: loss))
        let generator = ExploreGenerator(linkProfiles: [cell])
        var pastTheHour = 0
        for seed in [UInt64(35_505_925), 35_508_252] + Array(UInt64(1)...60) {
            let generated = generator.generate(seed: seed)
            var sends: [String: Int] = [:]
            var photoBytes = 0
            for step in generated.scenario.steps {
                switch step.action {
                case .sendText(let client, _, _):
                    sends[client, default: 0] += 1
                case .sendPhoto(let client, _, let bytes, _):
                    sends[client, default: 0] += 1
                    photoBytes += bytes
                case .sendPhotos(let client, _, let count, let bytes, _):
                    sends[client, default: 0] += 1
                    photoBytes += count * bytes
                default: break
                }
            }
            // The photos' and history's transfer, twice over at 9.6 kbit/s, and per send of the busiest client two
            // 3-s round trips, half a second and two minimum RTOs.
            let historyBytes = generated.scenario.server.history.reduce(0) { $0 + $1.messages } * 200
            let transfer = SimDuration.seconds(Int64((photoBytes + historyBytes) * 8 * 2 / 9_600))
            let queue = SimDuration.milliseconds(Int64(sends.values.max() ?? 0) * 8_500)
            let needed = generator.minimumQuietTail + transfer + queue
            let tail = generated.scenario.runLength - generated.quietTailStart
            #expect(tail >= needed, "seed \(seed)")
            if needed > .hours(1) { pastTheHour += 1 }
        }
        #expect(pastTheHour > 0)
    }

    @Test("the quiet tail leaves time for queued sends: seed 200030's 294 sends on 2G-rural went out 2 s apart")
    func tailCoversQueuedSends() {
        let generated = ExploreGenerator().generate(seed: 200_030)
        let tail = generated.scenario.runLength - generated.quietTailStart
        #expect(tail >= .seconds(Int64(294 * 2)))
    }
}

/// The probes (`ExploreProbes.swift`): session checks, stale replies, lost send answers.
@Suite struct ExploreProbeTests {
    @Test("every client gets Never(two server sessions); long isolated silent outages get Always(no session)")
    func sessionChecks() {
        var outageChecks = 0
        for seed in UInt64(1)...150 {
            let scenario = ExploreGenerator().generate(seed: seed).scenario
            let always = scenario.expectations.always
            for client in scenario.clients {
                #expect(always.contains {
                    $0.isNegated && $0.condition == .serverSessions(client: client.name, count: 2) && $0.from == nil
                }, "seed \(seed) \(client.name)")
            }
            for check in always {
                guard case .serverSessions(let client, 0) = check.condition else { continue }
                outageChecks += 1
                guard case .time(let from) = check.from, case .time(let until) = check.until else {
                    Issue.record("seed \(seed): an outage check without a window")
                    continue
                }
                // The window opens 65 s after a silent outage of that client starts and closes when it ends.
                #expect(scenario.steps.contains { step in
                    guard case .at(let time) = step.timing, time == from - .seconds(65) else { return false }
                    switch step.action {
                    case .outage(client, let duration, .silently): return time + duration == until
                    case .linkDown(client, .silently): return true
                    default: return false
                    }
                }, "seed \(seed)")
            }
        }
        #expect(outageChecks >= 5)
    }

    /// Explore seed 38608584 (session 38): a page asked into a clog, the app crashed, and the released request's
    /// answer, sent to the relaunched app's connection, met its request of the same seq (C3): a clog and a delay
    /// spike make replies late as a delayed or held answer does.
    @Test("a clog until its release and a delay spike are windows where a reply may be late")
    func clogIsLateReplyWindow() {
        let steps: [(time: SimDuration, action: Action)] = [
            (.seconds(20), .release(client: "alice")),
            (.seconds(8), .clog(client: "alice")),
            (.seconds(10), .crashApp(client: "alice")),
            (.seconds(40), .delaySpike(client: "bob", extraDelay: .seconds(3), duration: .seconds(10))),
        ]
        let windows = ExploreGenerator.Builder.lateReplyWindows(steps)
        #expect(windows.map(\.from) == [.seconds(7), .seconds(39)])
        #expect(windows.map(\.until) == [.seconds(25), .seconds(58)])
        #expect(ExploreGenerator.Builder.restartMeetsLateReply(steps))
        #expect(!ExploreGenerator.Builder.restartMeetsLateReply([steps[0], steps[2]]))
    }

    @Test("stale-reply runs have repliesFollowDevice, default seqs, no restart while a reply is late; lost-send runs never give up a task")
    func staleReplyAndLostSend() {
        var staleRuns = 0
        var lostSendRuns = 0
        for seed in UInt64(1)...100 {
            let generated = ExploreGenerator().generate(seed: seed)
            let scenario = generated.scenario
            if scenario.server.parameters["repliesFollowDevice"] == .bool(true) {
                staleRuns += 1
                let steps = scenario.steps.compactMap { step -> (time: SimDuration, action: Action)? in
                    if case .at(let time) = step.timing { (time, step.action) } else { nil }
                }
                #expect(!ExploreGenerator.Builder.restartMeetsLateReply(steps), "seed \(seed)")
                #expect(scenario.clients.allSatisfy { $0.parameters["seqModulus"] == nil }, "seed \(seed)")
            }
            if let attempts = scenario.clients.first?.parameters["maxTaskAttempts"]?.intValue {
                lostSendRuns += 1
                #expect(scenario.steps.contains { $0.action == .loseResponses(opcode: .msgSend, count: 1) })
                // More attempts than the retry backoff allows in the whole run.
                var unlimited = scenario.clients[0].parameters
                unlimited["maxTaskAttempts"] = .int(1_000_000)
                #expect(attempts > ExploreGenerator.Builder.taskAttempts(within: scenario.runLength,
                                                                         parameters: unlimited), "seed \(seed)")
            }
        }
        #expect(staleRuns > 5 && lostSendRuns > 10)
    }
}

/// A shrunk failure becomes a catalog file and a signature.
@Suite struct ExploreFailureTests {
    @Test("a shrunk failure prints as a ready catalog file, and its signature names the check and step kinds")
    func catalogFile() throws {
        let generated = ExploreGenerator().generate(seed: 7)
        var shrunk = generated.scenario
        shrunk.steps = Array(shrunk.steps.prefix(2))
        shrunk.name = "explore-7"
        let violation = Violation(check: .invariant(.T2), time: .start, expected: "one", found: "two")
        let result = RunResult(scenario: shrunk.name, seed: 7, digest: 0, violations: [violation])
        let outcome = ExploreOutcome(exploreCase: generated, result: result, simulated: .seconds(1), events: 1)
        let failure = ExploreFailure(outcome: outcome, check: .invariant(.T2), shrunk: shrunk, shrinkRuns: 3)
        let source = try #require(failure.catalogFileSource(mutant: nil))
        #expect(source.hasPrefix("import SyncSim\n"))
        #expect(source.contains("extension Catalog {"))
        #expect(source.contains("    public static let explore7 = Scenario(\"explore-7\""))
        #expect(failure.signature == "T2 [" + Set(shrunk.steps.map(\.action.dslName)).sorted().joined(separator: ", ")
            + "]")
        #expect(ExploreFailure(outcome: outcome, check: .invariant(.T2), shrunk: nil, shrinkRuns: 0)
            .catalogFileSource(mutant: nil) == nil)
    }
}

@Suite struct ExploreGeneratorLinkProfileTests {
    @Test("with link profiles given, clients start on them, and those not in the catalog come with the scenario")
    func ownProfiles() {
        let cell = LinkProfile(
            name: "LTE-M", source: "assumption",
            uplink: .init(rateBitsPerSecond: 375_000, oneWayDelay: .milliseconds(150),
                          jitter: .uniform(maximum: .milliseconds(100)), reordersPackets: true),
            downlink: .init(rateBitsPerSecond: 1_000_000, oneWayDelay: .milliseconds(150)))
        let generator = ExploreGenerator(linkProfiles: [cell, .edge])
        for seed in UInt64(1)...20 {
            let scenario = generator.generate(seed: seed).scenario
            #expect(scenario.clients.allSatisfy { ["LTE-M", "EDGE"].contains($0.profile.rawValue) })
            #expect(scenario.linkProfiles == [cell])
            #expect(scenario.problems().isEmpty)
        }
        // Without them the catalog's profiles, and no profile of the scenario's own.
        #expect(ExploreGenerator().generate(seed: 1).scenario.linkProfiles.isEmpty)
    }
}
