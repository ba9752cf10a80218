import Foundation
import SyncProtocol
import SyncSim
import SyncTrace
import Testing

@testable import SyncSimCLI

/// Fixtures/pymax-session/pymax-2.5.0-tcp-session.pcap: PyMax 2.5.0's whole interop session over TCP as alice and bob
/// (Fixtures/pymax-session/README.md): a photo with its HTTP upload, a group created and changed, pins, reactions,
/// a profile rename.
@Suite struct PymaxSessionCaptureTests {
    static let capture = TraceDecodeCommandTests.fixture("pymax-session/pymax-2.5.0-tcp-session.pcap")

    /// Before, the photo's HTTP POST to serve's port was read as frames: a bad frame header each way and every byte
    /// skipped to resync.
    @Test("the photo's HTTP upload is a connection of plain HTTP, not bad frames; no connection has an issue")
    func decodes() throws {
        let decoding = try TraceDecoder().decode(path: Self.capture)
        #expect(decoding.connections.count == 8)
        let http = decoding.connections.filter { $0.httpRequestLine != nil }
        #expect(http.map(\.connection.number) == [4])
        #expect(http.first?.httpRequestLine == "POST /upload?photoIds=1 HTTP/1.1")
        #expect(http.first?.frames.isEmpty == true)
        for connection in decoding.connections {
            #expect(connection.issues.isEmpty, "connection \(connection.connection.number): \(connection.issues)")
        }
        // The timeline takes it for an upload (a photo's bytes), as it does a frameless connection to another host.
        let timeline = ReplayTimeline(decoding)
        #expect(timeline.connections.filter { $0.role == .upload }.map(\.number) == [4])
        let line = TraceDecodeCommandTests.run(["decode", Self.capture]).out.first { $0.contains("\"connection\":4,") }
        #expect(line?.contains("\"transport\":\"http\",\"httpRequest\":\"POST /upload?photoIds=1 HTTP/1.1\"") == true,
                "\(line ?? "no line")")
    }

    /// Before: the group's chat was seeded as if it existed before the capture (every LOGIN answered a chat too
    /// many), its member changes and CHAT_LEAVE went to that seeded chat and were refused, and the photo's MSG_SEND
    /// was refused as never uploaded: 15 differences.
    @Test("replayed against the server, every answer agrees: the group is made by the replay, the photo is uploaded")
    func replays() {
        let server = TraceDecodeCommandTests.run(["replay", Self.capture, "--against", "server"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out.last?.hasPrefix("replayed 54 requests on 8 connections against the server: 54 answers "
                                           + "compared, 0 differences;") == true, "\(server.out)")
    }

    /// Fixtures/pymax-session/pymax-2.5.0-tcp-links-folders.pcap (session 34): invite links, group options and folders,
    /// and two raw connections the test closes right after their answer. Before, the replay closed a connection at its
    /// last packet, after the FIN exchange, so a push the other user's send made just after the client's FIN went
    /// there too: 2 differences (a NOTIF_MESSAGE and a NOTIF_CHAT the captured server never sent).
    @Test("a session with invite links and folders replays with no difference; a client's FIN closes its connection")
    func replaysLinksAndFolders() throws {
        let capture = TraceDecodeCommandTests.fixture("pymax-session/pymax-2.5.0-tcp-links-folders.pcap")
        let decoding = try TraceDecoder().decode(path: capture)
        for connection in decoding.connections {
            #expect(connection.issues.isEmpty, "connection \(connection.connection.number): \(connection.issues)")
        }
        let opcodes = Set(decoding.connections.flatMap { $0.frames.map(\.decoded.frame.opcode) })
        #expect([Opcode.chatJoin, .linkInfo, .foldersGet, .foldersUpdate, .foldersDelete].allSatisfy(opcodes.contains))
        let server = TraceDecodeCommandTests.run(["replay", capture, "--against", "server"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out.last?.hasPrefix("replayed 74 requests on 12 connections against the server: 74 answers "
                                           + "compared, 0 differences;") == true, "\(server.out)")
    }

    /// Fixtures/pymax-session/pymax-2.1.0-websocket-session.pcap (session 34): PyMax 2.1.0's `WebClient` over WebSocket.
    /// The test's drop closed alice's connection 0.2 ms after bob's next MSG_SEND arrived, and serve handled the drop
    /// first, so that message was never pushed there. Before, the replay pushed it on the dropped connection: 1
    /// difference (NOTIF_MESSAGE pushes, 7 captured, 8 replayed).
    @Test("a send that arrived just before the server dropped a connection is not counted as a push on it")
    func replaysWebSocketSessionWithDrop() {
        let capture = TraceDecodeCommandTests.fixture("pymax-session/pymax-2.1.0-websocket-session.pcap")
        let server = TraceDecodeCommandTests.run(["replay", capture, "--against", "server"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out.last?.hasPrefix("replayed 71 requests on 13 connections against the server: 71 answers "
                                           + "compared, 0 differences;") == true, "\(server.out)")
    }

    /// Before: a capture cut inside a record (tcpdump killed while writing) and read with --keep-truncated counted
    /// the answers and pushes lost in the cut record as differences (3,000 bytes of the session: the LOGIN answer;
    /// 30,000 bytes: a NOTIF_MESSAGE and a NOTIF_CHAT), exit 1.
    @Test("a capture cut short and read with --keep-truncated replays what it holds with no difference",
          arguments: [3_000, 6_000, 12_000, 30_000])
    func truncatedCapture(bytes: Int) throws {
        let whole = try #require(FileManager.default.contents(atPath: Self.capture))
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("syncsim-cut-\(bytes)-\(getpid()).pcap").path
        try Data(whole.prefix(bytes)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = TraceDecodeCommandTests.run(["replay", path, "--against", "server", "--keep-truncated"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out.last?.contains(" answers compared, 0 differences; digest ") == true, "\(server.out)")
        #expect(server.err.contains("note: --keep-truncated: stopped early"))
    }

    /// A field server numbers a group chat its own way (large negative ids) and hands out opaque photo tokens: the
    /// rebuilt server's `max + 1` and `photo-N` match neither, so the replay must carry its own ids into every
    /// request that names them.
    @Test("with the group's chat id and the photo token as a field server gives them, the replay still agrees")
    func fieldNumbering() throws {
        let decoding = try TraceDecoder().decode(path: Self.capture)
        var timeline = ReplayTimeline(decoding)
        let fieldChat: Int64 = -70_000_000_000_123
        let fieldToken = "fX9aQ2Lw7cZ0pRkB1nV-t"
        var renamed = 0
        for connection in timeline.connections.indices {
            for index in timeline.connections[connection].entries.indices {
                let packet = timeline.connections[connection].entries[index].packet
                var frame = Frame(packet: packet)
                let payload = Self.fieldNumbered(frame.payload, chat: (2, fieldChat), token: ("photo-1", fieldToken))
                guard payload != frame.payload else { continue }
                frame.payload = payload
                timeline.connections[connection].entries[index].packet = try Packet(frame: frame)
                renamed += 1
            }
        }
        #expect(renamed > 20)
        let model = ReplayWorldModel(timeline)
        #expect(model.chats.map(\.id) == [1])
        let outcome = ReplayAgainstServer(timeline: timeline, model: model).run()
        #expect(outcome.comparedAnswers == 54)
        #expect(outcome.differences.map(\.description) == [])
    }

    @Test("the emitted scenario lists the group, pin, reaction and profile requests no DSL step makes")
    func emitsNotes() throws {
        let emission = TraceDecodeCommandTests.run(["replay", Self.capture, "--emit-scenario", "PymaxSession"])
        #expect(emission.code == 0)
        let notPlaced = emission.out.filter { $0.hasPrefix("// not placed: ") && $0.hasSuffix("the DSL has no step for it") }
        let what = notPlaced.map { $0.split(separator: ":").dropFirst(2).joined(separator: ":") }
        #expect(what.contains { $0.contains("group creation (MSG_SEND without chatId) by") }, "\(notPlaced)")
        for opcode in ["CHAT_MEMBERS_UPDATE", "CHAT_LEAVE", "CHAT_UPDATE", "PROFILE", "MSG_REACTION", "CONFIG"] {
            #expect(what.contains { $0.contains(" \(opcode) by ") }, "\(opcode): \(notPlaced)")
        }
    }

    /// Before: CHAT_JOIN, FOLDERS_UPDATE, FOLDERS_DELETE and CONTACT_UPDATE went unsaid, so the emitted scenario could
    /// be taken for the whole capture. Lookups (LINK_INFO, FOLDERS_GET) change nothing and are not listed.
    @Test("the emitted scenario also lists joins by link, folder and contact changes; not lookups")
    func emitsNotesForLinksAndFolders() {
        let capture = TraceDecodeCommandTests.fixture("pymax-session/pymax-2.5.0-tcp-links-folders.pcap")
        let emission = TraceDecodeCommandTests.run(["replay", capture, "--emit-scenario", "LinksFolders"])
        #expect(emission.code == 0)
        let notPlaced = emission.out.filter { $0.hasPrefix("// not placed: ") && $0.hasSuffix("the DSL has no step for it") }
        for (opcode, count) in [("CHAT_JOIN", 1), ("FOLDERS_UPDATE", 2), ("FOLDERS_DELETE", 1), ("CONTACT_UPDATE", 2),
                                ("LINK_INFO", 0), ("FOLDERS_GET", 0)] {
            #expect(notPlaced.filter { $0.contains(" \(opcode) by ") }.count == count, "\(opcode): \(notPlaced)")
        }
    }

    /// `value` with chat `chat.0` named `chat.1` (as `chatId`, and as a chat object's `id`) and photo token `token.0`
    /// as `token.1`, wherever it appears.
    static func fieldNumbered(_ value: MessagePackValue, chat: (Int64, Int64), token: (String, String))
        -> MessagePackValue
    {
        switch value {
        case .array(let elements):
            return .array(elements.map { fieldNumbered($0, chat: chat, token: token) })
        case .map(let pairs):
            let isChat = pairs.contains { $0.key == .string("participants") }
            return .map(pairs.map { pair in
                switch (pair.key, pair.value) {
                case (.string("chatId"), .uint(UInt64(chat.0))),
                     (.string("id"), .uint(UInt64(chat.0))) where isChat:
                    return MessagePackPair(pair.key, .int(chat.1))
                case (.string("photoToken"), .string(token.0)):
                    return MessagePackPair(pair.key, .string(token.1))
                default:
                    return MessagePackPair(pair.key, fieldNumbered(pair.value, chat: chat, token: token))
                }
            })
        default:
            return value
        }
    }
}
