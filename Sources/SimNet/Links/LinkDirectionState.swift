import SimCore

/// The running state of one link direction inside a `Network`: queue, transmitter, loss chain, faults.
struct LinkDirectionState {
    /// The trace component, e.g. `link.alice.up`.
    let component: String
    var profile: LinkDirectionProfile
    /// Waiting packets (indices into the network's packet slab), oldest at `queueHead`.
    var queue: [Int] = []
    var queueHead = 0
    var queuedBytes = 0
    /// The packet being serialized, if any.
    var packetInService: Int?
    /// The latest arrival scheduled so far, to keep arrivals in order under jitter.
    var lastArrival = SimInstant.start
    var isDownByFault = false
    var isInProfileOutage = false
    var faultOutageUntil = SimInstant.start
    var isClogged = false
    var lossBurst: (probability: Double, until: SimInstant)?
    var faultDelaySpikes: [(extraDelay: SimDuration, until: SimInstant)] = []
    var profileDelaySpikeExtra = SimDuration.zero
    /// Bumped on every profile change so that events of the old profile's outage and spike chains are ignored.
    var profileGeneration = 0
    var isInBadLossState = false
    var lossGenerator: SeededGenerator
    var jitterGenerator: SeededGenerator
    var outageGenerator: SeededGenerator
    var statistics = LinkStatistics()

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

    var hasQueuedPackets: Bool { queueHead < queue.count }

    var queuedPacketCount: Int { queue.count - queueHead }

    mutating func enqueue(_ packet: Int, ipBytes: Int) {
        queue.append(packet)
        queuedBytes += ipBytes
    }

    mutating func dequeue(ipBytesOf bytes: (Int) -> Int) -> Int? {
        guard queueHead < queue.count else { return nil }
        let packet = queue[queueHead]
        queueHead += 1
        queuedBytes -= bytes(packet)
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        } else if queueHead > 1_024 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
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
        }
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
