import Foundation
import SyncSim

/// `syncsim-bench kernel [N] [K]`: event queue throughput, bare and through the simulation loop, beside ns-3.
///
/// The workload is ns-3's scheduler benchmark as in tools/ns3/events.cc: K events pending; each event taken
/// schedules one more at a pseudo-random delay of 1 ns to 1 ms; stop when N have run. Without K it runs K = 1,000
/// and K = 100,000. Rates are per second of processor time (the thread's CPU clock), so that a shared machine
/// slows both sides alike; wall-clock rates are printed beside them. ns-3 runs in the same invocation when its
/// program is built (tools/ns3/build-events.sh, to /tmp/ns3-events or `$NS3_EVENTS`); otherwise the stored figure
/// below is used and the output says so. Goals (issue 16): typed loop ≥ 3× ns-3 at 1,000 pending, ≥ 5× at 100,000.
enum KernelBenchmark {
    static var benchmark: Benchmark { Benchmark(
        name: "kernel",
        summary: "event queue events/s, bare and via SimulationLoop, beside ns-3 (args: [N] [K], default 2000000, "
            + "K 1000 and 100000)",
        check: { _ = try parse($0) },
        run: run
    ) }

    enum Event { case tick(UInt32) }

    /// ns-3 3.37 (Debian libns3-dev, default scheduler) on tools/ns3/events.cc, events per CPU second, measured on
    /// the 2-core development machine on 2026-11-30 (N = 1,000,000 at K = 1,000; N = 300,000 at K = 100,000).
    static let storedNS3EventsPerSecond: [Int: Double] = [1_000: 6.23e6, 100_000: 0.97e6]
    /// The goal for the typed loop's ratio to ns-3, by pending count.
    static let goals: [Int: Double] = [1_000: 3, 100_000: 5]

    struct Timing {
        var cpuSeconds: Double
        var wallSeconds: Double
    }

    /// `[N] [K]`: the events to run, and the pending count (both 1,000 and 100,000 without K).
    /// - Throws: `BenchmarkUsageError` for an option, a value out of range or an extra argument.
    static func parse(_ arguments: [String]) throws -> (count: Int, pendingCounts: [Int]) {
        var parsed = BenchmarkArguments(arguments, benchmark: "kernel")
        try parsed.finishOptions(positionals: ["N", "K"])
        let count = try parsed.integer(0, "N", default: 2_000_000, in: 1...Int(Int32.max))
        let pendingCounts = parsed.positionalCount > 1
            ? [try parsed.integer(1, "K", default: 1_000, in: 1...10_000_000)] : [1_000, 100_000]
        return (count, pendingCounts)
    }

    static func run(_ arguments: [String]) throws {
        let (count, pendingCounts) = try parse(arguments)
        for pending in pendingCounts {
            try runOnce(count: count, pending: pending)
        }
    }

    static func runOnce(count: Int, pending: Int) throws {
        print("kernel: N=\(count) events, K=\(pending) pending, delays 1 ns..1 ms (xoshiro256**); "
            + "M events per CPU second (per wall second)")

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
        report("bare EventQueue", count: count, bare)

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
        report("SimulationLoop, typed events", count: count, looped)

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
        report("SimulationLoop, closures", count: count, closures)
        print("  (checksum \(checksum & 0xFFFF))")

        // 4. ns-3 on the same workload, in this run when its program is there.
        let typedRate = Double(count) / looped.cpuSeconds
        let bareRate = Double(count) / bare.cpuSeconds
        let ns3: (rate: Double, source: String)
        if let measured = runNS3(count: count, pending: pending) {
            ns3 = (measured, "measured now")
        } else if let stored = storedNS3EventsPerSecond[pending] {
            ns3 = (stored, "ns-3 program not found (tools/ns3/build-events.sh): STORED figure from 2026-11-30")
        } else {
            print("  ns-3: program not found (tools/ns3/build-events.sh) and no stored figure for K=\(pending)")
            return
        }
        print(String(format: "  %@ %7.2f M events/s  (%@)", "ns-3 3.37 scheduler".padding(
            toLength: 30, withPad: " ", startingAt: 0), ns3.rate / 1e6, ns3.source))
        let goal = goals[pending].map { String(format: " (goal ≥ %.0f×: %@)", $0, typedRate / ns3.rate >= $0
            ? "met" : "MISSED") } ?? ""
        print(String(format: "  ratio to ns-3: typed loop %.2f×%@, bare queue %.2f×", typedRate / ns3.rate, goal,
                     bareRate / ns3.rate))
    }

    /// Runs tools/ns3/events.cc's program (`$NS3_EVENTS`, else /tmp/ns3-events) and returns its events per CPU
    /// second; nil when it is absent or says something else.
    static func runNS3(count: Int, pending: Int) -> Double? {
        let path = ProcessInfo.processInfo.environment["NS3_EVENTS"] ?? "/tmp/ns3-events"
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [String(count), String(pending)]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        for line in output.split(separator: "\n") where line.hasPrefix("ns-3 scheduler cpu:") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let number = line[line.index(after: equals)...].split(separator: " ").first.flatMap { Double($0) }
            return number
        }
        return nil
    }

    @inline(__always)
    static func delay(_ generator: inout SeededGenerator) -> Int64 { Int64(1 + generator.next() % 1_000_000) }

    /// The processor time of this thread and the wall time `body` took.
    static func measure(_ body: () -> Void) -> Timing {
        func cpuNow() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
        }
        let cpuStart = cpuNow()
        let elapsed = ContinuousClock().measure(body)
        let (seconds, attoseconds) = elapsed.components
        return Timing(cpuSeconds: cpuNow() - cpuStart, wallSeconds: Double(seconds) + Double(attoseconds) * 1e-18)
    }

    static func report(_ label: String, count: Int, _ timing: Timing) {
        let rate = Double(count) / timing.cpuSeconds / 1e6
        let wallRate = Double(count) / timing.wallSeconds / 1e6
        print("  \(label.padding(toLength: 30, withPad: " ", startingAt: 0)) "
            + String(format: "%7.2f M events/s  (%.2f wall; %.3f s CPU)", rate, wallRate, timing.cpuSeconds))
    }
}
