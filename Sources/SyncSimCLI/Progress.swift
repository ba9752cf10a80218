import Foundation

/// The progress line of `syncsim run` on a terminal: runs done, failures, rate and ETA, redrawn with `\r`.
///
/// With `total` 0 the line is open-ended (`syncsim explore --budget`): runs done, failures and rate, no ETA.
///
/// Silent when the console is not interactive (CI logs, tests). Rate and ETA use the wall clock, which is fine
/// here: they are display only, outside any simulation, and never reach results.
struct Progress {
    private let total: Int
    private let isEnabled: Bool
    private let started = ContinuousClock.now
    private var done = 0
    private var failed = 0
    private var isShown = false

    init(total: Int, console: Console) {
        self.total = total
        self.isEnabled = console.isInteractive
    }

    /// Counts one finished run and redraws the line.
    mutating func record(failed runFailed: Bool, console: Console) {
        done += 1
        if runFailed { failed += 1 }
        draw(console: console)
    }

    /// Erases the line (before printing a result, and at the end).
    mutating func clear(console: Console) {
        guard isEnabled, isShown else { return }
        console.errRaw("\r\u{1B}[K")
        isShown = false
    }

    /// Draws the line again after a `clear`.
    mutating func draw(console: Console) {
        guard isEnabled, total == 0 || done < total else { return }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let line = total == 0
            ? "[\(done) runs] \(failed) failed, \(Self.format(rate)) runs/s"
            : "[\(done)/\(total)] \(failed) failed, \(Self.format(rate)) runs/s, ETA \(Self.format(eta))s"
        console.errRaw("\r\u{1B}[K" + line)
        isShown = true
    }

    private static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}
