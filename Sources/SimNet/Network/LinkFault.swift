import SimCore

/// A fault on a host's access link, injected at any virtual time with `Network.inject(_:on:directions:)`.
public enum LinkFault: Sendable {
    /// Which connection ends learn of a link going down by an RST (as a middlebox or the radio stack would send).
    public enum ResetTarget: Hashable, Sendable {
        /// Nobody: the path dies silently, connections become half-open.
        case none
        /// The sockets on the faulted host.
        case localSide
        /// Their peers on the far hosts.
        case remoteSide
        /// Both ends.
        case bothSides
    }

    /// The direction drops every packet until `up`; connections through it get RSTs per `resetting`.
    case down(resetting: ResetTarget)
    /// Ends a `down`.
    case up
    /// The direction drops every packet for `duration`.
    case outage(duration: SimDuration)
    /// Extra random loss with `probability` for `duration` (instead of the profile's loss model).
    case lossBurst(probability: Double, duration: SimDuration)
    /// Every packet leaving the transmitter during `duration` takes `extraDelay` longer.
    case delaySpike(extraDelay: SimDuration, duration: SimDuration)
    /// The direction holds packets (queue still drop-tail) until `release`.
    case clog
    /// Ends a `clog`: held packets go out at the link's rate.
    case release
    /// The link takes another profile from now on, e.g. a Wi-Fi to EDGE handover. Packets in flight keep
    /// their timing; queued ones go out at the new rate.
    case changeProfile(LinkProfile)
}
