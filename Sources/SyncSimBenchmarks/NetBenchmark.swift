import Foundation
import SyncSim

/// `syncsim-bench net [CLIENTS] [MINUTES]`: one simulated hour of 1,000 EDGE clients holding a connection.
///
/// Each client connects to one server, pings every 30 s (32 bytes up, 32 bytes back), and the server pushes
/// 300 bytes to it every 2 to 5 minutes. Prints wall time, simulated/wall ratio, kernel events/s and peak memory.
enum NetBenchmark {
    static var benchmark: Benchmark { Benchmark(
        name: "net",
        summary: "1,000 EDGE clients, 30 s pings and pushes, one simulated hour (args: [CLIENTS] [MINUTES])",
        check: { _ = try parse($0) },
        run: run
    ) }

    /// `[CLIENTS] [MINUTES]`.
    /// - Throws: `BenchmarkUsageError` for an option, a value out of range or an extra argument.
    static func parse(_ arguments: [String]) throws -> (clients: Int, minutes: Int64) {
        var parsed = BenchmarkArguments(arguments, benchmark: "net")
        try parsed.finishOptions(positionals: ["CLIENTS", "MINUTES"])
        return (try parsed.integer(0, "CLIENTS", default: 1_000, in: 1...1_000_000),
                Int64(try parsed.integer(1, "MINUTES", default: 60, in: 1...100_000)))
    }

    static func run(_ arguments: [String]) throws {
        let (clientCount, minutes) = try parse(arguments)
        let network = Network(seed: 1, trace: TraceLog(isEnabled: false))
        let server = network.addHost(named: "server", link: .datacenter)
        var generator = RandomStreams(runSeed: 1).stream("bench.world")
        var sockets: [SocketID] = []
        var pongs = 0
        var pushesReceived = 0
        var bytesAtServer = 0
        network.eventHandler = { event in
            guard case .received(let bytes) = event.kind else { return }
            if event.host == server {
                bytesAtServer += bytes.count
                network.send(Array(repeating: 0x50, count: 32), on: event.socket)
            } else if bytes.count >= 300 {
                pushesReceived += 1
            } else {
                pongs += 1
            }
        }
        for index in 0..<clientCount {
            let phone = network.addHost(named: "phone\(index)", link: .edge)
            let socket = network.connect(from: phone, to: server)
            sockets.append(socket)
            let offset = SimDuration(nanoseconds: Int64(generator.next() % 30_000_000_000))
            func ping() {
                network.send(Array(repeating: 0x49, count: 32), on: socket)
                network.schedule(after: .milliseconds(30_000), ping)
            }
            network.schedule(after: offset, ping)
            func push() {
                network.send(Array(repeating: 0x55, count: 300), on: socket.peer)
                network.schedule(after: .seconds(Int64(120 + generator.next() % 180)), push)
            }
            network.schedule(after: .seconds(Int64(10 + generator.next() % 180)), push)
        }
        let simulated = SimDuration.minutes(minutes)
        let wall = KernelBenchmark.measure { network.run(until: .start + simulated) }.wallSeconds
        let open = sockets.filter { network.state(of: $0) == .open }.count
        var usage = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        print("net: \(clientCount) EDGE clients, \(minutes) simulated minutes, 30 s pings, pushes every 2-5 min")
        print("  wall time         \(String(format: "%.3f", wall)) s")
        print("  simulated/wall    \(String(format: "%.0f", simulated.seconds / wall))x")
        let rate = String(format: "%.2f", Double(network.eventsRun) / wall / 1e6)
        print("  kernel events     \(network.eventsRun) (\(rate) M events/s)")
        print("  peak memory       \(usage.ru_maxrss / 1_024) MiB (max RSS)")
        print("  open connections  \(open)/\(clientCount); pongs \(pongs), pushes \(pushesReceived), "
            + "bytes at server \(bytesAtServer)")
    }
}
