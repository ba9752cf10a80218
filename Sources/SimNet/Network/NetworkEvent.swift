import SimCore

/// The network's typed kernel events. Small payloads (indices), so the event heap holds plain values.
enum NetworkEvent {
    /// A link direction (index `host * 2 + direction`) finished serializing its packet in service.
    case transmissionComplete(direction: Int)
    /// A packet (slab index) reached the far end of its current hop.
    case arrival(packet: Int)
    case retransmissionTimer(socket: Int)
    case delayedAckTimer(socket: Int)
    /// A profile outage starts or ends (ignored when `generation` is stale).
    case profileOutage(direction: Int, generation: Int, isStart: Bool)
    /// A profile delay spike starts or ends (ignored when `generation` is stale).
    case profileDelaySpike(direction: Int, generation: Int, isStart: Bool)
    /// The world's own work.
    case action(() -> Void)
}
