/// Builds a random scenario from one seed: topology, seeded history, a timeline of user actions and faults, and a
/// quiet tail (see `ExploreCase`). The explorer's workload generator, after FoundationDB's simulation and
/// TigerBeetle's VOPR: the workload and the faults come from the seed, not from a written scenario.
///
/// Swarm testing (Groce et al., "Swarm Testing", ISSTA 2012): each run switches every `ExploreKind` on or off at
/// random and gives the ones left on a random intensity, so a run stresses a few behaviours hard rather than all of
/// them a little. With `usesSwarm == false` every kind except the login storm is on at a middle intensity.
///
/// Deterministic: every draw comes from the SimCore stream `"explore.generator"` of the seed, through integer
/// arithmetic of its own (not the standard library's `random(in:using:)`, whose algorithm may change between
/// toolchains), so a seed gives the same scenario on every machine.
public struct ExploreGenerator: Sendable {
    /// Whether kinds are switched on and off per run (swarm testing); default true.
    public var usesSwarm: Bool
    /// Parameters given to every client over the generated ones (`syncsim explore --param`).
    public var clientParameters: ParameterSet
    /// The shortest quiet tail; transfers of the run's photos and history on its slowest link add to it.
    public var minimumQuietTail: SimDuration
    /// The link profiles clients start on and hand over to (`syncsim explore --profiles`), or nil for the catalog's
    /// (offline aside). Those not in the catalog are added to each generated scenario as profiles of its own.
    public var linkProfiles: [LinkProfile]?

    /// Creates a generator.
    /// - Parameters:
    ///   - usesSwarm: switch kinds on and off per run (default true).
    ///   - clientParameters: engine parameters every client gets, overriding generated ones (default none).
    ///   - minimumQuietTail: the shortest quiet tail (default 5 minutes: a full reconnect backoff of 60 s, a
    ///     request timeout of 20 s and the LOGIN, history and queue work after them, with room to spare).
    ///   - linkProfiles: the profiles clients start on and hand over to; nil (the default) for the catalog's.
    public init(
        usesSwarm: Bool = true,
        clientParameters: ParameterSet = [:],
        minimumQuietTail: SimDuration = .minutes(5),
        linkProfiles: [LinkProfile]? = nil
    ) {
        self.usesSwarm = usesSwarm
        self.clientParameters = clientParameters
        self.minimumQuietTail = minimumQuietTail
        self.linkProfiles = linkProfiles
    }

    /// User names, in the order clients are added (2 to 12 of them).
    static let names = [
        "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj",
    ]

    /// Profiles clients start on: the catalog's, offline aside (a handover may still go offline).
    static let startProfiles: [ProfileName] = ProfileName.known.map(\.profile).filter { $0 != .offline }

    /// Opcodes the server faults aim at: the requests a client makes (and CHATS_LIST, `Builder.faultOpcode()`).
    static let faultOpcodes: [Opcode] = [.login, .chatHistory, .msgSend, .photoUpload, .sessionInit]

    /// Per-minute base rate of each kind at intensity 1 (how many steps of the kind a minute of active phase gets).
    static func baseRate(_ kind: ExploreKind) -> Double {
        switch kind {
        case .sendText: 4
        case .openChat, .scrollUp: 2
        case .scrollDown, .sendPhoto, .background, .lossBurst, .delaySpike, .linkDown, .linkReset, .halfOpen: 1
        case .restartApp, .crashApp, .clog, .handover, .serverRestart, .delayResponses, .loseResponses,
            .errorReplies, .pushLoss, .pushDuplication, .skewClock, .markRead, .closeChat, .postFromOtherDevice,
            .delayPushes, .holdResponses, .connectivity, .sendPhotos, .editMessage, .deleteMessage:
            0.7
        case .capLogin: 0.3
        // Whole-run kinds: one period of send errors, one replica lag, a storm; not steps at a rate.
        case .loginStorm, .sendErrors, .editLag: 0
        }
    }

    /// Why explore cannot judge the engine on `profile`, or nil when it can: explore checks liveness (C6, T5, V1)
    /// after a quiet tail, so a link on which no engine converges within it would only report itself. Refused: random
    /// outages (they go on in the tail), a 1,500-byte packet taking more than 2 s to serialize (about 6 kbit/s), a
    /// long-run loss of 20% or more, and a one-way delay above 10 s with jitter and delay spikes (the engine's
    /// request timeout is 20 s). Limits of this tool's own choosing, not from a source; `sweep` and scenarios take
    /// such links.
    public static func reasonToRefuse(_ profile: LinkProfile) -> String? {
        for direction in LinkDirection.allCases {
            let link = profile[direction]
            let name = direction == .uplink ? "uplink" : "downlink"
            if case .random = link.outages {
                return "its \(name) has random outages, which go on in the quiet tail"
            }
            let serialization = link.rateBitsPerSecond == 0
                ? SimDuration.hours(1) : link.serializationTime(ipBytes: 1_500)
            if serialization > .seconds(2) {
                return "its \(name) takes \(serialization) to send a 1,500-byte packet (\(link.rateBitsPerSecond) bit/s"
                    + (link.perPacketOverheadBytes > 0 ? ", \(link.perPacketOverheadBytes) B overhead" : "")
                    + "); explore needs 2 s at most"
            }
            // With a rounding margin: a Gilbert-Elliott chain of exactly 20% computes to 0.19999999999999998.
            if link.loss.stationaryLossRate >= 0.2 - 1e-9 {
                return "its \(name) loses \(LossModel.percent(link.loss.stationaryLossRate)) of packets in the long run; "
                    + "explore needs less than 20%"
            }
            let delay = Builder.slowDelay(link)
            if delay > .seconds(10) {
                return "its \(name)'s one-way delay reaches \(delay) with jitter and spikes; explore needs 10 s at most"
            }
        }
        return nil
    }

