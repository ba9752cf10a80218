import Foundation
import SyncSim

/// `syncsim-bench kernel [N] [K]`: event queue throughput, bare and through the simulation loop.
///
/// The workload is ns-3's scheduler benchmark as in tools/ns3/events.cc: K events pending; each event taken
/// schedules one more at a pseudo-random delay of 1 ns to 1 ms; stop when N have run. ns-3 3.37 does about
/// 4.9 M events/s with 1,000 pending on the reference machine.
enum KernelBenchmark {
    static var benchmark: Benchmark { Benchmark(
        name: "kernel",
        summary: "event queue: schedule+pop events/s, bare and via SimulationLoop (args: N K, default 10000000 1000)",
        run: run
    ) }

    enum Event { case tick(UInt32) }

    static func run(_ arguments: [String]) throws {
        let parsed = BenchmarkArguments(arguments, benchmark: "kernel")
        try parsed.expectAtMost(2)
        let count = try parsed.integer(0, "N", default: 10_000_000, in: 1...Int(Int32.max))
        let pending = try parsed.integer(1, "K", default: 1_000, in: 1...10_000_000)
        print("kernel: N=\(count) events, K=\(pending) pending, delays 1 ns..1 ms (xoshiro256**)")

        // 1. The bare queue.
        var generator = SeededGenerator(seed: 1)
        var queue = EventQueue<UInt32>(minimumCapacity: pending)
        for index in 0..<pending {
            queue.schedule(UInt32(truncatingIfNeeded: index), at: SimInstant(nanosecondsSinceStart: delay(&generator)))
        }
        var checksum: UInt64 = 0
        let bare = measure {
            for _ in 0..<count {
                let (time, event) = queue.popNext()!
                checksum &+= UInt64(event)
                queue.schedule(event, at: time + SimDuration(nanoseconds: delay(&generator)))
            }
        }
        report("bare EventQueue", count: count, seconds: bare)

        // 2. Through the loop: typed events, a handler that schedules the next one.
        let loop = SimulationLoop<Event>(minimumCapacity: pending)
        generator = SeededGenerator(seed: 1)
        for index in 0..<pending {
            loop.schedule(.tick(UInt32(truncatingIfNeeded: index)), after: SimDuration(nanoseconds: delay(&generator)))
        }
        let looped = measure {
            loop.runUntilIdle(maximumEvents: count) { event in
                guard case .tick(let number) = event else { return }
                checksum &+= UInt64(number)
                loop.schedule(.tick(number), after: SimDuration(nanoseconds: delay(&generator)))
            }
        }
        report("SimulationLoop, typed events", count: count, seconds: looped)

        // 3. Through the loop with closures (one allocation per event: the captured context).
        let closureLoop = SimulationLoop<() -> Void>(minimumCapacity: pending)
        generator = SeededGenerator(seed: 1)
        var remaining = count
        func tick() {
            remaining -= 1
            if remaining > 0 { closureLoop.schedule(tick, after: SimDuration(nanoseconds: delay(&generator))) }
        }
        for _ in 0..<pending { closureLoop.schedule(tick, after: SimDuration(nanoseconds: delay(&generator))) }
        let closures = measure { closureLoop.runUntilIdle(maximumEvents: count) }
        report("SimulationLoop, closures", count: count, seconds: closures)
        print("(checksum \(checksum & 0xFFFF); ns-3 3.37 reference: ~4.9 M events/s with 1,000 pending)")
    }

    @inline(__always)
    static func delay(_ generator: inout SeededGenerator) -> Int64 { Int64(1 + generator.next() % 1_000_000) }

    static func measure(_ body: () -> Void) -> Double {
        let elapsed = ContinuousClock().measure(body)
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    static func report(_ label: String, count: Int, seconds: Double) {
        let rate = Double(count) / seconds / 1e6
        print("  \(label.padding(toLength: 30, withPad: " ", startingAt: 0)) \(String(format: "%7.3f", seconds)) s  "
            + "\(String(format: "%6.2f", rate)) M events/s")
    }
}
