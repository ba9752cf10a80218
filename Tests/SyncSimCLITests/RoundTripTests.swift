import Foundation
import Scenarios
import SyncSim
import SyncTrace
import Testing

@testable import SyncSimCLI

/// The capture round trip (docs/roundtrip.md) on a few cases, cheap enough for `make test`; the whole catalog's
/// table comes from `scripts/roundtrip.py`.
@Suite struct RoundTripTests {
    /// Runs `scenario` with `seed` capturing, and returns the capture's path (in the temporary directory).
    static func capture(_ name: String, seed: UInt64) throws -> String {
        let path = NSTemporaryDirectory()
            + "syncsim-roundtrip-\(name)-\(seed)-\(ProcessInfo.processInfo.processIdentifier).pcapng"
        let result = TraceDecodeCommandTests.run(["run", name, "--seed", String(seed), "--pcap", path])
        #expect(result.code == 0, "the original passes with the reference engine")
        return path
    }

    static func emitted(from path: String) throws -> ReplayScenarioEmitter.Emission {
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: path))
        return ReplayScenarioEmitter(timeline: timeline, model: ReplayWorldModel(timeline)).emission(named: "emitted")
    }

    static func fails(_ scenario: Scenario, seed: UInt64, mutant: String?) -> Bool {
        let prepared = mutant.map { scenario.withMutant($0) } ?? scenario
        return !WorldExecutor().run(prepared, seed: seed, options: RunOptions(mutant: mutant)).violations.isEmpty
    }

    @Test("gprs-flap-then-scroll: the emitted scenario keeps GPRS and both drops and catches what the original does",
          arguments: [UInt64(502)])
    func gprsFlap(seed: UInt64) throws {
        let path = try Self.capture("gprs-flap-then-scroll", seed: seed)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let scenario = emission.scenario
        #expect(scenario.clients.map(\.profile) == [.gprs, .threeG])
        let drops = scenario.steps.filter { if case .outage("alice", _, .silently) = $0.action { true } else { false } }
        #expect(drops.count == 2)
        #expect(emission.source().contains("// connection 1: MSG_SEND seq 3 at 5.000 s answered only at"))
        #expect(!Self.fails(scenario, seed: seed, mutant: nil))
        for mutant in ["resend-new-cid", "inflight-dropped-on-disconnect"] {
            let original = try #require(Catalog.scenario(named: "gprs-flap-then-scroll"))
            #expect(Self.fails(original, seed: seed, mutant: mutant), "the original catches \(mutant)")
            #expect(Self.fails(scenario, seed: seed, mutant: mutant), "the emitted scenario catches \(mutant)")
        }
    }

    /// Bob on GPRS (20 kbit/s up) sends photo after photo: his requests wait behind his own uploads while the CDN's
    /// ACKs keep arriving. That silence is queueing, not a link drop; and a photo whose PHOTO_UPLOAD the capture
    /// lacks is sized like his others, not 100 KB. Before, the emitted scenario added about ten outages and 100 KB
    /// photos, and its task queue had not drained at the end (T5 with the reference engine).
    @Test("silences behind the client's own uploads are no outage; a photo without its upload is sized like the others")
    func uploadQueueingIsNoOutage() throws {
        let path = try Self.capture("explore-upload-refused-token-renewed", seed: 6077)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let scenario = emission.scenario
        #expect(!scenario.steps.contains { if case .outage("bob", _, _) = $0.action { true } else { false } })
        // Bob's engine ran every upload at once (the scenario sets 64): the capture shows several CDN connections
        // carrying photos together, so the emitted Bob does too, and his uploads fill his uplink as they did.
        let bob = try #require(scenario.clients.first { $0.name == "bob" })
        let concurrent = try #require(bob.parameters["maxConcurrentUploads"]?.intValue)
        #expect(concurrent > 1)
        #expect(emission.source().contains("bob: maxConcurrentUploads \(concurrent): \(concurrent) uploads to the CDN"))
        #expect(scenario.clients.first { $0.name == "alice" }?.parameters["maxConcurrentUploads"] == nil)
        let photoBytes = scenario.steps.compactMap { step -> Int? in
            switch step.action {
            case .sendPhoto(_, _, let bytes, _), .sendPhotos(_, _, _, let bytes, _): bytes
            default: nil
            }
        }
        #expect(!photoBytes.isEmpty && !photoBytes.contains(100_000))
        let run = WorldExecutor().run(scenario, seed: 1, options: RunOptions())
        #expect(!run.violations.contains { $0.description.hasPrefix("T5") }, "the queue drains")
        // p28's upload (217 s) came before those of p4 ... p48, which the server stored before it: the photos are
        // made in the order their messages went out (they were made in p28's upload order, and the run broke the
        // server order).
        let bobsCaptions = scenario.steps.compactMap { step -> String? in
            switch step.action {
            case .sendPhoto("bob", _, _, let caption), .sendPhotos("bob", _, _, _, let caption): caption
            default: nil
            }
        }
        #expect(bobsCaptions == ["p55", "p4", "p34", "p42", "p48", "p28", "p32", "p50", "p44"])
        // Sizes from the uploads whose token each message carries (p34 took the median, 33,841, before; its photo is
        // 7,901 bytes), so the emitted run's GPRS uplink carries what the original's did.
        let sizes = Dictionary(uniqueKeysWithValues: scenario.steps.compactMap { step -> (String, Int)? in
            switch step.action {
            case .sendPhoto("bob", _, let bytes, let caption), .sendPhotos("bob", _, _, let bytes, let caption):
                (caption, bytes)
            default: nil
            }
        })
        #expect(sizes["p4"] == 35_585 && sizes["p34"] == 7901 && sizes["p42"] == 20_174 && sizes["p28"] == 47_946)
        // Each PHOTO_UPLOAD answer goes with the request it answers, not with every request of its seq (seqModulus 8):
        // p28's token was read as a later answer's, so p28 took p32's, p50's and p44's uploads, and those three were
        // made at the end of the capture (309 to 311 s) with a guessed size instead of at 67 to 75 s.
        #expect(sizes["p32"] == 33_841 && sizes["p50"] == 13_197 && sizes["p44"] == 38_039)
        let madeAt = Dictionary(uniqueKeysWithValues: scenario.steps.compactMap { step -> (String, StepTiming)? in
            switch step.action {
            case .sendPhoto("bob", _, _, let caption), .sendPhotos("bob", _, _, _, let caption): (caption, step.timing)
            default: nil
            }
        })
        #expect(madeAt["p32"] == .at(.milliseconds(67_132)) && madeAt["p44"] == .at(.milliseconds(74_552)))
        #expect(Self.fails(scenario, seed: 6077, mutant: "inflight-dropped-on-disconnect"))
        #expect(!Self.fails(scenario, seed: 6077, mutant: nil), "the emitted scenario passes with the reference engine")
    }

    @Test("an app restart with queued sends, a photo and a server restart are inferred, each with its packets")
    func restartsAndPhotos() throws {
        let path = try Self.capture("restart-with-pending-tasks", seed: 31)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let steps = emission.scenario.steps.map(\.action)
        #expect(steps.contains { if case .restartApp("alice") = $0 { true } else { false } })
        #expect(steps.contains { if case .sendPhoto("alice", "alice+bob", 60_000, "c") = $0 { true } else { false } })
        #expect(emission.source().contains("starts again at seq 1"))
        // The sends queued offline are placed before the restart, so a queue that does not survive it is caught.
        #expect(Self.fails(emission.scenario, seed: 31, mutant: "tasks-not-persisted"))
        #expect(!Self.fails(emission.scenario, seed: 31, mutant: nil))

        let restartPath = try Self.capture("server-restart", seed: 201)
        defer { try? FileManager.default.removeItem(atPath: restartPath) }
        let restart = try Self.emitted(from: restartPath)
        #expect(restart.scenario.steps.contains { if case .serverRestart = $0.action { true } else { false } })
        #expect(!restart.scenario.steps.contains { if case .outage = $0.action { true } else { false } },
                "the server's RSTs are no link drop")
        #expect(restart.headerComments.allSatisfy { !$0.contains("started without SYN") },
                "refused connection attempts are no doubt")
    }

    @Test("a retry answered message.duplicate: the first copy's answer was lost, the page asked after it no OpenChat")
    func duplicateAnswerMeansLostResponse() throws {
        let path = try Self.capture("response-lost-after-store", seed: 331)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let steps = emission.scenario.steps.map(\.action)
        #expect(steps.contains { if case .loseResponses(.msgSend, 1, "alice") = $0 { true } else { false } })
        #expect(!steps.contains { if case .openChat = $0 { true } else { false } })
        #expect(emission.source().contains("MSG_SEND seq 3 at 6.000 s got no answer; its retry (connection 1 seq 4) "
            + "was answered message.duplicate"))
        #expect(!Self.fails(emission.scenario, seed: 331, mutant: nil))
        #expect(Self.fails(emission.scenario, seed: 331, mutant: "duplicate-is-failure"))
    }

    @Test("a page asked again after it went unanswered: its answer was lost (LoseResponses), the re-asks no user action")
    func lostPageAskedAgain() throws {
        let path = try Self.capture("explore-duplicate-answer-page-lost", seed: 58)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let steps = emission.scenario.steps.map(\.action)
        #expect(steps.contains { if case .loseResponses(.chatHistory, 1, "alice") = $0 { true } else { false } })
        #expect(!steps.contains { if case .openChat = $0 { true } else { false } })
        #expect(emission.source().contains("CHAT_HISTORY seq 95 at 314.053 s got no answer and was asked again"))
        #expect(!Self.fails(emission.scenario, seed: 58, mutant: nil))
        #expect(Self.fails(emission.scenario, seed: 58, mutant: "duplicate-is-failure"))
    }

    @Test("answers on a later connection than their request: repliesFollowDevice, one slow spell held over the arrivals")
    func answersFollowTheDevice() throws {
        let path = try Self.capture("stale-reply-on-new-connection", seed: 581)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        #expect(emission.scenario.server.parameters["repliesFollowDevice"] == .bool(true))
        #expect(emission.source().contains("CHAT_HISTORY seq 3 asked on connection 1 at 4.000 s, answered on connection 4"))
        let delays = emission.scenario.steps.compactMap { step -> SimDuration? in
            if case .delayResponses(.chatHistory, _, let duration, _) = step.action { duration } else { nil }
        }
        // The four slow answers (4 s to 23.6 s) are one spell; the window reaches past the last request's arrival.
        #expect(delays.count == 1 && delays.allSatisfy { $0 > .seconds(19) })
        #expect(!Self.fails(emission.scenario, seed: 581, mutant: nil))
        #expect(Self.fails(emission.scenario, seed: 581, mutant: "seq-restart-per-connection"))
    }

    @Test("the downlink's bottleneck rate from back-to-back segments; it picks between profiles of nearly equal RTT")
    func bottleneckRate() throws {
        let path = try Self.capture("scroll-through-gaps-to-start", seed: 111)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        // EDGE's downlink is 240 kbit/s (LinkProfile.edge).
        let alice = try #require(emission.headerComments.first { $0.hasPrefix("alice ") })
        #expect(alice.contains("downlink about 23") && alice.contains("kbit/s (median spacing of"))
        // 660 ms lies between GPRS (500 ms, 50 kbit/s down) and EDGE (840 ms, 240 kbit/s down).
        #expect(ReplayInference.profile(roundTrip: .milliseconds(660), lossy: false) == .gprs)
        #expect(ReplayInference.profile(roundTrip: .milliseconds(660), lossy: false, downlinkBitsPerSecond: 230_000)
            == .edge)
        #expect(ReplayInference.profile(roundTrip: .milliseconds(660), lossy: false, downlinkBitsPerSecond: 48_000)
            == .gprs)
    }

    /// Bob is on 3G (RTT 200 ms); his fastest answer took 410 ms (the server's processing and the frames' own
    /// serialization in it), which made him GPRS. His handshakes show the path alone.
    @Test("the RTT is the fastest handshake where it is below every answer time; a resent SYN makes a handshake unusable")
    func handshakeRoundTrip() throws {
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: ReplayCommandTests.offlineSends))
        let emission = ReplayScenarioEmitter(timeline: timeline, model: ReplayWorldModel(timeline))
            .emission(named: "emitted")
        let original = try #require(Catalog.scenario(named: "offline-sends-in-order"))
        #expect(emission.scenario.clients.map(\.profile) == original.clients.map(\.profile))
        #expect(emission.source().contains("// bob (198.18.0.4): 3G from RTT 201 ms (handshake of connection 2 at "))
        var connection = try #require(timeline.connections.first { $0.number == 2 })
        let roundTrip = try #require(ReplayInference.handshakeRoundTrip(connection))
        #expect(roundTrip > .milliseconds(200) && roundTrip < .milliseconds(203))
        let synAck = try #require(connection.tcp.serverSegmentTimes.first)
        connection.tcp.clientSegmentTimes.insert(synAck - .milliseconds(1), at: 1)
        #expect(ReplayInference.handshakeRoundTrip(connection) == nil)
    }

    /// Alice's stalled connection 1 got its answers after her connection 3 opened, but 3 carried no frame (its SYNs
    /// went into the outage): that was reported as "several clients behind one address?".
    @Test("overlapping connections need frames on both; one login on both is said, not taken for two clients")
    func overlapDoubt() throws {
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: ReplayCommandTests.offlineSends))
        let emission = ReplayScenarioEmitter(timeline: timeline, model: ReplayWorldModel(timeline))
            .emission(named: "emitted")
        #expect(!emission.source().contains("carry frames at the same time"))
        let byNumber = Dictionary(uniqueKeysWithValues: timeline.connections.map { ($0.number, $0) })
        let (first, bob, empty, fourth) = (byNumber[1]!, byNumber[2]!, byNumber[3]!, byNumber[4]!)
        #expect(ReplayInference.loggedInAlike(first, fourth), "alice's token on both")
        #expect(!ReplayInference.loggedInAlike(first, bob))
        #expect(!ReplayInference.loggedInAlike(first, empty), "no LOGIN on connection 3")
    }

    @Test("a silence the link lost everything in, then segments but no frames: LinkDown, then LossBurst")
    func lossBurstAfterOutage() throws {
        let path = try Self.capture("weak-link-send-order", seed: 351)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let steps = emission.scenario.steps.map(\.action)
        #expect(steps.contains { if case .outage("alice", _, .silently) = $0 { true } else { false } })
        #expect(steps.contains { if case .lossBurst("alice", _, _) = $0 { true } else { false } })
        #expect(emission.source().contains("segment(s) from the server came through meanwhile"))
        // B waited behind A, not offline: placed right after A, so sends that do not wait are caught.
        #expect(steps.contains { if case .sendText("alice", _, "B") = $0 { true } else { false } })
        #expect(!Self.fails(emission.scenario, seed: 351, mutant: nil))
        #expect(Self.fails(emission.scenario, seed: 351, mutant: "parallel-sends"))
    }

    @Test("a timeout retry the server never acknowledged was lost in the silence: the outage goes on over it")
    func retryLostInSilence() throws {
        let path = try Self.capture("reconnect-during-send", seed: 1)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        #expect(emission.source().contains("sent into the silence at 26.569 s was never acknowledged by the server"))
        #expect(!Self.fails(emission.scenario, seed: 1, mutant: nil))
        #expect(Self.fails(emission.scenario, seed: 1, mutant: "inflight-dropped-on-disconnect"))
    }

    @Test("sends a restart's new engine sent at once after LOGIN were queued before the restart, outage or not")
    func queuedSendsBeforeRestart() throws {
        let path = try Self.capture("half-open-switch-then-restart", seed: 371)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let steps = emission.scenario.steps
        let restart = try #require(steps.firstIndex { if case .restartApp("alice") = $0.action { true } else { false } })
        let sends = steps.indices.filter { if case .sendText("alice", _, _) = steps[$0].action { true } else { false } }
        #expect(sends.count == 2 && sends.allSatisfy { $0 < restart })
        #expect(emission.source().contains("before the app restart it survived"))
        #expect(!Self.fails(emission.scenario, seed: 371, mutant: nil))
        #expect(Self.fails(emission.scenario, seed: 371, mutant: "tasks-not-persisted"))
    }

    /// Alice's app closes its connection when told the network is gone: its FIN goes unanswered (sent again five
    /// times), and no SYN follows until the network is back. Emitted as nothing, the replayed engine sent its
    /// pending message at once and it was stored, where the original's waited offline and met the lost answers.
    @Test("a FIN into a dead link, then no attempt until a new connection: Connectivity lost and restored")
    func connectivityLost() throws {
        let path = try Self.capture("explore-failed-send-checks-server", seed: 7351)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        let steps = emission.scenario.steps
        #expect(steps.contains { $0.action == .connectivity(client: "alice", change: .lost)
            && $0.timing == .at(.milliseconds(67_487)) })
        #expect(steps.contains { $0.action == .connectivity(client: "alice", change: .restored)
            && $0.timing == .at(.milliseconds(101_474)) })
        #expect(emission.source().contains("// connection 1: FIN from the client at 67.487 s, sent again 5 time(s)"))
        // A dialog and a group of the same two members are two chats (both were named alice+bob, and became one).
        let seeded = emission.scenario.server.history.map(\.chat)
        #expect(Set(seeded).count == seeded.count && seeded.count == 3)
        #expect(!Self.fails(emission.scenario, seed: 7351, mutant: nil))
        #expect(Self.fails(emission.scenario, seed: 7351, mutant: "resend-new-cid"))
    }

    /// Alice's first LOGIN answers are lost (and a SESSION_INIT answer twice), Bob's first two PHOTO_UPLOAD answers
    /// too; Bob's other device then deletes his photo message. Alice's connections without a LOGIN answer were
    /// taken for a second user behind her address ("client1"), none of the lost answers was replayed, and the
    /// deleted message was expected in the server order.
    @Test("lost SESSION_INIT, LOGIN, PHOTO_UPLOAD answers; one user per token; no server order for a deleted send")
    func lostLoginAnswers() throws {
        let path = try Self.capture("explore-push-before-first-login-answer", seed: 8117)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let emission = try Self.emitted(from: path)
        #expect(emission.scenario.clients.map(\.name) == ["alice", "bob"])
        let lost = emission.scenario.steps.compactMap { step -> String? in
            if case .loseResponses(let opcode, 1, let client?) = step.action { "\(client) \(opcode)" } else { nil }
        }
        #expect(lost.filter { $0 == "alice LOGIN" }.count == 4 && lost.filter { $0 == "alice SESSION_INIT" }.count == 2)
        #expect(lost.filter { $0 == "bob PHOTO_UPLOAD" }.count == 2)
        #expect(emission.source().contains("// connection 3 (198.18.0.3:32770): LOGIN seq 3 at 23.426 s, acknowledged by "
            + "the server at 24.313 s, got no answer and was asked again (connection 4 seq 5 at 66.516 s)"))
        #expect(emission.source().contains("// serverOrder of alice+bob leaves out \"p242\": edited or deleted"))
        #expect(!Self.fails(emission.scenario, seed: 8117, mutant: nil))
        for mutant in ["resend-new-cid", "merge-skips-bridge"] {
            #expect(Self.fails(emission.scenario, seed: 8117, mutant: mutant), "the emitted scenario catches \(mutant)")
        }
    }

    @Test("replay --run reproduces a mutant's failure from a capture of that mutant's run, with run's options")
    func replayRunReproducesMutant() throws {
        let path = NSTemporaryDirectory() + "syncsim-roundtrip-mutant-\(ProcessInfo.processInfo.processIdentifier).pcapng"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let original = TraceDecodeCommandTests.run(["run", "gprs-flap-then-scroll", "--seed", "501", "--mutant",
                                                    "inflight-dropped-on-disconnect", "--pcap", path])
        #expect(original.code == 1)
        let replayed = TraceDecodeCommandTests.run(["replay", "--seeds", "1..2", path, "--run", "--mutant",
                                                    "inflight-dropped-on-disconnect", "--check-determinism"])
        #expect(replayed.code == 1)
        // Named after the scenario's content, not after the capture's file (whose name holds the process id).
        #expect(replayed.out.first?.hasPrefix("FAIL  replayed-") == true)
        #expect(replayed.err.contains("note: \(path) runs as scenario replayed-"))
        #expect(replayed.out.contains { $0.hasPrefix("determinism: 2 runs repeated, all digests equal") })
        // The scenario is in no catalog: the failure is repeated by replaying the capture with its seed.
        let repeated = " replay \(path) --run --seed 1 --mutant inflight-dropped-on-disconnect"
        #expect(replayed.out.contains { $0.hasSuffix(repeated) }, "\(replayed.out)")
        #expect(!replayed.out.contains { $0.contains(" run replayed-") })
        let reference = TraceDecodeCommandTests.run(["replay", path, "--run", "--emit-scenario", "from-mutant"])
        #expect(reference.code == 0, "the same capture's scenario passes with the reference engine")
        #expect(reference.out.first?.hasPrefix("PASS  from-mutant  seed 1") == true)
        let usage = TraceDecodeCommandTests.run(["replay", path, "--run", "--against", "server"])
        #expect(usage.code == 2)
    }

    @Test("duplicated, reordered frames, no handshake, two clients on one address: doubts as comments, no crash")
    func damagedCapture() throws {
        let timeline = ReplayTimeline(try TraceDecoder().decode(
            path: TraceDecodeCommandTests.fixture("replay/offline-sends-in-order-seed341.pcapng")))
        var damaged = timeline
        for index in damaged.connections.indices {
            var entries = damaged.connections[index].entries
            entries += entries.prefix(3)
            entries.reverse()
            damaged.connections[index].entries = entries
            damaged.connections[index].tcp.sawSYN = index != 0
            // Every connection from one address: two phones behind one NAT.
            damaged.connections[index].client = "198.18.0.3:\(40_000 + index)"
        }
        let emission = ReplayScenarioEmitter(timeline: damaged, model: ReplayWorldModel(damaged))
            .emission(named: "damaged")
        #expect(emission.unplaced.contains { $0.contains("no handshake in the capture") })
        #expect(emission.source().contains("// doubt: "))
        #expect(emission.scenario.problems() == [])
    }

    @Test("a TLS capture without keys is refused with a message saying so, not decoded to garbage frames")
    func tlsWithoutKeys() throws {
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 3), port: 40_000),
            server: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 1), port: 443))
        var writer = PcapngWriter(interfaces: [.init(name: "tls")])
        // A TLS 1.2 record header (handshake, version 3.1, length 5) and the start of a ClientHello.
        let hello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x03]
        var time: Int64 = 1_700_000_000_000_000_000
        for packet in connection.open() + connection.send(hello, .clientToServer) {
            writer.append(packet, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: time))
            time += 1_000_000
        }
        let path = NSTemporaryDirectory() + "syncsim-tls-\(ProcessInfo.processInfo.processIdentifier).pcapng"
        try writer.write(to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for arguments in [["--emit-scenario", "x"], ["--run"], ["--against", "server"]] {
            let result = TraceDecodeCommandTests.run(["replay", path] + arguments)
            #expect(result.code == 2)
            #expect(result.err.contains("connection 1 carries TLS"))
        }
    }
}
