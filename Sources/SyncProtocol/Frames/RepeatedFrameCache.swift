import Glibc  // memcmp

/// Packets decoded from recent frames, looked up by the frames' exact bytes, so a frame that arrives again (the
/// same push fanned out to every member of a chat) is decoded once instead of once per stream.
///
/// A hit returns exactly the packet a decode of those bytes returns: decoding is a function of the bytes and of the
/// decoder's layout, version and limits, and the cache serves only decoders whose layout, version, payload bound and
/// MessagePack limits equal those it was made for (others decode as if it did not exist). A key is the whole frame, header
/// included, compared byte for byte; only frames that decoded without error are stored. Which frames are stored
/// is the caller's choice by opcode (pushes repeat, responses do not); at most `capacity` are kept, the oldest
/// replaced first. Lookups hash with `Hasher` (seeded per process) but only find entries: nothing is ever iterated,
/// so the seed never reaches behaviour.
///
/// ```swift
/// var cache = RepeatedFrameCache(matching: decoder, opcodes: [.notifMessage])
/// while let packet = try decoder.decodePacket(&buffer, cache: &cache) { handle(packet) }
/// ```
public struct RepeatedFrameCache {
    private struct Entry {
        var hash: Int
        var bytes: [UInt8]
        var packet: Packet
    }

    /// The opcodes whose frames are stored.
    public let opcodes: [Opcode]
    /// The most frames kept.
    public let capacity: Int
    /// The largest frame stored, in bytes (header included).
    public let maxFrameBytes: Int
    /// How many decodes the cache answered.
    public private(set) var hitCount = 0
    let layout: HeaderLayout
    let version: UInt8
    let maxPayloadBytes: Int
    let messagePackLimits: MessagePackLimits
    private var entries: [Entry] = []
    /// Entry position by the hash of its bytes; a colliding frame replaces the older entry's place here.
    private var positionByHash: [Int: Int] = [:]
    /// The entry the next insertion replaces once `entries` is full.
    private var nextReplaced = 0

    /// A cache for decoders configured like `decoder`.
    /// - Parameters:
    ///   - decoder: its layout, version, payload bound and MessagePack limits are the ones the cache serves.
    ///   - opcodes: the opcodes whose frames are stored (any cmd).
    ///   - capacity: the most frames kept, at least 1; 1,024 by default.
    ///   - maxFrameBytes: the largest frame stored, in bytes; 64 KiB by default.
    public init(
        matching decoder: FrameDecoder, opcodes: [Opcode], capacity: Int = 1024, maxFrameBytes: Int = 1 << 16
    ) {
        precondition(capacity >= 1, "a cache holds at least one frame")
        self.opcodes = opcodes
        self.capacity = capacity
        self.maxFrameBytes = maxFrameBytes
        self.layout = decoder.layout
        self.version = decoder.version
        self.maxPayloadBytes = decoder.maxPayloadBytes
        self.messagePackLimits = decoder.messagePackLimits
    }

    /// Whether `decoder` decodes every stored frame as the decoder the cache was made for.
    func serves(_ decoder: FrameDecoder) -> Bool {
        decoder.layout == layout && decoder.version == version && decoder.maxPayloadBytes == maxPayloadBytes
            && decoder.messagePackLimits == messagePackLimits
    }

    /// Whether frames of this header are stored.
    func stores(_ header: FrameHeader) -> Bool {
        FrameHeader.byteCount + header.payloadLength <= maxFrameBytes && opcodes.contains(header.opcode)
    }

    /// The hash a frame's bytes are found by.
    static func hash(_ frame: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: frame)
        return hasher.finalize()
    }

    /// The packet stored for exactly these bytes, if any.
    mutating func packet(for frame: UnsafeRawBufferPointer, hash: Int) -> Packet? {
        guard let position = positionByHash[hash] else { return nil }
        let isSame = entries[position].bytes.withUnsafeBytes { stored in
            guard stored.count == frame.count else { return false }
            return frame.isEmpty || memcmp(stored.baseAddress!, frame.baseAddress!, frame.count) == 0
        }
        guard isSame else { return nil }
        hitCount += 1
        return entries[position].packet
    }

    /// Stores the packet decoded from `bytes`, replacing the oldest entry when full.
    mutating func insert(_ bytes: [UInt8], hash: Int, packet: Packet) {
        let entry = Entry(hash: hash, bytes: bytes, packet: packet)
        let position: Int
        if entries.count < capacity {
            position = entries.count
            entries.append(entry)
        } else {
            position = nextReplaced
            nextReplaced = (nextReplaced + 1) % capacity
            let replacedHash = entries[position].hash
            if positionByHash[replacedHash] == position { positionByHash[replacedHash] = nil }
            entries[position] = entry
        }
        positionByHash[hash] = position
    }
}
