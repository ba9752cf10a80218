import SimCore

extension LinkProfile {
    /// The longest profile name, in characters: names go into command lines, tables and trace records.
    public static let longestName = 64

    /// What is wrong with the profile, one phrase each (`"downlink: loss probability 1.5 is not in 0...1"`); empty
    /// when a network can run it.
    ///
    /// Checks the name (non-empty, no spaces, commas or control characters, at most `longestName` characters, so
    /// command lines and tables can list it), that `source` says something,
    /// and each direction's figures:
    /// no negative rate, delay, overhead, jitter or queue; probabilities in 0...1; CoDel's target and interval, and
    /// the mean gap between random outages or delay spikes, and a timed Gilbert-Elliott chain's mean times, above zero;
    /// no duration above a year, no overhead above 64 KiB, and no mean gap between outages or spikes below 1 ms
    /// (`LinkDirectionProfile.longestDuration` and the limits beside it: figures the link's arithmetic and event
    /// count can take).
    public func problems() -> [String] {
        var found: [String] = []
        if name.isEmpty || name.contains(where: { $0.isWhitespace || $0 == "," }) {
            found.append("name '\(name)' must be non-empty, without spaces or commas")
        } else if name.unicodeScalars.contains(where: { [.control, .format].contains($0.properties.generalCategory) }) {
            // A control character (a BEL, an escape) broke the `profiles` table and the terminal's output.
            found.append("name \(name.debugDescription) holds a control character")
        } else if name.count > Self.longestName {
            found.append("name of \(name.count) characters is longer than \(Self.longestName)")
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

    /// The longest duration a direction may name (one-way delay, jitter, CoDel's figures, a timed chain's means,
    /// outage windows and means, delay spikes): 365 days, as `Scenario.longestDuration` for a scenario's own figures.
    /// Virtual time is Int64 nanoseconds (about 292 years) and the link adds these figures to instants and to each
    /// other (delay + jitter + spike, an outage window's start + length, exponential draws of up to about 37 means);
    /// with each at most a year, those sums cannot overflow.
    public static let longestDuration = SimDuration.hours(24 * 365)

    /// The largest per-packet overhead: 64 KiB, far above any link layer's framing. Serialization multiplies a
    /// packet's bytes by 8 × 10^9 (bits per nanosecond), which overflows Int64 beyond about 1.1 GB.
    public static let largestPerPacketOverheadBytes = 65_536

    /// The shortest mean gap between random outages or delay spikes: 1 ms. Each gap and each spell is an event of
    /// the link; a mean of a few nanoseconds makes a minute of virtual time cost about 10^10 events, a run that
    /// never ends.
    public static let shortestMeanInterval = SimDuration.milliseconds(1)

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
        if perPacketOverheadBytes > Self.largestPerPacketOverheadBytes {
            found.append("per-packet overhead \(perPacketOverheadBytes) B is above \(Self.largestPerPacketOverheadBytes) B")
        }
        func longest(_ duration: SimDuration, _ what: String) {
            if duration > Self.longestDuration {
                found.append("\(what) \(duration) is longer than \(Self.longestDuration) (365 days)")
            }
        }
        func meanGap(_ duration: SimDuration, _ what: String) {
            if duration > .zero && duration < Self.shortestMeanInterval {
                found.append("\(what) \(duration) is below \(Self.shortestMeanInterval)")
            }
        }
        longest(oneWayDelay, "one-way delay")
        switch jitter {
        case .none: break
        case .uniform(let maximum) where maximum < .zero: found.append("jitter maximum \(maximum) is negative")
        case .exponential(let mean) where mean < .zero: found.append("jitter mean \(mean) is negative")
        case .uniform(let maximum): longest(maximum, "jitter maximum")
        case .exponential(let mean): longest(mean, "jitter mean")
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
            longest(meanGood, "timed Gilbert-Elliott mean good time")
            longest(meanBad, "timed Gilbert-Elliott mean bad time")
            probability(oneMinusH, "Gilbert-Elliott 1-h")
            probability(oneMinusK, "Gilbert-Elliott 1-k")
        }
        switch activeQueue {
        case .none: break
        case .codel(let target, let interval):
            if target <= .zero { found.append("CoDel target \(target) must be positive") }
            if interval <= .zero { found.append("CoDel interval \(interval) must be positive") }
            longest(target, "CoDel target")
            longest(interval, "CoDel interval")
        }
        switch outages {
        case .none: break
        case .scheduled(let windows):
            for window in windows where window.start < .zero || window.length < .zero {
                found.append("outage window at \(window.start) for \(window.length) is negative")
            }
            for window in windows {
                longest(window.start, "outage window start")
                longest(window.length, "outage window length")
            }
        case .random(let meanInterval, let meanLength):
            if meanInterval <= .zero { found.append("outage mean interval \(meanInterval) must be positive") }
            if meanLength < .zero { found.append("outage mean length \(meanLength) is negative") }
            meanGap(meanInterval, "outage mean interval")
            longest(meanInterval, "outage mean interval")
            longest(meanLength, "outage mean length")
        }
        if let spikes = delaySpikes {
            if spikes.meanInterval <= .zero {
                found.append("delay spike mean interval \(spikes.meanInterval) must be positive")
            }
            if spikes.meanLength < .zero { found.append("delay spike mean length \(spikes.meanLength) is negative") }
            if spikes.extraDelay < .zero { found.append("delay spike extra delay \(spikes.extraDelay) is negative") }
            meanGap(spikes.meanInterval, "delay spike mean interval")
            longest(spikes.meanInterval, "delay spike mean interval")
            longest(spikes.meanLength, "delay spike mean length")
            longest(spikes.extraDelay, "delay spike extra delay")
        }
        return found
    }
}
