import Foundation
import SyncClient
import SyncSim

/// `syncsim-bench scale`: the same full-engine workload (engine, SQLite, server, checks) at growing client counts.
///
/// Workload per size N: N clients on a mix of 3G, 4G and WiFi links, in N/10 group chats of ten; every client sends
/// a text to its chat every `--send-every` seconds (180 by default), at an offset spread over the interval; clients
/// ping every 30 s (the engine's default, DESIGN.md §3); 1% of the clients lose their link for 30 s once an hour
/// (an outage, no reset), at an offset spread over the hour; the last minute is quiet, so the end-of-run checks see
/// a settled world. Every invariant is checked after every event (`--check-every N`: the per-event checks after
/// every Nth client and server event only, to see what the checks cost; the end-of-run checks still run). The run
/// does not stop at quiescence.
///
/// Prints per size: wall time (world build and run apart), simulated:wall ratio, kernel events/s, peak RSS, bytes
/// per client (after the build, and at the end); then the growth of wall time per simulated second between sizes,
/// against the goal (10k clients × 1 h in ≤ 30 s, growth 1k → 10k ≤ 12×).
enum ScaleBenchmark {
    static var benchmark: Benchmark {
        Benchmark(
            name: "scale",
            summary: "N full clients in chats of ten for T minutes (--runs 1000:60,10000:60,100000:10 "
                + "--send-every 180 --seed 1 --check-every 1)",
            check: { _ = try parse($0) },
            run: run)
    }

    struct Plan {
        var clients: Int
        var minutes: Int
    }

    struct Figures {
        var plan: Plan
        var buildSeconds: Double
        var runSeconds: Double
        /// Processor time (user + system) of build and run: on a shared machine, the time one core would take.
        var cpuSeconds: Double
        /// Resident bytes after returning free heap pages, after the build and at the end.
        var heapAfterBuild: Int
        var heapAtEnd: Int
        var heapBaseline: Int
        /// The client databases' bytes on SQLite's heap (`World.clientDatabaseBytes`), after the build and at the
        /// end.
        var sqliteAfterBuild: Int
        var sqliteAtEnd: Int
        var violationSamples: [String]
        var events: Int
        var violations: Int
        var peakBytes: Int
        var bytesAfterBuild: Int
        var bytesAtEnd: Int
        var baselineBytes: Int

        var totalSeconds: Double { buildSeconds + runSeconds }
        var simulatedSeconds: Double { Double(plan.minutes * 60) }
        /// Processor seconds per simulated second, build included.
        var cpuPerSimulated: Double { cpuSeconds / simulatedSeconds }
    }

    /// What one `scale` invocation runs.
    struct Options {
        var plans: [Plan]
        var sendEverySeconds: Int
        var seed: UInt64
        /// The per-event checks run after every Nth client or server event (1: every event, the default).
        var checkEvery: Int
    }

    /// `[--runs CLIENTS:MINUTES,...] [--send-every SECONDS] [--seed N] [--check-every N]`.
    /// - Throws: `BenchmarkUsageError` for an unknown option, a missing or malformed value, or an extra argument.
    static func parse(_ arguments: [String]) throws -> Options {
        var parsed = BenchmarkArguments(arguments, benchmark: "scale")
        var plans = [Plan(clients: 1_000, minutes: 60), Plan(clients: 10_000, minutes: 60),
                     Plan(clients: 100_000, minutes: 10)]
        if let value = try parsed.value(of: "--runs") {
            plans = try value.split(separator: ",", omittingEmptySubsequences: false).map { item in
                let parts = item.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2, let clients = Int(parts[0]), let minutes = Int(parts[1]),
                      (10...1_000_000).contains(clients), (1...10_000).contains(minutes) else {
                    throw BenchmarkUsageError(
                        "option --runs: expected CLIENTS:MINUTES,... (10...1000000 clients, 1...10000 minutes), "
                            + "got '\(item)'")
                }
                return Plan(clients: clients, minutes: minutes)
            }
        }
        let sendEverySeconds = try parsed.integer(option: "--send-every", in: 1...86_400) ?? 180
        let checkEvery = try parsed.integer(option: "--check-every", in: 1...1_000_000) ?? 1
        var seed: UInt64 = 1
        if let value = try parsed.value(of: "--seed") {
            guard let number = UInt64(value) else {
                throw BenchmarkUsageError("option --seed: expected an integer in 0...\(UInt64.max), got '\(value)'")
            }
            seed = number
        }
        try parsed.finishOptions()
        return Options(plans: plans, sendEverySeconds: sendEverySeconds, seed: seed, checkEvery: checkEvery)
    }

