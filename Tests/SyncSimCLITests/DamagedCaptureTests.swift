import Foundation
import SyncProtocol
import SyncSim
import SyncTrace
import Testing

@testable import SyncSimCLI

/// Small synthetic captures with one kind of damage each (issue 19 item 5), kept in `Fixtures/replay/damaged/`:
/// the emitter gives a valid scenario with a comment per doubt and lists what it cannot place, never crashing.
///
/// The captures are written by `SyntheticSession` below; `SYNCSIM_WRITE_FIXTURES=1 swift test --filter
/// DamagedCaptureTests` rewrites them (they are checked in so the tests read files, as a field capture would be).
@Suite struct DamagedCaptureTests {
    /// Each fixture with a piece of the doubt the emitter must write about it; nil where reassembly repairs the
    /// damage (segments out of order or twice), so the scenario is the undamaged capture's.
    static let cases: [(file: String, doubt: String?)] = [
        ("gap.pcapng", "bytes missing"),
        ("out-of-order.pcapng", nil),
        ("duplicated.pcapng", nil),
        ("no-handshake.pcapng", "no handshake in the capture"),
        ("two-clients-one-address.pcapng", "2 users logged in from 198.18.0.3"),
    ]

    static func path(_ file: String) -> String { TraceDecodeCommandTests.fixture("replay/damaged/" + file) }

    static func emission(_ file: String) throws -> ReplayScenarioEmitter.Emission {
        let timeline = ReplayTimeline(try TraceDecoder().decode(path: Self.path(file)))
        return ReplayScenarioEmitter(timeline: timeline, model: ReplayWorldModel(timeline)).emission(named: "damaged")
    }

    @Test("a damaged capture gives a valid scenario, with the doubt as a comment above it and on stderr",
          arguments: cases.map(\.file) + ["clean.pcapng"])
    func damaged(file: String) throws {
        if ProcessInfo.processInfo.environment["SYNCSIM_WRITE_FIXTURES"] == "1" {
            try SyntheticSession.capture(file).write(to: Self.path(file))
        }
        let emission = try Self.emission(file)
        #expect(emission.scenario.problems() == [])
        // The user's send survives the damage (every fixture keeps alice's MSG_SEND whole).
        #expect(emission.scenario.steps.contains {
            if case .sendText("alice", _, "hi") = $0.action { true } else { false }
        })
        guard file != "clean.pcapng" else {
            #expect(emission.unplaced == [])
            return
        }
        if let doubt = try #require(Self.cases.first { $0.file == file }).doubt {
            #expect(emission.source().split(separator: "\n").contains { $0.hasPrefix("// doubt: ") && $0.contains(doubt) },
                    "a doubt line mentioning \(doubt.debugDescription)")
            #expect(emission.unplaced.contains { $0.contains(doubt) }, "the doubt is listed for stderr too")
        } else {
            let clean = try Self.emission("clean.pcapng")
            #expect(emission.scenario.dslSource() == clean.scenario.dslSource(), "reassembly repairs the damage")
        }
    }

    @Test("a capture no scenario can hold is an input error naming it, in --emit-scenario and --run alike")
    func unrunnable() throws {
        // alice's send stamped 400 days after her LOGIN (a capture merged from different times, a clock set a year
        // ahead mid-session): no scenario spans a year.
        let day: Int64 = 86_400 * 1_000_000_000
        let alice = try SyntheticSession.session(host: 2, port: 40_000, user: 1, name: "alice", start: 0, sends: true)
            .map { packet in (time: packet.time >= 3_000_000_000 ? packet.time + 400 * day : packet.time, bytes: packet.bytes) }
        var writer = PcapngWriter(interfaces: [.init(name: "synthetic")])
        for packet in alice {
            writer.append(packet.bytes,
                          timestamp: CaptureTimestamp(nanosecondsSinceEpoch: 1_700_000_000_000_000_000 + packet.time))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("unrunnable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("merged.pcapng").path
        try writer.write(to: path)
        for mode in [["--emit-scenario", "merged"], ["--run"]] {
            let result = TraceDecodeCommandTests.run(["replay", path] + mode)
            #expect(result.code == 2, "\(mode)")
            #expect(result.out.isEmpty, "no scenario printed, none run: \(result.out)")
            #expect(result.err.contains("\(path): the scenario made from this capture cannot run: step time "),
                    "\(result.err)")
            #expect(result.err.contains("is longer than the longest scenario duration"))
            #expect(!result.err.contains("runs as scenario"), "the error comes before any note on the scenario")
        }
    }

    /// The differences `replay --against server` must find in each fixture: none where nothing was lost (the made-up
    /// server answers as the virtual one does), the SESSION_INIT answer `gap.pcapng` lost.
    static let serverDifferences: [String: [String]] = [
        "clean.pcapng": [],
        "out-of-order.pcapng": [],
        "duplicated.pcapng": [],
        "no-handshake.pcapng": [],
        "two-clients-one-address.pcapng": [],
        "gap.pcapng": ["DIFF  0.008s connection 2: seq 1 SESSION_INIT: replay sent a response the capture does not have"],
    ]

    @Test("replay --against server finds only the damage: none in the clean capture, the lost answer in the gap",
          arguments: serverDifferences.keys.sorted())
    func againstServer(file: String) throws {
        let expected = try #require(Self.serverDifferences[file])
        let result = TraceDecodeCommandTests.run(["replay", Self.path(file), "--against", "server"])
        #expect(result.code == (expected.isEmpty ? 0 : 1), "\(result.err)")
        #expect(Array(result.out.dropLast()) == expected)
        #expect(result.out.last?.contains(" \(expected.count) difference") == true, "\(result.out)")
        let client = TraceDecodeCommandTests.run(["replay", Self.path(file), "--against", "client"])
        #expect(client.code == 0)
        #expect(client.out.last?.contains(": 0 violations of ") == true, "\(client.out)")
    }

    @Test("replay --emit-scenario of a damaged capture prints the scenario and its doubts on stderr, exit 0")
    func damagedOnCommandLine() {
        let result = TraceDecodeCommandTests.run(["replay", Self.path("gap.pcapng"), "--emit-scenario", "gap"])
        #expect(result.code == 0)
        #expect(result.out.contains { $0.hasPrefix("Scenario(\"gap\"") })
        #expect(result.err.contains("bytes missing"))
    }
}