    /// How much longer a link direction's `loss` makes a run's quiet tail: how long TCP may wait to get one packet
    /// through a burst of it (the tail takes the largest of the run's directions); zero for losses that do not come
    /// in bursts (`none`, `bernoulli`, which the tail counts per send). Retransmission
    /// timeouts double from 1 s (RFC 6298 §2.1, §5.5) up to `TCPConfiguration`'s `maximumRTO` (120 s); the stall
    /// allowed is their sum over the tries a burst defeats with probability 10⁻³ at most:
    /// - Gilbert-Elliott, whose chain moves once per packet sent (netem's `gemodel`): a packet lost in the bad
    ///   state is lost again on its next try with probability q = (1-r)·(1-h) + r·(1-k), however long TCP
    ///   waited, so the tries are the n that all fail with probability 10⁻³ (q^n ≤ 10⁻³). q 0.81 (`p` 0.02,
    ///   `r` 0.1, `1-h` 0.9) allows 54 minutes, q 0.14 (Examples/link-profiles.json's `EDGE-bursty`) 15 s.
    /// - The timed chain: a bad state outlasts ln(1000)·`meanBad` (6.9 times its mean) with probability 10⁻³,
    ///   and the first try after it ends gets through, so the tries are those up to that time, and one more.
    ///   A mean of 2 s allows 31 s.
    /// SyncSim's own bound, not from a source.
    public static func lossBurstAllowance(_ loss: LossModel) -> SimDuration {
        let maximum = TCPConfiguration().maximumRTO.nanoseconds
        var stall: Int64 = 0
        var timeout: Int64 = 1_000_000_000
        func nextTry() {
            stall += timeout
            timeout = min(timeout * 2, maximum)
        }
        switch loss {
        case .none, .bernoulli:
            return .zero
        case .gilbertElliott(_, let r, let oneMinusH, let oneMinusK):
            let q = (1 - r) * oneMinusH + r * oneMinusK
            guard q > 0 else { return .zero }
            var allFail = 1.0
            // At most 64 tries: a chain that never leaves a state losing every packet is refused before (its
            // long-run loss is 100%).
            for _ in 0..<64 where allFail > 1e-3 {
                allFail *= q
                nextTry()
            }
        case .gilbertElliottTimed(_, let meanBad, let oneMinusH, _):
            guard oneMinusH > 0, meanBad > .zero else { return .zero }
            let burst = Int64(min(Double(meanBad.nanoseconds) * 6.907_755_278_982_137, 9e18))
            while stall < burst && timeout < maximum { nextTry() }
            if stall < burst {
                // Every try from here waits the maximum.
                stall += (burst - stall + maximum - 1) / maximum * maximum
            }
            nextTry()
        }
        return SimDuration(nanoseconds: stall)
    }

    /// Generates the case of `seed`.
    public func generate(seed: UInt64) -> ExploreCase {
        var builder = Builder(seed: seed, generator: self)
        return builder.build()
    }
}

/// Uniform draws over integer ranges and lists, from a SimCore stream.
struct ExploreDice {
    var generator: SeededGenerator

    /// A uniform integer in `range` (modulo bias below 2^-40 for the ranges used here).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(generator.next() % span)
    }

    mutating func chance(_ probability: Double) -> Bool { generator.nextBernoulli(probability) }

    mutating func unit() -> Double { generator.nextUnitInterval() }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    /// Milliseconds in `range` as a duration.
    mutating func milliseconds(_ range: ClosedRange<Int>) -> SimDuration { .milliseconds(Int64(int(range))) }

    /// A probability in `range`, rounded to two decimals so the printed scenario reads well.
    mutating func probability(_ range: ClosedRange<Int>) -> Double { Double(int(range)) / 100 }
}

extension ExploreGenerator {
    /// The state of one generation.
    struct Builder {
        let seed: UInt64
        let generator: ExploreGenerator
        var dice: ExploreDice
        /// The draws added in session 36 for the chat-list catch-up (a client's `loginChatsCount`, a server fault
        /// aimed at CHATS_LIST), from a stream of their own: every draw of `dice`, and so every run's steps and times,
        /// stayed what it was.
        var catchUpDice: ExploreDice
        var clients: [ClientSpec] = []
        var chats: [(name: String, members: [String], isDeclared: Bool)] = []
        var history: [ChatHistorySeed] = []
        /// Timed steps of the active phase, in generation order; sorted stably by time at the end.
        var timed: [(time: SimDuration, action: Action)] = []
        var active: SimDuration = .zero
        var texts = 0
        var profilesUsed: [ProfileName] = []
        var photoBytes = 0
        /// Multi-photo sends: their chat, caption and photo count, for the `Always(.photosComplete)` checks.
        var photoMessages: [(chat: String, caption: String, photos: Int, time: SimDuration)] = []
        /// The server's parameters (send-error period, replica lag).
        var serverParameters: ParameterSet = [:]
        /// The period of instant MSG_SEND errors, when the run has one.
        var sendErrorPeriod: (from: SimDuration, until: SimDuration)?

        /// The profiles clients start on and hand over to.
        let startProfiles: [ProfileName]

        init(seed: UInt64, generator: ExploreGenerator) {
            self.seed = seed
            self.generator = generator
            dice = ExploreDice(generator: RandomStreams(runSeed: seed).stream("explore.generator"))
            catchUpDice = ExploreDice(generator: RandomStreams(runSeed: seed).stream("explore.catchUp"))
            startProfiles = generator.linkProfiles?.map { ProfileName(rawValue: $0.name) }
                ?? ExploreGenerator.startProfiles
        }

