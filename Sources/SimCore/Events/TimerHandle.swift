/// Names one scheduled event so it can be cancelled before it runs.
///
/// A handle is the event's position in the queue's total order: its virtual time and its insertion number.
/// Handles are plain values; holding one keeps nothing alive.
public struct TimerHandle: Hashable, Sendable, CustomStringConvertible {
    /// When the event is due.
    public let time: SimInstant
    /// The event's insertion number: unique per queue, increasing in scheduling order.
    public let sequence: UInt64

    /// A handle for the entry scheduled at `time` with insertion number `sequence`.
    @inlinable
    public init(time: SimInstant, sequence: UInt64) {
        self.time = time
        self.sequence = sequence
    }

    /// `timer#7@1.500s`.
    public var description: String { "timer#\(sequence)@\(time)" }
}
