/// What a socket is to the world: a chat connection end, or an end of a photo upload to the CDN.
enum SocketRole {
    /// A client's chat connection to the server.
    case chatClient(client: Int, generation: Int, connection: ClientConnectionID, isConnected: Bool)
    /// The server's end of a chat connection.
    case chatServer(ServerConnectionID)
    /// A client's upload connection to the CDN.
    case uploadClient(client: Int, generation: Int, upload: UploadID, sizeBytes: Int, isFinished: Bool)
    /// The CDN's end of an upload: bytes received so far.
    case uploadCDN(token: String, sizeBytes: Int, receivedBytes: Int, isAnswered: Bool)
}

/// A socket's incremental frame decoder and its unread bytes.
struct StreamDecoder {
    var decoder = FrameDecoder()
    var buffer = ByteReader()
}

/// Faults the world applies itself (the server core has no knob for them), and their bookkeeping.
struct FaultState {
    /// Responses still to lose, by opcode (`LoseResponses`).
    var responsesToLose: [Opcode: Int] = [:]
    /// Requests whose response is lost on the way back, as (server connection, seq, opcode).
    var lostResponses: Set<LostResponse> = []
    /// Requests still to answer with an error, by opcode (`ErrorReplies`).
    var errorsToReply: [Opcode: Int] = [:]
    /// Push loss periods: (client index or nil for all, probability, end).
    var pushLoss: [(client: Int?, probability: Double, until: SimInstant)] = []
    /// Push duplication periods: (client index or nil for all, probability, end).
    var pushDuplication: [(client: Int?, probability: Double, until: SimInstant)] = []
    /// Per opcode: how many `DelayResponses` periods are active, and the delay before the first began.
    var delayedOpcodes: [Opcode: (active: Int, previous: DelayDistribution?)] = [:]
    /// Push delay periods (`DelayPushes`): (client index, extra delay, end).
    var pushDelays: [(client: Int, extraDelay: SimDuration, until: SimInstant)] = []
    /// Per server connection: when the last delayed push leaves, so later pushes never overtake it.
    var pushReleaseTimes: [ServerConnectionID: SimInstant] = [:]
    /// Response holds (`HoldResponses`), in the order they began.
    var holds: [ResponseHold] = []

    /// Responses to one opcode (of one client, or all) held back until a moment.
    struct ResponseHold {
        var opcode: Opcode
        var client: Int?
        var until: Moment
        var isReleased = false
        var packets: [(packet: Packet, connection: ServerConnectionID)] = []
    }

    struct LostResponse: Hashable {
        var connection: ServerConnectionID
        var seq: UInt16
        var opcode: Opcode
    }
}

/// The last `capacity` trace records, oldest first; rendered as lines only when a violation asks for them, not on
/// every world step.
struct TraceRing {
    let capacity: Int
    private var storage: [TraceRecord] = []
    private var head = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(_ record: TraceRecord) {
        if storage.count < capacity {
            storage.append(record)
        } else {
            storage[head] = record
            head = (head + 1) % capacity
        }
    }

    /// The records as `TraceRecord.description` lines, oldest first.
    var lines: [String] { (storage[head...] + storage[..<head]).map(\.description) }

    /// The last `count` records at or before `instant`, as lines, oldest first.
    func lines(upTo instant: SimInstant, count: Int) -> [String] {
        (storage[head...] + storage[..<head]).filter { $0.time <= instant }.suffix(count).map(\.description)
    }
}
