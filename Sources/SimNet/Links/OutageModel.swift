import SimCore

/// When a link direction is out (every packet dropped, as in a tunnel or a cell handover gone wrong).
public enum OutageModel: Hashable, Sendable, CustomStringConvertible {
    /// Never out.
    case none
    /// Out during each window: (start from the link's creation or its last profile change, length).
    case scheduled([OutageWindow])
    /// Out at random: exponentially distributed gaps with mean `meanInterval` between outages, and
    /// exponentially distributed lengths with mean `meanLength`.
    case random(meanInterval: SimDuration, meanLength: SimDuration)

    /// `none`, `scheduled(2)`, `random(every 10m for 20s)`.
    public var description: String {
        switch self {
        case .none: return "none"
        case .scheduled(let windows): return "scheduled(\(windows.count))"
        case .random(let meanInterval, let meanLength): return "random(every \(meanInterval) for \(meanLength))"
        }
    }
}

/// One scheduled outage: it starts `start` after the profile took effect and lasts `length`.
public struct OutageWindow: Hashable, Sendable {
    /// Offset from the moment the profile took effect.
    public var start: SimDuration
    /// How long the direction stays out.
    public var length: SimDuration

    /// An outage from `start` (after the profile took effect) for `length`.
    public init(start: SimDuration, length: SimDuration) {
        self.start = start
        self.length = length
    }
}
