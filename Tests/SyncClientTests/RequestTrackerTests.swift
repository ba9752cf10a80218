import SimCore
import SyncProtocol
import Testing
@testable import SyncClient

@Suite struct RequestTrackerTests {
    private func entry(_ n: Int64) -> RequestTracker<Int>.Entry {
        .init(opcode: .ping, purpose: Int(n), sentAt: .start, timer: ClientTimerID(rawValue: n))
    }

    @Test("an in-flight seq is never handed out again, also with 8-bit seqs", arguments: [65_536, 256])
    func neverReusesInFlight(modulus: Int) {
        var tracker = RequestTracker<Int>(seqModulus: modulus)
        let held = tracker.allocate()!
        tracker.register(seq: held, entry: entry(0))
        var reused = false
        for n in 1...600 {
            let seq = tracker.allocate()!
            if seq == held { reused = true }
            tracker.register(seq: seq, entry: entry(Int64(n)))
            if seq != held { _ = tracker.complete(seq: seq, opcode: .ping) }
        }
        #expect(!reused)
        #expect(tracker.complete(seq: held, opcode: .ping)?.purpose == 0)
    }

    @Test("a response matches only the seq and opcode of a request in flight") func matching() {
        var tracker = RequestTracker<Int>(seqModulus: 256)
        let seq = tracker.allocate()!
        tracker.register(seq: seq, entry: entry(1))
        #expect(tracker.complete(seq: seq, opcode: .login) == nil)
        #expect(tracker.expire(seq: seq, timer: ClientTimerID(rawValue: 99)) == nil)
        #expect(tracker.complete(seq: seq, opcode: .ping)?.purpose == 1)
        #expect(tracker.complete(seq: seq, opcode: .ping) == nil)
    }

    @Test("a timed-out request's seq is held back until its late answer comes, which completes nothing (seeds 6077, 7056)")
    func timedOutSeqHeldBack() {
        var tracker = RequestTracker<Int>(seqModulus: 4, firstSeq: 0)
        let late = tracker.allocate()!
        tracker.register(seq: late, entry: entry(1))
        #expect(tracker.expire(seq: late, timer: ClientTimerID(rawValue: 1))?.purpose == 1)
        // Seqs 1, 2, 3, then 1 again: 0 waits for its late answer.
        var handed: [UInt16] = []
        for n in 2...5 {
            let seq = tracker.allocate()!
            handed.append(seq)
            tracker.register(seq: seq, entry: entry(Int64(n)))
            _ = tracker.complete(seq: seq, opcode: .ping)
        }
        #expect(handed == [1, 2, 3, 1])
        // The late answer matches no request and frees seq 0.
        #expect(tracker.complete(seq: late, opcode: .ping) == nil)
        #expect(tracker.allocate() == 2)
        #expect(tracker.allocate() == 3)
        #expect(tracker.allocate() == 0)
    }

    @Test("a held-back seq is never handed out again, also with every other seq busy; a new connection frees them (seed 9452)")
    func heldBackSeqNeverReused() {
        var tracker = RequestTracker<Int>(seqModulus: 3, firstSeq: 0)
        #expect(!tracker.hasHeldBackSeqs)
        for n in 0..<2 {
            let seq = tracker.allocate()!
            tracker.register(seq: seq, entry: entry(Int64(n)))
            _ = tracker.expire(seq: seq, timer: ClientTimerID(rawValue: Int64(n)))
        }
        let busy = tracker.allocate()!
        tracker.register(seq: busy, entry: entry(9))
        #expect(busy == 2)
        // Seqs 0 and 1 wait for late answers, 2 is in flight: nothing to hand out, and the engine learns why.
        #expect(tracker.allocate() == nil)
        #expect(tracker.hasHeldBackSeqs)
        // Seq 0's late answer frees it.
        #expect(tracker.complete(seq: 0, opcode: .ping) == nil)
        #expect(tracker.allocate() == 0)
        _ = tracker.removeAll()
        #expect(!tracker.hasHeldBackSeqs)
        // Nothing is held back any more: 1, where 1 was skipped before.
        #expect(tracker.allocate() == 1)
    }

    @Test("a lost connection's unanswered seqs wait for their stale answer or their timeout on the next one (seq14)")
    func orphanedSeqsHeldAcrossConnections() {
        var tracker = RequestTracker<Int>(seqModulus: 4, firstSeq: 1)
        let page = tracker.allocate()!
        tracker.register(seq: page, entry: entry(1))
        let ping = tracker.allocate()!
        tracker.register(seq: ping, entry: entry(2))
        #expect((page, ping) == (1, 2))
        // The connection goes (at the instant both were sent): each request's seq is held for 20 s.
        let lost = tracker.removeAll(now: .start, holdingSeqsFor: { _ in .seconds(Int64(20)) })
        #expect(lost.map(\.seq) == [1, 2])
        #expect(tracker.orphans.count == 2)
        #expect(tracker.nextOrphanRelease == .start + .seconds(Int64(20)))
        // The next connection counts on past them: 3, 0, then nothing (before the fix, 1 came round again, and the
        // stale answer with seq 1 completed the new request).
        #expect(tracker.allocate() == 3)
        tracker.register(seq: 3, entry: entry(3))
        #expect(tracker.allocate() == 0)
        tracker.register(seq: 0, entry: entry(4))
        #expect(tracker.allocate() == nil)
        // Seq 1's stale answer (same opcode) completes nothing and frees it; seq 2's timeout frees it.
        #expect(tracker.complete(seq: 1, opcode: .ping) == nil)
        #expect(tracker.allocate() == 1)
        tracker.releaseOrphans(at: .start + .seconds(Int64(19)))
        #expect(tracker.orphans.count == 1)
        tracker.releaseOrphans(at: .start + .seconds(Int64(20)))
        #expect(tracker.orphans.isEmpty)
        #expect(tracker.allocate() == 2)
        // Without a deadline (the held-back rule of one connection), nothing is carried over.
        _ = tracker.removeAll()
        #expect(tracker.orphans.isEmpty)
    }

    @Test("allocation waits when every seq is in flight") func exhausted() {
        var tracker = RequestTracker<Int>(seqModulus: 4)
        for n in 0..<4 { tracker.register(seq: tracker.allocate()!, entry: entry(Int64(n))) }
        #expect(tracker.allocate() == nil)
    }

    @Test("the first seq can be set, and allocation wraps from there past seqs in flight")
    func firstSeq() {
        var tracker = RequestTracker<Int>(seqModulus: 256, firstSeq: 254)
        let first = tracker.allocate()!
        tracker.register(seq: first, entry: entry(1))
        #expect(first == 254)
        #expect(tracker.allocate() == 255)
        #expect(tracker.allocate() == 0)
        for _ in 0..<253 { _ = tracker.allocate() }
        #expect(tracker.allocate() == 255, "254 is still in flight")
    }
}
