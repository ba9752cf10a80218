import SimCore

/// What happens to a packet that finds a link direction's drop-tail queue full.
public enum ActiveQueueManagement: Hashable, Sendable {
    /// It is dropped (plain drop-tail).
    case none
    /// It waits in a CoDel-managed queue in front of the drop-tail queue (RFC 8289), which drops at its head once
    /// packets have waited longer than `target` for at least `interval`, ever more often while that lasts. This is
    /// ns-3's setup: its `Ipv4AddressHelper` installs an `FqCoDelQueueDisc` (target 5 ms, interval 100 ms, a limit of
    /// 10,240 packets) in front of every device queue, so "a 100-packet drop-tail queue" there is 100 packets of
    /// device queue plus CoDel. With one flow per direction fq_codel behaves as CoDel.
    case codel(target: SimDuration, interval: SimDuration)

    /// ns-3 3.37's `FqCoDelQueueDisc` defaults (RFC 8289 §4.2-4.3 values): target 5 ms, interval 100 ms.
    public static let ns3Default = ActiveQueueManagement.codel(target: .milliseconds(5), interval: .milliseconds(100))

    /// Packets the CoDel stage holds at most (ns-3 `FqCoDelQueueDisc` MaxSize 10240p).
    static let codelCapacityPackets = 10_240

    /// Bytes below which CoDel never drops (one MTU; ns-3 CoDel `MinBytes` 1500, RFC 8289 `maxpacket`).
    static let codelMinimumBytes = 1_500
}