    static func run(_ arguments: [String]) throws {
        let options = try parse(arguments)
        let checks = options.checkEvery == 1
            ? "all invariants, every event" : "all invariants, every \(options.checkEvery)th event (not the goal's workload)"
        print("scale: chats of 10, a send every \(options.sendEverySeconds) s per client, pings every 30 s, "
            + "1% of clients lose their link for 30 s each hour; \(checks); seed \(options.seed); "
            + "release build, one thread")
        var results: [Figures] = []
        for plan in options.plans {
            let figures = try measure(plan, sendEverySeconds: options.sendEverySeconds, seed: options.seed,
                                      checkEvery: options.checkEvery)
            results.append(figures)
            print(line(figures))
            fflush(nil)
        }
        printGrowth(results, checksEveryEvent: options.checkEvery == 1)
    }

    /// The scenario of one size: clients `c0000001`..., chats `g000001`... of ten consecutive clients.
    static func scenario(clients count: Int, minutes: Int, sendEverySeconds: Int) -> Scenario {
        var scenario = Scenario("scale-\(count)", summary: "scale benchmark workload", seeds: [1],
                                runLength: .minutes(Int64(minutes))) {
            Server()
            Expect { Invariants(.all) }
        }
        let profiles: [ProfileName] = [.threeG, .fourG, .wifi]
        let names = (0..<count).map { (index: Int) -> String in "c" + String(String(10_000_000 + index).dropFirst()) }
        scenario.clients = names.indices.map { ClientSpec(name: names[$0], profile: profiles[$0 % profiles.count]) }
        let chatCount = (count + 9) / 10
        scenario.chats = (0..<chatCount).map { (chat: Int) -> ChatSpec in
            let name = "g" + String(String(10_000_000 + chat).dropFirst())
            let first = chat * 10
            let members = Array(names[first..<min(count, first + 10)])
            return ChatSpec(name: name, members: members)
        }
        // The last minute is quiet, so that what was sent has arrived when the end-of-run checks (T5, V1) look.
        let runMilliseconds = Int64(minutes) * 60_000 - 60_000
        let intervalMilliseconds = Int64(sendEverySeconds) * 1_000
        var steps: [(Int64, Int, Action)] = []
        for (index, name) in names.enumerated() {
            let chat = scenario.chats[index / 10].name
            // A spread of offsets that does not line clients up: a multiplicative hash of the index.
            var at = 5_000 + Int64((UInt64(index) &* 2_654_435_761) % UInt64(intervalMilliseconds))
            var number = 1
            while at < runMilliseconds {
                steps.append((at, steps.count, .sendText(client: name, chat: chat, text: "\(name) #\(number)")))
                at += intervalMilliseconds
                number += 1
            }
            if index % 100 == 50 {
                let hourMilliseconds: Int64 = 3_600_000
                var down = Int64((UInt64(index) &* 40_503) % UInt64(hourMilliseconds - 40_000)) + 10_000
                while down < runMilliseconds {
                    steps.append((down, steps.count,
                                  .outage(client: name, duration: .seconds(Int64(30)), mode: .silently)))
                    down += hourMilliseconds
                }
            }
        }
        steps.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        scenario.steps = steps.map { Step(timing: .at(.milliseconds($0.0)), action: $0.2, location: .generated) }
        return scenario
    }

