import SimCore
import SyncChecks
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Randomized runs of the reference engine against a faulty server and flaky reachability, every checker on:
/// the checkers must not cry wolf under slow and out-of-order responses, lost and duplicated pushes, error
/// replies, link drops, half-open links, app restarts, crashes and server restarts.
@Suite struct InvariantCheckerFaultTests {
    @Test("a faulty run of the reference engine yields no finding", arguments: Array(UInt64(1)...UInt64(8)))
    func faultyRun(seed: UInt64) {
        let names = FaultyRun.clientNames
        // 16 seq slots make alice wrap her seqs often: P1 and P2 must still hold.
        let world = FaultyRun.makeWorld(seed: seed, observer: InvariantChecker()) { p in p.seqModulus = 16 }
        FaultyRun.drive(world, seed: seed, didScrollToTop: { name in world.checkScrolledToTop(name, chatId: 100) })
        world.checkEndOfRun(names)
        #expect(world.findings == [], "seed \(seed): \(world.findings.map(\.description))")
    }
}