        /// The opcode a server fault aims at: one of `faultOpcodes`, or in one fault of six CHATS_LIST (a catch-up's
        /// page lost, late, held or refused; it bites in runs whose clients ask LOGIN for few chats).
        mutating func faultOpcode() -> Opcode {
            let opcode = dice.pick(ExploreGenerator.faultOpcodes)
            return catchUpDice.chance(1.0 / 6) ? .chatsList : opcode
        }

        /// The profile `name` names: one of `--profiles`, else the catalog's.
        func link(_ name: ProfileName) -> LinkProfile? {
            LinkProfile.named(name.rawValue, among: generator.linkProfiles ?? [])
        }

        mutating func build() -> ExploreCase {
            let (kinds, intensity) = chooseKinds()
            let isStorm = kinds.contains(.loginStorm) && dice.chance(generator.usesSwarm ? 0.35 : 0.1)
            buildTopology()
            active = .seconds(Int64(dice.int(30...360)))
            let minutes = Double(active.nanoseconds) / 60e9
            for kind in kinds where ExploreGenerator.baseRate(kind) > 0 {
                let mean = ExploreGenerator.baseRate(kind) * Double(intensity[kind] ?? 1) * minutes
                let count = dice.int(0...max(1, Int(mean * 2)))
                for _ in 0..<count { add(kind) }
            }
            if !kinds.contains(where: { !$0.isFault }) || timed.isEmpty { add(.sendText) }
            if kinds.contains(.sendErrors) && !isStorm { addSendErrors() }
            if kinds.contains(.editLag) {
                serverParameters["historyEditLag"] = .duration(dice.pick([.seconds(30), .minutes(2), .minutes(10)]))
            }
            let probes = addProbes(isStorm: isStorm)
            addReconnectsAfterLostPushes()
            let capsLogin = timed.contains { if case .capLogin = $0.action { true } else { false } }
            if capsLogin {
                // Lift the cap before the quiet tail: a cap that stays would be a fault in the tail.
                timed.append((active - .milliseconds(1), .capLogin(chats: 1_000_000)))
            }
            let order = timed.indices.sorted { (timed[$0].time, $0) < (timed[$1].time, $1) }
            var steps = order.map {
                Step(timing: .at(timed[$0].time), action: timed[$0].action, location: .generated)
            }
            var invariants: [InvariantID] = []
            var bounds: [MetricBound] = []
            if isStorm {
                steps.insert(
                    Step(timing: .at(.zero), action: .errorReplies(opcode: .login, count: 1_000_000),
                         location: .generated),
                    at: 0)
                invariants = InvariantID.allCases.filter { !$0.isLiveness }
            } else if capsLogin || Self.lagsChanges(serverParameters, timed.map(\.action)) {
                // A capped LOGIN moves last-sync past the chats it left out, and nothing in the protocol tells the
                // client they were left out: those chats stay stale until they change again, whatever the engine.
                // Likewise a lagging replica may serve a message in a version older than an edit or delete the
                // client was never pushed (it was offline), and nothing asks it to fetch the page again. (A push the
                // server drops on a live connection is news the client learns only at its next LOGIN: field pushes
                // carry no sequence number to detect a gap by. So V1 stays, and `addReconnectsAfterLostPushes` makes
                // that LOGIN happen; explore seeds 200087, 600009.)
                invariants = InvariantID.allCases.filter { $0 != .V1 }
            }
            let quietTail = quietTailLength()
            // The quiet tail starts once every scheduled outage of the cells in use is over: a window reaching into
            // it kept the link down while the engine was to converge (a helper's metro cell, out from 200 s for 20
            // minutes: 3 of 20 runs ended inside the outage and broke T5).
            let tailStart = max(active, scheduledOutagesEnd())
            let runLength = tailStart + quietTail
            if probes.lostSendAnswer { raiseTaskAttempts(runLength: runLength) }
            if isStorm { bounds.append(stormBound(steps: steps, runLength: runLength)) }
            if let period = sendErrorPeriod { bounds += sendErrorBounds(steps: steps, period: period) }
            let always = photoMessages.map { message in
                Always(.photosComplete(chat: message.chat, caption: message.caption, photos: message.photos),
                       isNegated: false, from: .time(message.time), until: nil, location: .generated)
            } + sessionChecks(steps: steps)

            var scenario = Scenario(
                "explore-\(seed)",
                summary: "generated by syncsim explore from seed \(seed)",
                seeds: [seed],
                runLength: runLength,
                fileID: SourceLocation.generated.fileID,
                line: SourceLocation.generated.line
            ) {}
            scenario.location = .generated
            scenario.server = ServerSpec(parameters: serverParameters, history: history)
            scenario.clients = clients
            scenario.linkProfiles = (generator.linkProfiles ?? []).filter { LinkProfile.named($0.name) == nil }
            scenario.chats = chats.filter(\.isDeclared).map { ChatSpec(name: $0.name, members: $0.members) }
            scenario.steps = steps
            scenario.expectations = Expectations(invariants: invariants, metricBounds: bounds, always: always)
            let enabled = ExploreKind.allCases.filter { kinds.contains($0) }
            return ExploreCase(
                seed: seed, scenario: scenario, enabledKinds: enabled, quietTailStart: tailStart,
                checksLiveness: !isStorm)
        }

        /// The kinds on in this run and their intensities (1, 2, 3, 5 or 8).
        mutating func chooseKinds() -> ([ExploreKind], [ExploreKind: Int]) {
            var kinds: [ExploreKind] = []
            var intensity: [ExploreKind: Int] = [:]
            for kind in ExploreKind.allCases {
                if generator.usesSwarm {
                    guard dice.chance(0.5) else { continue }
                    kinds.append(kind)
                    intensity[kind] = dice.pick([1, 2, 3, 5, 8])
                } else {
                    kinds.append(kind)
                    intensity[kind] = 2
                }
            }
            return (kinds, intensity)
        }

