import Foundation
import Scenarios
import SyncSim
import SyncTrace

/// `syncsim serve`: the virtual server behind a real TCP listener on 127.0.0.1, for real clients and tcpdump.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve",
        summary: "run the virtual server on a real TCP port on 127.0.0.1 (bounded by --duration/--max-connections)",
        help: """
            usage: syncsim serve --port P [--scenario NAME] [--profile PROFILE] [--seed N] [--duration TIME]
                                 [--max-connections N] [--history N] [--frame-log FILE] [--control-stdin]
                                 [--websocket-deflate] [--delete-notice auto|notif-msg-delete|removed-message]

            Runs the sans-IO SyncServer behind a TCP listener on 127.0.0.1:P (loopback only; P 0 picks a free
            port, printed on standard error's first line; log lines go to standard error, the summary to
            standard output). Its users, chats and history come from a catalog scenario's
            topology (--scenario NAME, default reconnect-during-send: users alice and bob, tokens token-alice and
            token-bob, chat alice+bob); its random draws from --seed (default 1). Time is the wall clock since
            start. It stops by itself after --duration (whole seconds or 20s, 2m, 1h; default 30 s, at most
            1 h), or once --max-connections connections were accepted and all closed; Ctrl-C (SIGINT) or kill
            (SIGTERM) stops it the same way, with the summary and exit code 0.

            --profile PROFILE shapes every chat connection's frames as that link profile would (\(profileList)):
            bytes each way are serialized at the direction's rate and arrive its one-way delay later (client to
            server: uplink; server to client: downlink). Loss, jitter and outages are not applied on a real socket;
            neither are the CDN's uploads and downloads on the same port, nor WebSocket handshakes and pongs.
            Default: no shaping (loopback speed).

            It speaks the field's protocol (docs/protocol.md): real clients such as PyMax connect with TLS off
            (docs/real-clients.md), over TCP or over a WebSocket on the same port (PyMax's WebClient at
            ws://127.0.0.1:P/websocket): a connection whose first byte is an HTTP GET is upgraded (RFC 6455),
            and its messages hold binary frames or JSON frames
            ({"ver":11,"cmd":0,"seq":1,"opcode":6,"payload":{...}}), answered in the kind of the first one.
            A TCP connection whose first byte is 11 is PyMax 1.x's SocketMaxClient (version 11, cmd u16, seq u8)
            and is answered in its header. LOGIN answers carry the keys PyMax 1.x requires too.
            The same port is the CDN: an HTTP POST to the url PHOTO_UPLOAD, FILE_UPLOAD or VIDEO_UPLOAD answered
            uploads the bytes (raw, or one multipart/form-data part), and an HTTP GET of /file/ID, /video/ID or
            /photo/ID (the addresses FILE_DOWNLOAD, VIDEO_PLAY and a photo's baseUrl give) serves them back;
            serve keeps uploads in memory until it exits; a slot takes one upload (a second POST is 409).
            Like field servers, serve closes a connection silent for \(idleSeconds) s (any bytes count: requests,
            PINGs, WebSocket ping frames). It never waits for a client to read: what a socket does not take is
            queued and written, in order, when it is writable; a connection with more than \(maxUnsentMiB) MiB
            queued is closed.
            --websocket-deflate agrees to a WebSocket client's permessage-deflate offer (RFC 7692; PyMax's
            WebClient makes one), so that messages both ways travel compressed; by default no extension is agreed.
            --delete-notice says how a connection hears that messages were deleted: notif-msg-delete (one
            NOTIF_MSG_DELETE push, as PyMax 2.x and vkmax read it), removed-message (one NOTIF_MESSAGE per
            message, with status REMOVED, as PyMax 1.2.5 reads it), or auto (default): removed-message for
            PyMax 1.x's TCP frames, notif-msg-delete for every other connection. PyMax 1.2.5 over WebSocket
            cannot be told apart from 2.x: give it removed-message.

            --history N seeds N more messages into every chat (senders alternating over
            its members), enough for a history page the server compresses. --frame-log FILE writes every frame in
            and out as one JSON line (time in ms, direction, connection, header in hex, decoded payload).
            --control-stdin reads control lines from standard input: `drop` closes every connection, `drop ID` or
            `drop NAME` those of one user (serve's second line lists the users with their ids and tokens), as a
            server dropping them would (the client sees the socket close).

            example: syncsim serve --port 7000 --max-connections 1 &
                     syncsim client --port 7000 --script "login; open alice+bob; send alice+bob hello; wait 2s"
            """,
        run: { arguments, console in try run(&arguments, &console) }
    )

    static func run(_ arguments: inout ArgumentList, _ console: inout Console) throws -> Int32 {
        let port = try arguments.int("--port", in: 0...65_535)
        let scenarioName = try arguments.value(of: "--scenario") ?? "reconnect-during-send"
        let profileName = try arguments.value(of: "--profile")
        let seed = try arguments.value(of: "--seed").map { try RunCommand.seed($0, option: "--seed") } ?? 1
        let duration = try arguments.value(of: "--duration").map {
            try ExploreCommand.wallClockDuration($0, option: "--duration", limit: .seconds(3_600))
        } ?? .seconds(30)
        let maxConnections = try arguments.int("--max-connections", in: 1...10_000)
        let history = try arguments.int("--history", in: 0...100_000) ?? 0
        let frameLogPath = try arguments.value(of: "--frame-log")
        let controlStdin = arguments.flag("--control-stdin")
        let webSocketDeflate = arguments.flag("--websocket-deflate")
        let deleteNoticeName = try arguments.value(of: "--delete-notice") ?? "auto"
        try arguments.finish()
        let names = ["auto"] + DeleteNotice.allCases.map(\.rawValue)
        guard names.contains(deleteNoticeName) else {
            throw UsageError(Suggestion.unknown("--delete-notice", deleteNoticeName, among: names, listedAs: "choices"))
        }
        guard let port else { throw UsageError("--port P is required") }
        guard let scenario = Catalog.all.first(where: { $0.name == scenarioName }) else {
            throw UsageError("unknown --scenario '\(scenarioName)'"
                + Suggestion.clause(for: scenarioName, among: Catalog.all.map(\.name))
                + "; 'syncsim list' shows the catalog scenarios")
        }
        let profile = try profileName.map(linkProfile(named:))
        let world = try World(scenario: scenario, seed: seed)
        let output = console
        var core = world.server
        // Real clients get every key the field's clients read, PyMax 1.x's too (`ServerKnobs.fullListKeys`).
        core.knobs.fullListKeys = true
        for chatId in core.chatIds where history > 0 {
            let members = core.members(ofChat: chatId)
            for number in 1...history {
                core.seedHistory(chatId: chatId, sender: members[number % members.count],
                                 texts: ["history message \(number) of chat \(chatId), seeded by syncsim serve"],
                                 now: .start)
            }
        }
        var server = try RealSocketServer(
            server: core, port: UInt16(port), duration: duration,
            maxConnections: maxConnections, profile: profile, log: { output.err($0) })
        if let frameLogPath {
            try OutputFile.prepare(frameLogPath)
            guard let file = FileHandle(forWritingAtPath: frameLogPath) else {
                throw OutputFileError(path: frameLogPath, reason: "cannot be opened for writing")
            }
            server.frameLog = { file.write(Data(($0 + "\n").utf8)) }
        }
        if controlStdin { server.controlDescriptor = 0 }
        // Photo uploads come back to this port as HTTP POSTs (`HTTPUpload`).
        server.server.knobs.cdnURL = "http://127.0.0.1:\(server.port)"
        server.webSocketDeflate = webSocketDeflate
        if let notice = DeleteNotice(rawValue: deleteNoticeName) {
            server.server.knobs.deleteNotice = notice
            server.deleteNoticeFollowsDialect = false
        }
        for userName in scenario.clients.map(\.userName) {
            if let id = world.userIdentifier(userName) { server.userIdsByName[userName] = id }
        }
        console.err(
            "serve: listening on 127.0.0.1:\(server.port) (scenario \(scenarioName), "
                + "profile \(profile?.name ?? "none"), seed \(seed)); stops after \(duration) (--duration)"
                + (maxConnections.map { " or \(counted($0, "connection"))" } ?? ""))
        console.err("serve: users: " + server.usersInIdOrder
            .map { "\($0.name) (id \($0.id), token token-\($0.name))" }.joined(separator: ", "))
        let summary = server.run()
        console.out("serve: \(counted(summary.connections, "connection")), "
            + "\(counted(summary.framesReceived, "frame")) received, "
            + "\(counted(summary.framesSent, "frame")) sent (\(summary.framesCompressed) compressed)")
        return ExitCode.success
    }

    /// The idle timeout's whole seconds (`ServerKnobs.idleTimeout`), for the help.
    private static let idleSeconds = (ServerKnobs().idleTimeout?.nanoseconds ?? 0) / 1_000_000_000
    /// `RealSocketServer.defaultMaxUnsentBytes` in MiB, for the help.
    private static let maxUnsentMiB = RealSocketServer.defaultMaxUnsentBytes / (1024 * 1024)

    private static let profileList = LinkProfile.catalog.filter { $0.downlink.rateBitsPerSecond > 0 }.map(\.name)
        .joined(separator: ", ")

    /// The link profile `name` (case-insensitive), for `--profile`.
    /// - Throws: `UsageError` for an unknown name, a profile that carries nothing (offline), or a scenario name
    ///   (what `--profile` took before `--scenario`).
    static func linkProfile(named name: String) throws -> LinkProfile {
        if Catalog.all.contains(where: { $0.name == name }) {
            throw UsageError("--profile takes a link profile (\(profileList)); name the scenario with --scenario \(name)")
        }
        guard let profile = LinkProfile.catalog.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw UsageError("unknown --profile '\(name)'; profiles: \(profileList)")
        }
        guard profile.uplink.rateBitsPerSecond > 0, profile.downlink.rateBitsPerSecond > 0 else {
            throw UsageError("--profile \(profile.name) carries no traffic; profiles: \(profileList)")
        }
        return profile
    }
}
