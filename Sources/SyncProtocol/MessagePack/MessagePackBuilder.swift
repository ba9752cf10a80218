#if canImport(Glibc)
import Glibc  // memcmp
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a `MessagePackValue` straight from bytes in one pass, refusing anything `MessagePackScanner` refuses.
///
/// The builder checks as it reads what the scanner's quick loop checks (type bytes, lengths and counts against the
/// bytes left, nesting against `MessagePackLimits.maxDepth`, nothing after the value) and also the timestamp rules
/// the detailed scan adds, but says nothing about a fault: it throws `Refusal`, and the caller runs the scanner,
/// which names the fault with its offset. So a well-formed payload is read once instead of scanned and then built,
/// and a bad one gets exactly the error it got before (docs/performance.md, "Sixth pass: codec"). Counts are checked
/// before any storage is reserved, so a hostile count never allocates.
///
/// It gives exactly what msgpack-c's unpacker followed by a conversion of its objects gave before it: the
/// signedness of each integer's encoding, a float32 widened to double and back (a signalling NaN comes back quiet,
/// as through `msgpack_unpack`), timestamps (ext -1 of 4, 8 or 12 bytes) as `msgpack_object_to_timestamp` reads them.
/// Strings are checked for UTF-8 as they are built; a bad one sets `sawInvalidUTF8` and the caller scans again to
/// name its offset.
struct MessagePackBuilder {
    /// The bytes are not one well-formed value within the limits; `MessagePackScanner` says where and why.
    struct Refusal: Error {}

    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var offset = 0
    /// The most non-empty containers that may be open around a value (`MessagePackLimits.maxDepth`).
    private let maxDepth: Int
    /// Non-empty containers open around the value being read.
    private var depth = 0
    private let keyCache: MessagePackKeyCache
    /// Set when a string was not UTF-8 (built as nil); the caller then throws.
    private(set) var sawInvalidUTF8 = false

    /// - Parameters:
    ///   - base: the first byte of the value.
    ///   - count: how many bytes may be read from `base`.
    ///   - maxDepth: `MessagePackLimits.maxDepth`.
    ///   - keyCache: map keys already built, reused from value to value.
    init(base: UnsafePointer<UInt8>, count: Int, maxDepth: Int, keyCache: MessagePackKeyCache) {
        self.base = base
        self.end = count
        self.maxDepth = maxDepth
        self.keyCache = keyCache
    }

    /// Bytes read so far.
    var consumedByteCount: Int { offset }

    @inline(__always)
    private mutating func byte() -> UInt8 {
        let value = base[offset]
        offset &+= 1
        return value
    }

    @inline(__always)
    private mutating func bigEndian16() -> UInt16 {
        let value = UInt16(base[offset]) << 8 | UInt16(base[offset &+ 1])
        offset &+= 2
        return value
    }

    @inline(__always)
    private mutating func bigEndian32() -> UInt32 {
        let value =
            UInt32(base[offset]) << 24 | UInt32(base[offset &+ 1]) << 16 | UInt32(base[offset &+ 2]) << 8
            | UInt32(base[offset &+ 3])
        offset &+= 4
        return value
    }

    @inline(__always)
    private mutating func bigEndian64() -> UInt64 {
        let high = UInt64(bigEndian32())
        return high << 32 | UInt64(bigEndian32())
    }

    /// Throws unless `count` more bytes can be read.
    @inline(__always)
    private func need(_ count: Int) throws(Refusal) {
        guard count <= end &- offset else { throw Refusal() }
    }

    /// The next value.
    mutating func value() throws(Refusal) -> MessagePackValue {
        try need(1)
        let type = byte()
        switch type {
        case 0x00...0x7f: return .uint(UInt64(type))
        case 0x80...0x8f: return try map(count: Int(type & 0x0f))
        case 0x90...0x9f: return try array(count: Int(type & 0x0f))
        case 0xa0...0xbf: return try string(count: Int(type & 0x1f))
        case 0xc0: return .nil
        case 0xc2: return .bool(false)
        case 0xc3: return .bool(true)
        case 0xc4:
            try need(1)
            return try binary(count: Int(byte()))
        case 0xc5:
            try need(2)
            return try binary(count: Int(bigEndian16()))
        case 0xc6:
            try need(4)
            return try binary(count: Int(bigEndian32()))
        case 0xc7:
            try need(1)
            return try ext(count: Int(byte()))
        case 0xc8:
            try need(2)
            return try ext(count: Int(bigEndian16()))
        case 0xc9:
            try need(4)
            return try ext(count: Int(bigEndian32()))
        case 0xca:
            try need(4)
            // msgpack-c widens a float32 to double (which quiets a signalling NaN) and the value was narrowed back.
            var number = Float(bitPattern: bigEndian32())
            if number.isSignalingNaN { number = Float(bitPattern: number.bitPattern | 0x0040_0000) }
            return .float(number)
        case 0xcb:
            try need(8)
            return .double(Double(bitPattern: bigEndian64()))
        case 0xcc:
            try need(1)
            return .uint(UInt64(byte()))
        case 0xcd:
            try need(2)
            return .uint(UInt64(bigEndian16()))
        case 0xce:
            try need(4)
            return .uint(UInt64(bigEndian32()))
        case 0xcf:
            try need(8)
            return .uint(bigEndian64())
        case 0xd0:
            try need(1)
            return .int(Int64(Int8(bitPattern: byte())))
        case 0xd1:
            try need(2)
            return .int(Int64(Int16(bitPattern: bigEndian16())))
        case 0xd2:
            try need(4)
            return .int(Int64(Int32(bitPattern: bigEndian32())))
        case 0xd3:
            try need(8)
            return .int(Int64(bitPattern: bigEndian64()))
        case 0xd4...0xd8: return try ext(count: 1 << Int(type - 0xd4))
        case 0xd9:
            try need(1)
            return try string(count: Int(byte()))
        case 0xda:
            try need(2)
            return try string(count: Int(bigEndian16()))
        case 0xdb:
            try need(4)
            return try string(count: Int(bigEndian32()))
        case 0xdc:
            try need(2)
            return try array(count: Int(bigEndian16()))
        case 0xdd:
            try need(4)
            return try array(count: Int(bigEndian32()))
        case 0xde:
            try need(2)
            return try map(count: Int(bigEndian16()))
        case 0xdf:
            try need(4)
            return try map(count: Int(bigEndian32()))
        case 0xe0...0xff: return .int(Int64(Int8(bitPattern: type)))
        default:
            // 0xc1 is never used.
            throw Refusal()
        }
    }