    static func measure(_ plan: Plan, sendEverySeconds: Int, seed: UInt64, checkEvery: Int = 1) throws -> Figures {
        let scenario = scenario(clients: plan.clients, minutes: plan.minutes, sendEverySeconds: sendEverySeconds)
        resetPeakResidentBytes()
        let baseline = residentBytes()
        let heapBaseline = heapBytesInUse()
        let cpuStart = processorSeconds()
        let clock = ContinuousClock()
        let buildStart = clock.now
        let world = try World(scenario: scenario, seed: seed, checkSampling: checkEvery)
        world.stopsWhenQuiescent = false
        let buildSeconds = (clock.now - buildStart).inSeconds
        let afterBuild = residentBytes()
        let heapAfterBuild = heapBytesInUse()
        let sqliteAfterBuild = world.clientDatabaseBytes
        // A long run says where it is: the build's figures before the simulation starts.
        print(String(format: "  %7d clients: world built in %.2f s wall (%.2f s CPU so far), %.1f KB per client "
                        + "(SQLite %.1f KB)", plan.clients, buildSeconds, processorSeconds() - cpuStart,
                     Double(heapAfterBuild - heapBaseline) / Double(plan.clients) / 1_024,
                     Double(sqliteAfterBuild) / Double(plan.clients) / 1_024))
        fflush(nil)
        let runStart = clock.now
        let result = world.run(progress: progressReporter(plan, world: world, cpuStart: cpuStart))
        let runSeconds = (clock.now - runStart).inSeconds
        let cpuSeconds = processorSeconds() - cpuStart
        return Figures(
            plan: plan, buildSeconds: buildSeconds, runSeconds: runSeconds, cpuSeconds: cpuSeconds,
            heapAfterBuild: heapAfterBuild, heapAtEnd: heapBytesInUse(), heapBaseline: heapBaseline,
            sqliteAfterBuild: sqliteAfterBuild, sqliteAtEnd: world.clientDatabaseBytes,
            violationSamples: result.violations.prefix(3).map { String(describing: $0).prefix(300).description },
            events: world.network.eventsRun,
            violations: result.violations.count, peakBytes: peakResidentBytes(), bytesAfterBuild: afterBuild,
            bytesAtEnd: residentBytes(), baselineBytes: baseline)
    }

