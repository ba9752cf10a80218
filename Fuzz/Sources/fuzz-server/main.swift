import FuzzSupport
import SimCore
import SyncChecks
import SyncProtocol
import SyncServer

/// The virtual server fed a stream of client frames: a server with three users and three chats, fault knobs from
/// byte 0, then one step per input record (opcode byte selects): open/close a connection (4 slots), a request
/// synthesized in the documented shape with fuzzed fields (PayloadSynth), raw frame bytes through
/// `FrameDecoder` and `Packet(frame:)`, a pending timer firing, a restart, time passing.
///
/// Properties checked after every step (a failure aborts): the server only sends on open connections; every
/// response or error answers a request received on that connection with the same seq and opcode; each chat's
/// message ids strictly increase; SyncChecks' T2 (at most one stored message per (sender, cid)).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzServer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    var harness = ServerHarness(knobByte: input.byte())
    var steps = 0
    while !input.isAtEnd && steps < 512 {
        harness.step(&input)
        steps += 1
    }
    harness.finish()
    return 0
}

struct ServerHarness {
    var server: SyncServer
    var now = SimInstant.start
    /// The connection id each of 4 slots uses now (ids are never reused), and the open ones.
    var slots = [0, 0, 0, 0]
    var nextConnection = 0
    var open: Set<Int> = []
    var requestsSeen: [Int: Set<SeqOpcode>] = [:]
    var timers: [(ServerTimerID, SimInstant)] = []
    let checker = InvariantChecker(options: CheckOptions(enabled: [.T2], reportsFirstOnly: false))
    let synth = PayloadSynth(chatIds: [10, 11, 12, 99], userIds: [1, 2, 3, 7], tokens: ["t1", "t2", "t3", "nope"])
    var rawDecoder = FrameDecoder(maxPayloadBytes: 1 << 16)

    struct SeqOpcode: Hashable {
        var seq: UInt16
        var opcode: Opcode
    }

    init(knobByte: UInt8) {
        var knobs = ServerKnobs()
        if knobByte & 1 != 0 { knobs.defaultProcessingDelay = .uniform(.milliseconds(1), .milliseconds(500)) }
        if knobByte & 2 != 0 { knobs.pushLossProbability = 0.3 }
        if knobByte & 4 != 0 { knobs.pushDuplicationProbability = 0.3 }
        if knobByte & 8 != 0 { knobs.errorRate = [.msgSend: 0.2, .login: 0.2, .chatHistory: 0.2] }
        if knobByte & 16 != 0 { knobs.loginChatsCap = Int(knobByte >> 5) }
        server = SyncServer(knobs: knobs, generator: SeededGenerator(seed: UInt64(knobByte)))
        for (id, token) in [(Int64(1), "t1"), (2, "t2"), (3, "t3")] {
            server.addUser(id: id, name: "user\(id)", token: token)
        }
        server.addChat(id: 10, members: [1, 2], now: now)
        server.addChat(id: 11, members: [1, 2, 3], now: now)
        server.addChat(id: 12, members: [3], now: now)
        server.seedHistory(chatId: 10, sender: 2, texts: ["a", "b", "c"], now: now)
    }

    mutating func step(_ input: inout FuzzInput) {
        let op = input.byte()
        let slot = Int(op >> 4) % 4
        let connection = ServerConnectionID(rawValue: slots[slot])
        switch op % 12 {
        case 0:
            // A driver never reuses a connection id: a slot gets a fresh one when it opens again.
            guard !open.contains(connection.rawValue) else { return }
            nextConnection += 1
            slots[slot] = nextConnection
            open.insert(nextConnection)
            handle(.connectionOpened(ServerConnectionID(rawValue: nextConnection)))
        case 1:
            open.remove(connection.rawValue)
            handle(.connectionClosed(connection))
        case 2...6:
            let opcodes: [Opcode] = [.sessionInit, .login, .chatHistory, .chatMark, .msgSend, .photoUpload, .ping,
                                     .chatsList, .msgEdit, .msgDelete]
            let opcode = input.byte() < 250 ? opcodes[Int(op >> 4) % opcodes.count] : Opcode(rawValue: input.uint16())
            let seq = input.uint16()
            let payload = synth.request(opcode, &input)
            guard let packet = PayloadSynth.packet(cmd: .request, seq: seq, opcode: opcode, payload: payload) else {
                return
            }
            receive(packet, slot: slot)
        case 7:
            // Raw bytes: whatever frames they hold, typed as a driver would; other cmds than request too.
            let bytes = input.take(Int(input.byte()))
            var buffer = ByteReader(bytes)
            while let frame = try? rawDecoder.decode(&buffer), let packet = try? Packet(frame: frame) {
                receive(packet, slot: slot)
            }
            rawDecoder = FrameDecoder(maxPayloadBytes: 1 << 16)
        case 8, 9:
            fireEarliestTimer()
        case 10:
            if op & 0x80 != 0 {
                handle(.restart)
                open.removeAll()
            } else {
                handle(.timerFired(ServerTimerID(rawValue: Int64(input.byte()))))
            }
        default:
            now += .milliseconds(Int64(input.uint16()))
        }
    }

    mutating func receive(_ packet: Packet, slot: Int) {
        let connection = slots[slot]
        if packet.cmd == .request, open.contains(connection) {
            requestsSeen[connection, default: []].insert(SeqOpcode(seq: packet.seq, opcode: packet.opcode))
        }
        handle(.packetReceived(packet, on: ServerConnectionID(rawValue: connection)))
    }

    mutating func fireEarliestTimer() {
        guard let index = timers.indices.min(by: { timers[$0].1 < timers[$1].1 }) else { return }
        let (timer, at) = timers.remove(at: index)
        if at > now { now = at }
        handle(.timerFired(timer))
    }

    mutating func handle(_ event: ServerEvent) {
        let actions = server.handle(event, now: now)
        fuzzLog("\(now) \(event)\n    -> \(actions)")
        for action in actions {
            switch action {
            case .send(let packet, let connection):
                guard open.contains(connection.rawValue) else {
                    fuzzFailure("sent \(packet) on \(connection), which is not open (event \(event))")
                }
                if packet.cmd == .response || packet.cmd == .error {
                    let key = SeqOpcode(seq: packet.seq, opcode: packet.opcode)
                    guard requestsSeen[connection.rawValue, default: []].contains(key) else {
                        fuzzFailure("\(packet.cmd) seq \(packet.seq) \(packet.opcode) on \(connection) answers no request")
                    }
                }
            case .close(let connection):
                open.remove(connection.rawValue)
            case .startTimer(let timer, let at):
                guard at >= now else { fuzzFailure("timer \(timer) starts in the past: \(at) < \(now)") }
                timers.append((timer, at))
            case .cancelTimer(let timer):
                timers.removeAll { $0.0 == timer }
            }
        }
        if case .restart = event { timers.removeAll() }
        for chatId in server.chatIds {
            let ids = server.messages(inChat: chatId).map(\.id)
            if zip(ids, ids.dropFirst()).contains(where: { $0 >= $1 }) {
                fuzzFailure("chat \(chatId) message ids do not strictly increase: \(ids)")
            }
        }
        let findings = checker.afterServerEvent(server: server, at: now)
        if let finding = findings.first { fuzzFailure("invariant broken: \(finding)") }
    }

    mutating func finish() {
        while !timers.isEmpty { fireEarliestTimer() }
    }
}

runFuzzer(fuzzServer)
