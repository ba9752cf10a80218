import SimCore

extension LinkProfile {
    /// What is wrong with the profile, one phrase each (`"downlink: loss probability 1.5 is not in 0...1"`); empty
    /// when a network can run it.
    ///
    /// Checks the name (non-empty, no spaces or commas, so command lines can list it), that `source` says something,
    /// and each direction's figures:
    /// no negative rate, delay, overhead, jitter or queue; probabilities in 0...1; CoDel's target and interval, and
    /// the mean gap between random outages or delay spikes, and a timed Gilbert-Elliott chain's mean times, above zero.
    public func problems() -> [String] {
        var found: [String] = []
        if name.isEmpty || name.contains(where: { $0.isWhitespace || $0 == "," }) {
            found.append("name '\(name)' must be non-empty, without spaces or commas")
        }
        if source.allSatisfy(\.isWhitespace) {
            found.append("source is empty; say where the figures come from (a measurement, a paper, \"assumption\")")
        }
        for direction in LinkDirection.allCases {
            let label = direction == .uplink ? "uplink" : "downlink"
            found += self[direction].problems().map { "\(label): \($0)" }
        }
        return found
    }
}

extension LinkDirectionProfile {
    /// The largest IP packet the TCP model sends: a 1,500-byte MTU (`TCPConfiguration`'s default MSS 1,448 plus 52
    /// bytes of IPv4, TCP and timestamp headers). A drop-tail queue must hold one.
    public static let fullSizePacketBytes = 1_500

    /// What is wrong with the direction's figures, one phrase each; empty when a link can run it. A queue capacity
    /// below `fullSizePacketBytes` is refused.
    public func problems() -> [String] {
        var found: [String] = []
        if rateBitsPerSecond < 0 { found.append("rate \(rateBitsPerSecond) bit/s is negative") }
        if oneWayDelay < .zero { found.append("one-way delay \(oneWayDelay) is negative") }
        if perPacketOverheadBytes < 0 { found.append("per-packet overhead \(perPacketOverheadBytes) B is negative") }
        if queueCapacityBytes <= 0 {
            found.append("queue capacity \(queueCapacityBytes) B must be positive")
        } else if queueCapacityBytes < Self.fullSizePacketBytes {
            // Such a queue takes ACKs but drops every full-size packet that arrives while the link sends: most likely
            // a figure meant in kB, or a buffer meant in packets.
            found.append("queue capacity \(queueCapacityBytes) B holds no full-size packet (\(Self.fullSizePacketBytes) B); "
                + "give at least \(Self.fullSizePacketBytes) B, or queueCapacityPackets for a buffer counted in packets")
        }
        if let packets = queueCapacityPackets, packets <= 0 {
            found.append("queue capacity \(packets) packets must be positive")
        }
        switch jitter {
        case .none: break
        case .uniform(let maximum) where maximum < .zero: found.append("jitter maximum \(maximum) is negative")
        case .exponential(let mean) where mean < .zero: found.append("jitter mean \(mean) is negative")
        case .uniform, .exponential: break
        }
        func probability(_ value: Double, _ what: String) {
            if !(0...1).contains(value) { found.append("\(what) \(value) is not in 0...1") }
        }
        switch loss {
        case .none: break
        case .bernoulli(let value): probability(value, "loss probability")
        case .gilbertElliott(let p, let r, let oneMinusH, let oneMinusK):
            probability(p, "Gilbert-Elliott p")
            probability(r, "Gilbert-Elliott r")
            probability(oneMinusH, "Gilbert-Elliott 1-h")
            probability(oneMinusK, "Gilbert-Elliott 1-k")
        case .gilbertElliottTimed(let meanGood, let meanBad, let oneMinusH, let oneMinusK):
            if meanGood <= .zero { found.append("timed Gilbert-Elliott mean good time \(meanGood) must be positive") }
            if meanBad <= .zero { found.append("timed Gilbert-Elliott mean bad time \(meanBad) must be positive") }
            probability(oneMinusH, "Gilbert-Elliott 1-h")
            probability(oneMinusK, "Gilbert-Elliott 1-k")
        }
        switch activeQueue {
        case .none: break
        case .codel(let target, let interval):
            if target <= .zero { found.append("CoDel target \(target) must be positive") }
            if interval <= .zero { found.append("CoDel interval \(interval) must be positive") }
        }
        switch outages {
        case .none: break
        case .scheduled(let windows):
            for window in windows where window.start < .zero || window.length < .zero {
                found.append("outage window at \(window.start) for \(window.length) is negative")
            }
        case .random(let meanInterval, let meanLength):
            if meanInterval <= .zero { found.append("outage mean interval \(meanInterval) must be positive") }
            if meanLength < .zero { found.append("outage mean length \(meanLength) is negative") }
        }
        if let spikes = delaySpikes {
            if spikes.meanInterval <= .zero {
                found.append("delay spike mean interval \(spikes.meanInterval) must be positive")
            }
            if spikes.meanLength < .zero { found.append("delay spike mean length \(spikes.meanLength) is negative") }
            if spikes.extraDelay < .zero { found.append("delay spike extra delay \(spikes.extraDelay) is negative") }
        }
        return found
    }
}
