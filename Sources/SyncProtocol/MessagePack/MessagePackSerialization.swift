import CMsgPack

/// MessagePack bytes <-> `MessagePackValue` through msgpack-c: the one file that calls into `CMsgPack`.
///
/// Packing uses `msgpack_packer` over a `msgpack_sbuffer`; unpacking uses `msgpack_unpack_next` into a
/// `msgpack_unpacked` after `MessagePackScanner` has checked the bytes, so msgpack-c only ever sees well-formed
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

    /// Unpacks one value from bytes that `MessagePackScanner` accepted.
    /// - Parameter scan: the scanner's result for the same bytes (signed encodings of non-negative integers).
    /// - Throws: `WireError` `.invalidMessagePack` if msgpack-c still refuses the bytes (it should not).
    static func unpack(_ bytes: UnsafeRawBufferPointer, scan: MessagePackScanner.Result) throws -> MessagePackValue {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw WireError(.truncatedMessagePack, offset: 0, detail: "expected a value, found no bytes",
                            payloadOffset: 0)
        }
        var unpacked = msgpack_unpacked()
        msgpack_unpacked_init(&unpacked)
        defer { msgpack_unpacked_destroy(&unpacked) }
        var consumed = 0
        let status = msgpack_unpack_next(
            &unpacked, base.assumingMemoryBound(to: CChar.self), bytes.count, &consumed
        )
        guard status == MSGPACK_UNPACK_SUCCESS, consumed == bytes.count else {
            throw WireError(
                .invalidMessagePack, offset: consumed,
                detail: "msgpack-c refused the value (status \(status.rawValue)) at byte \(consumed)",
                payloadOffset: consumed
            )
        }
        var converter = Converter(signedIndices: scan.signedNonNegativeIndices)
        return converter.convert(unpacked.data)
    }

    /// Turns msgpack-c's object tree into values, numbering objects in pre-order like the scanner.
    private struct Converter {
        let signedIndices: [Int]
        var nextSigned = 0
        var index = 0

        init(signedIndices: [Int]) { self.signedIndices = signedIndices }

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
                return .string(String(decoding: raw, as: UTF8.self))
            case MSGPACK_OBJECT_BIN:
                let binary = object.via.bin
                return .binary([UInt8](UnsafeRawBufferPointer(start: binary.ptr, count: Int(binary.size))))
            case MSGPACK_OBJECT_ARRAY:
                let array = object.via.array
                var elements: [MessagePackValue] = []
                elements.reserveCapacity(Int(array.size))
                for position in 0..<Int(array.size) { elements.append(convert(array.ptr[position])) }
                return .array(elements)
            case MSGPACK_OBJECT_MAP:
                let map = object.via.map
                var pairs: [MessagePackPair] = []
                pairs.reserveCapacity(Int(map.size))
                for position in 0..<Int(map.size) {
                    let key = convert(map.ptr[position].key)
                    let value = convert(map.ptr[position].val)
                    pairs.append(MessagePackPair(key, value))
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