        mutating func buildTopology() {
            // Small topologies are cheaper and shrink faster: the count leans towards 2 and 3.
            let count = 2 + Int(dice.unit() * dice.unit() * 11)
            let sharedSeq = dice.chance(0.25) ? dice.pick([8, 16, 256]) : nil
            for index in 0..<count {
                let profile = dice.pick(startProfiles)
                var parameters: ParameterSet = [:]
                if dice.chance(0.25) { parameters["historyPageSize"] = .int(dice.pick([5, 10, 20, 30, 50])) }
                if dice.chance(0.2) { parameters["prefetchDistance"] = .int(dice.pick([0, 5, 10, 30])) }
                // A LOGIN page smaller than the client's chats: the rest comes by the CHATS_LIST catch-up, which the
                // default (100) never needs in a generated run (session 36: three catch-up defects that explore,
                // without `--param loginChatsCount`, could not reach).
                if catchUpDice.chance(0.2) { parameters["loginChatsCount"] = .int(catchUpDice.pick([0, 1, 2, 3])) }
                if let modulus = sharedSeq {
                    // A small seq space wraps within a few requests, so a pending request meets its seq again.
                    parameters["seqModulus"] = .int(modulus)
                    parameters["initialSeq"] = .int(dice.int(0...(modulus - 1)))
                }
                for entry in generator.clientParameters.entries { parameters[entry.key] = entry.value }
                clients.append(ClientSpec(name: ExploreGenerator.names[index], profile: profile, parameters: parameters))
                profilesUsed.append(profile)
            }
            let names = clients.map(\.name)
            var pairs: [[String]] = [[names[0], names[1]]]
            let extraPairs = dice.int(0...min(2 * count, count * (count - 1) / 2 - 1))
            for _ in 0..<extraPairs {
                let first = dice.int(0...(count - 1))
                var second = dice.int(0...(count - 2))
                if second >= first { second += 1 }
                let pair = [names[min(first, second)], names[max(first, second)]]
                if !pairs.contains(pair) { pairs.append(pair) }
            }
            for pair in pairs { chats.append((pair.joined(separator: "+"), pair, false)) }
            if count >= 3 {
                let groups = dice.int(0...2)
                for group in 0..<groups {
                    var members = names.filter { _ in dice.chance(0.6) }
                    var index = 0
                    while members.count < 3 {
                        if !members.contains(names[index]) { members.append(names[index]) }
                        index += 1
                    }
                    chats.append(("group\(group + 1)", names.filter(members.contains), true))
                }
            }
            for chat in chats where dice.chance(0.7) {
                // Mostly short histories, sometimes long ones that take several pages and leave gaps.
                let messages = Int(dice.unit() * dice.unit() * 300)
                if messages > 0 { history.append(ChatHistorySeed(chat: chat.name, messages: messages)) }
            }
        }

        // MARK: - Steps

        /// A start time in the active phase, leaving a second before its end.
        mutating func startTime() -> SimDuration {
            .milliseconds(Int64(dice.int(500...Int(active.nanoseconds / 1_000_000) - 1_000)))
        }

        /// The end of a fault that starts at `start` and wants to last `length`: no later than the active end.
        func end(of start: SimDuration, lasting length: SimDuration) -> SimDuration {
            min(start + length, active - .milliseconds(1))
        }

        mutating func anyClient() -> String { dice.pick(clients).name }

        /// A lost push is lost for good on a live connection: nothing in the protocol lists it again until the next
        /// LOGIN asks for what changed since last-sync. So, as the catalog's `duplicated-and-lost-pushes` does, each
        /// client that lost pushes (every client, the probes' included, for an untargeted loss) reconnects when the
        /// loss ends, with a short reset; without it V1 judged chat lists no engine could have repaired (seeds 600009,
        /// 600121, 600196). Draws nothing, so the runs without push loss stay as they were.
        mutating func addReconnectsAfterLostPushes() {
            for case let (time, .pushLoss(target, _, duration)) in timed {
                let stop = time + duration
                let reset = max(.milliseconds(1), min(.seconds(2), active - .milliseconds(1) - stop))
                for client in target.map({ [$0] }) ?? clients.map(\.name) {
                    timed.append((stop, .outage(client: client, duration: reset, mode: .withReset)))
                }
            }
        }

        /// A chat and one of its members.
        mutating func chatAndMember() -> (chat: String, member: String) {
            let chat = dice.pick(chats)
            return (chat.name, dice.pick(chat.members))
        }

