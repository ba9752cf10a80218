import SyncSim
import SyncTrace

/// `syncsim client`: the reference client engine over a real TCP connection, through a short script of actions.
enum ClientCommand {
    static let spec = CommandSpec(
        name: "client",
        summary: "drive the reference client over a real TCP connection to 127.0.0.1 through a script",
        help: """
            usage: syncsim client --port P --script STEPS [--user NAME] [--seed N]

            Connects the reference client engine as --user (default alice, token token-NAME) to 127.0.0.1:P and
            runs the script's steps, separated by semicolons, then closes the connection and exits:
              login              wait until logged in (at most 10 s)
              open CHAT          open a chat (named by its members, alice+bob)
              send CHAT TEXT     send a text message
              scroll CHAT N      scroll up N messages (opens the chat first when needed)
              wait DURATION      let the client run for 2s, 500ms, ... (at most 10 minutes)
            Time is the wall clock since start; --seed (default 1) seeds the engine's random draws.
            A first connection that fails (nothing listens on P: connection refused) ends the command at once
            with that reason, exit 2; a connection the server closes later is retried with the engine's
            reconnect backoff.

            example: syncsim client --port 7000 \\
                       --script "login; open alice+bob; send alice+bob hello; scroll alice+bob 50; wait 2s"
            """,
        run: { arguments, console in try run(&arguments, &console) }
    )

    static func run(_ arguments: inout ArgumentList, _ console: inout Console) throws -> Int32 {
        let port = try arguments.int("--port", in: 1...65_535)
        let script = try arguments.value(of: "--script")
        let user = try arguments.value(of: "--user") ?? "alice"
        let seed = try arguments.value(of: "--seed").map { try RunCommand.seed($0, option: "--seed") } ?? 1
        try arguments.finish()
        // Required options are checked after every option was read, so a typo or a malformed value is named first.
        guard let port else { throw UsageError("--port P is required") }
        guard let script else { throw UsageError("--script STEPS is required") }
        let steps = try ClientScriptStep.parse(script)
        let output = console
        var client = try RealSocketClient(port: UInt16(port), user: user, seed: seed, log: { output.err($0) })
        let summary = try client.run(steps)
        let view = client.engine.view
        let cached = view.chunkStores.keys.sorted().map {
            "chat \($0): \(counted(view.chunkStores[$0]!.messages.count, "message"))"
        }
        console.out("client: \(user) \(counted(summary.connections, "connection")), "
            + "\(counted(summary.framesSent, "frame")) sent, \(counted(summary.framesReceived, "frame")) received; "
            + (cached.isEmpty ? "no chat loaded" : cached.joined(separator: ", ")))
        return ExitCode.success
    }
}
