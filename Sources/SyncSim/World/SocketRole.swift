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

    /// Appends received bytes and decodes the whole packets now buffered into `packets`, through `cache`.
    /// - Throws: what `FrameDecoder.decodePacket(_:cache:)` throws; the packets decoded before the fault are in
    ///   `packets`.
    mutating func decode(_ bytes: [UInt8], into packets: inout [Packet], cache: inout RepeatedFrameCache) throws {
        buffer.append(contentsOf: bytes)
        while let packet = try decoder.decodePacket(&buffer, cache: &cache) {
            packets.append(packet)
        }
    }
}

/// A packet as `World.sendPacket` put it on the wire: its bytes, its trace line's detail and what compression
/// saved (nil when the frame is not compressed).
struct EncodedPacket {
    var packet: Packet
    var bytes: [UInt8]
    var traceDetail: String
    var compressionSavedBytes: Int?
}

/// The socket of each open server connection. The world numbers connections 1, 2, 3... in accept order, so the
/// table is an array indexed by that number: a lookup per server send and push was a hash of the id.
struct ServerSocketTable {
    private var socketByConnection: [SocketID?] = []

    subscript(connection: ServerConnectionID) -> SocketID? {
        get {
            let index = connection.rawValue
            return index >= 0 && index < socketByConnection.count ? socketByConnection[index] : nil
        }
        set {
            let index = connection.rawValue
            precondition(index >= 0, "connection numbers are not negative")
            if index >= socketByConnection.count {
                guard newValue != nil else { return }
                socketByConnection += [SocketID?](repeating: nil, count: index + 1 - socketByConnection.count)
            }
            socketByConnection[index] = newValue
        }
    }
}

/// Faults the world applies itself (the server core has no knob for them), and their bookkeeping.
struct FaultState {
    /// Responses still to lose, by opcode and client (`LoseResponses`).
    var responsesToLose: [RequestFault: Int] = [:]
    /// Requests whose response is lost on the way back, as (server connection, seq, opcode).
    var lostResponses: Set<LostResponse> = []
    /// Requests still to answer with an error, by opcode and client (`ErrorReplies`).
    var errorsToReply: [RequestFault: Int] = [:]
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
        /// The held responses in the order held, each with its connection and the device that connection was
        /// logged in from then (where the response goes with `repliesFollowDevice` once the connection closed).
        var packets: [(packet: Packet, connection: ServerConnectionID, device: (userId: Int64?, deviceId: String?)?)] = []
    }

    /// What a counted request fault (`LoseResponses`, `ErrorReplies`) applies to: requests of `opcode` from client
    /// `client` (index), or from every client when nil.
    struct RequestFault: Hashable {
        var opcode: Opcode
        var client: Int?
    }

    /// Takes one fault from `counts` for a request of `opcode` from client `client` (resolved only while some fault
    /// is left): the client's own before every client's. A count used up is removed, so `counts` is empty again
    /// once every fault is spent. Returns whether one was taken.
    static func take(from counts: inout [RequestFault: Int], opcode: Opcode, client: @autoclosure () -> Int?) -> Bool {
        guard !counts.isEmpty else { return false }
        let own = RequestFault(opcode: opcode, client: client())
        let anyone = RequestFault(opcode: opcode, client: nil)
        guard let key = counts[own] != nil ? own : counts[anyone] != nil ? anyone : nil,
              let remaining = counts[key] else { return false }
        counts[key] = remaining > 1 ? remaining - 1 : nil
        return true
    }

    struct LostResponse: Hashable {
        var connection: ServerConnectionID
        var seq: UInt16
        var opcode: Opcode
    }
}

/// The last `capacity` trace records, oldest first; rendered as lines only when a violation asks for them, not on
/// every world step.
///
/// Records are kept as their time and the UTF-8 bytes of their component, kind and detail, written one after the
/// other into one byte array per generation of `capacity` records: when the current generation is full it becomes
/// the previous one and the older previous one's storage is emptied in place for the next. The tail is then the
/// newest records of the previous generation and all of the current one. Keeping it costs no allocation or
/// reference count per record, and the record's own strings are freed at once, while still in cache; and each
/// record is written where the last one ended, not into a slot of its own (a byte array per slot, each an object
/// out of cache by the time the ring came round to it again: its uniqueness check was a cache miss per record).
struct TraceRing {
    let capacity: Int
    private var current = Generation()
    private var previous = Generation()

    /// Up to `capacity` records, their bytes back to back.
    private struct Generation {
        var entries: [Entry] = []
        var bytes = Bytes()

        mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            bytes.removeAll()
        }

