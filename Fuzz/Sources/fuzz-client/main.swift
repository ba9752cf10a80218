import FuzzSupport
import SimCore
import SyncChecks
import SyncClient
import SyncProtocol
import SyncServer

/// The reference client engine fed a stream of server frames from a broken or malicious server. Byte 0 picks a
/// few parameters; then one step per input record (the op byte selects): a connection opening, failing or
/// dropping; a response or error to one of the requests in flight, synthesized in the documented shape with
/// fuzzed fields (PayloadSynth: duplicate, backwards and extreme ids, wrong chats, dropped or mistyped
/// fields); an unsolicited response; a push; raw frame bytes through `FrameDecoder`; a timer firing; a user
/// action (open, scroll, send text or photo); an upload ending; the network going or coming back; an app restart
/// over the same database; time.
///
/// Such a server may make requests fail but must never corrupt the chunk store or the task queue: after every
/// event SyncChecks' checkers run the invariants that hold whatever the server says: C1 (chunks sorted and
/// disjoint), C4 (no message id twice), T1 (no task vanishes), T3 (no task before its dependencies), T6 (a
/// restart keeps exactly the committed unfinished tasks) and P2 (no seq reused while in flight). A finding aborts.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzClient(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    var harness = ClientHarness(parameterByte: input.byte())
    var steps = 0
    while !input.isAtEnd && steps < 256 {
        harness.step(&input)
        steps += 1
    }
    return 0
}

struct ClientHarness {
    static let name = "fuzz"
    static let checked: Set<InvariantID> = [.C1, .C4, .T1, .T3, .T6, .P2]

    let parameters: ClientParameters
    /// One generator per launch, as World gives each launch its own stream ("client.<name>.launch<n>"): a relaunch
    /// must not replay the previous launch's cids (the old `seed: restarts` equalled `seed: parameterByte` for
    /// parameter bytes 1...4 and read as a duplicated local echo, C4).
    let streams: RandomStreams
    let database: SQLiteDatabase
    var engine: ReferenceClient
    /// Only read by the checker's server-side comparisons, which are off here.
    let server = SyncServer(generator: SeededGenerator(seed: 0))
    let checker = InvariantChecker(options: CheckOptions(enabled: ClientHarness.checked, reportsFirstOnly: false))
    let synth = PayloadSynth(chatIds: [10, 11, 12, 99], userIds: [1, 2, 3, 7], tokens: ["t1", "ph1", "ph2", ""])
    var now = SimInstant.start
    var restarts = 0

    var pendingConnects: [ClientConnectionID] = []
    var connected: ClientConnectionID?
    /// Requests sent and not answered here yet, oldest first.
    var inFlight: [(seq: UInt16, opcode: Opcode, connection: ClientConnectionID)] = []
    var timers: [ClientTimerID: SimInstant] = [:]
    var uploads: [UploadID] = []
    var rawDecoder = FrameDecoder(maxPayloadBytes: 1 << 16)

    init(parameterByte: UInt8) {
        var parameters = ClientParameters(token: "t1")
        parameters.historyPageSize = [30, 5, 1, 2][Int(parameterByte & 3)]
        parameters.prefetchDistance = [10, 0, 3, 50][Int(parameterByte >> 2 & 3)]
        parameters.visibleMessageCount = [20, 1, 5, 40][Int(parameterByte >> 4 & 3)]
        parameters.maxTaskAttempts = [10, 1, 2, 3][Int(parameterByte >> 6 & 3)]
        self.parameters = parameters
        streams = RandomStreams(runSeed: UInt64(parameterByte))
        do {
            database = try SQLiteDatabase()
        } catch {
            fuzzFailure("cannot open an in-memory database: \(error)")
        }
        engine = ReferenceClient(parameters: parameters, database: database,
                                 generator: streams.stream("client.\(Self.name).launch0"))
        checker.register(client: Self.name, userId: 1, parameters: parameters)
        deliver(.start)
    }

