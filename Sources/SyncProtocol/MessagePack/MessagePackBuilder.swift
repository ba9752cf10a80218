#if canImport(Glibc)
import Glibc  // memcmp
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a `MessagePackValue` straight from bytes that `MessagePackScanner` accepted, in one pass.
///
/// The scanner has already checked every type byte, length, count and nesting level, so the builder reads without
/// checks of its own: it must only ever see bytes the scanner accepted (`MessagePackValue(messagePack:)` scans
/// first). It gives exactly what msgpack-c's unpacker followed by a conversion of its objects gave before it: the
/// signedness of each integer's encoding, a float32 widened to double and back (a signalling NaN comes back quiet,
/// as through `msgpack_unpack`), timestamps (ext -1 of 4, 8 or 12 bytes) as `msgpack_object_to_timestamp` reads them.
/// Strings are checked for UTF-8 as they are built; a bad one sets `sawInvalidUTF8` and the caller scans again to
/// name its offset.
struct MessagePackBuilder {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var offset = 0
    private let keyCache: MessagePackKeyCache
    /// Set when a string was not UTF-8 (built as nil); the caller then throws.
    private(set) var sawInvalidUTF8 = false

    /// - Parameters:
    ///   - base: the first byte of a value the scanner accepted.
    ///   - count: the value's size in bytes.
    ///   - keyCache: map keys already built, reused from value to value.
    init(base: UnsafePointer<UInt8>, count: Int, keyCache: MessagePackKeyCache) {
        self.base = base
        self.end = count
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

    /// The next value.
    mutating func value() -> MessagePackValue {
        let type = byte()
        switch type {
        case 0x00...0x7f: return .uint(UInt64(type))
        case 0x80...0x8f: return map(count: Int(type & 0x0f))
        case 0x90...0x9f: return array(count: Int(type & 0x0f))
        case 0xa0...0xbf: return string(count: Int(type & 0x1f))
        case 0xc0: return .nil
        case 0xc2: return .bool(false)
        case 0xc3: return .bool(true)
        case 0xc4: return binary(count: Int(byte()))
        case 0xc5: return binary(count: Int(bigEndian16()))
        case 0xc6: return binary(count: Int(bigEndian32()))
        case 0xc7:
            let count = Int(byte())
            return ext(count: count)
        case 0xc8:
            let count = Int(bigEndian16())
            return ext(count: count)
        case 0xc9:
            let count = Int(bigEndian32())
            return ext(count: count)
        case 0xca:
            // msgpack-c widens a float32 to double (which quiets a signalling NaN) and the value was narrowed back.
            var number = Float(bitPattern: bigEndian32())
            if number.isSignalingNaN { number = Float(bitPattern: number.bitPattern | 0x0040_0000) }
            return .float(number)
        case 0xcb: return .double(Double(bitPattern: bigEndian64()))
        case 0xcc: return .uint(UInt64(byte()))
        case 0xcd: return .uint(UInt64(bigEndian16()))
        case 0xce: return .uint(UInt64(bigEndian32()))
        case 0xcf: return .uint(bigEndian64())
        case 0xd0: return .int(Int64(Int8(bitPattern: byte())))
        case 0xd1: return .int(Int64(Int16(bitPattern: bigEndian16())))
        case 0xd2: return .int(Int64(Int32(bitPattern: bigEndian32())))
        case 0xd3: return .int(Int64(bitPattern: bigEndian64()))
        case 0xd4...0xd8: return ext(count: 1 << Int(type - 0xd4))
        case 0xd9: return string(count: Int(byte()))
        case 0xda: return string(count: Int(bigEndian16()))
        case 0xdb: return string(count: Int(bigEndian32()))
        case 0xdc: return array(count: Int(bigEndian16()))
        case 0xdd: return array(count: Int(bigEndian32()))
        case 0xde: return map(count: Int(bigEndian16()))
        case 0xdf: return map(count: Int(bigEndian32()))
        case 0xe0...0xff: return .int(Int64(Int8(bitPattern: type)))
        default:
            // 0xc1: the scanner refuses it, so it never gets here.
            preconditionFailure("MessagePackBuilder read byte 0xc1, which the scanner refuses")
        }
    }

    private mutating func string(count: Int) -> MessagePackValue {
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

    private mutating func binary(count: Int) -> MessagePackValue {
        let bytes = [UInt8](UnsafeRawBufferPointer(start: base + offset, count: count))
        offset &+= count
        return .binary(bytes)
    }

    private mutating func ext(count: Int) -> MessagePackValue {
        let type = Int8(bitPattern: byte())
        let start = offset
        offset &+= count
        if type == -1 {
            // As msgpack-c's `msgpack_object_to_timestamp`: 32-bit seconds; 30-bit nanoseconds and 34-bit seconds;
            // 32-bit nanoseconds and signed 64-bit seconds.
            var reader = MessagePackBuilder(base: base + start, count: count, keyCache: keyCache)
            switch count {
            case 4:
                return .timestamp(seconds: Int64(reader.bigEndian32()), nanoseconds: 0)
            case 8:
                let packed = reader.bigEndian64()
                return .timestamp(
                    seconds: Int64(packed & 0x3_FFFF_FFFF), nanoseconds: UInt32(truncatingIfNeeded: packed >> 34))
            case 12:
                let nanoseconds = reader.bigEndian32()
                return .timestamp(seconds: Int64(bitPattern: reader.bigEndian64()), nanoseconds: nanoseconds)
            default:
                break
            }
        }
        return .ext(type: type, data: [UInt8](UnsafeRawBufferPointer(start: base + start, count: count)))
    }

    private mutating func array(count: Int) -> MessagePackValue {
        var elements: [MessagePackValue] = []
        elements.reserveCapacity(count)
        for _ in 0..<count { elements.append(value()) }
        return .array(elements)
    }

    private mutating func map(count: Int) -> MessagePackValue {
        var pairs: [MessagePackPair] = []
        pairs.reserveCapacity(count)
        for _ in 0..<count {
            let key = self.key()
            pairs.append(MessagePackPair(key, value()))
        }
        return .map(pairs)
    }

    /// A map key: a string of 1-15 bytes comes from the cache when seen before.
    private mutating func key() -> MessagePackValue {
        let type = base[offset]
        guard type >= 0xa1, type <= 0xaf else { return value() }
        let (low, high) = MessagePackKeyCache.words(base + offset, readable: end &- offset)
        if let key = keyCache.key(low, high) {
            offset &+= 1 &+ Int(type & 0x1f)
            return key
        }
        let key = value()
        if case .string = key { keyCache.insert(key, low, high) }
        return key
    }
}
