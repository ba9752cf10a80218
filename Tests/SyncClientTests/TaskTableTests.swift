import SimCore
import Testing
@testable import SyncClient

private func task(_ id: Int64, _ state: TaskRecord.State = .pending) -> TaskRecord {
    TaskRecord(id: id, kind: .sendText, state: state, chatId: 1, text: "t\(id)", sizeBytes: 0, cid: id, photoToken: nil,
               dependsOn: nil, attempts: 0, nextAttemptAt: .start, enqueuedAt: .start, lastError: nil, messageId: nil)
}

@Suite struct TaskTableTests {
    /// New tasks at the end and below, tasks finished and failed (and failed ones done after all), replaced and
    /// removed, against a dictionary: the same tasks, in id order, with every task below `firstPending` finished.
    @Test("the table holds what a dictionary by id holds, in id order, its unfinished part where it says",
          arguments: 1...30)
    func matchesADictionary(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var table = TaskTable()
        var oracle: [Int64: TaskRecord] = [:]
        var nextId: Int64 = 1
        for step in 0..<200 {
            let ids = oracle.keys.sorted()
            switch generator.next() % 6 {
            case 0, 1:
                table[nextId] = task(nextId)
                oracle[nextId] = task(nextId)
                nextId += 1 + Int64(generator.next() % 3)
            case 2 where !ids.isEmpty:
                let id = ids[Int(generator.next() % UInt64(ids.count))]
                let state: TaskRecord.State = generator.next() % 3 == 0 ? .failed : .done
                table[id] = task(id, oracle[id]!.state == .failed ? .done : state)
                oracle[id] = table[id]
            case 3:
                // A restored queue, or an id skipped before: below the newest.
                let id = Int64(generator.next() % UInt64(nextId + 1))
                let state: TaskRecord.State = [.pending, .done, .failed][Int(generator.next() % 3)]
                table[id] = task(id, state)
                oracle[id] = task(id, state)
            case 4 where !ids.isEmpty && step % 7 == 0:
                let id = ids[Int(generator.next() % UInt64(ids.count))]
                table[id] = nil
                oracle[id] = nil
            default:
                break
            }
            #expect(table.records == oracle.keys.sorted().map { oracle[$0]! }, "seed \(seed), step \(step)")
            #expect(table.records[..<table.firstPending].allSatisfy { $0.state != .pending })
            #expect(table.pendingIds == oracle.values.filter { $0.state == .pending }.map(\.id).sorted())
            #expect(table.pendingCount == table.pendingIds.count)
            #expect(table.highestId == oracle.keys.max())
        }
        let restored = TaskTable(Array(oracle.values))
        #expect(restored.records == table.records && restored.firstPending == table.firstPending)
    }
}

@Suite struct TaskRecordEqualityTests {
    /// The written-out `==` compares every stored property: one variant per property (each named by `Mirror`, so a
    /// property added later fails here until `==` and this list cover it) differs from the base, a copy does not.
    @Test("== tells apart records that differ in any one stored property")
    func everyPropertyCompared() {
        let base = TaskRecord(id: 7, kind: .sendText, state: .pending, chatId: 3, text: "hi", sizeBytes: 0, cid: 11,
                              photoToken: nil, dependsOn: nil, attempts: 0, nextAttemptAt: .start,
                              enqueuedAt: .start, lastError: nil, messageId: nil)
        let variants: [String: (inout TaskRecord) -> Void] = [
            "id": { $0.id = 8 }, "kind": { $0.kind = .sendPhoto }, "state": { $0.state = .done },
            "chatId": { $0.chatId = 4 }, "text": { $0.text = "hi!" }, "sizeBytes": { $0.sizeBytes = 1 },
            "cid": { $0.cid = 12 }, "photoToken": { $0.photoToken = "t" }, "dependsOn": { $0.dependsOn = 6 },
            "attempts": { $0.attempts = 1 }, "nextAttemptAt": { $0.nextAttemptAt = .start + SimDuration.seconds(Int64(1)) },
            "enqueuedAt": { $0.enqueuedAt = .start + SimDuration.seconds(Int64(1)) }, "lastError": { $0.lastError = "" },
            "messageId": { $0.messageId = 0 },
        ]
        let properties = Mirror(reflecting: base).children.compactMap(\.label)
        #expect(properties.sorted() == variants.keys.sorted())
        var copy = base
        copy.text = String("h") + "i"
        #expect(copy == base)
        for property in properties.sorted() {
            var variant = base
            variants[property]!(&variant)
            #expect(variant != base, "records differing in \(property) compared equal")
            #expect(base != variant, "records differing in \(property) compared equal")
        }
    }
}
