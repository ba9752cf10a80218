import Testing
@testable import SimCore

@Suite struct EventQueueTests {
    @Test("events come out by time, and in scheduling order at equal times")
    func order() {
        var queue = EventQueue<String>()
        queue.schedule("c", at: SimInstant(nanosecondsSinceStart: 30))
        queue.schedule("a1", at: SimInstant(nanosecondsSinceStart: 10))
        queue.schedule("b", at: SimInstant(nanosecondsSinceStart: 20))
        queue.schedule("a2", at: SimInstant(nanosecondsSinceStart: 10))
        queue.schedule("a3", at: SimInstant(nanosecondsSinceStart: 10))
        var popped: [String] = []
        while let (_, event) = queue.popNext() { popped.append(event) }
        #expect(popped == ["a1", "a2", "a3", "b", "c"])
        #expect(queue.isEmpty)
    }

    @Test("a cancelled event never comes out; cancelling twice or after it ran returns false")
    func cancel() {
        var queue = EventQueue<Int>()
        let first = queue.schedule(1, at: SimInstant(nanosecondsSinceStart: 5))
        let second = queue.schedule(2, at: SimInstant(nanosecondsSinceStart: 5))
        queue.schedule(3, at: SimInstant(nanosecondsSinceStart: 6))
        let cancelled = queue.cancel(second)
        let cancelledAgain = queue.cancel(second)
        #expect(cancelled && !cancelledAgain)
        #expect(queue.count == 2)
        let one = queue.popNext()?.event
        #expect(one == 1)
        let cancelledAfterRunning = queue.cancel(first)
        #expect(!cancelledAfterRunning, "already ran")
        let three = queue.popNext()?.event
        #expect(three == 3)
        let none = queue.popNext()
        #expect(none == nil)
        queue.checkInvariants()
    }

    @Test("random schedules and cancels match a sorted-list model", arguments: [UInt64(1), 2, 3, 20_261_129])
    func modelBased(seed: UInt64) {
        checkAgainstModel(seed: seed) { generator, now in now + Int64(generator.next() % 50) }
    }

    @Test("far-ahead entries on the runway, mixed with near ones, match the model", arguments: [UInt64(4), 5, 6, 7])
    func modelBasedWithRunway(seed: UInt64) {
        let horizon = EventQueue<Int>.runwayHorizon.nanoseconds
        var timeline: Int64 = 0
        checkAgainstModel(seed: seed) { generator, now in
            switch generator.next() % 4 {
            case 0:
                // A timeline step: later than the last, often by little, at times equal.
                timeline = max(timeline, now + horizon) + Int64(generator.next() % 3)
                return timeline
            case 1:
                return now + horizon + Int64(generator.next() % 5)
            default:
                return now + Int64(generator.next() % 50)
            }
        }
    }

    @Test("a heap past the prefetch threshold comes out in key order, through replacements and removals")
    func largeHeapOrder() {
        var generator = SeededGenerator(seed: 16)
        var queue = EventQueue<Int>()
        let pending = EventQueue<Int>.prefetchThreshold * 2 + 77
        // Values are scheduling order, so at equal times they must come out ascending.
        var nextValue = 0
        for _ in 0..<pending {
            queue.schedule(nextValue, at: SimInstant(nanosecondsSinceStart: Int64(generator.next() % 1_000)))
            nextValue += 1
        }
        var last: (time: Int64, value: Int)?
        var isOrdered = true
        var popped = 0
        for step in 0..<(3 * pending) {
            guard let (time, value) = queue.popNext() else { break }
            let nanoseconds = time.nanosecondsSinceStart
            if let last, nanoseconds < last.time || (nanoseconds == last.time && value < last.value) {
                isOrdered = false
            }
            last = (nanoseconds, value)
            popped += 1
            // Two of three pops are followed by a schedule (the taken root replaced and sifted down), the third by the
            // next pop (the root removed); times repeat often, so equal keys meet on the way down.
            if step % 3 != 2 {
                let delay = Int64(generator.next() % 997)
                queue.schedule(nextValue, at: SimInstant(nanosecondsSinceStart: nanoseconds + delay))
                nextValue += 1
            }
            if step % 10_007 == 0 { queue.checkInvariants() }
        }
        while let (time, value) = queue.popNext() {
            let nanoseconds = time.nanosecondsSinceStart
            if let last, nanoseconds < last.time || (nanoseconds == last.time && value < last.value) {
                isOrdered = false
            }
            last = (nanoseconds, value)
            popped += 1
        }
        #expect(isOrdered)
        #expect(popped == nextValue)
    }

    @Test("a timeline scheduled up front comes out in key order among near events")
    func runwayOrder() {
        var queue = EventQueue<String>()
        let second: Int64 = 1_000_000_000
        for step in 0..<5 { queue.schedule("step\(step)", at: SimInstant(nanosecondsSinceStart: 2 * second * Int64(step))) }
        queue.schedule("near", at: SimInstant(nanosecondsSinceStart: 10))
        let cancelled = queue.schedule("step-cancelled", at: SimInstant(nanosecondsSinceStart: 8 * second))
        queue.schedule("tie", at: SimInstant(nanosecondsSinceStart: 2 * second))
        queue.schedule("last", at: SimInstant(nanosecondsSinceStart: 9 * second))
        queue.checkInvariants()
        #expect(queue.cancel(cancelled) && queue.count == 8)
        var popped: [String] = []
        while let (_, event) = queue.popNext() {
            popped.append(event)
            queue.checkInvariants()
        }
        #expect(popped == ["step0", "near", "step1", "tie", "step2", "step3", "step4", "last"])
        #expect(queue.isEmpty)
    }

