import SimCore
import SyncProtocol

/// Allocates seqs and matches responses to requests in flight (DESIGN.md §7, invariants P1–P3).
///
/// A seq still in flight is never handed out again, also when the seq space is small (`seqModulus` 256 for the
/// 8-bit header layout). When every slot is in flight, `allocate()` returns nil and the caller waits.
///
/// A request that timed out may still be answered late on the same connection, so its seq is held back until that
/// answer comes (and is dropped) or the connection goes: otherwise the late answer would complete a newer request
/// that reused the seq, one chat's page landing in another chat or one photo's upload token given to another
/// (explore seeds 6077, 7056, 9452). A held-back seq is never handed out again on its connection: when every seq is
/// in flight or held back, `allocate()` returns nil and `hasHeldBackSeqs` tells the engine that only a late answer
/// that may never come could free one, so it replaces the connection (explore seed 9452: handing out the seq that
/// had waited longest let a late CHAT_HISTORY page of one chat complete the next chat's request).
///
/// A server may answer a request of a connection that closed on the device's newer connection (Slack's RTM resends
/// its last reply; `repliesFollowDevice`), so counting seqs on across connections is not enough once a small seq space
/// wraps: the seqs a lost connection left unanswered are held back on the next one until their answer comes or
/// their request's timeout passes (`removeAll(now:holdingSeqsFor:)`, `releaseOrphans(at:)`). Found by hand-written
/// field sequences (seq14): with `seqModulus` 4, Bob's page, delayed 12 s at the server, came on Alice's new
/// connection with the seq of her new request for Carol's newest page, and Bob's messages were filed under Carol's.
/// Every seq a lost connection left unanswered, in flight or already timed out, is held for one request timeout
/// after the loss (seq16): freeing the timed-out ones at once, or the others at their own timeout, let a late page on
/// the next connection complete a request that had reused the seq.
public struct RequestTracker<Purpose: Hashable & Sendable>: Hashable, Sendable {
    /// A request waiting for its response.
    public struct Entry: Hashable, Sendable {
        /// The request's opcode; a response must carry the same.
        public var opcode: Opcode
        /// Who waits for the response.
        public var purpose: Purpose
        /// When it was sent.
        public var sentAt: SimInstant
        /// Its timeout timer.
        public var timer: ClientTimerID
    }

    /// A request in flight with its seq.
    public struct Request: Hashable, Sendable {
        /// The seq the request went out with.
        public var seq: UInt16
        /// The request.
        public var entry: Entry
    }

    /// Number of seq values: 65536 or 256.
    public let seqModulus: Int
    private var nextSeq = 1
    /// Requests in flight, ascending by seq. An array searched by halving, not a table keyed by seq: a client has a
    /// few requests in flight at a time (a PING, a page, a send or two), and each lookup of the table hashed its
    /// key, four to five times per request answered; the engine's view lists them in this order.
    public private(set) var inFlight: [Request] = []
    /// The opcode of each request that timed out on this connection, by seq, waiting for its late answer.
    private var heldBackOpcodes: [UInt16: Opcode] = [:]
    /// A request a lost connection left unanswered: its answer may still come on a later connection.
    public struct Orphan: Hashable, Sendable {
        /// The request's opcode; an answer with its seq and this opcode is the stale one.
        public var opcode: Opcode
        /// When the request would have timed out; its seq is free again from then.
        public var until: SimInstant
    }
    /// The seqs of requests lost connections left unanswered, held back until their answer comes or `until`.
    public private(set) var orphans: [UInt16: Orphan] = [:]

    /// The earliest instant an orphaned seq is free again, or nil when none is held back.
    public var nextOrphanRelease: SimInstant? { orphans.values.map(\.until).min() }

    /// Whether a timed-out request's seq waits for its late answer: when `allocate()` returns nil, only such an
    /// answer, which may never come, or a new connection can free a seq.
    public var hasHeldBackSeqs: Bool { !heldBackOpcodes.isEmpty }

    /// - Parameters:
    ///   - seqModulus: 65536 (default header layout) or 256 (8-bit seq layout), DESIGN.md §3.
    ///   - firstSeq: the first seq handed out (taken modulo `seqModulus`); default 1.
    public init(seqModulus: Int, firstSeq: Int = 1) {
        precondition(seqModulus >= 2 && seqModulus <= 65_536, "seqModulus must be in 2...65536")
        self.seqModulus = seqModulus
        self.nextSeq = ((firstSeq % seqModulus) + seqModulus) % seqModulus
    }

    /// The request in flight with `seq`, or nil.
    public func entry(seq: UInt16) -> Entry? {
        let index = firstIndex(notBelow: seq)
        return index < inFlight.count && inFlight[index].seq == seq ? inFlight[index].entry : nil
    }

