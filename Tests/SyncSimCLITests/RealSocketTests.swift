import Foundation
import SyncTrace
import Testing

@testable import SyncSimCLI

/// `syncsim serve` and `syncsim client` over loopback, captured with tcpdump, then decoded and replayed.
@Suite struct RealSocketTests {
    static let tcpdump = ["/usr/bin/tcpdump", "/usr/sbin/tcpdump"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// The `syncsim` executable built next to the test bundle.
    static let syncsim: String? = {
        var url = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        for _ in 0..<4 {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent("syncsim").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()
    static let canCapture = getuid() == 0 && tcpdump != nil && syncsim != nil

    @Test("a client script parses into steps; a bad step is a usage error naming it")
    func scriptParses() throws {
        let steps = try ClientScriptStep.parse(
            "login; open alice+bob; send alice+bob hello there; scroll alice+bob 50; wait 2s")
        #expect(steps == [.login, .open(chat: "alice+bob"), .send(chat: "alice+bob", text: "hello there"),
                          .scroll(chat: "alice+bob", messages: 50), .wait(.seconds(2))])
        #expect(throws: UsageError.self) { try ClientScriptStep.parse("login; jump 3") }
        #expect(throws: UsageError.self) { try ClientScriptStep.parse("wait forever") }
        // A misspelt step word gets the word meant; a known word with the wrong arguments, the list alone.
        #expect(throws: UsageError("--script step 1 'sned alice+bob hi' (did you mean 'send'?): expected login, open "
            + "CHAT, send CHAT TEXT, scroll CHAT N or wait DURATION")) { try ClientScriptStep.parse("sned alice+bob hi") }
        #expect(throws: UsageError("--script step 1 'open': expected login, open CHAT, send CHAT TEXT, scroll CHAT N "
            + "or wait DURATION")) { try ClientScriptStep.parse("open") }
        // A script with no step would connect nowhere and exit 0; a wait past the cap or in minutes names both.
        #expect(throws: UsageError("--script '' has no steps; give login, open CHAT, send CHAT TEXT, scroll CHAT N "
            + "or wait DURATION, separated by semicolons")) { try ClientScriptStep.parse("") }
        #expect(throws: UsageError.self) { try ClientScriptStep.parse(" ; ;") }
        #expect(throws: UsageError("--script step 2 'wait 11m': expected wait DURATION, at most 10 minutes (2s, "
            + "1.5s, 500ms, 1m)")) { try ClientScriptStep.parse("login; wait 11m") }
        #expect(try ClientScriptStep.parse("wait 600s") == [.wait(.seconds(600))])
        // Every duration spelling the other options take (`SweepParameter.duration`).
        #expect(try ClientScriptStep.parse("wait 1.5s; wait 1m; wait 2min") ==
                [.wait(.milliseconds(1_500)), .wait(.seconds(60)), .wait(.seconds(120))])
    }

    @Test(
        "serve and client on loopback, captured by tcpdump: every frame is decoded, the replays agree",
        .enabled(if: RealSocketTests.canCapture, "needs root, tcpdump and the built syncsim executable")
    )
    func loopbackCapture() throws {
        let syncsim = try #require(Self.syncsim)
        let capture = NSTemporaryDirectory() + "syncsim-loopback-\(getpid()).pcap"
        defer { try? FileManager.default.removeItem(atPath: capture) }

        let (serve, port) = try Self.startServe(maxConnections: 1, durationSeconds: 30)

        let tcpdump = Process()
        tcpdump.executableURL = URL(fileURLWithPath: try #require(Self.tcpdump))
        tcpdump.arguments = ["-i", "lo", "-U", "-w", capture, "tcp port \(port)"]
        let tcpdumpError = Pipe()
        tcpdump.standardError = tcpdumpError
        try tcpdump.run()
        _ = Self.readLine(tcpdumpError.fileHandleForReading)  // "listening on lo, ..."

        let client = Process()
        client.executableURL = URL(fileURLWithPath: syncsim)
        client.arguments = ["client", "--port", "\(port)", "--script",
                            "login; open alice+bob; send alice+bob hello; scroll alice+bob 50; wait 1s"]
        let clientOutput = Pipe()
        client.standardOutput = clientOutput
        client.standardError = FileHandle.nullDevice
        try client.run()
        let clientText = String(decoding: clientOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        Self.wait(for: client, seconds: 30)
        Self.wait(for: serve, seconds: 30)
        // tcpdump writes each packet at once (-U); give the last FIN a moment to pass the loopback, then stop it.
        usleep(300_000)
        kill(tcpdump.processIdentifier, SIGINT)
        Self.wait(for: tcpdump, seconds: 5)
        #expect(client.terminationStatus == 0, "\(clientText)")
        #expect(serve.terminationStatus == 0)

        let summary = try #require(clientText.split(separator: "\n").last { $0.hasPrefix("client: alice ") })
        let numbers = summary.split(separator: " ").compactMap { Int($0) }
        let (sent, received) = (numbers[1], numbers[2])
        let decoding = try TraceDecoder().decode(path: capture)
        #expect(decoding.connections.count == 1)
        let frames = decoding.allFrames
        #expect(frames.filter { $0.direction == .clientToServer }.count == sent, "\(summary)")
        #expect(frames.filter { $0.direction == .serverToClient }.count == received, "\(summary)")
        #expect(decoding.connections.allSatisfy { $0.issues.isEmpty })
        #expect(Set(frames.map(\.opcode)).isSuperset(of: [.sessionInit, .login, .msgSend]))

        let server = TraceDecodeCommandTests.run(["replay", capture, "--against", "server"])
        #expect(server.code == 0, "\(server.out)")
        #expect(server.out.last?.contains(", 0 differences; digest ") == true)
        let reference = TraceDecodeCommandTests.run(["replay", capture, "--against", "client"])
        #expect(reference.code == 0, "\(reference.out)")
        #expect(reference.out.last?.contains(": 0 violations of C1 C4 P1 P2 P3 P4; digest ") == true)
    }

    @Test(
        "a LOGIN the server refuses fails the client's login step at once, with the server's code and message",
        .enabled(if: RealSocketTests.syncsim != nil, "needs the built syncsim executable")
    )
    func loginRefused() throws {
        let (serve, port) = try Self.startServe(maxConnections: 1)
        defer {
            if serve.isRunning { kill(serve.processIdentifier, SIGTERM) }
            Self.wait(for: serve, seconds: 5)
        }
        let started = ContinuousClock.now
        let output = SyncSimCLITests.syncsim(["client", "--port", "\(port)", "--script", "login", "--user", "mallory"])
        #expect(ContinuousClock.now - started < .seconds(5), "the refusal is reported at once, not after 10 s")
        #expect(output.code == ExitCode.usage)
        #expect(output.err.contains("client mallory: the server refused LOGIN: login.token \"unknown token\""),
                "\(output.err)")
    }

    @Test(
        "a chat missing from the chat list names the chats there, and says to log in only before a login",
        .enabled(if: RealSocketTests.syncsim != nil, "needs the built syncsim executable")
    )
    func unknownChat() throws {
        let (serve, port) = try Self.startServe(maxConnections: 3)
        defer {
            if serve.isRunning { kill(serve.processIdentifier, SIGTERM) }
            Self.wait(for: serve, seconds: 5)
        }
        let afterLogin = SyncSimCLITests.syncsim(["client", "--port", "\(port)", "--script", "login; open alice+carol"])
        #expect(afterLogin.code == ExitCode.usage)
        #expect(afterLogin.err.hasSuffix(
            "syncsim client: client alice: no chat 'alice+carol' in the chat list; chats: alice+bob\n"),
                "\(afterLogin.err)")
        #expect(!afterLogin.err.contains("--help"))
        let beforeLogin = SyncSimCLITests.syncsim(["client", "--port", "\(port)", "--script", "open alice+bob"])
        #expect(beforeLogin.code == ExitCode.usage)
        #expect(beforeLogin.err.hasSuffix(
            "syncsim client: client alice: no chat 'alice+bob' in the chat list (log in first)\n"),
                "\(beforeLogin.err)")
        #expect(!beforeLogin.err.contains("--help"))
        // Counts of one in the summary read in the singular.
        let sent = SyncSimCLITests.syncsim(["client", "--port", "\(port)", "--script",
                                            "login; open alice+bob; send alice+bob hello; wait 1s"])
        #expect(sent.code == ExitCode.success, "\(sent.err)")
        #expect(sent.out.hasPrefix("client: alice 1 connection, "), "\(sent.out)")
        #expect(sent.out.hasSuffix("; chat 1: 1 message\n"), "\(sent.out)")
    }

    @Test("no login within 10 s is an error without a pointer to --help; a bad script step gets one")
    func notLoggedIn() throws {
        // A listener that never accepts: the connection opens, nothing answers SESSION_INIT.
        let listener = try PosixSocket.listen(port: 0)
        defer { PosixSocket.close(listener) }
        let port = PosixSocket.localPort(listener)
        let output = SyncSimCLITests.syncsim(["client", "--port", "\(port)", "--script", "login"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err.hasSuffix("syncsim client: client alice: not logged in after 10 s\n"), "\(output.err)")
        #expect(!output.err.contains("--help"))
        let usage = SyncSimCLITests.syncsim(["client", "--port", "\(port)", "--script", "login; jump 3"])
        #expect(usage.code == ExitCode.usage)
        #expect(usage.err.hasSuffix("see 'syncsim client --help'\n"), "\(usage.err)")
    }

    @Test("accepted and connected sockets have Nagle's algorithm off (TCP_NODELAY), as the TCP model assumes")
    func noDelay() throws {
        let listener = try PosixSocket.listen(port: 0)
        defer { PosixSocket.close(listener) }
        let client = try PosixSocket.connect(port: PosixSocket.localPort(listener))
        defer { PosixSocket.close(client) }
        var accepted: Int32?
        for _ in 0..<100 where accepted == nil {
            accepted = PosixSocket.accept(listener)
            if accepted == nil { usleep(10_000) }
        }
        let server = try #require(accepted)
        defer { PosixSocket.close(server) }
        #expect(PosixSocket.isNoDelay(client))
        #expect(PosixSocket.isNoDelay(server))
    }

    @Test("a port where nothing listens is one line naming host:port and the reason, not a 10 s login wait")
    func connectionRefused() throws {
        // A port just freed: nothing listens there, so connect() is refused.
        let listener = try PosixSocket.listen(port: 0)
        let port = PosixSocket.localPort(listener)
        PosixSocket.close(listener)
        let output = SyncSimCLITests.syncsim(["client", "--port", "\(port)", "--script", "login; wait 1s"])
        #expect(output.code == ExitCode.usage)
        #expect(output.err == "syncsim client: cannot connect to 127.0.0.1:\(port): connection refused (nothing "
            + "listens there; start 'syncsim serve --port \(port)' first, or give the port it listens on)\n",
            "\(output.err)")
        #expect(output.out.isEmpty)
    }

    /// Before: `kill PID` ended serve at once with 143 and no summary (a fresh user's trial, session 34).
    @Test("SIGTERM ends serve as its --duration would: the summary on stdout, exit 0")
    func serveStopsOnSigterm() throws {
        let serve = Process()
        serve.executableURL = URL(fileURLWithPath: try #require(Self.syncsim))
        serve.arguments = ["serve", "--port", "0", "--duration", "60"]
        let serveLog = Pipe()
        let serveOut = Pipe()
        serve.standardError = serveLog
        serve.standardOutput = serveOut
        try serve.run()
        let first = Self.readLine(serveLog.fileHandleForReading)
        #expect(first.contains("stops after 60s (--duration)"), "\(first)")
        #expect(Self.readLine(serveLog.fileHandleForReading)
                == "serve: users: alice (id 1, token token-alice), bob (id 2, token token-bob)")
        kill(serve.processIdentifier, SIGTERM)
        Self.wait(for: serve, seconds: 10)
        #expect(serve.terminationReason == .exit && serve.terminationStatus == 0)
        #expect(Self.readLine(serveLog.fileHandleForReading) == "serve: SIGTERM received; stopping")
        #expect(Self.readLine(serveOut.fileHandleForReading)
                == "serve: 0 connections, 0 frames received, 0 frames sent (0 compressed)")
    }

    /// Starts `syncsim serve` on a free loopback port and returns it with the port it printed.
    static func startServe(maxConnections: Int, durationSeconds: Int = 20) throws -> (Process, Int) {
        let serve = Process()
        serve.executableURL = URL(fileURLWithPath: try #require(syncsim))
        serve.arguments = ["serve", "--port", "0", "--max-connections", "\(maxConnections)",
                           "--duration", "\(durationSeconds)"]
        let serveLog = Pipe()
        serve.standardError = serveLog
        serve.standardOutput = FileHandle.nullDevice
        try serve.run()
        let firstLine = readLine(serveLog.fileHandleForReading)
        let port = try #require(firstLine.split(separator: ":").last?.split(separator: " ").first.flatMap { Int($0) },
                                "serve printed: \(firstLine)")
        return (serve, port)
    }

    /// Waits for a process to end, polling; terminates it after `seconds` so a hung tool cannot hang the suite.
    static func wait(for process: Process, seconds: Int) {
        for _ in 0..<(seconds * 20) where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for _ in 0..<40 where process.isRunning { usleep(50_000) }
    }

    /// Reads one line (blocking until it arrives or the pipe closes).
    static func readLine(_ handle: FileHandle) -> String {
        var bytes: [UInt8] = []
        while true {
            let data = handle.readData(ofLength: 1)
            guard let byte = data.first, byte != UInt8(ascii: "\n") else { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private extension PosixSocket {
    /// Whether Nagle's algorithm is off on the socket (TCP_NODELAY set).
    static func isNoDelay(_ fd: Int32) -> Bool {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0 && value != 0
    }
}