    private func checkAgainstModel(seed: UInt64, time: (inout SeededGenerator, Int64) -> Int64) {
        var generator = SeededGenerator(seed: seed)
        var queue = EventQueue<Int>()
        var model: [(time: Int64, sequence: Int, value: Int)] = []
        var handles: [(TimerHandle, Int)] = []
        var now: Int64 = 0
        var nextValue = 0
        for _ in 0..<3_000 {
            let roll = generator.next() % 10
            if roll < 5 {
                let time = time(&generator, now)
                let handle = queue.schedule(nextValue, at: SimInstant(nanosecondsSinceStart: time))
                model.append((time, nextValue, nextValue))
                handles.append((handle, nextValue))
                nextValue += 1
            } else if roll < 7, !handles.isEmpty {
                let index = Int(generator.next() % UInt64(handles.count))
                let (handle, value) = handles.remove(at: index)
                let wasPending = model.contains { $0.value == value }
                let cancelled = queue.cancel(handle)
                #expect(cancelled == wasPending, "seed \(seed)")
                model.removeAll { $0.value == value }
            } else {
                // Every third pop has a deadline, near or past the runway's horizon, which may pass over cancelled
                // entries and find nothing live.
                let reach = generator.next() % 2 == 0 ? 30 : 2 * EventQueue<Int>.runwayHorizon.nanoseconds
                let deadline = roll == 9 ? now + reach : nil
                model.sort { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
                let expected = model.first.flatMap { first in deadline.map { first.time <= $0 } ?? true ? first : nil }
                let popped = queue.popNext(notAfter: deadline.map { SimInstant(nanosecondsSinceStart: $0) })
                #expect(popped?.event == expected?.value, "seed \(seed)")
                if let expected {
                    model.removeFirst()
                    now = expected.time
                }
            }
            #expect(queue.count == model.count, "seed \(seed)")
            queue.checkInvariants()
        }
    }
}

extension EventQueueTests {
    @Test("a cancelled entry passed over by a deadline stays cancelled and is not counted")
    func cancelledBeyondDeadline() {
        var queue = EventQueue<Int>()
        let late = queue.schedule(1, at: SimInstant(nanosecondsSinceStart: 100))
        _ = queue.cancel(late)
        let early = queue.popNext(notAfter: SimInstant(nanosecondsSinceStart: 200))
        #expect(early == nil)
        queue.schedule(2, at: SimInstant(nanosecondsSinceStart: 60))
        let two = queue.popNext()?.event
        #expect(two == 2)
        let cancelledAgain = queue.cancel(late)
        #expect(!cancelledAgain && queue.count == 0 && queue.isEmpty)
        queue.checkInvariants()
    }
}

extension EventQueueTests {
    @Test("isScheduled: true until the entry runs or is cancelled, also for a cancelled entry a deadline passed over")
    func isScheduled() {
        var queue = EventQueue<Int>()
        let first = queue.schedule(1, at: SimInstant(nanosecondsSinceStart: 10))
        let second = queue.schedule(2, at: SimInstant(nanosecondsSinceStart: 20))
        let third = queue.schedule(3, at: SimInstant(nanosecondsSinceStart: 30))
        #expect(queue.isScheduled(first) && queue.isScheduled(second) && queue.isScheduled(third))
        _ = queue.cancel(second)
        #expect(!queue.isScheduled(second) && queue.isScheduled(third))
        let one = queue.popNext(notAfter: SimInstant(nanosecondsSinceStart: 25))?.event
        let none = queue.popNext(notAfter: SimInstant(nanosecondsSinceStart: 25))
        #expect(one == 1 && none == nil)
        #expect(!queue.isScheduled(first) && !queue.isScheduled(second) && queue.isScheduled(third))
        queue.checkInvariants()
        let three = queue.popNext()?.event
        #expect(three == 3 && !queue.isScheduled(third) && queue.isEmpty)
        queue.checkInvariants()
    }
}

extension EventQueueTests {
    @Test("the entry taken stays at the root until the next insertion replaces it or the next pop drops it")
    func takenRootReplaced() {
        var queue = EventQueue<Int>()
        for value in [50, 20, 40, 30, 10] {
            queue.schedule(value, at: SimInstant(nanosecondsSinceStart: Int64(value)))
        }
        let ten = queue.popNext()?.event
        #expect(ten == 10 && queue.count == 4)
        #expect(queue.nextTime == SimInstant(nanosecondsSinceStart: 20), "the taken root is not the next")
        queue.checkInvariants()
        queue.schedule(15, at: SimInstant(nanosecondsSinceStart: 15))
        queue.schedule(45, at: SimInstant(nanosecondsSinceStart: 45))
        #expect(queue.count == 6)
        queue.checkInvariants()
        var order: [Int] = []
        while let next = queue.popNext() {
            order.append(next.event)
            if next.event == 20 { queue.schedule(25, at: SimInstant(nanosecondsSinceStart: 25)) }
            queue.checkInvariants()
        }
        #expect(order == [15, 20, 25, 30, 40, 45, 50] && queue.isEmpty && queue.nextTime == nil)
    }
}
