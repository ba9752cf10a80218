#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM held for `serve`'s loop: while it runs they are blocked on its thread, and the loop asks between
/// two polls (at most 100 ms apart) whether one is pending, then ends as its `--duration` would: the summary is printed
/// and the exit code is 0. Without this, `kill PID` ended serve at once with 143 and no summary.
/// A driver's own state (the real-socket mode), never a simulation's.
struct StopSignals {
    private var watched = sigset_t()
    private var previous = sigset_t()

    /// Blocks SIGINT and SIGTERM on the calling thread until `restore()`.
    init() {
        sigemptyset(&watched)
        sigaddset(&watched, SIGINT)
        sigaddset(&watched, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &watched, &previous)
    }

    /// The name of a stop signal that arrived (and is now taken), or nil; never waits.
    mutating func take() -> String? {
        var none = timespec(tv_sec: 0, tv_nsec: 0)
        let signal = sigtimedwait(&watched, nil, &none)
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        default: return nil
        }
    }

    /// Unblocks the signals as they were before `init()`; one still pending is then delivered as usual.
    mutating func restore() { pthread_sigmask(SIG_SETMASK, &previous, nil) }
}
