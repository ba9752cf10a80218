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
/// (explore seeds 6077, 7056, 9452). Only when every other seq is busy is the longest-held one handed out again.
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

    /// Number of seq values: 65536 or 256.
    public let seqModulus: Int
    private var nextSeq = 1
    /// Requests in flight by seq.
    public private(set) var inFlight: [UInt16: Entry] = [:]
    /// Seqs of requests that timed out on this connection, oldest first, waiting for a late answer.
    private var heldBack: [UInt16] = []
    /// The opcode each held-back seq's request had: a late answer carries it.
    private var heldBackOpcodes: [UInt16: Opcode] = [:]

    /// - Parameters:
    ///   - seqModulus: 65536 (default header layout) or 256 (8-bit seq layout), DESIGN.md §3.
    ///   - firstSeq: the first seq handed out (taken modulo `seqModulus`); default 1.
    public init(seqModulus: Int, firstSeq: Int = 1) {
        precondition(seqModulus >= 2 && seqModulus <= 65_536, "seqModulus must be in 2...65536")
        self.seqModulus = seqModulus
        self.nextSeq = ((firstSeq % seqModulus) + seqModulus) % seqModulus
    }

    /// The next free seq, or nil when every seq is in flight.
    public mutating func allocate() -> UInt16? {
        for _ in 0..<seqModulus {
            let seq = UInt16(nextSeq % seqModulus)
            nextSeq = (nextSeq + 1) % seqModulus
            if inFlight[seq] == nil && heldBackOpcodes[seq] == nil { return seq }
        }
        // Every free seq waits for a late answer: the one that has waited longest is the least likely to get one.
        guard let oldest = heldBack.first else { return nil }
        release(oldest)
        return oldest
    }

    private mutating func release(_ seq: UInt16) {
        heldBack.removeAll { $0 == seq }
        heldBackOpcodes[seq] = nil
    }

    /// Records a request sent with `seq` (from `allocate()`).
    public mutating func register(seq: UInt16, entry: Entry) {
        inFlight[seq] = entry
    }

    /// The request a response or error frame answers, removed; nil when none matches both seq and opcode.
    /// A late answer to a request that timed out matches nothing, and frees its seq.
    public mutating func complete(seq: UInt16, opcode: Opcode) -> Entry? {
        guard let entry = inFlight[seq], entry.opcode == opcode else {
            if inFlight[seq] == nil, heldBackOpcodes[seq] == opcode { release(seq) }
            return nil
        }
        inFlight[seq] = nil
        return entry
    }

    /// Removes the request with `seq` if its timeout timer is `timer` (a stale timer removes nothing); its seq is
    /// held back until a late answer comes or `removeAll()`.
    public mutating func expire(seq: UInt16, timer: ClientTimerID) -> Entry? {
        guard let entry = inFlight[seq], entry.timer == timer else { return nil }
        inFlight[seq] = nil
        heldBack.append(seq)
        heldBackOpcodes[seq] = entry.opcode
        return entry
    }

    /// Removes every request in flight, ascending by seq, and forgets the held-back seqs (the connection is gone,
    /// and with it every late answer).
    public mutating func removeAll() -> [(seq: UInt16, entry: Entry)] {
        let all = inFlight.keys.sorted().map { ($0, inFlight[$0]!) }
        inFlight = [:]
        heldBack = []
        heldBackOpcodes = [:]
        return all
    }
}