        mutating func add(_ kind: ExploreKind) {
            let time = startTime()
            switch kind {
            case .openChat:
                let (chat, member) = chatAndMember()
                timed.append((time, .openChat(client: member, chat: chat)))
            case .scrollUp:
                let (chat, member) = chatAndMember()
                let messages = dice.chance(0.3) ? 1_000 : dice.int(1...100)
                timed.append((time, .scroll(client: member, chat: chat, direction: .up, messages: messages)))
            case .scrollDown:
                let (chat, member) = chatAndMember()
                timed.append((time, .scroll(client: member, chat: chat, direction: .down, messages: dice.int(1...100))))
            case .sendText:
                let (chat, member) = chatAndMember()
                // Bursts put several sends of one chat in the queue at once (send order, parallel sends).
                let burst = dice.chance(0.3) ? dice.int(2...8) : 1
                var at = time
                for _ in 0..<burst {
                    texts += 1
                    timed.append((at, .sendText(client: member, chat: chat, text: "m\(texts)")))
                    at = min(at + dice.milliseconds(0...2_000), active - .milliseconds(1))
                }
            case .sendPhoto:
                let (chat, member) = chatAndMember()
                let bytes = dice.chance(0.1) ? dice.int(60_000...300_000) : dice.int(1_000...60_000)
                photoBytes += bytes
                texts += 1
                timed.append((time, .sendPhoto(client: member, chat: chat, bytes: bytes, caption: "p\(texts)")))
            case .background:
                let client = anyClient()
                timed.append((time, .background(client: client)))
                timed.append((end(of: time, lasting: dice.milliseconds(1_000...180_000)), .foreground(client: client)))
            case .sendPhotos:
                let (chat, member) = chatAndMember()
                let count = dice.int(2...4)
                let bytes = dice.int(1_000...40_000)
                photoBytes += count * bytes
                texts += 1
                photoMessages.append((chat, "p\(texts)", count, time))
                timed.append((time, .sendPhotos(client: member, chat: chat, count: count, bytes: bytes,
                                                caption: "p\(texts)")))
            case .editMessage:
                let (chat, member) = chatAndMember()
                texts += 1
                timed.append((time, .editMessage(client: member, chat: chat, text: "e\(texts)")))
            case .deleteMessage:
                let (chat, member) = chatAndMember()
                timed.append((time, .deleteMessage(client: member, chat: chat)))
            case .restartApp:
                timed.append((time, .restartApp(client: anyClient())))
            case .crashApp:
                timed.append((time, .crashApp(client: anyClient())))
            case .linkDown, .linkReset:
                let client = anyClient()
                let mode: DisconnectMode = kind == .linkReset ? .withReset : .silently
                let stop = end(of: time, lasting: dice.milliseconds(1_000...120_000))
                if dice.chance(0.5) {
                    timed.append((time, .outage(client: client, duration: stop - time, mode: mode)))
                } else {
                    timed.append((time, .linkDown(client: client, mode: mode)))
                    timed.append((stop, .linkUp(client: client)))
                }
            case .lossBurst:
                let stop = end(of: time, lasting: dice.milliseconds(1_000...60_000))
                timed.append((time, .lossBurst(client: anyClient(), duration: stop - time,
                                               lossRate: dice.probability(5...95))))
            case .delaySpike:
                let stop = end(of: time, lasting: dice.milliseconds(1_000...60_000))
                timed.append((time, .delaySpike(client: anyClient(), extraDelay: dice.milliseconds(100...15_000),
                                                duration: stop - time)))
            case .clog:
                let client = anyClient()
                timed.append((time, .clog(client: client)))
                timed.append((end(of: time, lasting: dice.milliseconds(500...60_000)), .release(client: client)))
            case .handover:
                let index = dice.int(0...(clients.count - 1))
                let client = clients[index]
                let target = dice.chance(0.25) ? ProfileName.offline : dice.pick(startProfiles)
                if target != .offline { profilesUsed.append(target) }
                timed.append((time, .changeProfile(client: client.name, profile: target)))
                // A handover to offline always comes back; to a working profile only sometimes.
                if target == .offline || dice.chance(0.5) {
                    let back = end(of: time, lasting: dice.milliseconds(1_000...120_000))
                    timed.append((back, .changeProfile(client: client.name, profile: client.profile)))
                }
            case .halfOpen:
                timed.append((time, .halfOpen(client: anyClient())))
            case .serverRestart:
                let stop = end(of: time, lasting: dice.milliseconds(0...30_000))
                timed.append((time, .serverRestart(downtime: max(.zero, stop - time))))
            case .delayResponses:
                let stop = end(of: time, lasting: dice.milliseconds(1_000...30_000))
                timed.append((time, .delayResponses(opcode: faultOpcode(),
                                                    extraDelay: dice.milliseconds(100...60_000),
                                                    duration: stop - time)))
            case .loseResponses:
                timed.append((time, .loseResponses(opcode: faultOpcode(),
                                                   count: dice.int(1...3))))
            case .errorReplies:
                timed.append((time, .errorReplies(opcode: faultOpcode(),
                                                  count: dice.int(1...3))))
            case .pushLoss, .pushDuplication:
                let target: String? = dice.chance(0.5) ? anyClient() : nil
                let stop = end(of: time, lasting: dice.milliseconds(1_000...60_000))
                let probability = dice.probability(10...100)
                timed.append((time, kind == .pushLoss
                    ? .pushLoss(client: target, probability: probability, duration: stop - time)
                    : .pushDuplication(client: target, probability: probability, duration: stop - time)))
            case .capLogin:
                timed.append((time, .capLogin(chats: dice.int(1...3))))
            case .skewClock:
                let magnitude = dice.milliseconds(1_000...21_600_000)
                let offset = dice.chance(0.5) ? magnitude : .zero - magnitude
                timed.append((time, .skewClock(client: anyClient(), offset: offset)))
            case .markRead:
                let (chat, member) = chatAndMember()
                timed.append((time, .markRead(client: member, chat: chat)))
            case .closeChat:
                let (chat, member) = chatAndMember()
                timed.append((time, .closeChat(client: member, chat: chat)))
            case .postFromOtherDevice:
                let (chat, member) = chatAndMember()
                texts += 1
                timed.append((time, .postFromOtherDevice(client: member, chat: chat, text: "w\(texts)")))
            case .delayPushes:
                let stop = end(of: time, lasting: dice.milliseconds(1_000...60_000))
                timed.append((time, .delayPushes(client: anyClient(), extraDelay: dice.milliseconds(100...30_000),
                                                 duration: stop - time)))
            case .holdResponses:
                let target: String? = dice.chance(0.5) ? anyClient() : nil
                let until = end(of: time, lasting: dice.milliseconds(500...60_000))
                timed.append((time, .holdResponses(opcode: faultOpcode(), client: target,
                                                   until: .time(until))))
            case .connectivity:
                let client = anyClient()
                timed.append((time, .connectivity(client: client, change: .lost)))
                timed.append((end(of: time, lasting: dice.milliseconds(1_000...120_000)),
                              .connectivity(client: client, change: .restored)))
            case .loginStorm, .sendErrors, .editLag:
                break
            }
        }

