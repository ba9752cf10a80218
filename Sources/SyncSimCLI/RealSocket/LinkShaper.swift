import SyncSim

/// Holds a real socket's bytes back as one direction of a link profile would: each burst is serialized at the
/// direction's rate (its size plus the per-packet overhead, one burst as one packet) behind the bursts before it,
/// then arrives `oneWayDelay` later. `syncsim serve --profile` shapes each connection with two, one per direction.
///
/// Loss, jitter, outages and queue limits are not applied on a real socket: a lost byte would break the real TCP
/// stream, which the kernel, not SyncSim, retransmits. Release times never decrease, so bursts keep their order.
struct LinkShaper {
    /// The direction's shape.
    let direction: LinkDirectionProfile
    /// When the direction is free to start serializing the next burst.
    private var freeAt = SimInstant.start

    /// A shaper for `direction`; its rate must be positive.
    init(direction: LinkDirectionProfile) {
        precondition(direction.rateBitsPerSecond > 0, "a shaped direction needs a positive rate")
        self.direction = direction
    }

    /// When a burst of `byteCount` bytes handed over at `now` arrives at the far end.
    mutating func arrival(ofBytes byteCount: Int, at now: SimInstant) -> SimInstant {
        let bits = Int64(byteCount + direction.perPacketOverheadBytes) * 8
        let serialization = SimDuration(nanoseconds: bits * 1_000_000_000 / Int64(direction.rateBitsPerSecond))
        freeAt = max(now, freeAt) + serialization
        return freeAt + direction.oneWayDelay
    }
}
