import SimCore
import SyncChecks
import SyncProtocol
import SyncServer
import SyncTestSupport
import Testing
@testable import SyncClient

/// C7: edits and deletes apply whatever their arrival order relative to the message.
@Suite struct EditInvariantTests {
    @Test("changes pushed before their messages, then stale pages: C7 holds, removal-before-message-lost breaks it",
          arguments: [nil, Mutant.removalBeforeMessageLost])
    func changesBeforeMessages(mutant: Mutant?) {
        let world = MutantRuns.makeWorld(
            mutant: mutant, knobs: MutantRuns.laggingReplica, observer: InvariantChecker())
        _ = MutantRuns.changesBeforeMessages(world)
        if mutant == nil {
            #expect(world.findings == [], "\(world.findings.map(\.description))")
        } else {
            #expect(world.brokenInvariants.contains(.C7), "\(world.findings.map(\.description))")
        }
    }

    @Test("the chunk store keeps the newest version and applies a tombstone when its message arrives")
    func chunkStoreOrders() {
        let original = ChatMessage(id: 5, time: 50, sender: 2, text: "a")
        var edited = original
        edited.text = "b"
        edited.status = ChatMessage.edited
        edited.updateTime = 60
        var store = ChunkStore()
        store.applyChange(edited)
        store.applyRemoval(messageId: 6, updateTime: 70)
        store.insertPage([original, ChatMessage(id: 6, time: 51, sender: 2, text: "c")], isStartOfHistory: true)
        #expect(store.message(id: 5)?.text == "b")
        #expect(store.message(id: 6)?.isRemoved == true)
        #expect(store.tombstones.isEmpty && store.pendingEdits.isEmpty)
        store.insertPage([original], isStartOfHistory: true)
        #expect(store.message(id: 5)?.text == "b", "an older version never overwrites a newer one")
        #expect(store.invariantViolations() == [])
    }

    @Test("C3 accepts an older version the server had; a text it never had is still C3")
    func c3AcceptsVersions() {
        let current = ChatMessage(id: 5, time: 50, sender: 2, text: "new", status: "EDITED", updateTime: 60)
        let old = ChatMessage(id: 5, time: 50, sender: 2, text: "old")
        let versions = { (_: Int64) in [old, current] }
        #expect(ChunkChecks.c3Problems(cached: [old], server: [current], versions: versions) == [])
        var forged = old
        forged.text = "forged"
        #expect(ChunkChecks.c3Problems(cached: [forged], server: [current], versions: versions).count == 1)
    }
}
