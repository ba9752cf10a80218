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
    /// Packets whose capture time was earlier than a packet before them, each read at the latest time before it;
    /// nil when time never went back.
    public var timeSteppedBack: TimeStepBack?

    /// Packets stamped earlier than a packet before them in the file: a clock stepped back while capturing (NTP),
    /// files merged by concatenation, or pcapng Simple Packet Blocks, which carry no time.
    ///
    /// The reader gives each such packet the latest capture time before it, so time never runs backwards and
    /// packets captured together keep their file order: replay feeds frames in time order, and a request stamped
    /// before the LOGIN that came first on the wire would otherwise be replayed before it.
    public struct TimeStepBack: Hashable, Sendable {
        /// How many packets were stamped earlier than a packet before them.
        public var packetCount: Int
        /// The first of them (1-based, as Wireshark numbers packets).
        public var firstPacketNumber: Int
        /// The largest step back, in nanoseconds.
        public var largestStepNanoseconds: Int64

        /// `3 packets are stamped earlier than a packet before them (the first: packet 16, the largest step back
        /// 5.000000000 s); each is read at the latest time before it`.
        public var description: String {
            let step = CaptureTimestamp(nanosecondsSinceEpoch: largestStepNanoseconds)
            let subject = packetCount == 1 ? "1 packet is" : "\(packetCount) packets are"
            return "\(subject) stamped earlier than a packet before \(packetCount == 1 ? "it" : "them") (the first: "
                + "packet \(firstPacketNumber), the largest step back \(step) s); each is read at the latest time "
                + "before it"
        }
    }

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
