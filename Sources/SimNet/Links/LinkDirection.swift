import SimCore

/// One direction of a host's access link.
public enum LinkDirection: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// From the host towards the network (a phone's uplink; a server's egress).
    case uplink = 0
    /// From the network towards the host.
    case downlink = 1

    /// `up` or `down`, as in trace components.
    public var description: String { self == .uplink ? "up" : "down" }
}