    private mutating func string(count: Int) throws(Refusal) -> MessagePackValue {
        try need(count)
        let raw = UnsafeRawBufferPointer(start: base + offset, count: count)
        offset &+= count
        guard let text = Self.text(raw) else {
            sawInvalidUTF8 = true
            return .nil
        }
        return .string(text)
    }

    /// `raw` as a string, or nil when it is not UTF-8.
    @inline(__always)
    static func text(_ raw: UnsafeRawBufferPointer) -> String? {
        let text = String(decoding: raw, as: UTF8.self)
        // Decoding repairs invalid UTF-8 with U+FFFD, so valid input is exactly input that comes back unchanged (one
        // memcmp). `String(validating:)` would be clearer but resolves generic metadata on every call.
        return hasSameBytes(text, raw) ? text : nil
    }

    @inline(__always)
    private static func hasSameBytes(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let utf8 = text.utf8
        // A repair usually changes the length, which a native string stores: check it before the bytes.
        guard utf8.count == bytes.count else { return false }
        if let same = utf8.withContiguousStorageIfAvailable({ stored in
            stored.isEmpty || memcmp(stored.baseAddress!, bytes.baseAddress!, stored.count) == 0
        }) {
            return same
        }
        return utf8.elementsEqual(bytes)
    }

    private mutating func binary(count: Int) throws(Refusal) -> MessagePackValue {
        try need(count)
        let bytes = [UInt8](UnsafeRawBufferPointer(start: base + offset, count: count))
        offset &+= count
        return .binary(bytes)
    }

    /// An ext value of `count` data bytes, after its length and before its type byte.
    private mutating func ext(count: Int) throws(Refusal) -> MessagePackValue {
        try need(1)
        let type = Int8(bitPattern: byte())
        try need(count)
        let start = offset
        offset &+= count
        if type == -1 {
            // As msgpack-c's `msgpack_object_to_timestamp`: 32-bit seconds; 30-bit nanoseconds and 34-bit seconds;
            // 32-bit nanoseconds and signed 64-bit seconds. Other sizes, and nanoseconds of 1e9 or more, are refused
            // (the detailed scan's timestamp rules).
            var reader = MessagePackBuilder(base: base + start, count: count, maxDepth: maxDepth, keyCache: keyCache)
            switch count {
            case 4:
                return .timestamp(seconds: Int64(reader.bigEndian32()), nanoseconds: 0)
            case 8:
                let packed = reader.bigEndian64()
                let nanoseconds = UInt32(truncatingIfNeeded: packed >> 34)
                guard nanoseconds < 1_000_000_000 else { throw Refusal() }
                return .timestamp(seconds: Int64(packed & 0x3_FFFF_FFFF), nanoseconds: nanoseconds)
            case 12:
                let nanoseconds = reader.bigEndian32()
                guard nanoseconds < 1_000_000_000 else { throw Refusal() }
                return .timestamp(seconds: Int64(bitPattern: reader.bigEndian64()), nanoseconds: nanoseconds)
            default:
                throw Refusal()
            }
        }
        return .ext(type: type, data: [UInt8](UnsafeRawBufferPointer(start: base + start, count: count)))
    }

    /// Throws unless a container of `children` keys and values may open here: each takes at least one byte, and at
    /// most `maxDepth` non-empty containers are open at once.
    @inline(__always)
    private mutating func open(children: Int) throws(Refusal) {
        guard children <= end &- offset, depth < maxDepth else { throw Refusal() }
        depth &+= 1
    }

    private mutating func array(count: Int) throws(Refusal) -> MessagePackValue {
        guard count > 0 else { return .array([]) }
        try open(children: count)
        var elements: [MessagePackValue] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(try value()) }
        depth &-= 1
        return .array(elements)
    }

    private mutating func map(count: Int) throws(Refusal) -> MessagePackValue {
        guard count > 0 else { return .map([]) }
        try open(children: count &* 2)
        var pairs: [MessagePackPair] = []
        pairs.reserveCapacity(count)
        for _ in 0..<count {
            let key = try self.key()
            pairs.append(MessagePackPair(key, try value()))
        }
        depth &-= 1
        return .map(pairs)
    }

    /// A map key: a string of 1-15 bytes comes from the cache when seen before. Inlined into `map`, the one caller.
    @inline(__always)
    private mutating func key() throws(Refusal) -> MessagePackValue {
        try need(1)
        let type = base[offset]
        guard type >= 0xa1, type <= 0xaf else { return try value() }
        try need(1 &+ Int(type & 0x1f))
        let (low, high) = MessagePackKeyCache.words(base + offset, readable: end &- offset)
        if let key = keyCache.key(low, high) {
            offset &+= 1 &+ Int(type & 0x1f)
            return .string(key)
        }
        let key = try value()
        if case .string(let text) = key { keyCache.insert(text, low, high) }
        return key
    }
}