        func record(_ entry: Entry) -> TraceRecord {
            TraceRecord(time: entry.time,
                        component: bytes.string(entry.start..<entry.componentEnd),
                        kind: bytes.string(entry.componentEnd..<entry.kindEnd),
                        detail: bytes.string(entry.kindEnd..<entry.end))
        }
    }

    /// One record: component, kind and detail are `bytes[start..<componentEnd]`, `[componentEnd..<kindEnd]` and
    /// `[kindEnd..<end]` of its generation.
    private struct Entry {
        var time: SimInstant
        var start: Int
        var componentEnd: Int
        var kindEnd: Int
        var end: Int
    }

    /// UTF-8 bytes written one after another, into storage kept (and grown) across `removeAll`.
    ///
    /// A write is a bounds check and a copy into the storage. Each piece of each record went through
    /// `Array.append(contentsOf:)`, whose general path (a uniqueness check, a reserve, a call to copy, a count
    /// update: about 90 instructions) was paid three to seven times per record, for pieces a few bytes long.
    struct Bytes {
        /// The storage, zero-filled past `count`; never shorter than what was written.
        private var storage: [UInt8] = []
        /// How many bytes are written.
        private(set) var count = 0

        /// Forgets what was written, keeping the storage.
        mutating func removeAll() { count = 0 }

        /// The bytes of `range` (within `0..<count`) as a string.
        func string(_ range: Range<Int>) -> String {
            String(decoding: storage[range], as: UTF8.self)
        }

        /// Everything written, as a string.
        var string: String { string(0..<count) }

        /// Makes room for `extra` more bytes and returns where they go (`count`, before the caller writes them).
        @inline(__always)
        private mutating func reserve(_ extra: Int) -> Int {
            let start = count
            if start + extra > storage.count {
                // Doubled, so that a generation's storage settles after its first rounds.
                let growth = max(start + extra - storage.count, storage.count, 256)
                storage.append(contentsOf: repeatElement(0, count: growth))
            }
            count = start + extra
            return start
        }

        mutating func write(_ source: UnsafeBufferPointer<UInt8>) {
            let length = source.count
            guard length > 0, let base = source.baseAddress else { return }
            let start = reserve(length)
            storage.withUnsafeMutableBufferPointer { target in
                // Short pieces (names, kinds, separators) byte by byte; a call to copy costs more than they do.
                if length <= 16 {
                    for offset in 0..<length { target[start &+ offset] = base[offset] }
                } else {
                    target.baseAddress.unsafelyUnwrapped.advanced(by: start).update(from: base, count: length)
                }
            }
        }

        mutating func write(byte: UInt8) {
            let start = reserve(1)
            storage.withUnsafeMutableBufferPointer { $0[start] = byte }
        }

        /// Writes a string's UTF-8 bytes, read where the string keeps them (a mutable copy for `withUTF8` cost a
        /// retain and a release of the string on every record).
        mutating func write(_ text: String) {
            let written: Void? = text.utf8.withContiguousStorageIfAvailable { write($0) }
            if written == nil {
                var text = text
                text.withUTF8 { write($0) }
            }
        }

        /// Writes a literal's UTF-8 bytes.
        mutating func write(literal: StaticString) {
            literal.withUTF8Buffer { write($0) }
        }

        /// Writes `value` in decimal, as `String(value)` spells it.
        mutating func write(decimal value: Int) {
            let length = TraceRing.decimalLength(value)
            let start = reserve(length)
            storage.withUnsafeMutableBufferPointer { _ = TraceRing.writeDecimal(value, into: $0, at: start) }
        }
    }

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(_ record: TraceRecord) {
        append(time: record.time, component: record.component, kind: record.kind) { bytes in
            bytes.write(record.detail)
        }
    }

    /// Appends a record whose detail `writeDetail` writes as UTF-8 bytes (`World.recordFrame`): the same record as
    /// `append(_:)` with that detail, without the detail's string.
    mutating func append(
        time: SimInstant, component: String, kind: String, detail writeDetail: (inout Bytes) -> Void
    ) {
        if current.entries.count == capacity {
            swap(&previous, &current)
            current.removeAll()
        }
        let start = current.bytes.count
        current.bytes.write(component)
        let componentEnd = current.bytes.count
        current.bytes.write(kind)
        let kindEnd = current.bytes.count
        writeDetail(&current.bytes)
        current.entries.append(Entry(time: time, start: start, componentEnd: componentEnd, kindEnd: kindEnd,
                                     end: current.bytes.count))
    }

    /// How many bytes `String(value)` takes: the digits, and a sign when negative.
    static func decimalLength(_ value: Int) -> Int {
        var digits = 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return value < 0 ? digits + 1 : digits
    }

    /// Writes `value` in decimal at `start` (a sign first when negative), as `String(value)` spells it, and returns
    /// the position after it; `out` must have `decimalLength(value)` bytes from `start`.
    static func writeDecimal(_ value: Int, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        let end = start + decimalLength(value)
        if value < 0 { out[start] = UInt8(ascii: "-") }
        var magnitude = value.magnitude
        var index = end
        repeat {
            index -= 1
            out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return end
    }

    /// The records as `TraceRecord.description` lines, oldest first.
    var lines: [String] { records.map(\.description) }

    /// The last `count` records at or before `instant`, as lines, oldest first.
    func lines(upTo instant: SimInstant, count: Int) -> [String] {
        records.filter { $0.time <= instant }.suffix(count).map(\.description)
    }

    /// The last `capacity` records, oldest first.
    private var records: [TraceRecord] {
        let fromPrevious = previous.entries.suffix(capacity - current.entries.count)
        return fromPrevious.map(previous.record) + current.entries.map(current.record)
    }
}
