import SimCore

/// The running state of one link direction inside a `Network`: queue, transmitter, loss chain, faults.
struct LinkDirectionState {
    // Stored in the order a packet offered reads them (whether the direction is down or busy, its queues, its
    // counters, then the profile's rate and overhead), so that one packet touches three or four cache lines of the
    // direction's 600 bytes instead of five or six: at thousands of clients each direction is out of cache when its
    // next packet comes.
    /// The packet being serialized, if any.
    var packetInService: Int?
    var isDownByFault = false
    var isInProfileOutage = false
    var isClogged = false
    var faultOutageUntil = SimInstant.start
    /// Waiting packets (indices into the network's packet slab), oldest first.
    var queue = FIFOQueue<Int>()
    var queuedBytes = 0
    /// The CoDel stage in front of the queue (when the profile has one): packets, their arrival times, bytes.
    var codelQueue = FIFOQueue<(packet: Int, enqueuedAt: SimInstant, ipBytes: Int)>()
    var codelQueuedBytes = 0
    var statistics = LinkStatistics()
    var profile: LinkDirectionProfile {
        didSet { timedLossStateUntil = nil }
    }
    /// The latest arrival scheduled so far, to keep arrivals in order under jitter.
    var lastArrival = SimInstant.start
    var lossBurst: (probability: Double, until: SimInstant)?
    var faultDelaySpikes: [(extraDelay: SimDuration, until: SimInstant)] = []
    var profileDelaySpikeExtra = SimDuration.zero
    /// Bumped on every profile change so that events of the old profile's outage and spike chains are ignored.
    var profileGeneration = 0
    var isInBadLossState = false
    /// When the timed Gilbert-Elliott chain leaves its current state; nil before the link's first packet under that
    /// model and after every profile change (the chain then starts again in the good state).
    var timedLossStateUntil: SimInstant?
    var lossGenerator: SeededGenerator
    var jitterGenerator: SeededGenerator
    var outageGenerator: SeededGenerator
    var codel = CoDelState()
    /// The trace component, e.g. `link.alice.up`.
    let component: String

    /// CoDel's control state (RFC 8289 §5).
    struct CoDelState {
        var firstAboveTime: SimInstant?
        var dropNext = SimInstant.start
        var count = 0
        var lastCount = 0
        var isDropping = false
    }

    var codelQueuedPacketCount: Int { codelQueue.count }

    /// Whether the drop-tail queue has room for a packet of `ipBytes`.
    func hasRoom(ipBytes: Int) -> Bool {
        queuedBytes <= profile.queueCapacityBytes - ipBytes && queuedPacketCount < profile.queueCapacityPackets ?? .max
    }

    mutating func popCoDel() -> (packet: Int, enqueuedAt: SimInstant, ipBytes: Int)? {
        guard let entry = codelQueue.popFirst() else { return nil }
        codelQueuedBytes -= entry.ipBytes
        return entry
    }

    /// RFC 8289 §5.2 `dodequeue`'s test: has the head packet waited above target for a whole interval?
    mutating func isOkToDrop(enqueuedAt: SimInstant, now: SimInstant, target: SimDuration,
                             interval: SimDuration) -> Bool {
        if now - enqueuedAt < target || codelQueuedBytes < ActiveQueueManagement.codelMinimumBytes {
            codel.firstAboveTime = nil
            return false
        }
        guard let firstAbove = codel.firstAboveTime else {
            codel.firstAboveTime = now + interval
            return false
        }
        return now >= firstAbove
    }

    /// RFC 8289 §5.3 control law: the next drop comes interval / sqrt(count) after `time`.
    static func controlLaw(_ time: SimInstant, interval: SimDuration, count: Int) -> SimInstant {
        var root = Double(max(count, 1))
        var estimate = root
        for _ in 0..<30 { estimate = 0.5 * (estimate + root / estimate) }
        root = estimate
        return time + .nanoseconds(Int64(Double(interval.nanoseconds) / root))
    }

