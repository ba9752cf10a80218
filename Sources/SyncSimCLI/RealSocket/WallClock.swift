import SimCore

/// The real-socket drivers' clock: wall-clock time since the driver started, as the cores' `SimInstant`.
/// The only place outside the benchmarks where SyncSim reads a wall clock.
struct WallClock {
    private let start = ContinuousClock.now  // driver: wall clock allowed

    /// Time since the driver started.
    var now: SimInstant {
        let elapsed = ContinuousClock.now - start  // driver: wall clock allowed
        let (seconds, attoseconds) = elapsed.components
        return SimInstant(nanosecondsSinceStart: seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Milliseconds from now until `instant` (0 when it has passed), capped at `cap`.
    func milliseconds(until instant: SimInstant, cap: Int32) -> Int32 {
        let remaining = (instant - now).nanoseconds / 1_000_000
        return Int32(max(0, min(Int64(cap), remaining)))
    }
}
