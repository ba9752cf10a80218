import CPrefetch

/// A priority queue of events ordered by (virtual time, insertion number), with cancellable entries.
///
/// Events due at the same instant come out in the order they were scheduled. The storage is an array-backed
/// 4-ary heap of plain values (half the levels of a binary heap, and a node's children share a cache line or two;
/// sifting moves a hole rather than swapping) (no allocation per event beyond what `Event` itself holds), so typed events
/// (an enum of small payloads) cost no reference counting. Cancellation is lazy: a cancelled entry stays in the
/// heap, remembered by insertion number and by key (a min-heap of cancelled keys tells a cancelled top with one
/// comparison), and is thrown away when `popNext` passes it on its way to a live event.
/// Time never runs backwards: scheduling before the last event taken is a programmer error. The entry `popNext`
/// returns stays at the root until the next insertion takes its place and sifts down (most handlers schedule an event,
/// often a near-term one that stops near the root) or the next pop removes it.
///
/// Far-ahead entries scheduled in increasing order wait on a *runway* instead (an array in key order): an entry due
/// at least `runwayHorizon` after the last entry taken starts it, and while it is in use, an entry that sorts after
/// its last one is appended there in O(1). Only the runway's first entry is in the heap; when it leaves the heap, the
/// next one goes in. A world that schedules its whole timeline of steps up front (hundreds of thousands at 10,000
/// clients × 1 hour) thus keeps them out of the heap, which holds what is scheduled as the run goes and stays
/// shallow and in cache; a queue of short delays (ns-3's hold model) never uses the runway. Entries keep their
/// (time, insertion number) keys wherever they wait, keys are unique, and every entry on the runway sorts after the
/// one in the heap, so the heap's top is always the first entry and events come out in the same order as from the
/// heap alone.
///
/// Because entries leave the queue in increasing (time, insertion number) order and new ones always sort after
/// the last one taken, a handle is pending exactly when it sorts after the last entry taken and was not
/// cancelled; that is how `cancel` answers without searching.
///
/// - Complexity: `schedule` and `popNext` are O(log n) (plus the cancelled entries passed over; O(1) for an entry
///   appended to the runway); `cancel` is O(log c) for c cancelled entries waiting.
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

        /// (time, sequence) as one 128-bit number with the same order (the sign bit of the time flipped), so that
        /// comparing two entries is one wide comparison without branches.
        @inlinable @inline(__always)
        var key: UInt128 { Self.key(time: time, sequence: sequence) }

        @inlinable @inline(__always)
        static func key(time: Int64, sequence: UInt64) -> UInt128 {
            UInt128(UInt64(bitPattern: time) ^ (1 << 63)) << 64 | UInt128(sequence)
        }

        @inlinable @inline(__always)
        func precedes(_ other: Entry) -> Bool { key < other.key }
    }

    @usableFromInline var heap: ContiguousArray<Entry>
    /// Runway entries not yet in the heap, in increasing key order from `runwayHead` on (taken slots are nil).
    @usableFromInline var runway: ContiguousArray<Entry?> = []
    @usableFromInline var runwayHead = 0
    /// The insertion number of the runway entry in the heap; `.max` while the runway is not in use.
    @usableFromInline var runwayFrontSequence = UInt64.max
    /// The due time of the runway's last entry (while it is in use).
    @usableFromInline var runwayTailTime: Int64 = 0
    @usableFromInline var nextSequence: UInt64 = 0
    /// Insertion numbers of cancelled entries still waiting (for `cancel`'s answer and `count`).
    @usableFromInline var cancelledSequences: Set<UInt64> = []
    /// The keys of the same cancelled entries as a binary min-heap. Every one belongs to a waiting entry, so none
    /// sorts before the heap's top, and the top is cancelled exactly when its key equals the smallest one here: one
    /// comparison per pop instead of hashing the top's insertion number into `cancelledSequences`.
    @usableFromInline var cancelledKeys: ContiguousArray<UInt128> = []
    /// The (time, insertion number) of the last live entry taken; every pending entry sorts after it.
    @usableFromInline var lastTakenTime: Int64 = .min
    @usableFromInline var lastTakenSequence: UInt64 = 0
    @usableFromInline var hasTaken = false
    /// Whether the heap's root is the entry `popNext` returned last, left in place: the next entry inserted into the
    /// heap replaces it and sifts down from the root (one pass, short for the near-term events a handler usually
    /// schedules) instead of a removal to a leaf and an insertion from the bottom; the next pop removes it if nothing
    /// replaced it. Never the runway's entry (that one is removed at once, as its successor must enter the heap).
    @usableFromInline var rootIsTaken = false

    /// How far ahead of the last entry taken an entry must be due to start the runway: one second of virtual time (a
    /// chosen figure: beyond a link's or a TCP timer's delays, short of a world's timeline steps and keep-alives).
    @inlinable
    public static var runwayHorizon: SimDuration { SimDuration(nanoseconds: 1_000_000_000) }

    /// An empty queue.
    /// - Parameter minimumCapacity: the number of pending events to reserve room for.
    @inlinable
    public init(minimumCapacity: Int = 0) {
        heap = []
        heap.reserveCapacity(minimumCapacity)
    }

    /// The number of pending (scheduled, not cancelled, not yet taken) events.
    @inlinable
    public var count: Int {
        heap.count - (rootIsTaken ? 1 : 0) + runway.count - runwayHead - cancelledSequences.count
    }

    /// Whether no event is pending.
    @inlinable
    public var isEmpty: Bool { count == 0 }

    /// When the next pending event is due, or nil when none is pending.
    /// - Complexity: O(1), or O(n) when a cancelled entry is on top.
    public var nextTime: SimInstant? {
        guard let top = heap.first else { return nil }
        if !rootIsTaken && (cancelledSequences.isEmpty || !cancelledSequences.contains(top.sequence)) {
            return SimInstant(nanosecondsSinceStart: top.time)
        }
        let waiting = Array(heap.dropFirst(rootIsTaken ? 1 : 0)) + runway[runwayHead...].map { $0.unsafelyUnwrapped }
        let live = waiting.lazy.filter { !self.cancelledSequences.contains($0.sequence) }
        return live.min { $0.precedes($1) }.map { SimInstant(nanosecondsSinceStart: $0.time) }
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
        let entry = Entry(time: nanoseconds, sequence: sequence, event: event)
        // A new entry's insertion number is the largest yet: it sorts after the runway's last entry unless it is due
        // earlier.
        if runwayFrontSequence != .max {
            guard nanoseconds >= runwayTailTime else {
                insert(entry)
                return TimerHandle(time: time, sequence: sequence)
            }
            runway.append(entry)
            runwayTailTime = nanoseconds
        } else if isFarAhead(nanoseconds) {
            runwayFrontSequence = sequence
            runwayTailTime = nanoseconds
            insert(entry)
        } else {
            insert(entry)
        }
        return TimerHandle(time: time, sequence: sequence)
    }

    /// Cancels a pending event.
    /// - Returns: true when the event was pending and will not run; false when it already ran or was cancelled.
    @discardableResult
    public mutating func cancel(_ handle: TimerHandle) -> Bool {
        guard handle.sequence < nextSequence, isPending(handle) else { return false }
        guard cancelledSequences.insert(handle.sequence).inserted else { return false }
        pushCancelledKey(Entry.key(time: handle.time.nanosecondsSinceStart, sequence: handle.sequence))
        return true
    }

    /// Whether the event of `handle` is still to run: not taken yet and not cancelled.
    public func isScheduled(_ handle: TimerHandle) -> Bool {
        handle.sequence < nextSequence && isPending(handle) && !cancelledSequences.contains(handle.sequence)
    }

    /// Removes and returns the earliest pending event (the first scheduled among equal times) if it is due at or
    /// before `deadline`; nil when none is.
    @inlinable
    public mutating func popNext(notAfter deadline: SimInstant? = nil) -> (time: SimInstant, event: Event)? {
        if rootIsTaken { dropTakenRoot() }
        let limit = deadline?.nanosecondsSinceStart ?? .max
        guard !heap.isEmpty, heap[0].time <= limit else { return nil }
        if cancelledKeys.isEmpty { return takeTop() }
        return popSkippingCancelled(notAfter: limit)
    }

    /// Takes the heap's top (live, due): marks it taken and leaves it at the root (`rootIsTaken`), unless it is the
    /// runway's entry, which is removed at once.
    @inlinable
    mutating func takeTop() -> (time: SimInstant, event: Event) {
        if heap[0].sequence == runwayFrontSequence {
            let top = removeFirst()
            markTaken(top)
            return (SimInstant(nanosecondsSinceStart: top.time), top.event)
        }
        let top = heap[0]
        markTaken(top)
        rootIsTaken = true
        return (SimInstant(nanosecondsSinceStart: top.time), top.event)
    }

    /// Removes the taken entry left at the root.
    @inlinable
    mutating func dropTakenRoot() {
        rootIsTaken = false
        _ = removeTop()
    }

    /// Puts `entry` into the heap: in place of the taken root when there is one, else from the bottom.
    @inlinable @inline(__always)
    mutating func insert(_ entry: Entry) {
        if rootIsTaken {
            rootIsTaken = false
            replaceRoot(with: entry)
        } else {
            siftUp(entry)
        }
    }

    @inlinable
    mutating func popSkippingCancelled(notAfter limit: Int64) -> (time: SimInstant, event: Event)? {
        // The usual case, a live top: taken with no list of passed-over entries made (releasing the empty list was a
        // runtime call on every event while any cancelled entry waited).
        if !heap.isEmpty, heap[0].time <= limit, cancelledKeys.isEmpty || heap[0].key != cancelledKeys[0] {
            return takeTop()
        }
        // Cancelled entries passed over are forgotten only once a live entry after them is taken, so that
        // "sorts after the last entry taken" keeps meaning "still in the heap".
        var passedOver: [Entry] = []
        while !heap.isEmpty, heap[0].time <= limit {
            if !cancelledKeys.isEmpty && heap[0].key == cancelledKeys[0] {
                passedOver.append(removeFirst())
                popCancelledKey()
                continue
            }
            for entry in passedOver { cancelledSequences.remove(entry.sequence) }
            return takeTop()
        }
        for entry in passedOver {
            pushCancelledKey(entry.key)
            siftUp(entry)
        }
        return nil
    }

    /// Checks the heap order, the runway's order and its first entry in the heap, the bookkeeping of cancelled entries
    /// and that nothing waiting is older than the last entry taken; traps when one does not hold. The simulator's
    /// debug mode calls this after every step.
    /// - Complexity: O(n).
    public func checkInvariants() {
        for index in heap.indices.dropFirst() {
            let parent = Self.parent(of: index)
            precondition(heap[parent].precedes(heap[index]), "heap order broken at index \(index)")
        }
        precondition(runway[..<runwayHead].allSatisfy { $0 == nil }, "a runway entry left behind")
        let onRunway = runway[runwayHead...].map { entry -> Entry in
            guard let entry else { preconditionFailure("a runway entry is missing") }
            return entry
        }
        if runwayFrontSequence == .max {
            precondition(onRunway.isEmpty, "runway entries wait with no runway entry in the heap")
        } else {
            guard let front = heap.first(where: { $0.sequence == runwayFrontSequence }) else {
                preconditionFailure("the runway's first entry is not in the heap")
            }
            var previous = front
            for entry in onRunway {
                precondition(previous.precedes(entry), "runway order broken at sequence \(entry.sequence)")
                previous = entry
            }
            precondition(previous.time == runwayTailTime, "the runway's last time is stale")
        }
        if rootIsTaken {
            precondition(hasTaken && heap.first.map { $0.time == lastTakenTime && $0.sequence == lastTakenSequence }
                == true, "the root left in place is not the entry taken last")
        }
        let waiting = Array(heap.dropFirst(rootIsTaken ? 1 : 0)) + onRunway
        let sequencesWaiting = Set(waiting.map(\.sequence))
        precondition(sequencesWaiting.count == waiting.count, "an entry waits twice")
        precondition(cancelledSequences.isSubset(of: sequencesWaiting), "a cancelled entry left the queue unnoticed")
        let cancelledWaiting = Set(waiting.filter { cancelledSequences.contains($0.sequence) }.map(\.key))
        precondition(cancelledKeys.count == cancelledSequences.count && Set(cancelledKeys) == cancelledWaiting,
                     "the cancelled keys are not those of the cancelled entries")
        for index in cancelledKeys.indices.dropFirst() {
            precondition(cancelledKeys[(index - 1) / 2] < cancelledKeys[index], "cancelled-key heap order broken")
        }
        for entry in waiting {
            precondition(entry.sequence < nextSequence, "an insertion number from the future")
            precondition(!hasTaken || entry.time > lastTakenTime
                || (entry.time == lastTakenTime && entry.sequence > lastTakenSequence), "an entry older than time")
        }
    }

    // MARK: - Heap and runway mechanics

    /// Whether an entry due at `nanoseconds` is at least `runwayHorizon` after the last entry taken (after time zero
    /// before any).
    @inlinable @inline(__always)
    func isFarAhead(_ nanoseconds: Int64) -> Bool {
        let reference = hasTaken ? lastTakenTime : 0
        // The difference of two Int64s is exact as a UInt64 when it is positive.
        return nanoseconds > reference
            && UInt64(bitPattern: nanoseconds &- reference) >= UInt64(Self.runwayHorizon.nanoseconds)
    }

    /// Removes and returns the heap's top, the first entry; when it was the runway's entry in the heap, moves the
    /// runway's next entry into the heap.
    @inlinable
    mutating func removeFirst() -> Entry {
        let top = removeTop()
        if top.sequence == runwayFrontSequence { advanceRunway() }
        return top
    }

    @inlinable
    mutating func advanceRunway() {
        guard runwayHead < runway.count else {
            runway.removeAll(keepingCapacity: true)
            runwayHead = 0
            runwayFrontSequence = .max
            return
        }
        let next = runway[runwayHead].take().unsafelyUnwrapped
        runwayHead += 1
        if runwayHead > 1_024 && runwayHead * 2 > runway.count {
            runway.removeFirst(runwayHead)
            runwayHead = 0
        }
        runwayFrontSequence = next.sequence
        siftUp(next)
    }

    private func isPending(_ handle: TimerHandle) -> Bool {
        guard hasTaken else { return true }
        let time = handle.time.nanosecondsSinceStart
        return time > lastTakenTime || (time == lastTakenTime && handle.sequence > lastTakenSequence)
    }

    @inlinable
    mutating func markTaken(_ entry: Entry) {
        hasTaken = true
        lastTakenTime = entry.time
        lastTakenSequence = entry.sequence
    }

    /// Adds a cancelled entry's key to the min-heap of cancelled keys (binary; keys are unique).
    @inlinable
    mutating func pushCancelledKey(_ key: UInt128) {
        cancelledKeys.append(key)
        var index = cancelledKeys.count - 1
        while index > 0 {
            let parent = (index - 1) / 2
            guard key < cancelledKeys[parent] else { break }
            cancelledKeys[index] = cancelledKeys[parent]
            index = parent
        }
        cancelledKeys[index] = key
    }

    /// Removes the smallest cancelled key.
    @inlinable
    mutating func popCancelledKey() {
        let last = cancelledKeys.removeLast()
        let count = cancelledKeys.count
        guard count > 0 else { return }
        var index = 0
        while true {
            var child = 2 * index + 1
            guard child < count else { break }
            if child + 1 < count && cancelledKeys[child + 1] < cancelledKeys[child] { child += 1 }
            guard cancelledKeys[child] < last else { break }
            cancelledKeys[index] = cancelledKeys[child]
            index = child
        }
        cancelledKeys[index] = last
    }

    /// Children of node `i` are `4i + 1 ... 4i + 4`.
    @inlinable @inline(__always)
    static func parent(of index: Int) -> Int { (index - 1) >> 2 }

    /// Appends `entry` and moves it up to its place: the parents it passes move down one level each.
    @inlinable
    mutating func siftUp(_ entry: Entry) {
        heap.append(entry)
        heap.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            var index = buffer.count - 1
            guard index > 0, entry.precedes(base[Self.parent(of: index)]) else { return }
            // The hole starts at the end: take the new entry out, move parents down into the hole, put it back.
            let moving = (base + index).move()
            while index > 0 {
                let parent = Self.parent(of: index)
                guard moving.precedes(base[parent]) else { break }
                (base + index).moveInitialize(from: base + parent, count: 1)
                index = parent
            }
            (base + index).initialize(to: moving)
        }
    }

    /// The index of the earliest of node `index`'s children in the first `count` entries at `base`, or nil for a
    /// leaf. With all four children present: a small tournament, two independent comparisons then one.
    @inlinable @inline(__always)
    static func smallestChild(of index: Int, in base: UnsafeMutablePointer<Entry>, count: Int) -> Int? {
        let first = 4 * index + 1
        if first + 3 < count {
            let left = base[first + 1].precedes(base[first]) ? first + 1 : first
            let right = base[first + 3].precedes(base[first + 2]) ? first + 3 : first + 2
            return base[right].precedes(base[left]) ? right : left
        }
        guard first < count else { return nil }
        var smallest = first
        var candidate = first + 1
        while candidate < count {
            if base[candidate].precedes(base[smallest]) { smallest = candidate }
            candidate += 1
        }
        return smallest
    }

    /// The heap size from which a step down the heap first asks for the next level's cache lines
    /// (`prefetchGrandchildren`): 8,192 entries, 192 to 256 KB, half of a 512 KB second-level cache. Below it the
    /// heap stays in cache and the hints would only cost instructions (3–8% fewer events/s at 1,000 pending, measured
    /// on the kernel benchmark's hold model).
    @inlinable
    static var prefetchThreshold: Int { 8_192 }

    /// Asks for the cache lines of node `index`'s grandchildren (`16 * index + 5 ... 16 * index + 20`, contiguous),
    /// before the comparisons among its children pick the one whose children the next step reads. Going down a heap
    /// larger than the cache, each step's loads wait on the step before; with the next level already on its way, a
    /// step costs a comparison instead of a trip to memory: +20–25% events/s at 100,000 pending in
    /// `syncsim-bench kernel`. A hint only: nothing read or written changes.
    @inlinable @inline(__always)
    static func prefetchGrandchildren(of index: Int, in base: UnsafeMutablePointer<Entry>, count: Int) {
        let first = 16 &* index &+ 5
        guard first &+ 15 < count else { return }
        let start = UnsafeRawPointer(base + first)
        let bytes = 16 &* MemoryLayout<Entry>.stride
        var offset = 0
        while offset < bytes {
            syncsim_prefetch_for_read(start + offset)
            offset &+= 64
        }
    }

    /// Replaces the root (the taken entry) with `entry`, which sorts after it, and moves `entry` down to its place: the
    /// smallest of each node's children moves up into the hole while it sorts before `entry`.
    @inlinable
    mutating func replaceRoot(with entry: Entry) {
        heap.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let count = buffer.count
            _ = base.move()
            var index = 0
            let prefetches = count > Self.prefetchThreshold
            while true {
                if prefetches { Self.prefetchGrandchildren(of: index, in: base, count: count) }
                guard let child = Self.smallestChild(of: index, in: base, count: count) else { break }
                guard base[child].precedes(entry) else { break }
                (base + index).moveInitialize(from: base + child, count: 1)
                index = child
            }
            (base + index).initialize(to: entry)
        }
    }

    /// Removes and returns the root. The hole it leaves goes down the path of smallest children to a leaf (no
    /// comparison with the entry that will fill it), then the last entry fills it from there, moving up: the last
    /// entry nearly always belongs near the bottom, so this saves a comparison per level over sifting it down.
    @inlinable
    mutating func removeTop() -> Entry {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return last }
        return heap.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let count = buffer.count
            let top = base.move()
            var index = 0
            let prefetches = count > Self.prefetchThreshold
            while true {
                if prefetches { Self.prefetchGrandchildren(of: index, in: base, count: count) }
                guard let child = Self.smallestChild(of: index, in: base, count: count) else { break }
                (base + index).moveInitialize(from: base + child, count: 1)
                index = child
            }
            while index > 0 {
                let parent = Self.parent(of: index)
                guard last.precedes(base[parent]) else { break }
                (base + index).moveInitialize(from: base + parent, count: 1)
                index = parent
            }
            (base + index).initialize(to: last)
            return top
        }
    }
}