    mutating func step(_ input: inout FuzzInput) {
        let op = input.byte()
        switch op % 16 {
        case 0:
            guard !pendingConnects.isEmpty else { return }
            let connection = pendingConnects.removeFirst()
            connected = connection
            deliver(.connected(connection))
        case 1:
            guard !pendingConnects.isEmpty else { return }
            deliver(.connectFailed(pendingConnects.removeFirst()))
        case 2:
            guard let connection = connected else { return }
            connected = nil
            inFlight.removeAll { $0.connection == connection }
            deliver(.disconnected(connection))
        case 3, 4, 5:
            guard let connection = connected, !inFlight.isEmpty else { return }
            let request = inFlight.remove(at: Int(input.byte()) % inFlight.count)
            let payload = synth.response(request.opcode, &input)
            receive(cmd: .response, seq: request.seq, opcode: request.opcode, payload: payload, on: connection)
        case 6:
            guard let connection = connected, !inFlight.isEmpty else { return }
            let request = inFlight.remove(at: Int(input.byte()) % inFlight.count)
            receive(cmd: .error, seq: request.seq, opcode: request.opcode, payload: synth.error(&input), on: connection)
        case 7:
            // Pushes go out as the field sends them, `cmd` 0 with seq 0; bit 7 sends the model's `cmd` 2 instead.
            guard let connection = connected else { return }
            let opcode = PayloadSynth.pushOpcodes[Int(op >> 4 & 7) % PayloadSynth.pushOpcodes.count]
            receive(cmd: op & 0x80 == 0 ? .request : .push, seq: 0, opcode: opcode, payload: synth.push(opcode, &input),
                    on: connection)
        case 8:
            // A response nobody asked for, or a late duplicate.
            guard let connection = connected else { return }
            let opcodes: [Opcode] = [.sessionInit, .login, .chatHistory, .msgSend, .photoUpload, .ping, .chatMark,
                                     .chatsList, .msgEdit]
            let opcode = opcodes[Int(input.byte()) % opcodes.count]
            let seq = input.uint16()
            receive(cmd: .response, seq: seq, opcode: opcode, payload: synth.response(opcode, &input), on: connection)
        case 9:
            guard let connection = connected else { return }
            let bytes = input.take(Int(input.byte()))
            var buffer = ByteReader(bytes)
            while let frame = try? rawDecoder.decode(&buffer), let packet = try? Packet(frame: frame) {
                deliver(.packetReceived(packet, on: connection))
            }
            rawDecoder = FrameDecoder(maxPayloadBytes: 1 << 16)
        case 10, 11:
            fireEarliestTimer()
        case 12:
            deliver(.user(userAction(op, &input)))
        case 13:
            guard !uploads.isEmpty else { return }
            let upload = uploads.remove(at: Int(input.byte()) % uploads.count)
            deliver(.uploadFinished(upload, succeeded: op & 0x80 == 0))
        case 14:
            if op & 0xF0 == 0xE0 && restarts < 4 {
                restartApp(crash: op & 0x01 == 1)
            } else {
                deliver(.connectivityChanged(isAvailable: op & 0x10 != 0))
            }
        default:
            now += .milliseconds(Int64(input.uint16()))
        }
    }

    func userAction(_ op: UInt8, _ input: inout FuzzInput) -> UserAction {
        switch (op >> 4) % 6 {
        case 0: return .openChat(synth.chatId(&input))
        case 1: return .closeChat
        case 2: return .scrollUp(messages: Int(input.byte()))
        case 3: return .scrollDown(messages: Int(input.byte()))
        case 4: return .sendText(chatId: synth.chatId(&input), text: synth.string(&input))
        default: return .sendPhoto(chatId: synth.chatId(&input), sizeBytes: Int(input.uint16()), caption: "c")
        }
    }

    mutating func receive(cmd: Command, seq: UInt16, opcode: Opcode, payload: MessagePackValue,
                          on connection: ClientConnectionID) {
        guard let packet = PayloadSynth.packet(cmd: cmd, seq: seq, opcode: opcode, payload: payload) else { return }
        deliver(.packetReceived(packet, on: connection))
    }

    mutating func fireEarliestTimer() {
        guard let (timer, at) = timers.min(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { return }
        timers[timer] = nil
        if at > now { now = at }
        deliver(.timerFired(timer))
    }

    /// The app restarts over the same database (as World.restartApp): timers, sockets and uploads go.
    mutating func restartApp(crash: Bool) {
        restarts += 1
        expectNoFindings(checker.appWillRestart(client: Self.name, view: engine.view, server: server, at: now))
        if crash { database.crash() }
        pendingConnects = []
        connected = nil
        inFlight = []
        timers = [:]
        uploads = []
        engine = ReferenceClient(parameters: parameters, database: database,
                                 generator: streams.stream("client.\(Self.name).launch\(restarts)"))
        deliver(.start)
    }

    mutating func deliver(_ event: ClientEvent) {
        if case .packetReceived = event {
            expectNoFindings(checker.observeClientEvent(client: Self.name, event: event, at: now))
        }
        let actions = engine.handle(event, now: now)
        fuzzLog("\(now) \(event)\n    -> \(actions)")
        expectNoFindings(checker.observeClientActions(client: Self.name, actions: actions, at: now))
        let engine = self.engine
        expectNoFindings(checker.afterClientEvent(client: Self.name, server: server, at: now, view: { engine.view }))
        for action in actions {
            switch action {
            case .connect(let connection):
                pendingConnects.append(connection)
            case .send(let packet, let connection):
                if packet.cmd == .request {
                    inFlight.append((packet.seq, packet.opcode, connection))
                    if inFlight.count > 64 { inFlight.removeFirst() }
                }
            case .close(let connection):
                if connected == connection { connected = nil }
                pendingConnects.removeAll { $0 == connection }
                inFlight.removeAll { $0.connection == connection }
            case .startTimer(let timer, let at):
                guard at >= now else { fuzzFailure("timer \(timer) starts in the past: \(at) < \(now)") }
                timers[timer] = at
            case .cancelTimer(let timer):
                timers[timer] = nil
            case .upload(let upload, _, _):
                uploads.append(upload)
            }
        }
    }

    func expectNoFindings(_ findings: [Finding]) {
        if let finding = findings.first { fuzzFailure("invariant broken: \(finding)") }
    }
}

runFuzzer(fuzzClient)
