import Testing
@testable import SimNet

/// Session 45: `FIFOQueue` keeps its count in itself (an empty link's queue answered "empty?" from its array's
/// header, a cache miss per packet offered); the count must stay the array's, through pops, emptying and compaction.
@Suite struct FIFOQueueTests {
    @Test("count, first and elements follow an array through appends, pops, emptying and compaction")
    func matchesArray() {
        var queue = FIFOQueue<Int>()
        var model: [Int] = []
        var next = 0
        // Deterministic steps: bursts of appends, runs of pops past empty, and a long run that passes the head over
        // 1,024 with more than half of the array popped (the compaction).
        let bursts = [(3, 5), (10, 2), (0, 4), (2_000, 1_500), (7, 600), (1, 1), (0, 10)]
        for (appends, pops) in bursts {
            for _ in 0..<appends {
                queue.append(next)
                model.append(next)
                next += 1
            }
            for _ in 0..<pops {
                #expect(queue.popFirst() == (model.isEmpty ? nil : model.removeFirst()))
                #expect(queue.count == model.count)
                #expect(queue.isEmpty == model.isEmpty)
            }
            #expect(queue.first == model.first)
            #expect(Array(queue.elements) == model)
        }
        #expect(queue.isEmpty && queue.count == 0 && queue.popFirst() == nil)
    }
}
