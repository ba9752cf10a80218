import Foundation
import SimCore
import SyncSim
import SyncTrace
import Testing

@testable import SyncSimCLI

/// `syncsim replay` and `syncsim run --pcap` on captures the simulator wrote (Fixtures/replay/).
@Suite struct ReplayCommandTests {
    static let offlineSends = TraceDecodeCommandTests.fixture("replay/offline-sends-in-order-seed341.pcapng")
    static let clockSkew = TraceDecodeCommandTests.fixture("replay/clock-skew-last-sync-seed1.pcapng")

    static func run(_ arguments: [String]) -> (code: Int32, out: [String], err: String) {
        TraceDecodeCommandTests.run(arguments)
    }

    @Test("run --pcap writes one run's capture, which decode reads back")
    func runWritesCapture() throws {
        let path = NSTemporaryDirectory() + "syncsim-run-pcap-\(ProcessInfo.processInfo.processIdentifier).pcapng"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = Self.run(["run", "offline-sends-in-order", "--seed", "341", "--pcap", path])
        #expect(result.code == 0)
        #expect(result.out.first == "PASS  offline-sends-in-order  seed 341  digest ce964e5b20544224")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.prefix(4) == [0x0A, 0x0D, 0x0D, 0x0A])
        #expect(bytes == (try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.offlineSends)))),
                "the capture is deterministic: the fixture was written by this same command")
    }

    @Test("replay --run names the scenario after its content: a copy of the capture under another name, same digests")
    func replayRunDigestIgnoresFileName() throws {
        let directory = NSTemporaryDirectory() + "syncsim-replay-name-\(UUID().uuidString)/"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "field capture, renamed.cap"
        try FileManager.default.copyItem(atPath: Self.offlineSends, toPath: copy)
        // `--random 1` too: random seeds are drawn by scenario name.
        let original = Self.run(["replay", Self.offlineSends, "--run", "--random", "1"])
        let renamed = Self.run(["replay", copy, "--run", "--random", "1"])
        #expect(original.code == 0 && renamed.code == 0, "\(original.err) \(renamed.err)")
        #expect(original.out.first == "PASS  replayed-d7719ca9  seed 1  digest ce34ee7dbb46cebc")
        #expect(original.out.count == 3)
        #expect(renamed.out == original.out)
        #expect(renamed.err.contains("note: \(copy) runs as scenario replayed-d7719ca9, named after its content"))
        // The same scenario emitted under that name and run as `run` would: the same digest.
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: copy))
        let emitted = ReplayScenarioEmitter(timeline: timeline, model: ReplayWorldModel(timeline))
            .emission(named: "replayed-d7719ca9").scenario
        let result = WorldExecutor().run(emitted, seed: 1, options: RunOptions())
        #expect(FNV1a64.hex(result.digest) == "ce34ee7dbb46cebc")
        // A name given with --emit-scenario is the scenario's name, as in a catalog, and in its digest.
        let named = Self.run(["replay", copy, "--run", "--emit-scenario", "from-the-field"])
        #expect(named.out.first?.hasPrefix("PASS  from-the-field  seed 1  digest ") == true)
        #expect(!named.err.contains("named after its content"))
        // And the emitted source compiled as a catalog scenario of that name gives that run's digest again.
        let compiled = WorldExecutor().run(EmittedScenario.replayedOfflineSends, seed: 1, options: RunOptions())
        let replayed = Self.run(["replay", copy, "--run", "--emit-scenario", "replayed-offline-sends"])
        #expect(replayed.out.first == "PASS  replayed-offline-sends  seed 1  digest \(FNV1a64.hex(compiled.digest))")
    }

    @Test("run --pcap refuses a plan of more than one run")
    func runPcapNeedsOneRun() {
        let result = Self.run(["run", "offline-sends-in-order", "--pcap", "/tmp/never-written.pcapng"])
        #expect(result.code == 2)
        #expect(result.err.contains("--pcap writes one run"))
    }

    @Test("replaying a clean run against the server: every answer agrees")
    func serverAgrees() {
        let result = Self.run(["replay", Self.offlineSends, "--against", "server"])
        #expect(result.code == 0)
        #expect(result.out == [
            "replayed 11 requests on 4 connections against the server: 11 answers compared, 0 differences; "
                + "digest df09aa239a5254a3",
        ])
    }

    @Test("a capture whose answers differ from the server's is reported, with exit code 1")
    func serverDiffers() throws {
        let decoding = try TraceDecoder().decode(path: Self.offlineSends)
        var timeline = ReplayTimeline(decoding)
        // Change the first MSG_SEND answer's text and remove the first PING answer.
        var changed = false
        for connection in timeline.connections.indices {
            timeline.connections[connection].entries = timeline.connections[connection].entries.compactMap { entry in
                var entry = entry
                if case .msgSendResponse(var response) = entry.packet.body, !changed {
                    response.message.text = "tampered"
                    entry.packet.body = .msgSendResponse(response)
                    changed = true
                }
                return entry
            }
        }
        let outcome = ReplayAgainstServer(timeline: timeline, model: ReplayWorldModel(timeline)).run()
        #expect(outcome.differences.map(\.what) == [
            "seq 5 MSG_SEND: payload {message: [\"tampered\"]} captured, {message: [\"a\"]} replayed",
        ])
        let removed = timeline.connections.map { connection -> ReplayTimeline.Connection in
            var connection = connection
            connection.entries.removeAll { $0.direction == .serverToClient && $0.packet.opcode == .login }
            return connection
        }
        timeline.connections = removed
        let second = ReplayAgainstServer(timeline: timeline, model: ReplayWorldModel(timeline)).run()
        #expect(second.differences.contains {
            $0.what == "seq 2 LOGIN: replay sent a response the capture does not have"
        })
        // An error answer reads "an error" (it read "a error").
        let error = Packet(cmd: .error, seq: 5, opcode: .msgSend,
                           body: .error(ErrorPayload(error: "message.duplicate", message: "duplicate")))
        #expect(ReplayAgainstServer.unmatchedAnswer(error)
                == "seq 5 MSG_SEND: replay sent an error the capture does not have")
    }

    @Test("a capture with messages in a chat no LOGIN listed, and server times at Int64's ends, replays without a trap",
          arguments: [Int64.max, Int64.min])
    func corruptCaptureReplays(serverTime: Int64) throws {
        let decoding = try TraceDecoder().decode(path: Self.offlineSends)
        var timeline = ReplayTimeline(decoding)
        for connection in timeline.connections.indices {
            for index in timeline.connections[connection].entries.indices {
                var packet = timeline.connections[connection].entries[index].packet
                switch packet.body {
                case .msgSendResponse(var response):
                    response.chatId = 987_654
                    packet.body = .msgSendResponse(response)
                case .loginResponse(var response):
                    response.time = serverTime
                    packet.body = .loginResponse(response)
                case .sessionInitResponse(var response):
                    response.time = serverTime
                    packet.body = .sessionInitResponse(response)
                default:
                    break
                }
                timeline.connections[connection].entries[index].packet = packet
            }
        }
        let model = ReplayWorldModel(timeline)
        #expect(model.chats.contains { $0.id == 987_654 })
        let server = model.makeServer()
        #expect(server.chatIds.contains(987_654))
        _ = ReplayAgainstServer(timeline: timeline, model: model).run()
        let client = try #require(model.userIdByClient.first?.client)
        _ = try ReplayAgainstClient(timeline: timeline, model: model, clientAddress: client, mutant: nil).run()
    }

    @Test("a capture whose end lies years ahead (a corrupt timestamp) stops once only the engine is busy")
    func farEndStops() throws {
        var timeline = ReplayTimeline(try TraceDecoder().decode(path: Self.clockSkew))
        let client = try #require(ReplayWorldModel(timeline).userIdByClient.first?.client)
        let clean = try ReplayAgainstClient(timeline: timeline, model: ReplayWorldModel(timeline),
                                            clientAddress: client, mutant: nil).run()
        #expect(clean.stoppedIdleAt == nil)
        timeline.end = .start + .seconds(Int64(100_000_000))
        // The client's last connection closes only then too: the engine drops it on a pong timeout long before.
        let last = try #require(timeline.connections.lastIndex { $0.client.hasPrefix(client + ":") })
        timeline.connections[last].closesAt = timeline.end
        let far = try ReplayAgainstClient(timeline: timeline, model: ReplayWorldModel(timeline), clientAddress: client,
                                          mutant: nil).run()
        let stop = try #require(far.stoppedIdleAt)
        #expect(stop < timeline.end)
        #expect(far.packetsDelivered == clean.packetsDelivered)
    }

    @Test("the emitter rounds gaps to whole milliseconds, never below zero and without overflow near Int64.max",
          arguments: [
              (Int64(1_499_999), Int64(1)), (Int64(1_500_000), Int64(2)), (Int64(-2_000_000), Int64(0)),
              (Int64(0), Int64(0)), (Int64.max, Int64.max / 1_000_000), (Int64.min, Int64(0)),
          ])
    func emitterRounding(nanoseconds: Int64, milliseconds: Int64) {
        #expect(ReplayScenarioEmitter.rounded(SimDuration(nanoseconds: nanoseconds)) == .milliseconds(milliseconds))
    }

    @Test("replaying to the reference client: no violation; to a last-sync mutant: P4, exit code 1")
    func clientChecks() {
        let reference = Self.run(["replay", Self.clockSkew, "--against", "client"])
        #expect(reference.code == 0)
        // Digests since session 39: the engine's second LOGIN asks for changes from a millisecond before last-sync
        // (`ReferenceClient.changesSince`), so its bytes differ (9e0471295a25a46c and 753bac93536ea270 before).
        #expect(reference.out.last?.hasSuffix(": 0 violations of C1 C4 P1 P2 P3 P4; digest e11da3563a45b539") == true)
        let mutant = Self.run(["replay", Self.clockSkew, "--against", "client", "--mutant", "since-from-newest-push"])
        #expect(mutant.code == 1)
        #expect(mutant.out.first?.hasPrefix("FAIL  P4 at ") == true)
        #expect(mutant.out.last?.contains("mutant since-from-newest-push") == true)
        // One violation is a violation, not "1 violations".
        #expect(mutant.out.last == "replayed 10 server frames on 2 connections to alice "
            + "(mutant since-from-newest-push, 7 packets sent): 1 violation of C1 C4 P1 P2 P3 P4; "
            + "digest 73ae2fd570606eaf")
    }

    @Test("usage and input errors exit with 2", arguments: [
        ["replay"],
        ["replay", offlineSends],
        ["replay", offlineSends, "--against", "nowhere"],
        ["replay", offlineSends, "--against", "client", "--mutant", "no-such-mutant"],
        ["replay", offlineSends, "--against", "server", "--emit-scenario", "x"],
        ["replay", "/nonexistent/capture.pcapng", "--against", "server"],
    ])
    func usageErrors(arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.code == 2)
        #expect(!result.err.isEmpty)
    }

    @Test("a server mutant is named as one, not as unknown; a misspelt client mutant gets a suggestion")
    func mutantNames() {
        let server = Self.run(["replay", Self.offlineSends, "--against", "client", "--mutant", "server-no-liveness"])
        #expect(server.code == 2)
        #expect(server.err.hasPrefix("syncsim replay: mutant 'server-no-liveness' is a server mutant; replay --mutant "
                                     + "takes client mutants: merge-skips-bridge, "))
        let misspelt = Self.run(["replay", Self.offlineSends, "--against", "client", "--mutant", "paralel-sends"])
        #expect(misspelt.code == 2)
        #expect(misspelt.err.hasPrefix("syncsim replay: unknown mutant 'paralel-sends' (did you mean "
                                       + "'parallel-sends'?); mutants: "))
    }

    @Test("--emit-scenario refuses a name that is not a scenario name, before reading the capture", arguments: [
        ("", "an empty name"), ("my scenario", "'my scenario', which holds a space"),
        ("1st", "'1st', which starts with '1'"), ("alice+bob", "'alice+bob', which holds '+'"),
        ("-x", "'-x', which starts with '-'"),
    ])
    func badScenarioName(name: String, problem: String) {
        for mode in [[String](), ["--run"]] {
            let result = Self.run(["replay", "/nonexistent/capture.pcapng", "--emit-scenario", name] + mode)
            #expect(result.code == ExitCode.usage)
            #expect(result.err == "syncsim replay: --emit-scenario: expected a scenario name of ASCII letters, "
                + "digits, '-' and '_', starting with a letter (e.g. replayed-session), got \(problem)\n"
                + "see 'syncsim replay --help'\n", "\(result.err)")
        }
    }

    @Test("a capture of another protocol is an input error in every replay mode, naming what decode finds",
          arguments: [["--against", "server"], ["--against", "client"], ["--emit-scenario", "x"], ["--run"]])
    func foreignProtocol(mode: [String]) {
        let path = TraceDecodeCommandTests.fixture("pcap/dns_tcp.pcap")
        let result = Self.run(["replay", path] + mode)
        #expect(result.code == ExitCode.usage)
        #expect(result.out.isEmpty)
        #expect(result.err == "syncsim replay: \(path): no SyncSim frame found in its TCP connection, nothing to "
            + "replay; decode finds: connection 1 client->server: bad frame header, 10 bytes at offset 0, packet 4: "
            + "expected ver 10, cmd 0...3 and a length up to 5242880 bytes; found 00 38 43 19 01 20 00 01 00 00 "
            + "('syncsim decode \(path)' lists every issue)\n", "\(result.err)")
        let handshake = TraceDecodeCommandTests.fixture("pcap/tcp-handshake-nano.pcap")
        let empty = Self.run(["replay", handshake] + mode)
        #expect(empty.code == ExitCode.usage)
        #expect(empty.err.hasSuffix(": no SyncSim frame found in its TCP connection, nothing to replay; it carries "
            + "no payload bytes\n"), "\(empty.err)")
    }

    @Test("a replay without a mode names every mode of replay's help: --against, --emit-scenario and --run")
    func noMode() {
        let result = Self.run(["replay", Self.offlineSends])
        #expect(result.code == ExitCode.usage)
        #expect(result.err == "syncsim replay: give one of --against server|client, --emit-scenario NAME or --run\n"
            + "see 'syncsim replay --help'\n")
        let both = Self.run(["replay", Self.offlineSends, "--against", "server", "--emit-scenario", "x"])
        #expect(both.code == ExitCode.usage)
        #expect(both.err.hasPrefix("syncsim replay: give either --against server|client or --emit-scenario NAME, "
            + "not both (--run takes"), "\(both.err)")
        let help = Self.run(["replay", "--help"]).out.joined(separator: "\n")
        for mode in ["--against server|client", "--emit-scenario NAME", "--run"] { #expect(help.contains(mode)) }
    }

    @Test("--emit-scenario prints the timeline as DSL steps; the committed copy compiles and passes")
    func emitScenario() throws {
        let result = Self.run(["replay", Self.offlineSends, "--emit-scenario", "replayed-offline-sends"])
        #expect(result.code == 0)
        let source = result.out.joined(separator: "\n")
        // Alice's RTT is EDGE's and 4 of her 43 segments were retransmitted: EDGE-lossy, as in the original.
        #expect(source.contains("Client(\"alice\", profile: .edgeLossy)"))
        // Her LOGIN stalls from 1.753 s until 34.625 s (her RTT 843 ms, from her handshake): an outage; the sends
        // went out the instant answers arrived, so they waited in the queue: placed a second into the outage, in
        // order.
        #expect(source.contains("At(.milliseconds(2006)) { LinkDown(\"alice\", for: .milliseconds(31_353)) }"))
        #expect(source.contains("At(.milliseconds(3006)) { Send(from: \"alice\", text: \"a\", in: \"alice+bob\") }"))
        #expect(source.contains("At(.milliseconds(3007)) { Send(from: \"alice\", text: \"b\", in: \"alice+bob\") }"))
        #expect(source.contains("// MSG_SEND cid 1732149230455787299, connection 4 seq 5 at 36.939 s"))
        #expect(source.contains("Eventually(within: .minutes(4), .serverOrder(chat: \"alice+bob\", "
            + "texts: [\"a\", \"b\", \"c\", \"d\"]))"))

        let file = Self.emittedScenarioFile(source)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "EmittedScenario.swift").path
        if ProcessInfo.processInfo.environment["SYNCSIM_WRITE_EMITTED_SCENARIO"] != nil {
            try Data(file.utf8).write(to: URL(fileURLWithPath: path))
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == file,
                "regenerate with SYNCSIM_WRITE_EMITTED_SCENARIO=1 swift test --filter ReplayCommandTests")
        #expect(EmittedScenario.replayedOfflineSends.problems() == [])
        let run = WorldExecutor().run(EmittedScenario.replayedOfflineSends, seed: 1, options: RunOptions())
        #expect(run.violations.map(\.description) == [])
    }

    static func emittedScenarioFile(_ source: String) -> String {
        let indented = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
        return """
            // Generated by `SYNCSIM_WRITE_EMITTED_SCENARIO=1 swift test --filter ReplayCommandTests`: the scenario
            // `syncsim replay Fixtures/replay/offline-sends-in-order-seed341.pcapng --emit-scenario
            // replayed-offline-sends` prints, compiled so the emitter's output is proven to be valid DSL code.
            // Do not edit by hand.
            import SyncSim

            enum EmittedScenario {
                static let replayedOfflineSends =
            \(indented)
            }

            """
    }
}