        /// One period of 10 to 60 s in which the server answers every MSG_SEND at once with an error, and a send
        /// inside it (so that some task meets the errors).
        mutating func addSendErrors() {
            let activeMilliseconds = Int(active.nanoseconds / 1_000_000)
            let from = SimDuration.milliseconds(Int64(dice.int(500...max(500, activeMilliseconds - 11_000))))
            let until = end(of: from, lasting: dice.milliseconds(10_000...60_000))
            sendErrorPeriod = (from, until)
            serverParameters["msgSendErrorsFrom"] = .duration(from)
            serverParameters["msgSendErrorsUntil"] = .duration(until)
            let (chat, member) = chatAndMember()
            texts += 1
            let at = min(from + dice.milliseconds(0...2_000), until - .milliseconds(1))
            timed.append((at, .sendText(client: member, chat: chat, text: "m\(texts)")))
        }

        // MARK: - Quiet tail and bounds

        /// Whether the server's history pages lag (`historyEditLag`) and the run edits or deletes messages: then V1
        /// is not checked.
        static func lagsChanges(_ parameters: ParameterSet, _ actions: [Action]) -> Bool {
            parameters["historyEditLag"] != nil && actions.contains {
                switch $0 {
                case .editMessage, .deleteMessage: true
                default: false
                }
            }
        }

        /// The minimum tail plus twice the time the run's photos and seeded history take on its slowest uplink; in a
        /// run whose faults make tasks fail (lost or error responses, a send-error period), plus a whole task retry
        /// schedule: a task may enter the tail with most of its attempts used, each further one waiting up to
        /// `requestTimeout` for a lost response (`maximumHandshakeTimeout` for a lost SESSION_INIT or LOGIN answer)
        /// and `taskRetryCap` before the next; plus, for the client that sends
        /// most, two round trips of the slowest profile and half a second per send (sends leave one at a time), and
        /// two minimum RTOs more per send when a profile of the run loses packets. The sum is cut at an hour, but never
        /// below the minimum tail plus the photos' and history's transfer time and the sends' queue.
        /// When the last scheduled outage of the run's cells can end: each client's cell takes effect at the start
        /// and at each of its profile changes, and its windows count from there (`OutageWindow`); zero without
        /// scheduled outages.
        func scheduledOutagesEnd() -> SimDuration {
            func windowsEnd(_ name: ProfileName) -> SimDuration {
                guard let profile = link(name) else { return .zero }
                var end = SimDuration.zero
                for direction in LinkDirection.allCases {
                    guard case .scheduled(let windows) = profile[direction].outages else { continue }
                    for window in windows { end = max(end, window.start + window.length) }
                }
                return end
            }
            var latest = clients.map { windowsEnd($0.profile) }.max() ?? .zero
            for step in timed {
                if case .changeProfile(_, let profile) = step.action { latest = max(latest, step.time + windowsEnd(profile)) }
            }
            return latest
        }

