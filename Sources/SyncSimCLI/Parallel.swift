import Foundation

/// Runs independent work items on up to `jobs` threads and hands each result back on the calling thread.
///
/// Threads live only here, in the CLI (`syncsim-bench` borrows it), never in the simulation: each work item (one
/// simulation run) is single-threaded and shares nothing with the others. With `jobs == 1` everything runs on the
/// calling thread, no thread is started.
package enum Parallel {
    /// Computes `work(0..<count)`, calling `completed(index, value)` on the calling thread as items finish
    /// (in completion order, which varies with `jobs`; callers restore index order themselves).
    package static func run<T: Sendable>(
        count: Int,
        jobs: Int,
        work: @escaping @Sendable (Int) -> T,
        completed: (Int, T) -> Void
    ) {
        guard jobs > 1, count > 1 else {
            for index in 0..<count { completed(index, work(index)) }
            return
        }
        let board = WorkBoard<T>(count: count)
        for _ in 0..<min(jobs, count) {
            let thread = Thread {
                while let index = board.claim() { board.finish(index, work(index)) }
            }
            // Simulation runs may recurse through deep builder and checker code; be generous.
            thread.stackSize = 16 << 20
            thread.start()
        }
        var delivered = 0
        while delivered < count {
            for (index, value) in board.waitForFinished() {
                completed(index, value)
                delivered += 1
            }
        }
    }
}

/// The shared state of one `Parallel.run`: the next item to claim and finished items not yet handed back.
private final class WorkBoard<T: Sendable>: @unchecked Sendable {
    // Every field is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private let count: Int
    private var next = 0
    private var finished: [(Int, T)] = []

    init(count: Int) { self.count = count }

    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }

    func finish(_ index: Int, _ value: T) {
        condition.lock()
        finished.append((index, value))
        condition.signal()
        condition.unlock()
    }

    func waitForFinished() -> [(Int, T)] {
        condition.lock()
        defer { condition.unlock() }
        while finished.isEmpty { condition.wait() }
        let batch = finished
        finished.removeAll()
        return batch
    }
}