    /// The index of the first request in flight whose seq is `seq` or above (`inFlight.count` when none is).
    private func firstIndex(notBelow seq: UInt16) -> Int {
        inFlight.partitionPoint { $0.seq < seq }
    }

    /// The next free seq, or nil when every seq is in flight or held back.
    ///
    /// With `opcode`, a seq a lost connection left unanswered (`orphans`) is skipped only for a request of the
    /// orphan's own opcode: a stale answer completes only a request with its seq *and* opcode, so a SESSION_INIT,
    /// LOGIN or PING may take a seq a lost page holds, and a new connection is not left without seqs for its LOGIN
    /// while a lost connection's answers may still come (seq16). Without it, every orphan is skipped.
    public mutating func allocate(for opcode: Opcode? = nil) -> UInt16? {
        for _ in 0..<seqModulus {
            let seq = UInt16(nextSeq % seqModulus)
            nextSeq = (nextSeq + 1) % seqModulus
            guard entry(seq: seq) == nil && heldBackOpcodes[seq] == nil else { continue }
            if let orphan = orphans[seq], opcode == nil || orphan.opcode == opcode { continue }
            return seq
        }
        return nil
    }

    /// Records a request sent with `seq` (from `allocate()`), replacing one in flight with the same seq.
    public mutating func register(seq: UInt16, entry: Entry) {
        let index = firstIndex(notBelow: seq)
        if index < inFlight.count && inFlight[index].seq == seq {
            inFlight[index].entry = entry
        } else {
            inFlight.insert(Request(seq: seq, entry: entry), at: index)
        }
    }

    /// The request a response or error frame answers, removed; nil when none matches both seq and opcode.
    /// A late answer to a request that timed out matches nothing, and frees its seq.
    public mutating func complete(seq: UInt16, opcode: Opcode) -> Entry? {
        let index = firstIndex(notBelow: seq)
        guard index < inFlight.count && inFlight[index].seq == seq else {
            if heldBackOpcodes[seq] == opcode { heldBackOpcodes[seq] = nil }
            if orphans[seq]?.opcode == opcode { orphans[seq] = nil }
            return nil
        }
        guard inFlight[index].entry.opcode == opcode else { return nil }
        return inFlight.remove(at: index).entry
    }

    /// Removes the request with `seq` if its timeout timer is `timer` (a stale timer removes nothing); its seq is
    /// held back until a late answer comes or `removeAll()`.
    public mutating func expire(seq: UInt16, timer: ClientTimerID) -> Entry? {
        let index = firstIndex(notBelow: seq)
        guard index < inFlight.count && inFlight[index].seq == seq && inFlight[index].entry.timer == timer else {
            return nil
        }
        let entry = inFlight.remove(at: index).entry
        heldBackOpcodes[seq] = entry.opcode
        return entry
    }

    /// Removes every request in flight, ascending by seq. Without `hold`, the seqs held back for late answers past
    /// their timeout are forgotten (the held-back rule of one connection). With `hold`, every seq the lost connection
    /// left unanswered, in flight or held back after its timeout, is held (an orphan) until its answer comes on a
    /// later connection or `now + hold(opcode)`; orphans of earlier connections stay as they are.
    ///
    /// A connection's loss does not end the wait for its answers when the server may send them to the device's next
    /// connection (`repliesFollowDevice`): a request that had timed out was waiting for its late answer, and one in
    /// flight may be answered after its own timeout just as well. Forgetting the first, or freeing the second at
    /// `sentAt + timeout` (which may be moments after the reconnect), let a late page of one chat complete a new
    /// connection's CHAT_HISTORY for another chat on the reused seq (found by hand-written field sequences, seq16:
    /// `seq2-timed-out-page-then-reset-0`, `seq4-page-past-orphan-hold-0`, every seed with 2 to 4 seqs).
    public mutating func removeAll(
        now: SimInstant = .start, holdingSeqsFor hold: ((Opcode) -> SimDuration)? = nil
    ) -> [(seq: UInt16, entry: Entry)] {
        let all = inFlight.map { ($0.seq, $0.entry) }
        if let hold {
            for (seq, opcode) in heldBackOpcodes {
                orphans[seq] = Orphan(opcode: opcode, until: now + hold(opcode))
            }
            for request in inFlight {
                orphans[request.seq] = Orphan(opcode: request.entry.opcode, until: now + hold(request.entry.opcode))
            }
        }
        inFlight = []
        heldBackOpcodes = [:]
        return all
    }

    /// Frees the orphaned seqs whose request's timeout has passed at `now`.
    public mutating func releaseOrphans(at now: SimInstant) {
        guard !orphans.isEmpty else { return }
        orphans = orphans.filter { $0.value.until > now }
    }
}
