/// A priority queue of events ordered by (virtual time, insertion number), with cancellable entries.
///
/// Events due at the same instant come out in the order they were scheduled. The storage is an array-backed
/// binary heap of plain values (no allocation per event beyond what `Event` itself holds), so typed events
/// (an enum of small payloads) cost no reference counting. Cancellation is lazy: a cancelled entry stays in the
/// heap, is remembered by insertion number, and is discarded when it reaches the top, so the top is never a
/// cancelled entry. Time never runs backwards: scheduling before the last taken event is a programmer error.
///
/// - Complexity: `schedule` and `popNext` are O(log n); `cancel` is O(1) amortized plus the discarding of
///   cancelled entries that reach the top.
public struct EventQueue<Event> {
    @usableFromInline
    struct Entry {
        @usableFromInline var time: Int64
        @usableFromInline var sequence: UInt64
        @usableFromInline var event: Event

        @inlinable
        init(time: Int64, sequence: UInt64, event: Event) {
            self.time = time
            self.sequence = sequence
            self.event = event
        }

        @inlinable
        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    @usableFromInline var heap: ContiguousArray<Entry>
    @usableFromInline var nextSequence: UInt64 = 0
    /// Insertion numbers of cancelled entries still in the heap.
    @usableFromInline var cancelledSequences: Set<UInt64> = []
    /// The (time, insertion number) of the last entry taken from the top; every pending entry sorts after it.
    @usableFromInline var lastTakenTime: Int64 = .min
    @usableFromInline var lastTakenSequence: UInt64 = 0
    @usableFromInline var hasTaken = false

    /// An empty queue.
    /// - Parameter minimumCapacity: the number of pending events to reserve room for.
    @inlinable
    public init(minimumCapacity: Int = 0) {
        heap = []
        heap.reserveCapacity(minimumCapacity)
    }

    /// The number of pending (scheduled, not cancelled, not yet taken) events.
    @inlinable
    public var count: Int { heap.count - cancelledSequences.count }

    /// Whether no event is pending.
    @inlinable
    public var isEmpty: Bool { heap.isEmpty }

    /// When the next pending event is due, or nil when none is pending.
    @inlinable
    public var nextTime: SimInstant? {
        heap.isEmpty ? nil : SimInstant(nanosecondsSinceStart: heap[0].time)
    }

    /// Adds `event`, due at `time`.
    /// - Precondition: `time` is not before the last event taken with `popNext()`.
    /// - Returns: a handle for `cancel(_:)`.
    @inlinable
    @discardableResult
    public mutating func schedule(_ event: Event, at time: SimInstant) -> TimerHandle {
        let nanoseconds = time.nanosecondsSinceStart
        precondition(!hasTaken || nanoseconds >= lastTakenTime, "scheduled at \(time), before the current time")
        let sequence = nextSequence
        nextSequence &+= 1
        siftUp(Entry(time: nanoseconds, sequence: sequence, event: event))
        return TimerHandle(time: time, sequence: sequence)
    }

    /// Cancels a pending event.
    /// - Returns: true when the event was pending and will not run; false when it already ran or was cancelled.
    @discardableResult
    public mutating func cancel(_ handle: TimerHandle) -> Bool {
        guard handle.sequence < nextSequence, isPending(handle) else { return false }
        guard cancelledSequences.insert(handle.sequence).inserted else { return false }
        discardCancelledTop()
        return true
    }

    /// Removes and returns the earliest pending event (the first scheduled among equal times), or nil when empty.
    @inlinable
    public mutating func popNext() -> (time: SimInstant, event: Event)? {
        guard !heap.isEmpty else { return nil }
        let top = removeTop()
        if !cancelledSequences.isEmpty { discardCancelledTop() }
        return (SimInstant(nanosecondsSinceStart: top.time), top.event)
    }

    /// Checks the heap order, the bookkeeping of cancelled entries and that the top is not cancelled; traps when
    /// one does not hold. The simulator's debug mode calls this after every step.
    /// - Complexity: O(n).
    public func checkInvariants() {
        for index in heap.indices.dropFirst() {
            let parent = (index - 1) / 2
            precondition(heap[parent].precedes(heap[index]), "heap order broken at index \(index)")
        }
        precondition(cancelledSequences.count <= heap.count, "more cancelled entries than entries")
        if let top = heap.first {
            precondition(!cancelledSequences.contains(top.sequence), "a cancelled entry is on top")
            precondition(!hasTaken || top.time > lastTakenTime
                || (top.time == lastTakenTime && top.sequence > lastTakenSequence), "an entry is older than time")
        }
        precondition(heap.allSatisfy { $0.sequence < nextSequence }, "an insertion number from the future")
    }

    // MARK: - Heap mechanics

    private func isPending(_ handle: TimerHandle) -> Bool {
        guard hasTaken else { return true }
        let time = handle.time.nanosecondsSinceStart
        return time > lastTakenTime || (time == lastTakenTime && handle.sequence > lastTakenSequence)
    }

    @usableFromInline
    mutating func discardCancelledTop() {
        while let top = heap.first, cancelledSequences.remove(top.sequence) != nil {
            _ = removeTop()
        }
    }

    @inlinable
    mutating func siftUp(_ entry: Entry) {
        heap.append(entry)
        heap.withUnsafeMutableBufferPointer { buffer in
            var index = buffer.count - 1
            while index > 0 {
                let parent = (index - 1) >> 1
                guard entry.precedes(buffer[parent]) else { break }
                buffer.swapAt(index, parent)
                index = parent
            }
        }
    }

    @inlinable
    mutating func removeTop() -> Entry {
        let last = heap.removeLast()
        guard !heap.isEmpty else {
            hasTaken = true
            lastTakenTime = last.time
            lastTakenSequence = last.sequence
            return last
        }
        let top: Entry = heap.withUnsafeMutableBufferPointer { buffer in
            let count = buffer.count
            let top = buffer[0]
            var index = 0
            while true {
                let left = 2 * index + 1
                if left >= count { break }
                let right = left + 1
                let child = right < count && buffer[right].precedes(buffer[left]) ? right : left
                guard buffer[child].precedes(last) else { break }
                buffer[index] = buffer[child]
                index = child
            }
            buffer[index] = last
            return top
        }
        hasTaken = true
        lastTakenTime = top.time
        lastTakenSequence = top.sequence
        return top
    }
}
