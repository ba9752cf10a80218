import SimCore

/// A segment travelling from one host to another: first on the source's uplink, then the destination's downlink.
struct Packet {
    var segment: Segment
    var source: HostID
    var destination: HostID
    /// 0 while on the source's uplink, 1 on the destination's downlink.
    var hop: Int
    /// IP size: headers plus payload.
    var ipBytes: Int
}