    /// A long run's progress on standard error: at each tenth of the simulated time, once at least
    /// `progressIntervalCPUSeconds` of processor time passed since the last line (a run shorter than that prints
    /// none). Standard output keeps only the figures.
    static func progressReporter(_ plan: Plan, world: World, cpuStart: Double) -> (SimInstant) -> Void {
        let tenthNanoseconds = Int64(plan.minutes) * 6_000_000_000
        var nextTenth = 1
        var lastLineCPU = cpuStart
        return { now in
            guard now.nanosecondsSinceStart >= Int64(nextTenth) * tenthNanoseconds else { return }
            nextTenth = Int(now.nanosecondsSinceStart / tenthNanoseconds) + 1
            // The run's end has its own line of figures.
            guard nextTenth <= 10 else { return }
            let cpu = processorSeconds()
            guard cpu - lastLineCPU >= progressIntervalCPUSeconds else { return }
            lastLineCPU = cpu
            let line = String(format: "  %7d clients: %.1f of %d simulated min, %.1f s CPU so far, %d events\n",
                              plan.clients, Double(now.nanosecondsSinceStart) / 60e9, plan.minutes, cpu - cpuStart,
                              world.network.eventsRun)
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// The least processor time between two progress lines of one run.
    static let progressIntervalCPUSeconds = 10.0

    static func line(_ figures: Figures) -> String {
        let clients = Double(figures.plan.clients)
        let simulatedToWall = figures.simulatedSeconds / figures.totalSeconds
        let eventsPerSecond = Double(figures.events) / max(figures.runSeconds, 1e-9)
        func perClient(_ bytes: Int, _ baseline: Int) -> Double { Double(bytes - baseline) / clients / 1_024 }
        var text = String(
            format: "  %7d clients × %4d min: wall %7.2f s (build %.2f + run %.2f), CPU %7.2f s, "
                + "simulated:wall %6.1f, %5.2f M events/s (%d events), peak RSS %6.0f MB, %d violations\n",
            figures.plan.clients, figures.plan.minutes, figures.totalSeconds, figures.buildSeconds,
            figures.runSeconds, figures.cpuSeconds, simulatedToWall, eventsPerSecond / 1e6, figures.events,
            Double(figures.peakBytes) / 1_048_576, figures.violations)
        text += String(
            format: "           per client: %5.1f KB after build (SQLite %5.1f KB), %5.1f KB at end "
                + "(SQLite %5.1f KB); without trimming free heap pages %5.1f KB after build, %5.1f KB at end",
            perClient(figures.heapAfterBuild, figures.heapBaseline),
            perClient(figures.sqliteAfterBuild, 0),
            perClient(figures.heapAtEnd, figures.heapBaseline),
            perClient(figures.sqliteAtEnd, 0),
            perClient(figures.bytesAfterBuild, figures.baselineBytes),
            perClient(figures.bytesAtEnd, figures.baselineBytes))
        for sample in figures.violationSamples { text += "\n           violation: \(sample)" }
        return text
    }

    /// Growth between sizes and the 10k hour against the goals; with sampled checks the figures are printed but not
    /// judged (the goal's workload checks every event).
    static func printGrowth(_ results: [Figures], checksEveryEvent: Bool = true) {
        // Growth only between neighbouring runs of different sizes: two runs of one size (say 1000:20 then 1000:10)
        // have no growth to judge, and a "1000 -> 1000 (goal ≤ 1×)" line read as a missed goal.
        for (smaller, larger) in zip(results, results.dropFirst()) where smaller.plan.clients != larger.plan.clients {
            let sizeRatio = Double(larger.plan.clients) / Double(smaller.plan.clients)
            let growth = larger.cpuPerSimulated / smaller.cpuPerSimulated
            let goal = sizeRatio * 1.2
            print(String(
                format: "  growth %d -> %d clients (%.0f×): CPU per simulated second ×%.2f (goal ≤ %.0f×: %@)",
                smaller.plan.clients, larger.plan.clients, sizeRatio, growth, goal,
                !checksEveryEvent ? "not judged, sampled checks" : growth <= goal ? "met" : "MISSED"))
        }
        for figures in results where figures.plan.clients == 10_000 && figures.plan.minutes == 60 {
            print(String(format: "  10k clients × 1 h: %.2f s of CPU, %.2f s wall (goal ≤ 30 s on one core: %@)",
                         figures.cpuSeconds, figures.totalSeconds,
                         !checksEveryEvent ? "not judged, sampled checks" : figures.cpuSeconds <= 30 ? "met" : "MISSED"))
        }
    }

    // MARK: - Memory (Linux /proc)

    /// The resident set size now, from /proc/self/statm (0 where it cannot be read).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The peak resident set size since the last reset (VmHWM in /proc/self/status; 0 where it cannot be read).
    static func peakResidentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let number = line.dropFirst(6).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 0
            return number * 1_024
        }
        return 0
    }

    /// The resident set size after glibc's `malloc_trim(0)` returned the pages free chunks hold, so that what an
    /// earlier, freed world left behind does not blur the next figure.
    static func heapBytesInUse() -> Int {
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        return residentBytes()
    }

    /// User plus system processor time of this process so far, in seconds.
    static func processorSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Resets VmHWM to the current RSS (Linux: writing 5 to /proc/self/clear_refs), so each size's peak is its own.
    static func resetPeakResidentBytes() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}

extension Duration {
    fileprivate var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
