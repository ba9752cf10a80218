import SimCore
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// Randomized end-to-end runs of the reference engine against a faulty server and flaky reachability.
@Suite struct ReferenceClientFaultTests {
    @Test("under slow responses, lost/duplicated pushes, errors, link drops, half-open links, restarts: it converges",
          arguments: Array(UInt64(1)...UInt64(6)))
    func faultyRun(seed: UInt64) {
        let names = FaultyRun.clientNames
        let world = FaultyRun.makeWorld(seed: seed)
        var enqueued: [String: [String]] = [:]
        FaultyRun.drive(world, seed: seed, didEnqueue: { name, text in enqueued[name, default: []].append(text) })
        let server = world.server.messages(inChat: 100)
        for (index, name) in names.enumerated() {
            let sent = server.filter { $0.sender == Int64(index + 1) }.map(\.text)
            #expect(sent == (index == 1 ? (1...80).map { "old \($0)" } : []) + (enqueued[name] ?? []), "seed \(seed)")
            let view = world.view(name)
            let unfinished = view.tasks.filter { $0.state != .done }
            #expect(unfinished.isEmpty, "seed \(seed) \(name): \(unfinished)")
            let store = view.chunkStores[100]!
            #expect(store.chunks.count == 1, "seed \(seed) \(name): \(store.chunks)")
            #expect(store.messages == server, "seed \(seed) \(name)")
            #expect(view.lastSyncMilliseconds <= world.server.serverTimeMilliseconds(at: world.now))
        }
    }
}