/// A made-up session of two clients, alice (198.18.0.3) and bob (198.18.0.4), with the server at 198.18.0.1:5443:
/// SESSION_INIT and LOGIN each, alice sends "hi" to their chat, bob gets the push. Damage is applied to the packets.
enum SyntheticSession {
    static let server = TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: 0), port: 5443)
    /// The session's users, both members of chat 1.
    static let users: [(id: Int64, name: String)] = [(1, "alice"), (2, "bob")]

    /// The packets of one client's session with their times (ns since the capture's start).
    static func session(host: Int, port: UInt16, user: Int64, name: String, start: Int64, sends: Bool,
                        mss: Int = 1460) throws -> [(time: Int64, bytes: [UInt8])]
    {
        try sessionMarked(host: host, port: port, user: user, name: name, start: start, sends: sends, mss: mss).packets
    }

    /// `session`'s packets, with where the LOGIN answer's packets are.
    static func sessionMarked(host: Int, port: UInt16, user: Int64, name: String, start: Int64, sends: Bool,
                              mss: Int = 1460) throws -> (packets: [(time: Int64, bytes: [UInt8])], loginAnswer: Range<Int>)
    {
        var connection = SyntheticTCPConnection(
            client: TCPEndpoint(address: SyntheticTCPConnection.syntheticAddress(host: host), port: port),
            server: server, mss: mss)
        let encoder = FrameEncoder()
        var packets: [(Int64, [UInt8])] = []
        var time = start
        let rtt: Int64 = 200_000_000
        func add(_ list: [[UInt8]]) {
            for bytes in list {
                packets.append((time, bytes))
                time += 1_000_000
            }
        }
        @discardableResult
        func exchange(_ request: Packet, _ response: Packet) throws -> Range<Int> {
            add(connection.send(try encoder.encode(request), .clientToServer))
            time += rtt
            let first = packets.count
            add(connection.send(try encoder.encode(response), .serverToClient))
            return first..<packets.count
        }
        add(connection.open())
        let epoch: Int64 = 1_700_000_000_000
        try exchange(Packet(cmd: .request, seq: 1, opcode: .sessionInit, body: .sessionInit(.mobile(deviceId: name))),
                     Packet(cmd: .response, seq: 1, opcode: .sessionInit,
                            body: .sessionInitResponse(SessionInitResponse(time: epoch))))
        let chat = ChatSummary(id: 1, members: users.map(\.id), modified: epoch, lastMessage: nil)
        // A never-synced LOGIN (contactsSync -1) is answered with the other members of the user's chats as contacts
        // (docs/protocol.md §4), as the virtual server answers it: a replay against the server compares the count.
        let contacts = users.filter { $0.id != user }.map { Contact(id: $0.id, name: $0.name) }
        let loginAnswer = try exchange(
            Packet(cmd: .request, seq: 2, opcode: .login,
                   body: .login(LoginRequest(token: "token-\(name)", chatsSync: -1, contactsSync: -1, chatsCount: 100))),
            Packet(cmd: .response, seq: 2, opcode: .login,
                   body: .loginResponse(LoginResponse(profile: Profile(id: user, name: name), chats: [chat],
                                                      contacts: contacts, time: epoch))))
        let stored = ChatMessage(id: 1, time: epoch + 3_000, sender: 1, text: "hi", cid: 7)
        time = start + 3_000_000_000
        if sends {
            try exchange(Packet(cmd: .request, seq: 3, opcode: .msgSend,
                                body: .msgSend(MsgSendRequest(chatId: 1, message: OutgoingMessage(text: "hi", cid: 7)))),
                         Packet(cmd: .response, seq: 3, opcode: .msgSend,
                                body: .msgSendResponse(MsgSendResponse(chatId: 1, message: stored))))
        } else {
            time += rtt
            add(connection.send(try encoder.encode(Packet(cmd: .request, seq: 0, opcode: .notifMessage,
                                                          body: .notifMessage(NotifMessage(chatId: 1, message: stored)))),
                                .serverToClient))
        }
        return (packets, loginAnswer)
    }

    /// The capture `file` names (see `DamagedCaptureTests.cases`).
    static func capture(_ file: String) throws -> PcapngWriter {
        let alice = try session(host: 2, port: 40_000, user: 1, name: "alice", start: 0, sends: true)
        var bob = try session(host: 3, port: 40_001, user: 2, name: "bob", start: 5_000_000, sends: false)
        switch file {
        case "gap.pcapng":
            // The SESSION_INIT answer to bob is lost to the capture; the LOGIN answer after it shows the hole.
            bob.remove(at: 4)
        case "out-of-order.pcapng":
            // bob's LOGIN answer in small segments, two of them captured in reverse order.
            let marked = try sessionMarked(host: 3, port: 40_001, user: 2, name: "bob", start: 5_000_000, sends: false,
                                           mss: 40)
            bob = marked.packets
            let first = marked.loginAnswer.lowerBound
            (bob[first].time, bob[first + 1].time) = (bob[first + 1].time, bob[first].time)
        case "duplicated.pcapng":
            // bob's SESSION_INIT answer twice (a retransmission the capture saw).
            bob.insert((bob[4].time + 1_000_000, bob[4].bytes), at: 5)
        case "no-handshake.pcapng":
            // The capture started after bob's handshake.
            bob.removeFirst(3)
        case "two-clients-one-address.pcapng":
            // bob behind alice's address (one NAT), his session overlapping hers.
            bob = try session(host: 2, port: 40_001, user: 2, name: "bob", start: 5_000_000, sends: false)
        default:
            break
        }
        var writer = PcapngWriter(interfaces: [.init(name: "synthetic")])
        let base: Int64 = 1_700_000_000_000_000_000
        let packets = (alice + bob).enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        for packet in packets.map(\.element) {
            writer.append(packet.bytes, timestamp: CaptureTimestamp(nanosecondsSinceEpoch: base + packet.time))
        }
        return writer
    }
}