        func quietTailLength() -> SimDuration {
            let slowest = profilesUsed.compactMap { link($0)?.uplink.rateBitsPerSecond }
                .filter { $0 > 0 }.min() ?? 18_000
            let historyBytes = history.reduce(0) { $0 + $1.messages } * 200
            let seconds = Int64((photoBytes + historyBytes) * 8 * 2 / slowest)
            let failsTasks = sendErrorPeriod != nil || timed.contains {
                switch $0.action {
                case .loseResponses, .errorReplies: true
                default: false
                }
            }
            // Each lost or errored answer still unconsumed may cost a reconnect or a task a request timeout and a
            // capped backoff in the tail (engine2's analysis of seeds 34 and 228).
            let answers = timed.reduce(0) { total, step in
                switch step.action {
                case .loseResponses(_, let count, _), .errorReplies(_, let count, _): total + count
                default: total
                }
            }
            let perAnswer = clients.map { client -> SimDuration in
                let timeout = client.parameters["requestTimeout"]?.durationValue ?? .seconds(20)
                let backoff = client.parameters["backoffCap"]?.durationValue ?? .seconds(60)
                return timeout + max(backoff, client.parameters["taskRetryCap"]?.durationValue ?? .seconds(60))
            }.max() ?? .seconds(80)
            // A lost SESSION_INIT or LOGIN answer makes the next handshake wait longer: the engine doubles the
            // handshake timeout after each, up to `maximumHandshakeTimeout`, four request timeouts (field17, explore
            // seed 1730406: dozens of lost handshake answers outlasted a tail that allowed one timeout apiece).
            let handshakeAnswers = timed.reduce(0) { total, step in
                switch step.action {
                case .loseResponses(let opcode, let count, _) where opcode == .sessionInit || opcode == .login:
                    total + count
                default: total
                }
            }
            let handshakeExtra = clients.map { client -> SimDuration in
                let timeout = client.parameters["requestTimeout"]?.durationValue ?? .seconds(20)
                return ClientParameters.maximumHandshakeTimeout(requestTimeout: timeout) - timeout
            }.max() ?? .seconds(60)
            let schedule = clients.map { Self.retrySchedule($0.parameters) }.max() ?? .zero
            let retries = failsTasks
                ? max(schedule, SimDuration(nanoseconds: perAnswer.nanoseconds * Int64(answers + 1))) : .zero
            // Beyond the hour's cut, as the backed-off handshakes are the engine's documented policy.
            let handshakes = failsTasks ? handshakeExtra * Int64(handshakeAnswers) : .zero
            // Sends leave one at a time per chat (T4), each waiting for its answer: a client that queued many on a
            // slow link needs a round trip or two apiece to drain them (explore seed 200030: 294 sends on 2G-rural
            // went out one every 2 s, for 10 minutes).
            let roundTrip = profilesUsed.compactMap { link($0) }
                .map { (Self.slowDelay($0.uplink) + Self.slowDelay($0.downlink)).nanoseconds }
                .max() ?? 1_300_000_000
            var sends: [String: Int64] = [:]
            var photos: [String: Int64] = [:]
            for step in timed {
                switch step.action {
                case .sendText(let client, _, _):
                    sends[client, default: 0] += 1
                case .sendPhoto(let client, _, _, _):
                    sends[client, default: 0] += 1
                    photos[client, default: 0] += 1
                case .sendPhotos(let client, _, let count, _, _):
                    sends[client, default: 0] += 1
                    photos[client, default: 0] += Int64(count)
                default:
                    break
                }
            }
            // On a lossy link a send's round trip also waits for retransmissions: allow two minimum RTOs apiece (1 s,
            // RFC 6298 §2.4; explore seed 919222 with `--param historyPageSize=500`: about 300 sends on 2G-rural,
            // 2% loss, drained some 5 minutes after the tail ended).
            let isLossy = profilesUsed.compactMap { link($0) }.contains {
                $0.uplink.loss.stationaryLossRate > 0 || $0.downlink.loss.stationaryLossRate > 0
            }
            let retransmissions: Int64 = isLossy ? 2_000_000_000 : 0
            let queue = SimDuration(
                nanoseconds: (2 * roundTrip + 500_000_000 + retransmissions) * (sends.values.max() ?? 0))
            // The tail is capped at an hour, beyond what slow engine parameters of the user's own need on top. The
            // photos' own transfer time is not cut: megabytes of photos on a 9.6 kbit/s cell take hours to send
            // however good the engine (explore seed 8802636 on Examples/link-profiles-hostile.json: 4.6 MB on GSM
            // CSD, still uploading when an hour's tail ended).
            let allowance = parameterAllowance(answers: failsTasks ? answers : 0, photos: photos)
            let transfer = SimDuration.seconds(seconds)
            // A cell whose loss comes in bursts counted in packets holds a backed-off retransmission for minutes
            // (session 32's cell, explore seed 32014827: a 24 KB photo took 166 s); zero on the catalog's cells.
            let bursts = profilesUsed.compactMap { link($0) }
                .flatMap { [ExploreGenerator.lossBurstAllowance($0.uplink.loss),
                             ExploreGenerator.lossBurstAllowance($0.downlink.loss)] }
                .max() ?? .zero
            // Nor is the sends' own queue: sent one at a time, hundreds of them on a cell seconds away take longer
            // than an hour however good the engine (session 35's far-lossy-9k6 cell, 9.6 kbit/s 1.5 s away with 5%
            // loss, explore seeds 35505925 and 35508252: sends never tried yet when an hour's tail ended).
            return max(min(generator.minimumQuietTail + transfer + retries + queue, .hours(1)),
                       generator.minimumQuietTail + transfer + queue) + allowance + handshakes + bursts
        }

        /// What the clients' engine parameters add to the quiet tail beyond what the defaults need (zero when no
        /// client sets them; the generator never draws them, so only `syncsim explore --param` does). Without it a
        /// slow setting read as a liveness failure of the engine in most runs: `--param photoProcessingTime=600s`
        /// (77 of 400 runs T5), `--param backoffCap=3600s --param backoffFactor=10` (62 of 400). Per client, the
        /// largest of:
        /// - a reconnect that waits a whole `backoffCap` beyond the default's 60 s, and `connectTimeout` beyond 10 s
        ///   for the attempt after it, once
        ///   and once more for each of the run's `answers` lost or errored (each may cost a reconnect: explore seed
        ///   4000014 with `backoffFactor=10`, nine SESSION_INIT and LOGIN errors, waited hours at the cap);
        /// - a dead connection noticed by the next PING: `pingInterval` + `pongTimeout` beyond 50 s, and
        ///   `requestTimeout` beyond 20 s for a request that was waiting on it;
        /// - each photo the client sends (`photos`, by client) processed one after another: `photoProcessingTime`
        ///   beyond 2 s apiece.
        func parameterAllowance(answers: Int, photos: [String: Int64]) -> SimDuration {
            func beyond(_ value: SimDuration?, _ usual: SimDuration) -> Int64 {
                guard let value else { return 0 }
                return max(0, value.nanoseconds - usual.nanoseconds)
            }
            let most = clients.map { client -> Int64 in
                let parameters = client.parameters
                // The engine draws a reconnect delay in [d·(1 - jitter), d], d at most `backoffCap`.
                var reconnect = beyond(parameters["backoffCap"]?.durationValue, .seconds(60))
                reconnect += beyond(parameters["connectTimeout"]?.durationValue, .seconds(10))
                reconnect *= Int64(answers + 1)
                let ping = parameters["pingInterval"]?.durationValue ?? .seconds(30)
                let pong = parameters["pongTimeout"]?.durationValue ?? .seconds(20)
                let deadConnection = max(0, (ping + pong).nanoseconds - 50_000_000_000)
                    + beyond(parameters["requestTimeout"]?.durationValue, .seconds(20))
                let processing = beyond(parameters["photoProcessingTime"]?.durationValue, .seconds(2))
                    * (photos[client.name] ?? 0)
                return max(reconnect, deadConnection, processing)
            }.max() ?? 0
            return SimDuration(nanoseconds: most)
        }

        /// A direction's one-way delay when it is slow: the fixed delay, plus a uniform jitter's maximum or five
        /// times an exponential jitter's mean, plus a delay spike's extra delay (catalog profiles have neither).
        static func slowDelay(_ direction: LinkDirectionProfile) -> SimDuration {
            var delay = direction.oneWayDelay
            switch direction.jitter {
            case .none: break
            case .uniform(let maximum): delay = delay + maximum
            case .exponential(let mean): delay = delay + SimDuration(nanoseconds: mean.nanoseconds * 5)
            }
            if let spikes = direction.delaySpikes { delay = delay + spikes.extraDelay }
            return delay
        }

