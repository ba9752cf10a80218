#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SyncSim

/// Drives the reference client engine over a real TCP connection to 127.0.0.1:`port`, through the steps of a
/// script: one poll loop, no threads; time is the wall clock since start (`WallClock`). Uploads are refused (no
/// CDN behind the real server).
struct RealSocketClient {
    struct Summary {
        var framesSent = 0
        var framesReceived = 0
        var connections = 0
    }

    let port: UInt16
    let user: String
    var engine: ReferenceClient
    let log: (String) -> Void
    private let clock = WallClock()
    private let encoder = FrameEncoder()
    private var fd: Int32?
    private var connection: ClientConnectionID?
    private var decoder = FrameDecoder()
    private var buffer = ByteReader()
    private var timers: [(id: ClientTimerID, at: SimInstant)] = []
    private var pending: [ClientEvent] = []
    private var userNames: [Int64: String] = [:]
    /// The server's error answer to the last LOGIN, until a LOGIN succeeds.
    private var loginError: ErrorPayload?
    /// Whether a LOGIN was answered with a response (the chat list and the user names came with it).
    private var hasLoggedIn = false
    /// Why the first connection attempt failed, when no connection was ever made: reported at once instead of
    /// letting the engine's reconnect backoff retry against a port where nothing listens.
    private var firstConnectFailure: SocketError?
    private(set) var summary = Summary()

    /// - Throws: the database's error when the client's in-memory SQLite store cannot be opened.
    init(port: UInt16, user: String, seed: UInt64, log: @escaping (String) -> Void) throws {
        self.port = port
        self.user = user
        self.log = log
        let parameters = ClientParameters(token: "token-\(user)", deviceId: "device-\(user)")
        engine = ReferenceClient(parameters: parameters, database: try SQLiteDatabase(),
                                 generator: RandomStreams(runSeed: seed).stream("client.\(user).launch0"))
    }

    /// Runs the steps, then closes the connection.
    /// - Throws: `ClientConnectError` when the first connection attempt fails (nothing listens on the port);
    ///   `ClientScriptError` for a chat the chat list does not hold or a login that does not happen within 10 s;
    ///   `LoginRefusedError` as soon as the server answers LOGIN with an error.
    mutating func run(_ steps: [ClientScriptStep]) throws -> Summary {
        deliver(.start)
        defer { if let fd { PosixSocket.close(fd) } }
        try requireFirstConnection()
        for step in steps {
            switch step {
            case .login:
                let deadline = clock.now + .seconds(Int64(10))
                while !engine.view.isOnline, loginError == nil, clock.now < deadline {
                    pump(until: min(deadline, clock.now + .milliseconds(50)))
                    try requireFirstConnection()
                }
                if let loginError { throw LoginRefusedError(user: user, error: loginError) }
                guard engine.view.isOnline else {
                    throw ClientScriptError(description: "client \(user): not logged in after 10 s")
                }
                log("client: \(user) logged in")
            case .open(let chat):
                deliver(.user(.openChat(try chatId(chat))))
            case .send(let chat, let text):
                deliver(.user(.sendText(chatId: try chatId(chat), text: text)))
            case .scroll(let chat, let messages):
                let id = try chatId(chat)
                if engine.view.openChatId != id { deliver(.user(.openChat(id))) }
                deliver(.user(.scrollUp(messages: messages)))
            case .wait(let duration):
                pump(until: clock.now + duration)
            }
            pump(until: clock.now)
            try requireFirstConnection()
        }
        return summary
    }

    /// - Throws: `ClientConnectError` when the engine's first connection attempt failed. Later attempts (after a
    ///   connection the server closed) keep the engine's reconnect backoff.
    private func requireFirstConnection() throws {
        if let firstConnectFailure { throw ClientConnectError(port: port, failure: firstConnectFailure) }
    }

    /// The id of the chat named by its members (`alice+bob`), from the chat list and the names LOGIN taught.
    /// - Throws: `ClientScriptError` naming the chats the list holds, or saying to log in first when no LOGIN
    ///   was answered yet; `LoginRefusedError` when the server refused the LOGIN.
    private func chatId(_ name: String) throws -> Int64 {
        let wanted = Set(name.split(separator: "+").map(String.init))
        for (id, chat) in engine.view.chatList.sorted(by: { $0.key < $1.key }) {
            if Set(chat.members.compactMap { userNames[$0] }) == wanted { return id }
            if name == "chat\(id)" { return id }
        }
        if let loginError { throw LoginRefusedError(user: user, error: loginError) }
        let missing = "client \(user): no chat '\(name)' in the chat list"
        guard hasLoggedIn else { throw ClientScriptError(description: missing + " (log in first)") }
        let chats = chatNames
        let listed = chats.isEmpty ? "; the chat list is empty" : "; chats: " + chats.joined(separator: ", ")
        throw ClientScriptError(description: missing + listed)
    }

