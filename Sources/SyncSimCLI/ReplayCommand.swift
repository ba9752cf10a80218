import Foundation
import SimCore
import SyncSim
import SyncTrace

/// `syncsim replay TRACE`: drives the virtual server or a client engine from a capture, or turns it into a scenario.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        summary: "replay a capture against the virtual server or a client engine, or emit it as a scenario",
        help: """
            usage: syncsim replay TRACE --against server|client [--client ADDRESS] [--mutant NAME] [--port N]...
                                  [--keep-truncated] [--tls-keylog FILE]
                   syncsim replay TRACE --emit-scenario NAME [--port N]... [--keep-truncated] [--tls-keylog FILE]
                   syncsim replay TRACE --run [--emit-scenario NAME] [--seeds A..B] [--mutant NAME] [--shrink]
                                  [--junit FILE] [--trace FILE] [--check-determinism] [other `run` options]
                                  [--port N]... [--keep-truncated] [--tls-keylog FILE]

            Reads a pcap/pcapng capture of the protocol (a field capture, or one written by `syncsim run --pcap`),
            decodes its frames per TCP connection, and rebuilds the server's data the capture shows: users (LOGIN
            tokens and the profiles answered), chats and members, and the messages that existed before (seen by
            a client, created by no captured MSG_SEND).

            --against server  feeds every client->server frame to the virtual server at its capture time (time 0
                              is the first packet) and compares the server's answers with the captured ones.
                              Rules, per connection: each captured response or error is paired with the first
                              replayed answer of the same seq; the two must have the same cmd and opcode and the
                              same payload shape: body kind, number of chats and contacts (LOGIN), number and
                              texts of messages (CHAT_HISTORY, MSG_SEND), error code (errors). Message ids, times
                              and server clocks may differ and are not compared; a request naming a message
                              (MSG_EDIT, MSG_DELETE, CHAT_MARK) is fed with the rebuilt server's id of it, one
                              naming a group chat or photo token the capture made with the replay's own. An
                              answer on one side only is a difference; pushes are compared as counts per opcode.
                              A connection closes at the first FIN or RST of either side; on one the server
                              closed first, pushes after the captured server's last frame there are not counted.
                              What the rebuilt server sends after the capture ends (for a capture cut short and
                              read with --keep-truncated, after a connection's last captured frame) and no
                              captured answer pairs with is not counted either. Requests of different
                              connections captured within 2 ms of each other are fed in the order the server
                              answered them (each connection's own in their order). A request lost in a gap of
                              the capture whose answer it shows is named in a note: a plain MSG_SEND is rebuilt
                              from its answer and fed, any other is not, and its answer is not compared. When
                              the connections go to more than one server endpoint, a note names them: all are
                              replayed into one rebuilt server (--port N keeps one).
            --against client  feeds the server->client frames of one client (--client ADDRESS, default the
                              first) to the reference client engine, or to --mutant NAME, connection by
                              connection as the engine asks to connect, and checks C1, C4 and P1-P4 over what it
                              builds (the other invariants need the whole server). Where several users
                              logged in from one address (a NAT, or one host's loopback), each is a client
                              of its own, ADDRESS#n in the order they logged in (127.0.0.1#2).
            --emit-scenario NAME  prints a DSL scenario reproducing the timeline: clients named after their
                              users, earlier messages as server history, a message first seen in a push and
                              stored by no captured MSG_SEND as PostFromOtherDevice by its sender, MSG_SEND as
                              Send (several photos: SendPhotos and an Always(.photosComplete)), a chat's first
                              CHAT_HISTORY as OpenChat and later ones as ScrollUp, a connection that closes before
                              the next one as LinkDown(for:), gaps between requests as After delays, the
                              server share of response times as the server's processingDelay (their 10th
                              percentile when they spread, else their median) and their spread (90th less 10th
                              percentile) as its processingJitter. To keep it, put it in a file under
                              Scenarios/ as `extension Catalog { static let myName = <the scenario> }` and add
                              myName to Catalog.all. NAME: an ASCII letter, then letters, digits, '-' and '_'.
                              Inferred steps (link profile per client from RTT and retransmissions, link
                              drops as LinkDown(for:, .silently/.withReset), lost, error and slow answers as
                              LoseResponses, ErrorReplies, DelayResponses) carry a comment naming their packets;
                              doubts about the capture are comments above it, and what cannot be placed is
                              also listed on stderr. See docs/roundtrip.md for how faithful this is.
            --run             emits the scenario in process and runs it as `syncsim run` would, with its
                              options (seed 1 unless --seed/--seeds); exit codes as for `run`. The
                              scenario is named after its content, replayed-<8 hex digits of its DSL
                              source's digest> (the same for a copy of the capture under another name, so
                              the digests are too; stderr says which capture it came from), or NAME with
                              --emit-scenario NAME
              --port N        keep only connections with port N on either end (repeatable)
              --keep-truncated  \(TraceDecodeCommand.CaptureOptions.keepTruncatedHelp)
              --tls-keylog FILE  decrypt TLS connections with this NSS key log (SSLKEYLOGFILE) through tshark;
                              without it a TLS connection is refused (exit 2). See docs/traces.md

            A capture whose connections carry no frame of the protocol (another protocol: decode reports bad
            frame headers) is an input error in every mode, not an empty replay that passes.

            exit codes: 0 no difference / no violation, 1 differences or violations, 2 usage or input error

            examples: syncsim replay Fixtures/pymax-session/pymax-2.5.0-tcp-session.pcap --against server
                      (a capture taken at the server: 0 differences, exit 0)
                      syncsim run reconnect-during-send --seed 1 --pcap run.pcapng
                      syncsim replay run.pcapng --against server
                      (a capture taken on the phone: the server's answers the dropped link lost never reached it,
                      so they are differences, exit 1; docs/traces.md)
            """,
        run: { arguments, console in try run(&arguments, &console) }
    )

    /// `replay CAPTURE --run [run options]`: emits the scenario in process and hands it to `syncsim run`'s
    /// machinery (seeds, mutant, JUnit, trace, determinism, shrinking), as if it were the only catalog entry.
    static func runEmitted(_ arguments: inout ArgumentList, _ console: inout Console) throws -> Int32 {
        let against = try arguments.value(of: "--against")
        let emitName = try arguments.value(of: "--emit-scenario")
        if let emitName { try Self.requireScenarioName(emitName) }
        let captureOptions = try TraceDecodeCommand.CaptureOptions(&arguments, takesSummary: false)
        let file = arguments.removeFirstPositional(valueOptions: Self.runValueOptions)
        // `run`'s parser reads the rest and rejects what nobody took before the capture is read.
        var command = try RunCommand(parsing: &arguments, catalog: {
            if against != nil { throw UsageError("give either --run or --against server|client, not both") }
            guard let file else { throw UsageError("expected one capture file, got 0") }
            let timeline = try Self.timeline(file, options: captureOptions, console: console)
            Self.endpointNote(timeline).map { console.err("note: \($0)") }
            var emission = ReplayScenarioEmitter(timeline: timeline, model: ReplayWorldModel(timeline))
                .emission(named: emitName ?? Self.unnamedScenario)
            try Self.requireValid(emission.scenario, capture: file)
            if emitName == nil {
                emission.scenario.name = Self.scenarioName(of: emission.scenario)
                console.err("note: \(file) runs as scenario \(emission.scenario.name), named after its content "
                    + "(a copy of the capture under another name runs the same, with the same digests); "
                    + "--emit-scenario NAME names it")
            }
            emission.unplaced.forEach { console.err("note: \($0)") }
            return [emission.scenario]
        })
        // The scenario lives in no catalog: a failure is repeated by replaying the capture again, with this seed.
        let repeated = ["replay", file ?? "", "--run"] + (emitName.map { ["--emit-scenario", $0] } ?? [])
            + captureOptions.arguments
        command.reproduce = { result, program in
            ([program] + repeated + ["--seed", String(result.seed)] + (result.mutant.map { ["--mutant", $0] } ?? []))
                .map(Self.shellWord).joined(separator: " ")
        }
        return try command.execute(console: &console, executor: RunCommand.defaultExecutor,
                                   defaultRandomBase: { 1 })
    }

    /// Checks the scenario made from capture `file` as the catalog's are checked before a run, so that
    /// `--emit-scenario` never prints, and `--run` never runs, one that cannot run.
    /// - Throws: `InputFileError` naming the capture and every problem: what a capture gives such a scenario is
    ///   frames that did not decode (a LOGIN answer: its users and chats unknown) or times no scenario can hold
    ///   (captures merged from different years).
    static func requireValid(_ scenario: Scenario, capture file: String) throws {
        var problems: [String] = []
        for problem in scenario.problems().map(\.detail) where !problems.contains(problem) { problems.append(problem) }
        guard !problems.isEmpty else { return }
        let shown = problems.prefix(3).joined(separator: "; ")
            + (problems.count > 3 ? "; and \(problems.count - 3) more" : "")
        throw InputFileError(
            description: "\(file): the scenario made from this capture cannot run: \(shown) (frames that did not "
                + "decode leave users, chats and members unknown, and captures merged from different times span more "
                + "than a scenario holds: 'syncsim decode \(file)' lists the frames, their times and issues)")
    }

    /// `word` as a POSIX shell reads it back: as it is when it holds only safe characters, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/:=@%+-")
        if !word.isEmpty, word.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The options of `syncsim run` that take a value: the capture file is the first argument that is neither an
    /// option nor such an option's value.
    static let runValueOptions: Set<String> = [
        "--seed", "--seeds", "--random", "--random-base", "--mutant", "--junit", "--trace", "--store-dir", "--jobs",
        "--shrink-out", "--trace-window", "--pcap", "--shard", "--grep", "--tag",
    ]

    /// Checks a name given to `--emit-scenario`: an ASCII letter, then ASCII letters, digits, `-` and `_`
    /// (`replayed-session`, as catalog names are spelled), so that the scenario passes validation, its name needs no
    /// quoting in a reproduce line, and `Scenario.propertyName(for:)` turns it into a Swift identifier for the
    /// catalog entry `--shrink-out` writes.
    /// - Throws: `UsageError` naming the value and what a name may hold.
    static func requireScenarioName(_ name: String) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        let problem: String? = if let first = name.first {
            if !(first.isASCII && first.isLetter) {
                "'\(name)', which starts with \(describe(first))"
            } else if let bad = name.first(where: { !allowed.contains($0) }) {
                "'\(name)', which holds \(describe(bad))"
            } else {
                nil
            }
        } else {
            "an empty name"
        }
        if let problem {
            throw UsageError("--emit-scenario: expected a scenario name of ASCII letters, digits, '-' and '_', "
                + "starting with a letter (e.g. replayed-session), got \(problem)")
        }
    }

    /// A character as an error names it: `a space`, `'+'`.
    private static func describe(_ character: Character) -> String {
        switch character {
        case " ": "a space"
        case "\t": "a tab"
        case "\n": "a newline"
        default: "'\(character)'"
        }
    }

    /// The name a scenario is emitted under before `scenarioName(of:)` names it after its content.
    static let unnamedScenario = "replayed"

    /// `replayed-<8 hex digits>`: the first half of the FNV-1a 64 digest of `scenario`'s DSL source under the name
    /// `unnamedScenario`. A run's trace starts with its scenario's name (and `--random` seeds are drawn by it), so a
    /// name taken from the capture's file name gave a copy of the capture under another name other digests; one
    /// taken from what the scenario runs gives the same scenario the same name wherever its capture came from.
    static func scenarioName(of scenario: Scenario) -> String {
        var unnamed = scenario
        unnamed.name = unnamedScenario
        let digest = FNV1a64.digestHex(ofBytes: Array(unnamed.dslSource().utf8))
        return unnamedScenario + "-" + digest.prefix(8)
    }

    /// The capture decoded and laid out for replay; with `--keep-truncated`, a note on standard error when the
    /// capture breaks off.
    /// - Throws: `InputFileError` for a file that cannot be read or is empty, for a capture without TCP
    ///   connections (on the ports asked for) and for one whose connections carry no frame of the protocol (every
    ///   mode would replay nothing and pass); `TruncatedCaptureError` for a capture that breaks off (without
    ///   `--keep-truncated`); the decoder's errors for other unreadable captures, for TLS without a key log
    ///   (`.rejectEncrypted`) and for a key log that does not decrypt it.
    static func timeline(
        _ file: String, options: TraceDecodeCommand.CaptureOptions, console: Console
    ) throws -> ReplayTimeline {
        try options.requireFiles(capture: file)
        let decoding = try options.reading { try TraceDecoder().decode(path: file, readOptions: options.readOptions) }
        let timeline = ReplayTimeline(decoding)
        guard !timeline.connections.isEmpty else { throw options.noConnection(file, verb: "replay") }
        guard decoding.connections.contains(where: { !$0.frames.isEmpty }) else {
            throw TraceDecodeCommand.noFrame(file, decoding: decoding, options: options, verb: "replay")
        }
        if let error = Self.snapLengthCut(file, decoding: decoding) { throw error }
        TraceDecodeCommand.CaptureOptions.captureNotes(decoding.trace).forEach { console.err($0) }
        return timeline
    }

    /// The error for a capture whose snap length cut protocol bytes off, or nil: a replay of it would report every
    /// frame lost in a cut as a difference (a helper's `editcap -s 160` of a clean capture read 48 differences, all
    /// of them the cut's), so it is refused, naming the first cut and the count.
    static func snapLengthCut(_ file: String, decoding: TraceDecoder.Decoding) -> InputFileError? {
        var cuts: [(connection: Int, direction: TraceDirection, gap: StreamGap)] = []
        for frames in decoding.connections where frames.httpRequestLine == nil && !frames.frames.isEmpty {
            for direction in TraceDirection.allCases {
                for gap in frames.connection.stream(direction).gaps where gap.cause == .cutBySnapLength {
                    cuts.append((frames.connection.number, direction, gap))
                }
            }
        }
        guard let first = cuts.first else { return nil }
        let side = first.direction == .clientToServer ? "client-to-server" : "server-to-client"
        return InputFileError(description: "\(file): packets cut short by the capture (its snap length) lost "
            + "protocol bytes: connection \(first.connection) \(side), \(first.gap)"
            + (cuts.count > 1 ? ", and \(cuts.count - 1) more cuts" : "")
            + "; replay needs whole frames (capture with 'tcpdump -s 0'; 'syncsim decode \(file)' reads what is left)")
    }

    /// One line per gap of a chat connection's stream, in connection order, then stream order: what the capture lost
    /// there and what the replay made of it. Client to server: the requests lost whose answers the capture shows,
    /// each rebuilt and replayed (a plain MSG_SEND) or left out with its answer uncompared, and that later answers
    /// may differ for what a request not rebuilt changed; server to client: answers and pushes the replay sends and
    /// the capture lacks.
    static func gapNotes(_ timeline: ReplayTimeline, lost: [ReplayLostRequests.Lost]) -> [String] {
        var notes: [String] = []
        for connection in timeline.connections where connection.role == .chat {
            for gap in connection.tcp.clientGaps {
                let inGap = lost.filter { $0.connection == connection.number && $0.gap.offset == gap.offset }
                let restored = inGap.filter(\.restored).map { "seq \($0.seq) \($0.opcode)" }
                let dropped = inGap.filter { !$0.restored }.map { "seq \($0.seq) \($0.opcode)" }
                var line = "connection \(connection.number) client-to-server: \(gap.description): the server got "
                    + (inGap.isEmpty ? "bytes there (a request, or part of one)" : "a request there")
                    + " the capture does not hold"
                if !restored.isEmpty {
                    line += "; rebuilt from its captured answer and replayed: " + restored.joined(separator: ", ")
                }
                if !dropped.isEmpty {
                    line += "; not replayed, its captured answer not compared: " + dropped.joined(separator: ", ")
                }
                if restored.isEmpty || !dropped.isEmpty {
                    line += "; the server's answers after it may differ for what the lost request changed"
                }
                notes.append(line)
            }
            for gap in connection.tcp.serverGaps {
                notes.append("connection \(connection.number) server-to-client: \(gap.description): answers and "
                    + "pushes the server sent there are not in the capture, so the replay's show as differences")
            }
        }
        return notes
    }

    /// A line naming the server endpoints when the capture's chat connections go to more than one, nil otherwise:
    /// the replay rebuilds one server from all of them, which is right for one server reached at two addresses (a
    /// relay, IPv4 and IPv6) and wrong for two servers, whose users, chats and message ids then mix (a capture of two
    /// `syncsim serve`s read 15 differences, each server's connections alone 0). Endpoints in first-connection order.
    static func endpointNote(_ timeline: ReplayTimeline) -> String? {
        var endpoints: [(server: String, connections: [Int])] = []
        for connection in timeline.connections where connection.role == .chat && !connection.entries.isEmpty {
            if let index = endpoints.firstIndex(where: { $0.server == connection.server }) {
                endpoints[index].connections.append(connection.number)
            } else {
                endpoints.append((connection.server, [connection.number]))
            }
        }
        guard endpoints.count > 1 else { return nil }
        func port(_ server: String) -> String {
            server.lastIndex(of: ":").map { String(server[server.index(after: $0)...]) } ?? ""
        }
        // At most five connection numbers each (a busy capture has dozens).
        let named = endpoints.map { endpoint in
            let shown = endpoint.connections.prefix(5).map(String.init).joined(separator: ", ")
            let more = endpoint.connections.count > 5 ? " and \(endpoint.connections.count - 5) more" : ""
            return "\(endpoint.server) (" + (endpoint.connections.count == 1 ? "connection " : "connections ")
                + shown + more + ")"
        }
        var ports: [String] = []
        for endpoint in endpoints where !ports.contains(port(endpoint.server)) { ports.append(port(endpoint.server)) }
        // --port keeps one endpoint only where the endpoints' ports differ.
        let split = ports.count == endpoints.count
            ? "replay each alone with " + ports.map { "--port \($0)" }.joined(separator: " or ")
            : "replay each alone from a capture cut to its address (tcpdump -r FILE -w PART host ADDRESS)"
        return "the capture's connections go to \(endpoints.count) server endpoints: " + named.joined(separator: ", ")
            + "; they are replayed into one rebuilt server, so if they are different servers their users, chats and "
            + "messages mix and answers differ: " + split
    }

    static func run(_ arguments: inout ArgumentList, _ console: inout Console) throws -> Int32 {
        if arguments.flag("--run") { return try runEmitted(&arguments, &console) }
        let against = try arguments.value(of: "--against")
        let emitName = try arguments.value(of: "--emit-scenario")
        let clientOption = try arguments.value(of: "--client")
        let mutantName = try arguments.value(of: "--mutant")
        let captureOptions = try TraceDecodeCommand.CaptureOptions(&arguments, takesSummary: false)
        let files = arguments.positionals()
        try arguments.finish()
        if let emitName { try Self.requireScenarioName(emitName) }
        if let against, against != "server" && against != "client" {
            throw UsageError("option --against: expected server or client, got '\(against)'")
        }
        var mutant: SyncClient.Mutant?
        if let mutantName {
            guard let found = SyncClient.Mutant(rawValue: mutantName) else {
                // A server mutant (`syncsim list --mutants` lists both kinds) changes the server, which
                // `--against client` does not run and `--run` builds from the catalog's knobs.
                if let server = SyncSim.Mutant.all.first(where: { $0.name == mutantName && $0.isServerMutant }) {
                    throw UsageError("mutant '\(server.name)' is a server mutant; replay --mutant takes client "
                        + "mutants: " + SyncClient.Mutant.allCases.map(\.rawValue).joined(separator: ", "))
                }
                throw UsageError(Suggestion.unknown(
                    "mutant", mutantName, among: SyncClient.Mutant.allCases.map(\.rawValue), listedAs: "mutants"))
            }
            mutant = found
        }
        guard files.count == 1, let file = files.first else {
            throw UsageError("expected one capture file, got \(files.count)")
        }
        if against != nil && emitName != nil {
            throw UsageError("give either --against server|client or --emit-scenario NAME, not both "
                + "(--run takes --emit-scenario NAME to name the scenario it runs)")
        }
        guard against != nil || emitName != nil else {
            throw UsageError("give one of --against server|client, --emit-scenario NAME or --run")
        }
        if mutant != nil && against != "client" { throw UsageError("--mutant goes with --against client") }
        if clientOption != nil && against != "client" { throw UsageError("--client goes with --against client") }
        let timeline = try Self.timeline(file, options: captureOptions, console: console)
        let model = ReplayWorldModel(timeline)
        if let emitName {
            // A scenario made from two servers' connections mixes their users and chats as a replay does.
            Self.endpointNote(timeline).map { console.err("note: \($0)") }
            let emission = ReplayScenarioEmitter(timeline: timeline, model: model).emission(named: emitName)
            try Self.requireValid(emission.scenario, capture: file)
            console.out(emission.source())
            emission.unplaced.forEach { console.err("note: \($0)") }
            return ExitCode.success
        }
        switch against {
        case "server":
            // Lost MSG_SENDs rebuilt from their answers are fed, and the model built with them (not as messages
            // that existed before the capture).
            let (restored, lost) = ReplayLostRequests.restoring(timeline)
            let outcome = ReplayAgainstServer(timeline: restored, model: ReplayWorldModel(restored), lost: lost).run()
            Self.gapNotes(restored, lost: lost).forEach { console.err("note: \($0)") }
            Self.endpointNote(restored).map { console.err("note: \($0)") }
            outcome.differences.forEach { console.out($0.description) }
            for number in outcome.uncomparedConnections {
                console.err("note: connection \(number): no handshake in the capture (it was logged in before the "
                    + "capture started), so its answers are not compared: the rebuilt server never saw its LOGIN")
            }
            console.out("replayed \(counted(outcome.requests, "request")) on "
                + "\(counted(timeline.connections.count, "connection")) against the server: "
                + "\(counted(outcome.comparedAnswers, "answer")) compared, "
                + "\(counted(outcome.differences.count, "difference"))"
                + (outcome.lostAnswers > 0
                    ? " (\(counted(outcome.lostAnswers, "answer")) to requests lost from the capture not compared)" : "")
                + "; digest \(outcome.digestHex)")
            if outcome.comparedAnswers == 0, outcome.differences.isEmpty, outcome.requests > 0 {
                // Nothing was checked: passing would say the server agrees with a capture it was never compared to.
                console.err("error: \(file): no captured answer could be compared with the server's (see the notes "
                    + "above); capture from before the client connects")
                return ExitCode.usage
            }
            return outcome.differences.isEmpty ? ExitCode.success : ExitCode.checkFailed
        case "client":
            let address = clientOption ?? timeline.clientAddresses[0]
            guard timeline.clientAddresses.contains(address) else {
                throw UsageError("no connection from client \(address); clients: "
                    + timeline.clientAddresses.joined(separator: ", "))
            }
            let outcome = try ReplayAgainstClient(timeline: timeline, model: model, clientAddress: address,
                                                  mutant: mutant).run()
            outcome.findings.forEach { console.out("FAIL  \($0)") }
            if let stop = outcome.stoppedIdleAt {
                console.err("note: the capture had nothing left for the engine; the replay stopped at \(stop) after "
                    + "\(ReplayAgainstClient.idleEventLimit) engine-only events, before the capture's end "
                    + "(\(timeline.end): a corrupt timestamp?)")
            }
            let checks = ReplayAgainstClient.checkedInvariants.map(\.rawValue).joined(separator: " ")
            console.out("replayed \(counted(outcome.packetsDelivered, "server frame")) on "
                + "\(counted(outcome.connections, "connection")) to \(outcome.client) "
                + "(\(mutant.map { "mutant \($0.rawValue)" } ?? "reference engine"), "
                + "\(counted(outcome.packetsSent, "packet")) sent): \(counted(outcome.findings.count, "violation")) "
                + "of \(checks); digest \(outcome.digestHex)")
            return outcome.findings.isEmpty ? ExitCode.success : ExitCode.checkFailed
        default:
            throw UsageError("option --against: expected server or client, got '\(against ?? "")'")
        }
    }
}
