import SimCore
import SyncSim
import SyncTrace

/// Feeds a capture's server→client frames to a client engine (the reference engine or a mutant) at the captured
/// times, and runs the invariant checks that need no server state over what it builds.
///
/// Each `connect` the engine asks for is given the capture's next connection of that client: `.connected` when it
/// opened, its server→client frames when they arrived, `.disconnected` when it closed; with no connection left the
/// connect fails. What the engine sends is observed by the checker and goes nowhere. The checks are C1 and C4
/// (chunks well formed, no id twice) and P1–P4 (requests, responses and last-sync); the others compare against a
/// server the capture does not show whole.
struct ReplayAgainstClient {
    static let checkedInvariants: [InvariantID] = [.C1, .C4, .P1, .P2, .P3, .P4]

    struct Outcome {
        var client: String
        var packetsDelivered = 0
        var packetsSent = 0
        var connections = 0
        var findings: [Finding] = []
        /// Set when the replay stopped before the capture's end because the capture had nothing left to give the
        /// engine (every connection used, nothing pending on the one it holds) and the engine only kept itself busy
        /// (`idleEventLimit` events): the virtual time it stopped at.
        var stoppedIdleAt: SimInstant?
        /// The digest of what the engine did, one trace line per frame it sent (time, connection, opcode, cmd, seq
        /// and a hash of the frame's bytes), connect and close: the same capture, engine and binary give the same
        /// digest.
        var digestHex = ""
    }

    /// Events the engine may handle on its own (reconnect attempts, timers) once every captured connection is used
    /// and nothing captured is pending on the connection it holds, before the replay stops: far more than the 30 s after a capture's end need, and a bound when a
    /// corrupt timestamp puts the capture's end years ahead (a reconnect every backoff cap would take hours to run).
    static let idleEventLimit = 10_000

    let timeline: ReplayTimeline
    let model: ReplayWorldModel
    /// The client address to replay (`198.18.0.3`).
    let clientAddress: String
    let mutant: SyncClient.Mutant?

    func run() throws -> Outcome {
        let userId = model.userIdByClient.first { $0.client == clientAddress }?.userId
        let user = userId.flatMap { id in model.users.first { $0.id == id } }
        let name = user?.name ?? clientAddress
        let parameters = ClientParameters(token: user?.token ?? "token-replay", mutant: mutant)
        var engine = ReferenceClient(parameters: parameters, database: try SQLiteDatabase(),
                                     generator: RandomStreams(runSeed: 1).stream("client.\(name).launch0"))
        let checker = InvariantChecker(options: CheckOptions(enabled: Set(Self.checkedInvariants)))
        checker.register(client: name, userId: user?.id ?? 1, parameters: parameters)
        let server = model.makeServer()
        var outcome = Outcome(client: name)
        var available = timeline.connections.filter { $0.clientAddress == clientAddress && $0.role != .upload }
        var queue: [(time: SimInstant, order: Int, event: ClientEvent, capturedOn: ClientConnectionID?)] = []
        var order = 0
        // Captured events still queued, per connection (counted, never iterated); the connection the engine holds.
        var capturedPending: [ClientConnectionID: Int] = [:]
        var heldConnection: ClientConnectionID?
        var idleEvents = 0
        func schedule(_ event: ClientEvent, at time: SimInstant, capturedOn connection: ClientConnectionID? = nil) {
            queue.append((time, order, event, connection))
            order += 1
            if let connection { capturedPending[connection, default: 0] += 1 }
        }
        var cancelled: Set<ClientTimerID> = []
        var trace = TraceLog(keepsRecords: false)
        schedule(.start, at: .start)
        let deadline = timeline.end + .seconds(Int64(30))
        while let next = queue.indices.min(by: {
            (queue[$0].time, queue[$0].order) < (queue[$1].time, queue[$1].order)
        }) {
            let (now, _, event, capturedOn) = queue.remove(at: next)
            guard now <= deadline else { break }
            if let capturedOn { capturedPending[capturedOn, default: 0] -= 1 }
            if available.isEmpty, heldConnection.map({ capturedPending[$0, default: 0] == 0 }) ?? true {
                idleEvents += 1
                if idleEvents > Self.idleEventLimit {
                    outcome.stoppedIdleAt = now
                    break
                }
            }
            if case .timerFired(let timer) = event, cancelled.remove(timer) != nil { continue }
            if case .packetReceived = event {
                outcome.packetsDelivered += 1
                outcome.findings += checker.observeClientEvent(client: name, event: event, at: now)
            }
            let actions = engine.handle(event, now: now)
            outcome.findings += checker.observeClientActions(client: name, actions: actions, at: now)
            outcome.findings += checker.afterClientEvent(client: name, server: server, at: now) { engine.view }
            for action in actions {
                switch action {
                case .connect(let id):
                    trace.record(at: now, component: name, kind: "connect", detail: "client-conn#\(id.rawValue)")
                    heldConnection = available.isEmpty ? nil : id
                    guard !available.isEmpty else {
                        schedule(.connectFailed(id), at: now)
                        continue
                    }
                    let connection = available.removeFirst()
                    outcome.connections += 1
                    schedule(.connected(id), at: max(now, connection.opensAt), capturedOn: id)
                    for entry in connection.entries where entry.direction == .serverToClient {
                        schedule(.packetReceived(entry.packet, on: id), at: max(now, entry.time), capturedOn: id)
                    }
                    if let closesAt = connection.closesAt {
                        schedule(.disconnected(id), at: max(now, closesAt), capturedOn: id)
                    }
                case .send(let packet, let id):
                    outcome.packetsSent += 1
                    // The frame's bytes, hashed: what the engine asked for, not only its opcode (requests hold no
                    // dictionary, so their encoding does not depend on a hash order).
                    let frame = (try? FrameEncoder().encode(packet)).map { FNV1a64.digestHex(ofBytes: $0) } ?? "none"
                    trace.record(at: now, component: name, kind: "tx", detail: "client-conn#\(id.rawValue) "
                                    + "\(packet.opcode) \(packet.cmd) seq=\(packet.seq) frame=\(frame)")
                case .startTimer(let timer, let at):
                    schedule(.timerFired(timer), at: max(now, at))
                case .cancelTimer(let timer):
                    cancelled.insert(timer)
                case .close(let id):
                    trace.record(at: now, component: name, kind: "close", detail: "client-conn#\(id.rawValue)")
                    if heldConnection == id { heldConnection = nil }
                case .upload:
                    break
                }
            }
        }
        outcome.digestHex = trace.digestHex
        return outcome
    }
}
