import CMsgPack

/// MessagePack bytes <-> `MessagePackValue` through msgpack-c: the one file that calls into `CMsgPack`.
///
/// Packing uses `msgpack_packer` over a `msgpack_sbuffer`; unpacking uses `msgpack_unpack` into a
/// `msgpack_zone` after `MessagePackScanner` has checked the bytes, so msgpack-c only ever sees well-formed
/// input whose element counts are backed by real bytes.
enum MessagePackSerialization {
    /// Packs `value`, choosing the shortest encoding for each integer, string, binary, array, map and timestamp.
    static func pack(_ value: MessagePackValue) -> [UInt8] {
        var buffer = msgpack_sbuffer()
        msgpack_sbuffer_init(&buffer)
        defer { msgpack_sbuffer_destroy(&buffer) }
        withUnsafeMutablePointer(to: &buffer) { bufferPointer in
            var packer = msgpack_packer()
            msgpack_packer_init(&packer, UnsafeMutableRawPointer(bufferPointer), msgpack_sbuffer_write)
            pack(value, with: &packer)
        }
        guard buffer.size > 0, let data = buffer.data else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: data, count: buffer.size))
    }

    private static func pack(_ value: MessagePackValue, with packer: inout msgpack_packer) {
        switch value {
        case .nil:
            msgpack_pack_nil(&packer)
        case .bool(let flag):
            _ = flag ? msgpack_pack_true(&packer) : msgpack_pack_false(&packer)
        case .int(let number):
            msgpack_pack_int64(&packer, number)
        case .uint(let number):
            msgpack_pack_uint64(&packer, number)
        case .float(let number):
            msgpack_pack_float(&packer, number)
        case .double(let number):
            msgpack_pack_double(&packer, number)
        case .string(var text):
            text.withUTF8 { utf8 in
                msgpack_pack_str(&packer, utf8.count)
                if let base = utf8.baseAddress { msgpack_pack_str_body(&packer, base, utf8.count) }
            }
        case .binary(let bytes):
            msgpack_pack_bin(&packer, bytes.count)
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { msgpack_pack_bin_body(&packer, base, raw.count) }
            }
        case .array(let elements):
            msgpack_pack_array(&packer, elements.count)
            for element in elements { pack(element, with: &packer) }
        case .map(let pairs):
            msgpack_pack_map(&packer, pairs.count)
            for pair in pairs {
                pack(pair.key, with: &packer)
                pack(pair.value, with: &packer)
            }
        case .ext(let type, let data):
            msgpack_pack_ext(&packer, data.count, type)
            data.withUnsafeBytes { raw in
                if let base = raw.baseAddress { msgpack_pack_ext_body(&packer, base, raw.count) }
            }
        case .timestamp(let seconds, let nanoseconds):
            var timestamp = msgpack_timestamp(tv_sec: seconds, tv_nsec: nanoseconds)
            msgpack_pack_timestamp(&packer, &timestamp)
        }
    }

    /// A string that is not UTF-8 (the scanner, run again with UTF-8 checks, names its offset).
    struct InvalidUTF8: Error {}

    /// Unpacks one value from bytes that `MessagePackScanner` accepted.
    /// - Parameter scan: the scanner's result for the same bytes (signed encodings of non-negative integers).
    /// - Throws: `InvalidUTF8` for a string that is not UTF-8; `WireError` `.invalidMessagePack` if msgpack-c still
    ///   refuses the bytes (it should not).
    static func unpack(_ bytes: UnsafeRawBufferPointer, scan: MessagePackScanner.Result) throws -> MessagePackValue {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw WireError(.truncatedMessagePack, offset: 0, detail: "expected a value, found no bytes",
                            payloadOffset: 0)
        }
        // One zone per value, its chunk sized from the input so a page needs one or two mallocs: each object is
        // 24 bytes (16 for a map pair's half) and takes at least one input byte, so 2x-4x the input is typical.
        var zone = msgpack_zone()
        guard msgpack_zone_init(&zone, min(max(8192, bytes.count * 4), 1 << 20)) else {
            throw WireError(.invalidMessagePack, offset: 0, detail: "msgpack-c could not allocate its zone",
                            payloadOffset: 0)
        }
        defer { msgpack_zone_destroy(&zone) }
        var root = msgpack_object()
        var consumed = 0
        let status = msgpack_unpack(base.assumingMemoryBound(to: CChar.self), bytes.count, &consumed, &zone, &root)
        guard status == MSGPACK_UNPACK_SUCCESS, consumed == bytes.count else {
            throw WireError(
                .invalidMessagePack, offset: consumed,
                detail: "msgpack-c refused the value (status \(status.rawValue)) at byte \(consumed)",
                payloadOffset: consumed
            )
        }
        var converter = Converter(signedIndices: scan.signedNonNegativeIndices)
        let value = converter.convert(root)
        if converter.sawInvalidUTF8 { throw InvalidUTF8() }
        return value
    }

    /// Turns msgpack-c's object tree into values, numbering objects in pre-order like the scanner.
    private struct Converter {
        let signedIndices: [Int]
        var nextSigned = 0
        var index = 0

        init(signedIndices: [Int]) { self.signedIndices = signedIndices }

        static func hasSameBytes(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
            var copy = text
            return copy.withUTF8 { utf8 in
                utf8.count == bytes.count
                    && (utf8.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, utf8.count) == 0)
            }
        }

        /// Map keys seen in this value, at most 15 bytes each, packed into two words with their length: payloads
        /// repeat a few keys (`id`, `time`, `text`) thousands of times, and comparing two words is cheaper than
        /// building and checking a string each time.
        var keyCache: [(low: UInt64, high: UInt64, key: MessagePackValue)] = []

        mutating func convertKey(_ object: msgpack_object) -> MessagePackValue {
            guard object.type == MSGPACK_OBJECT_STR, object.via.str.size <= 15 else { return convert(object) }
            let size = Int(object.via.str.size)
            let raw = UnsafeRawBufferPointer(start: object.via.str.ptr, count: size)
            var low = UInt64(size)
            var high: UInt64 = 0
            for position in 0..<size {
                if position < 7 {
                    low |= UInt64(raw[position]) << (8 * (position + 1))
                } else {
                    high |= UInt64(raw[position]) << (8 * (position - 7))
                }
            }
            for entry in keyCache where entry.low == low && entry.high == high {
                index += 1
                return entry.key
            }
            let key = convert(object)
            if keyCache.count < 32, case .string = key { keyCache.append((low, high, key)) }
            return key
        }

        /// Set when a string was not UTF-8 (converted as nil); the caller then throws.
        var sawInvalidUTF8 = false

        mutating func convert(_ object: msgpack_object) -> MessagePackValue {
            let current = index
            index += 1
            switch object.type {
            case MSGPACK_OBJECT_NIL:
                return .nil
            case MSGPACK_OBJECT_BOOLEAN:
                return .bool(object.via.boolean)
            case MSGPACK_OBJECT_POSITIVE_INTEGER:
                if nextSigned < signedIndices.count, signedIndices[nextSigned] == current {
                    nextSigned += 1
                    return .int(Int64(bitPattern: object.via.u64))
                }
                return .uint(object.via.u64)
            case MSGPACK_OBJECT_NEGATIVE_INTEGER:
                if nextSigned < signedIndices.count, signedIndices[nextSigned] == current { nextSigned += 1 }
                return .int(object.via.i64)
            case MSGPACK_OBJECT_FLOAT32:
                return .float(Float(object.via.f64))
            case MSGPACK_OBJECT_FLOAT64:
                return .double(object.via.f64)
            case MSGPACK_OBJECT_STR:
                let string = object.via.str
                let raw = UnsafeRawBufferPointer(start: string.ptr, count: Int(string.size))
                let text = String(decoding: raw, as: UTF8.self)
                // Decoding repairs invalid UTF-8 with U+FFFD, so valid input is exactly input that comes back
                // unchanged (one memcmp). `String(validating:)` would be clearer but resolves generic metadata on
                // every call, which dominated decoding time.
                if !Self.hasSameBytes(text, raw) {
                    sawInvalidUTF8 = true
                    return .nil
                }
                return .string(text)
            case MSGPACK_OBJECT_BIN:
                let binary = object.via.bin
                return .binary([UInt8](UnsafeRawBufferPointer(start: binary.ptr, count: Int(binary.size))))
            case MSGPACK_OBJECT_ARRAY:
                let array = object.via.array
                let count = Int(array.size)
                return .array([MessagePackValue](unsafeUninitializedCapacity: count) { buffer, initialized in
                    while initialized < count {
                        (buffer.baseAddress! + initialized).initialize(to: convert(array.ptr[initialized]))
                        initialized += 1
                    }
                })
            case MSGPACK_OBJECT_MAP:
                let map = object.via.map
                let count = Int(map.size)
                return .map([MessagePackPair](unsafeUninitializedCapacity: count) { buffer, initialized in
                    while initialized < count {
                        let key = convertKey(map.ptr[initialized].key)
                        let value = convert(map.ptr[initialized].val)
                        (buffer.baseAddress! + initialized).initialize(to: MessagePackPair(key, value))
                        initialized += 1
                    }
                })
            case MSGPACK_OBJECT_EXT:
                let ext = object.via.ext
                if ext.type == -1 {
                    var timestamp = msgpack_timestamp()
                    var copy = object
                    if msgpack_object_to_timestamp(&copy, &timestamp) {
                        return .timestamp(seconds: timestamp.tv_sec, nanoseconds: timestamp.tv_nsec)
                    }
                }
                return .ext(type: ext.type, data: [UInt8](UnsafeRawBufferPointer(start: ext.ptr, count: Int(ext.size))))
            default:
                return .nil
            }
        }
    }
}