    /// The chats of the chat list as a script names them, sorted: their members' names joined by `+`
    /// (`alice+bob`), or `chat<id>` when LOGIN did not name every member.
    private var chatNames: [String] {
        engine.view.chatList.map { id, chat in
            let names = chat.members.compactMap { userNames[$0] }
            guard !names.isEmpty, names.count == chat.members.count else { return "chat\(id)" }
            return names.sorted().joined(separator: "+")
        }.sorted()
    }

    /// Runs the loop until `deadline`: timers, bytes from the socket, and the events they cause.
    private mutating func pump(until deadline: SimInstant) {
        repeat {
            let now = clock.now
            for (index, timer) in timers.enumerated().reversed() where timer.at <= now {
                timers.remove(at: index)
                deliver(.timerFired(timer.id))
            }
            let wake = min(deadline, timers.map(\.at).min() ?? deadline)
            guard let fd, let connection else {
                if clock.now < deadline {
                    _ = PosixSocket.poll([], timeoutMilliseconds: clock.milliseconds(until: wake, cap: 20))
                }
                continue
            }
            guard !PosixSocket.poll([fd], timeoutMilliseconds: clock.milliseconds(until: wake, cap: 50)).isEmpty else {
                continue
            }
            switch PosixSocket.read(fd) {
            case .wouldBlock:
                break
            case .closed:
                PosixSocket.close(fd)
                self.fd = nil
                self.connection = nil
                log("client: \(user) connection closed by the server")
                deliver(.disconnected(connection))
            case .bytes(let bytes):
                buffer.append(contentsOf: bytes)
                var packets: [Packet] = []
                while let frame = try? decoder.decode(&buffer) {
                    summary.framesReceived += 1
                    if let packet = try? Packet(frame: frame) { packets.append(packet) }
                }
                for packet in packets {
                    if case .loginResponse(let response) = packet.body {
                        userNames[response.profile.id] = response.profile.name
                        for contact in response.contacts { userNames[contact.id] = contact.name }
                        loginError = nil
                        hasLoggedIn = true
                    }
                    if packet.opcode == .login, case .error(let payload) = packet.body {
                        log("client: \(user) LOGIN refused: \(payload.error): \(payload.message)")
                        loginError = payload
                    }
                    deliver(.packetReceived(packet, on: connection))
                }
            }
        } while clock.now < deadline
    }

    /// Feeds an event to the engine and carries out its actions (and the events they cause) in order.
    private mutating func deliver(_ event: ClientEvent) {
        pending.append(event)
        while !pending.isEmpty {
            let next = pending.removeFirst()
            for action in engine.handle(next, now: clock.now) { perform(action) }
        }
    }

    private mutating func perform(_ action: ClientAction) {
        switch action {
        case .connect(let id):
            do {
                fd = try PosixSocket.connect(port: port)
                connection = id
                decoder = FrameDecoder()
                buffer = ByteReader()
                summary.connections += 1
                pending.append(.connected(id))
            } catch {
                if summary.connections == 0, firstConnectFailure == nil, let failure = error as? SocketError {
                    firstConnectFailure = failure
                } else {
                    log("client: \(user) \(error)")
                }
                pending.append(.connectFailed(id))
            }
        case .send(let packet, let id):
            guard id == connection, let fd else { return }
            var bytes: [UInt8] = []
            guard (try? encoder.encode(Frame(packet: packet), into: &bytes)) != nil else { return }
            do {
                try PosixSocket.writeAll(fd, bytes)
                summary.framesSent += 1
            } catch {
                log("client: \(user) \(error)")
            }
        case .close(let id):
            guard id == connection, let fd else { return }
            PosixSocket.close(fd)
            self.fd = nil
            connection = nil
        case .startTimer(let id, let at):
            timers.append((id, at))
        case .cancelTimer(let id):
            timers.removeAll { $0.id == id }
        case .upload(let id, _, _):
            pending.append(.uploadFinished(id, succeeded: false))
        }
    }
}

/// The client's first connection attempt failed: `cannot connect to 127.0.0.1:7000: connection refused (...)`;
/// exit code 2.
struct ClientConnectError: Error, CustomStringConvertible {
    var port: UInt16
    var failure: SocketError

    var description: String {
        let hint = failure.code == ECONNREFUSED
            ? " (nothing listens there; start 'syncsim serve --port \(port)' first, or give the port it listens on)" : ""
        return "cannot connect to 127.0.0.1:\(port): \(failure.reason)\(hint)"
    }
}

/// The server answered the client's LOGIN with an error: the reason a `login` step failed, with the server's code
/// and message; exit code 2.
struct LoginRefusedError: Error, CustomStringConvertible {
    var user: String
    var error: ErrorPayload

    var description: String {
        "client \(user): the server refused LOGIN: \(error.error) \"\(error.message)\""
    }
}

/// A client script step that could not be carried out against the server (not a mistake in how `syncsim client` was
/// called, so no pointer to `--help`): no login within 10 s, or a chat the chat list does not hold; exit code 2.
struct ClientScriptError: Error, CustomStringConvertible {
    /// The one-line message: `client alice: no chat 'alice+carol' in the chat list; chats: alice+bob`.
    var description: String
}
