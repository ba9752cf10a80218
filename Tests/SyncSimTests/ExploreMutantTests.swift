import Testing
@testable import SyncSim

/// `syncsim explore` finds every engine mutant from no catalog: with a fixed seed base, within a few runs.
///
/// The bases are the first detections found from seed base 1 (see docs/explore.md), minus a little, so each case
/// stays a handful of runs. A change to the generator or the engine may move detections to other seeds: then
/// re-derive the bases with `syncsim explore --runs 100 --seed-base 1 --mutant NAME --stop-on-failure`.
@Suite struct ExploreMutantTests {
    static let cases: [(mutant: String, seedBase: UInt64)] = [
        // Re-derived after the probes (ExploreProbes.swift): each base is 1 or the seed that first finds the mutant
        // from base 1 (release scan, docs/explore.md's table).
        ("merge-skips-bridge", 1),
        ("gap-ignored-after-login", 1),
        ("since-from-newest-push", 1),
        ("since-from-device-clock", 1),
        ("resend-new-cid", 1),
        ("parallel-sends", 1),
        ("tasks-not-persisted", 1),
        ("backoff-reset-on-connect", 1),
        ("seq-reuse-inflight", 12),
        ("inflight-dropped-on-disconnect", 1),
        ("removal-before-message-lost", 9),
        ("catch-up-from-live-push", 1),
        ("duplicate-is-failure", 1),
        ("outbox-in-memory-while-offline", 1),
        ("send-before-all-uploads", 1),
        ("retry-without-backoff", 33),
        ("own-message-device-time", 1),
        ("seq-restart-per-connection", 7),
        ("server-no-liveness", 33),
        ("server-keeps-older-sessions", 1),
    ]

    static let maxRuns = 6

    /// Every mutant has a pinned base.
    @Test("every mutant has a case") func everyMutantListed() {
        #expect(Set(Self.cases.map(\.mutant)) == Set(Mutant.all.map(\.name)))
    }

    @Test("explore finds the mutant within a few runs of a fixed seed base", arguments: cases)
    func findsMutant(mutant: String, seedBase: UInt64) {
        let runner = ExploreRunner(mutant: mutant)
        let found = (0..<UInt64(Self.maxRuns)).first { runner.run(seed: seedBase + $0).hasFailed }
        #expect(found != nil, "\(mutant): no failure in seeds \(seedBase)..<\(seedBase + UInt64(Self.maxRuns))")
    }
}