    init(component: String, profile: LinkDirectionProfile, streams: RandomStreams) {
        self.component = component
        self.profile = profile
        lossGenerator = streams.stream(component + ".loss")
        jitterGenerator = streams.stream(component + ".jitter")
        outageGenerator = streams.stream(component + ".outage")
    }

    func isDown(at now: SimInstant) -> Bool {
        isDownByFault || isInProfileOutage || now < faultOutageUntil || profile.rateBitsPerSecond == 0
    }

    var hasQueuedPackets: Bool { !queue.isEmpty }

    var queuedPacketCount: Int { queue.count }

    mutating func enqueue(_ packet: Int, ipBytes: Int) {
        queue.append(packet)
        queuedBytes += ipBytes
    }

    mutating func dequeue(ipBytesOf bytes: (Int) -> Int) -> Int? {
        guard let packet = queue.popFirst() else { return nil }
        queuedBytes -= bytes(packet)
        return packet
    }

    /// Decides whether the packet just serialized is lost, moving the Gilbert-Elliott chain one step.
    mutating func drawLoss(at now: SimInstant) -> Bool {
        if let burst = lossBurst {
            if now < burst.until { return lossGenerator.nextBernoulli(burst.probability) }
            lossBurst = nil
        }
        switch profile.loss {
        case .none:
            return false
        case .bernoulli(let probability):
            return lossGenerator.nextBernoulli(probability)
        case .gilbertElliott(let p, let r, let oneMinusH, let oneMinusK):
            let isLost = lossGenerator.nextBernoulli(isInBadLossState ? oneMinusH : oneMinusK)
            if isInBadLossState {
                if lossGenerator.nextBernoulli(r) { isInBadLossState = false }
            } else if lossGenerator.nextBernoulli(p) {
                isInBadLossState = true
            }
            return isLost
        case .gilbertElliottTimed(let meanGood, let meanBad, let oneMinusH, let oneMinusK):
            var until: SimInstant
            if let known = timedLossStateUntil {
                until = known
            } else {
                isInBadLossState = false
                until = now + Self.sojourn(mean: meanGood, using: &lossGenerator)
            }
            if until <= now, (now - until).nanoseconds / 64 > meanGood.nanoseconds / 2 + meanBad.nanoseconds / 2 {
                // Quiet for over 32 cycles of the chain: its state no longer depends on where it was (their
                // correlation is below e^-128), so draw it from the stationary distribution and a fresh stay, as
                // the stays are memoryless, instead of every change in between.
                let badShare = Double(meanBad.nanoseconds) / (Double(meanGood.nanoseconds) + Double(meanBad.nanoseconds))
                isInBadLossState = lossGenerator.nextBernoulli(badShare)
                until = now + Self.sojourn(mean: isInBadLossState ? meanBad : meanGood, using: &lossGenerator)
            }
            // Every state change up to now, drawn in order: the chain moved while the link was quiet.
            while until <= now {
                isInBadLossState.toggle()
                until = until + Self.sojourn(mean: isInBadLossState ? meanBad : meanGood, using: &lossGenerator)
            }
            timedLossStateUntil = until
            return lossGenerator.nextBernoulli(isInBadLossState ? oneMinusH : oneMinusK)
        }
    }

    /// An exponentially distributed stay in a timed Gilbert-Elliott state, at least one nanosecond so the chain
    /// always moves forward, and at most 10^18 ns (about 31 years, far past any run) so that adding it to the
    /// current time cannot overflow.
    static func sojourn(mean: SimDuration, using generator: inout SeededGenerator) -> SimDuration {
        let draw = generator.nextExponential(mean: Double(mean.nanoseconds))
        return .nanoseconds(max(1, Int64(min(draw, 1e18))))
    }

    /// The one-way delay for a packet leaving the transmitter now: fixed delay, jitter and active spikes.
    mutating func drawDelay(at now: SimInstant) -> SimDuration {
        var delay = profile.oneWayDelay + profile.jitter.draw(using: &jitterGenerator) + profileDelaySpikeExtra
        if !faultDelaySpikes.isEmpty {
            faultDelaySpikes.removeAll { $0.until <= now }
            for spike in faultDelaySpikes { delay += spike.extraDelay }
        }
        return delay
    }
}
