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

    /// Unpacks one value from bytes that `MessagePackScanner` accepted, with a zone of its own.
    /// - Parameter scan: the scanner's result for the same bytes (signed encodings of non-negative integers).
    /// - Throws: `InvalidUTF8` for a string that is not UTF-8; `WireError` `.invalidMessagePack` if msgpack-c still
    ///   refuses the bytes (it should not).
    static func unpack(_ bytes: UnsafeRawBufferPointer, scan: MessagePackScanner.Result) throws -> MessagePackValue {
        // One zone per value, its chunk sized from the input so a page needs one or two mallocs: each object is
        // 24 bytes (16 for a map pair's half) and takes at least one input byte, so 2x-4x the input is typical.
        let unpacker = try Unpacker(zoneChunkBytes: min(max(8192, bytes.count * 4), 1 << 20))
        return try unpacker.unpack(bytes, scan: scan)
    }

    /// A msgpack-c zone and a map-key cache kept from one value to the next, so a stream of frames costs no zone
    /// setup per frame and repeated keys (`id`, `time`, `text`) become strings once.
    ///
    /// A class because it owns C memory; `FrameDecoder` holds one and replaces it when the decoder was copied
    /// (`isKnownUniquelyReferenced`), so two decoder copies never share it; that is why `@unchecked Sendable` holds.
    final class Unpacker: @unchecked Sendable {
        /// Bytes of the zone chunk kept between values: a 27 KB history page needs about 100 KB of objects.
        static let defaultZoneChunkBytes = 128 << 10

        private let zone: UnsafeMutablePointer<msgpack_zone>
        private let keyCache: KeyCache

        /// - Throws: `WireError` `.invalidMessagePack` when msgpack-c cannot allocate the zone.
        init(zoneChunkBytes: Int = Unpacker.defaultZoneChunkBytes) throws {
            let zone = UnsafeMutablePointer<msgpack_zone>.allocate(capacity: 1)
            zone.initialize(to: msgpack_zone())
            guard msgpack_zone_init(zone, zoneChunkBytes) else {
                zone.deallocate()
                throw WireError(.invalidMessagePack, offset: 0, detail: "msgpack-c could not allocate its zone",
                                payloadOffset: 0)
            }
            self.zone = zone
            keyCache = KeyCache()
        }

        deinit {
            keyCache.deallocate()
            msgpack_zone_destroy(zone)
            zone.deallocate()
        }

        /// Unpacks one value from bytes that `MessagePackScanner` accepted; see `MessagePackSerialization.unpack`.
        func unpack(_ bytes: UnsafeRawBufferPointer, scan: MessagePackScanner.Result) throws -> MessagePackValue {
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                throw WireError(.truncatedMessagePack, offset: 0, detail: "expected a value, found no bytes",
                                payloadOffset: 0)
            }
            // Frees every chunk but the first, so the zone's memory stays bounded by the largest value seen.
            defer { msgpack_zone_clear(zone) }
            var root = msgpack_object()
            var consumed = 0
            let status = msgpack_unpack(base.assumingMemoryBound(to: CChar.self), bytes.count, &consumed, zone, &root)
            guard status == MSGPACK_UNPACK_SUCCESS, consumed == bytes.count else {
                throw WireError(
                    .invalidMessagePack, offset: consumed,
                    detail: "msgpack-c refused the value (status \(status.rawValue)) at byte \(consumed)",
                    payloadOffset: consumed
                )
            }
            var converter = Converter(signedIndices: scan.signedNonNegativeIndices, keyCache: keyCache)
            let value = converter.convert(root)
            if converter.sawInvalidUTF8 { throw InvalidUTF8() }
            return value
        }
    }

    /// Map keys seen so far, at most 15 bytes each, stored with their length in two words: payloads repeat a few
    /// keys (`id`, `time`, `text`) thousands of times, and comparing two words is cheaper than building and
    /// checking a string each time.
    ///
    /// Direct-mapped: a key's words pick one of 64 slots and a newer key evicts an older one in the same slot. A hit
    /// returns exactly the value `convert` would build, so eviction order never reaches the output.
    struct KeyCache {
        static let slotCount = 64
        /// Per slot the key's two words; (0, 0) is never a key's (the length byte of a cached key is at least 1).
        /// Unsafe storage owned by the `Unpacker`, so lookups cost no reference counting or uniqueness checks.
        private let words: UnsafeMutablePointer<(low: UInt64, high: UInt64)>
        private let keys: UnsafeMutablePointer<MessagePackValue>

        /// Allocates empty storage; `deallocate()` must be called once.
        init() {
            words = .allocate(capacity: Self.slotCount)
            words.initialize(repeating: (0, 0), count: Self.slotCount)
            keys = .allocate(capacity: Self.slotCount)
            keys.initialize(repeating: .nil, count: Self.slotCount)
        }

        func deallocate() {
            words.deinitialize(count: Self.slotCount)
            words.deallocate()
            keys.deinitialize(count: Self.slotCount)
            keys.deallocate()
        }

        /// The two words for a string key of 1-15 bytes: its length in the first byte, then its bytes.
        @inline(__always)
        static func words(_ bytes: UnsafePointer<UInt8>, count: Int) -> (low: UInt64, high: UInt64) {
            // Byte by byte: keys are short, and a loop beats a memcpy call into a stack buffer here.
            var low = UInt64(truncatingIfNeeded: count)
            var high: UInt64 = 0
            var position = 0
            while position < count && position < 7 {
                low |= UInt64(bytes[position]) &<< UInt64(8 * (position + 1))
                position += 1
            }
            while position < count {
                high |= UInt64(bytes[position]) &<< UInt64(8 * (position - 7))
                position += 1
            }
            return (low, high)
        }

        @inline(__always)
        static func slot(_ low: UInt64, _ high: UInt64) -> Int {
            Int(truncatingIfNeeded: ((low ^ (high &* 0x9E37_79B9)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
        }

        /// The cached key with these words, if any.
        @inline(__always)
        func key(_ low: UInt64, _ high: UInt64) -> MessagePackValue? {
            let slot = Self.slot(low, high)
            return words[slot] == (low, high) ? keys[slot] : nil
        }

        func insert(_ key: MessagePackValue, _ low: UInt64, _ high: UInt64) {
            let slot = Self.slot(low, high)
            words[slot] = (low, high)
            keys[slot] = key
        }
    }

    /// Turns msgpack-c's object tree into values, numbering objects in pre-order like the scanner.
    private struct Converter {
        let signedIndices: [Int]
        var nextSigned = 0
        var index = 0
        let keyCache: KeyCache

        init(signedIndices: [Int], keyCache: KeyCache) {
            self.signedIndices = signedIndices
            self.keyCache = keyCache
        }

        static func hasSameBytes(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
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

        mutating func convertKey(_ object: msgpack_object) -> MessagePackValue {
            let size = Int(object.via.str.size)
            guard object.type == MSGPACK_OBJECT_STR, size > 0, size <= 15 else { return convert(object) }
            let bytes = UnsafeRawPointer(object.via.str.ptr!).assumingMemoryBound(to: UInt8.self)
            let (low, high) = KeyCache.words(bytes, count: size)
            if let key = keyCache.key(low, high) {
                index += 1
                return key
            }
            let key = convert(object)
            if case .string = key { keyCache.insert(key, low, high) }
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
                // reserveCapacity + append specialise here; `init(unsafeUninitializedCapacity:)` did not and looked
                // up generic metadata for every array.
                var elements: [MessagePackValue] = []
                elements.reserveCapacity(count)
                for position in 0..<count { elements.append(convert(array.ptr[position])) }
                return .array(elements)
            case MSGPACK_OBJECT_MAP:
                let map = object.via.map
                let count = Int(map.size)
                var pairs: [MessagePackPair] = []
                pairs.reserveCapacity(count)
                for position in 0..<count {
                    let key = convertKey(map.ptr[position].key)
                    pairs.append(MessagePackPair(key, convert(map.ptr[position].val)))
                }
                return .map(pairs)
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
