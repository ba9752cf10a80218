/// The simulation kernel: a virtual clock and one event queue, run as a plain loop.
///
/// Like swift-nio's `EmbeddedEventLoop`, time starts at zero and moves only when the loop takes the next event;
/// events due at the same instant run in the order they were scheduled. There are no threads and no Swift
/// concurrency: `step`, `run(until:_:)` and `runUntilIdle(_:)` call the handler synchronously, and the handler
/// may schedule and cancel events (at or after `now`) while it runs.
///
/// `Event` is the world's choice: a small enum of typed events (no allocation per event) or a closure type
/// (`SimulationLoop<() -> Void>` with `run(until:)` from the extension below).
public final class SimulationLoop<Event> {
    /// The current virtual time: the due time of the event being run, or of the last one run.
    @inlinable public var now: SimInstant { currentTime }
    /// The number of events run so far.
    @inlinable public var eventsRun: Int { eventCount }

    @exclusivity(unchecked) @usableFromInline var currentTime: SimInstant = .start
    @exclusivity(unchecked) @usableFromInline var eventCount: Int = 0
    /// Debug mode: check the queue's invariants after every step (O(n) each; for tests and small runs).
    public var checksInvariantsAfterEveryStep: Bool

    // The loop is single-threaded and never hands out `inout` access to the queue across a call to the handler, so
    // the dynamic exclusivity check on each access (a thread-local access set: about a tenth of an event's cost)
    // guards nothing here.
    @exclusivity(unchecked) @usableFromInline var queue: EventQueue<Event>

    /// A loop at time zero with no events.
    /// - Parameters:
    ///   - checksInvariantsAfterEveryStep: debug mode, see the property.
    ///   - minimumCapacity: the number of pending events to reserve room for.
    public init(checksInvariantsAfterEveryStep: Bool = false, minimumCapacity: Int = 0) {
        self.checksInvariantsAfterEveryStep = checksInvariantsAfterEveryStep
        self.queue = EventQueue(minimumCapacity: minimumCapacity)
    }

    /// The number of pending events.
    public var pendingCount: Int { queue.count }

    /// When the next pending event is due, or nil when none is pending.
    public var nextEventTime: SimInstant? { queue.nextTime }

    /// Schedules `event` at `time`.
    /// - Precondition: `time >= now`.
    /// - Returns: a handle for `cancel(_:)`.
    @inlinable
    @discardableResult
    public func schedule(_ event: Event, at time: SimInstant) -> TimerHandle {
        precondition(time >= now, "event scheduled at \(time), before now (\(now))")
        return queue.schedule(event, at: time)
    }

    /// Schedules `event` after `delay` (zero or more) from `now`.
    /// - Returns: a handle for `cancel(_:)`.
    @inlinable
    @discardableResult
    public func schedule(_ event: Event, after delay: SimDuration) -> TimerHandle {
        precondition(delay.nanoseconds >= 0, "negative delay \(delay)")
        return queue.schedule(event, at: now + delay)
    }

    /// Cancels a pending event. - Returns: whether it was pending (false if it already ran or was cancelled).
    @discardableResult
    public func cancel(_ handle: TimerHandle) -> Bool { queue.cancel(handle) }

    /// Whether the event of `handle` is still to run (not run yet, not cancelled).
    public func isScheduled(_ handle: TimerHandle) -> Bool { queue.isScheduled(handle) }

    /// Takes the next event, advances `now` to its due time and passes it to `handler`.
    /// - Returns: false when no event was pending.
    @inlinable
    @discardableResult
    public func step(_ handler: (Event) throws -> Void) rethrows -> Bool {
        try step(notAfter: nil, handler)
    }

    @inlinable @inline(__always)
    func step(notAfter deadline: SimInstant?, _ handler: (Event) throws -> Void) rethrows -> Bool {
        guard let (time, event) = queue.popNext(notAfter: deadline) else { return false }
        currentTime = time
        eventCount += 1
        try handler(event)
        if checksInvariantsAfterEveryStep { checkInvariants() }
        return true
    }

    /// Runs every event due at or before `deadline`, in order, then sets `now` to `deadline`.
    /// - Precondition: `deadline >= now`.
    @inlinable
    public func run(until deadline: SimInstant, _ handler: (Event) throws -> Void) rethrows {
        precondition(deadline >= now, "deadline \(deadline) is before now (\(now))")
        while try step(notAfter: deadline, handler) {}
        currentTime = deadline
    }

    /// Runs events until none is pending or `maximumEvents` have run in this call.
    /// - Returns: the number of events run.
    @inlinable
    @discardableResult
    public func runUntilIdle(maximumEvents: Int = .max, _ handler: (Event) throws -> Void) rethrows -> Int {
        var count = 0
        while count < maximumEvents {
            guard try step(notAfter: nil, handler) else { break }
            count += 1
        }
        return count
    }

    /// Checks the queue's invariants and that nothing pending is due before `now`; traps when one fails.
    public func checkInvariants() {
        queue.checkInvariants()
        if let next = queue.nextTime { precondition(next >= now, "pending event due at \(next), before now") }
    }
}

extension SimulationLoop where Event == () -> Void {
    /// Runs every closure due at or before `deadline` (see `run(until:_:)`).
    public func run(until deadline: SimInstant) { run(until: deadline) { $0() } }

    /// Runs closures until none is pending (see `runUntilIdle(maximumEvents:_:)`).
    @discardableResult
    public func runUntilIdle(maximumEvents: Int = .max) -> Int { runUntilIdle(maximumEvents: maximumEvents) { $0() } }
}
