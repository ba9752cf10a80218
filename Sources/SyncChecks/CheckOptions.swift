/// What an `InvariantChecker` checks and how often.
public struct CheckOptions: Hashable, Sendable {
    /// The invariants to check; the others are never reported.
    public var enabled: Set<InvariantID>
    /// Run the per-event checks on every Nth client event only (1 = every event). Restarts, packets and the
    /// on-demand checks are always observed, so ledgers stay complete; only view comparisons are thinned out.
    public var sampling: Int
    /// Report each (invariant, client, chat) once, the first time it breaks, instead of after every event.
    public var reportsFirstOnly: Bool
    /// C4 also flags a local echo whose cid is already cached from the server (the send shown twice). Off by
    /// default: the reference engine shows both for a while when a send's response was lost after the server stored
    /// it and a LOGIN or page brings the stored copy before the retry is acknowledged.
    public var flagsEchoOfCachedMessage: Bool

    /// - Parameters:
    ///   - enabled: invariants to check (default all of DESIGN.md §8).
    ///   - sampling: check every Nth event (default 1); values below 1 count as 1.
    ///   - reportsFirstOnly: report a broken invariant once per (client, chat) (default true).
    ///   - flagsEchoOfCachedMessage: C4 also flags an echo of a cached message (default false).
    public init(enabled: Set<InvariantID> = Set(InvariantID.allCases), sampling: Int = 1,
                reportsFirstOnly: Bool = true, flagsEchoOfCachedMessage: Bool = false) {
        self.enabled = enabled
        self.sampling = max(1, sampling)
        self.reportsFirstOnly = reportsFirstOnly
        self.flagsEchoOfCachedMessage = flagsEchoOfCachedMessage
    }
}
