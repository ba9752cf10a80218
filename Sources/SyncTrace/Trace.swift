/// What a capture file holds for SyncSim: its format, packet counts, skips by reason, and the TCP connections.
public struct Trace: Hashable, Sendable {
    /// The path of the capture file as given.
    public var file: String
    /// The container format.
    public var format: CaptureFormat
    /// The link-layer type of every packet.
    public var linkType: LinkType
    /// Bytes kept per packet when the capture was taken.
    public var snapLength: Int
    /// Packet records read.
    public var packetCount = 0
    /// Packets that carried a TCP segment (including those left out by a port filter).
    public var tcpPacketCount = 0
    /// TCP packets left out because neither port matched the reader's port filter.
    public var filteredOutPacketCount = 0
    /// Packets not fed to reassembly, by reason.
    public var skipCounts: [SkipReason: Int] = [:]
    /// TCP connections in the order of their first packet.
    public var connections: [TCPConnectionTrace] = []
    /// Why reading stopped early, when the reader was told to keep what it read from a truncated file.
    public var truncation: TraceError?

    /// An empty trace for `file`; `TraceReader` fills it in.
    public init(file: String, format: CaptureFormat, linkType: LinkType, snapLength: Int) {
        self.file = file
        self.format = format
        self.linkType = linkType
        self.snapLength = snapLength
    }

    /// Skipped packets in `SkipReason` order, without the reasons that never occurred.
    public var skips: [(reason: SkipReason, count: Int)] {
        SkipReason.allCases.compactMap { reason in skipCounts[reason].map { (reason, $0) } }
    }

    /// Total packets skipped, whatever the reason.
    public var skippedPacketCount: Int { skipCounts.values.reduce(0, +) }
}
