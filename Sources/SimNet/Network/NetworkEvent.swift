import SimCore

/// The network's typed kernel events. Plain values (indices, no references), so the event heap copies and moves them
/// as bytes, with no reference counting; 14 bytes, so a heap entry with its time and insertion number takes 32.
enum NetworkEvent {
    /// A link direction (index `host * 2 + direction`) finished serializing its packet in service.
    case transmissionComplete(direction: Int)
    /// A packet (slab index) reached the far end of its current hop.
    case arrival(packet: Int)
    case retransmissionTimer(socket: Int)
    case delayedAckTimer(socket: Int)
    /// A profile outage starts or ends (ignored when its generation is stale).
    case profileOutageStep(ProfileStep)
    /// A profile delay spike starts or ends (ignored when its generation is stale).
    case profileDelaySpikeStep(ProfileStep)
    /// The world's own work: the index of its closure in the network's action slab (`Network.actions`).
    case action(slot: Int)

    /// One step of a direction's profile outage or delay-spike chain. The direction index is narrowed to 32 bits (a
    /// network has far fewer than 2^31 link directions) so that the event stays within 14 bytes.
    struct ProfileStep {
        let generation: Int
        let directionIndex: Int32
        let isStart: Bool

        var direction: Int { Int(directionIndex) }
    }

    static func profileOutage(direction: Int, generation: Int, isStart: Bool) -> NetworkEvent {
        .profileOutageStep(ProfileStep(generation: generation, directionIndex: Int32(direction), isStart: isStart))
    }

    static func profileDelaySpike(direction: Int, generation: Int, isStart: Bool) -> NetworkEvent {
        .profileDelaySpikeStep(ProfileStep(generation: generation, directionIndex: Int32(direction), isStart: isStart))
    }
}
