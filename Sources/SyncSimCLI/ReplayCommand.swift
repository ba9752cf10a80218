import SyncSim
import SyncTrace

/// `syncsim replay TRACE`: drives the virtual server or a client engine from a capture, or turns it into a scenario.
enum ReplayCommand {
    static let spec = CommandSpec(
        name: "replay",
        summary: "replay a capture against the virtual server or a client engine, or emit it as a scenario",
        help: """
            usage: syncsim replay TRACE --against server|client [--client ADDRESS] [--mutant NAME] [--port N]...
                   syncsim replay TRACE --emit-scenario NAME [--port N]...

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
                              and server clocks may differ and are not compared. An answer on one side only is a
                              difference; pushes are compared as counts per opcode.
            --against client  feeds the server->client frames of one client (--client ADDRESS, default the
                              first) to the reference client engine, or to --mutant NAME, connection by
                              connection as the engine asks to connect, and checks C1, C4 and P1-P4 over what it
                              builds (the other invariants need the whole server).
            --emit-scenario NAME  prints a DSL scenario reproducing the timeline: clients named after their
                              users, earlier messages as server history, MSG_SEND as Send, a chat's first
                              CHAT_HISTORY as OpenChat and later ones as ScrollUp, a connection that closes before
                              the next one as LinkDown(for:), gaps between requests as After delays, the median
                              server share of response times as the server's processingDelay. Paste it into
                              Scenarios/ and add it to Catalog.all.
              --port N        keep only connections with port N on either end (repeatable)

            exit codes: 0 no difference / no violation, 1 differences or violations, 2 usage or input error

            example: syncsim run reconnect-during-send --seed 1 --pcap run.pcapng
                     syncsim replay run.pcapng --against server
            """,
        run: { arguments, console in try run(&arguments, &console) }
    )

    static func run(_ arguments: inout ArgumentList, _ console: inout Console) throws -> Int32 {
        let against = try arguments.value(of: "--against")
        let emitName = try arguments.value(of: "--emit-scenario")
        let clientOption = try arguments.value(of: "--client")
        let mutantName = try arguments.value(of: "--mutant")
        let ports = try arguments.values(of: "--port").map { text -> UInt16 in
            guard let port = UInt16(text) else { throw UsageError("option --port: expected 0...65535, got '\(text)'") }
            return port
        }
        let files = arguments.positionals()
        try arguments.finish()
        guard files.count == 1, let file = files.first else {
            throw UsageError("expected one capture file, got \(files.count)")
        }
        guard (against == nil) != (emitName == nil) else {
            throw UsageError("give either --against server|client or --emit-scenario NAME")
        }
        var mutant: SyncClient.Mutant?
        if let mutantName {
            guard let found = SyncClient.Mutant(rawValue: mutantName) else {
                throw UsageError("unknown mutant '\(mutantName)'; mutants: "
                    + SyncClient.Mutant.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard against == "client" else { throw UsageError("--mutant goes with --against client") }
            mutant = found
        }
        let readOptions = TraceReader.Options(ports: ports.isEmpty ? nil : Set(ports))
        let decoding = try TraceDecoder().decode(path: file, readOptions: readOptions)
        let timeline = ReplayTimeline(decoding)
        guard !timeline.connections.isEmpty else { throw UsageError("\(file): no TCP connection to replay") }
        let model = ReplayWorldModel(timeline)
        if let emitName {
            console.out(ReplayScenarioEmitter(timeline: timeline, model: model).scenario(named: emitName).dslSource())
            return ExitCode.success
        }
        switch against {
        case "server":
            let outcome = ReplayAgainstServer(timeline: timeline, model: model).run()
            outcome.differences.forEach { console.out($0.description) }
            console.out("replayed \(outcome.requests) requests on \(timeline.connections.count) connections "
                + "against the server: \(outcome.comparedAnswers) answers compared, "
                + "\(outcome.differences.count) differences")
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
            console.out("replayed \(outcome.packetsDelivered) server frames on \(outcome.connections) connections "
                + "to \(outcome.client) (\(mutant.map { "mutant \($0.rawValue)" } ?? "reference engine"), "
                + "\(outcome.packetsSent) packets sent): \(outcome.findings.count) violations of \(checks)")
            return outcome.findings.isEmpty ? ExitCode.success : ExitCode.checkFailed
        default:
            throw UsageError("option --against: expected server or client, got '\(against ?? "")'")
        }
    }
}