        /// The longest a task's whole retry schedule may take: `maxTaskAttempts` times (`requestTimeout` +
        /// `taskRetryCap`).
        static func retrySchedule(_ parameters: ParameterSet) -> SimDuration {
            let timeout = parameters["requestTimeout"]?.durationValue ?? .seconds(20)
            let cap = parameters["taskRetryCap"]?.durationValue ?? .seconds(60)
            let attempts = Int64(parameters["maxTaskAttempts"]?.intValue ?? 10)
            return SimDuration(nanoseconds: (timeout + cap).nanoseconds * attempts)
        }

        /// The most LOGIN attempts a correct reconnect backoff allows when every LOGIN is rejected for the whole run:
        /// per app launch, the attempts whose shortest possible delays (`min(cap, base·factor^k)·(1 - jitter)`)
        /// fit in the run, plus 2 of slack; launches are the first and one per restart, crash or network restored.
        func stormBound(steps: [Step], runLength: SimDuration) -> MetricBound {
            var total = 0
            for client in clients {
                // A network that comes back (`Connectivity(.restored)`) resets the engine's backoff and connects at
                // once, as a launch does (explore seed 7406: two attempts over a bound that counted launches only).
                let launches = 1 + steps.count {
                    switch $0.action {
                    case .restartApp(let name), .crashApp(let name): name == client.name
                    case .connectivity(let name, .restored): name == client.name
                    default: false
                    }
                }
                total += launches * (Self.attempts(within: runLength, parameters: client.parameters) + 2)
            }
            return MetricBound("loginAttempts", atMost: Double(total), fileID: "<generated>", line: 0)
        }

        /// Per client with sends before the period ends, the most MSG_SEND requests a task retry backoff allows in a
        /// period of instant send errors: each send task makes at most `min(maxTaskAttempts, attempts)` counted
        /// attempts, where `attempts` is how many the shortest retry delays (`min(taskRetryCap,
        /// taskRetryBase·2^(k-1))/2`, the lower end of the engine's jitter) fit in the period, plus one. A disconnect
        /// puts a running task back without counting an attempt, so each step that may break the client's
        /// connections (its own steps other than sends, and steps aimed at every client) adds two requests per send.
        func sendErrorBounds(steps: [Step], period: (from: SimDuration, until: SimDuration)) -> [MetricBound] {
            let window = MetricWindow(from: .time(period.from), until: .time(period.until))
            return clients.compactMap { client in
                var sends = 0
                var disruptions = 0
                for step in steps {
                    guard case .at(let time) = step.timing, time < period.until else { continue }
                    let action = step.action
                    switch action {
                    case .sendText(let name, _, _), .sendPhoto(let name, _, _, _), .sendPhotos(let name, _, _, _, _):
                        if name == client.name { sends += 1 }
                    default:
                        if action.client == nil || action.client == client.name { disruptions += 1 }
                    }
                }
                guard sends > 0 else { return nil }
                let attempts = Self.taskAttempts(within: period.until - period.from, parameters: client.parameters)
                let most = sends * (attempts + 1 + 2 * disruptions)
                return MetricBound("requests", client: client.name, opcode: .msgSend, window: window,
                                   atMost: Double(most), fileID: "<generated>", line: 0)
            }
        }

        /// Counted attempts one task makes within `window` when every attempt fails at once and each retry waits the
        /// shortest delay the task retry parameters allow (`ReferenceClient.retryDelay`: `d = min(cap, base·2^(k-1))`
        /// drawn in `[d/2, d]`), at most `maxTaskAttempts`.
        static func taskAttempts(within window: SimDuration, parameters: ParameterSet) -> Int {
            let base = parameters["taskRetryBase"]?.durationValue ?? .seconds(1)
            let cap = parameters["taskRetryCap"]?.durationValue ?? .seconds(60)
            let most = parameters["maxTaskAttempts"]?.intValue ?? 10
            var elapsed = SimDuration.zero
            var delay = base
            var count = 1
            while count < most {
                let shortest = SimDuration(nanoseconds: min(delay, cap).nanoseconds / 2)
                guard shortest > .zero else { return most }
                elapsed += shortest
                if elapsed > window { break }
                count += 1
                if delay < cap { delay = delay + delay }
            }
            return count
        }

        /// LOGIN attempts of one app launch within `window` when each waits the shortest backoff the parameters allow.
        static func attempts(within window: SimDuration, parameters: ParameterSet) -> Int {
            let base = parameters["backoffBase"]?.durationValue ?? .seconds(1)
            let cap = parameters["backoffCap"]?.durationValue ?? .seconds(60)
            let factor = parameters["backoffFactor"].flatMap { value -> Double? in
                if case .double(let number) = value { number } else { value.intValue.map(Double.init) }
            } ?? 2
            let jitter = parameters["backoffJitter"].flatMap { value -> Double? in
                if case .double(let number) = value { number } else { value.intValue.map(Double.init) }
            } ?? 0.5
            let windowSeconds = Double(window.nanoseconds) / 1e9
            var elapsed = 0.0
            var delay = Double(base.nanoseconds) / 1e9
            let capSeconds = Double(cap.nanoseconds) / 1e9
            var count = 1
            while count < 100_000 {
                let shortest = min(capSeconds, delay) * (1 - min(1, max(0, jitter)))
                guard shortest > 0 else { return 100_000 }
                elapsed += shortest
                if elapsed > windowSeconds { break }
                count += 1
                delay *= max(1, factor)
            }
            return count
        }
    }
}
