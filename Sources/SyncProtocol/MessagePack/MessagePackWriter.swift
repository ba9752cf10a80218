/// Packs `MessagePackValue`s into a growable buffer, byte for byte as msgpack-c's packer does.
///
/// Each integer, string, binary, array, map, extension and timestamp takes its shortest form, with msgpack-c's
/// choices (`pack_template.h`): `.int` of a non-negative number packs as an unsigned integer; a timestamp packs as
/// timestamp 32 when its seconds fit 32 bits and it has no nanoseconds, timestamp 64 when the seconds fit 34 bits,
/// else timestamp 96. The tests compare it with `msgpack_pack_*` on random values. Writing inline, without a call
/// through msgpack-c's write callback per item, is what makes it faster.
struct MessagePackWriter: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    /// An empty writer with room for `initialCapacity` bytes before it grows.
    init(initialCapacity: Int = 1024) {
        capacity = max(initialCapacity, 16)
        base = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { base.deallocate() }

    /// The bytes written so far, valid until the next write.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
        var newCapacity = capacity * 2
        while newCapacity - count < extra { newCapacity *= 2 }
        let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
        newBase.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count &+= 1
    }

    @inline(__always)
    private mutating func put(_ type: UInt8, bigEndian value: UInt16) {
        reserve(3)
        put(type)
        base.storeBytes(of: value.bigEndian, toByteOffset: count, as: UInt16.self)
        count &+= 2
    }

    @inline(__always)
    private mutating func put(_ type: UInt8, bigEndian value: UInt32) {
        reserve(5)
        put(type)
        base.storeBytes(of: value.bigEndian, toByteOffset: count, as: UInt32.self)
        count &+= 4
    }

    @inline(__always)
    private mutating func put(_ type: UInt8, bigEndian value: UInt64) {
        reserve(9)
        put(type)
        base.storeBytes(of: value.bigEndian, toByteOffset: count, as: UInt64.self)
        count &+= 8
    }

    @inline(__always)
    private mutating func put(_ type: UInt8, _ byte: UInt8) {
        reserve(2)
        put(type)
        put(byte)
    }

    @inline(__always)
    private mutating func put(body: UnsafeRawBufferPointer) {
        guard let source = body.baseAddress, !body.isEmpty else { return }
        reserve(body.count)
        (base + count).copyMemory(from: source, byteCount: body.count)
        count &+= body.count
    }

    /// Appends `value`.
    mutating func write(_ value: MessagePackValue) {
        switch value {
        case .nil:
            reserve(1)
            put(0xc0)
        case .bool(let flag):
            reserve(1)
            put(flag ? 0xc3 : 0xc2)
        case .int(let number):
            writeSigned(number)
        case .uint(let number):
            writeUnsigned(number)
        case .float(let number):
            put(0xca, bigEndian: number.bitPattern)
        case .double(let number):
            put(0xcb, bigEndian: number.bitPattern)
        case .string(let text):
            // A native string's bytes are read in place; `withUTF8` would need a mutable copy.
            let written: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
                writeString(UnsafeRawBufferPointer(utf8))
            }
            if written == nil {
                var copy = text
                copy.withUTF8 { writeString(UnsafeRawBufferPointer($0)) }
            }
        case .binary(let bytes):
            writeLength(bytes.count, small: 0xc4, medium: 0xc5, large: 0xc6)
            bytes.withUnsafeBytes { put(body: $0) }
        case .array(let elements):
            writeCount(elements.count, fix: 0x90, medium: 0xdc, large: 0xdd)
            // Through the buffer, so each element is borrowed rather than copied.
            elements.withUnsafeBufferPointer { buffer in
                for index in buffer.indices { write(buffer[index]) }
            }
        case .map(let pairs):
            writeCount(pairs.count, fix: 0x80, medium: 0xde, large: 0xdf)
            pairs.withUnsafeBufferPointer { buffer in
                for index in buffer.indices {
                    write(buffer[index].key)
                    write(buffer[index].value)
                }
            }
        case .ext(let type, let data):
            writeExtHeader(length: data.count, type: type)
            data.withUnsafeBytes { put(body: $0) }
        case .timestamp(let seconds, let nanoseconds):
            if seconds >> 34 == 0 {
                let packed = UInt64(nanoseconds) &<< 34 | UInt64(bitPattern: seconds)
                if packed & 0xffff_ffff_0000_0000 == 0 {
                    writeExtHeader(length: 4, type: -1)
                    reserve(4)
                    base.storeBytes(of: UInt32(truncatingIfNeeded: packed).bigEndian, toByteOffset: count, as: UInt32.self)
                    count &+= 4
                } else {
                    writeExtHeader(length: 8, type: -1)
                    reserve(8)
                    base.storeBytes(of: packed.bigEndian, toByteOffset: count, as: UInt64.self)
                    count &+= 8
                }
            } else {
                writeExtHeader(length: 12, type: -1)
                reserve(12)
                base.storeBytes(of: nanoseconds.bigEndian, toByteOffset: count, as: UInt32.self)
                base.storeBytes(of: UInt64(bitPattern: seconds).bigEndian, toByteOffset: count + 4, as: UInt64.self)
                count &+= 12
            }
        }
    }

    private mutating func writeUnsigned(_ number: UInt64) {
        if number < 1 << 7 {
            reserve(1)
            put(UInt8(number))
        } else if number < 1 << 8 {
            put(0xcc, UInt8(number))
        } else if number < 1 << 16 {
            put(0xcd, bigEndian: UInt16(number))
        } else if number < 1 << 32 {
            put(0xce, bigEndian: UInt32(number))
        } else {
            put(0xcf, bigEndian: number)
        }
    }

    private mutating func writeSigned(_ number: Int64) {
        if number >= 0 {
            writeUnsigned(UInt64(number))
        } else if number >= -(1 << 5) {
            reserve(1)
            put(UInt8(truncatingIfNeeded: number))
        } else if number >= -(1 << 7) {
            put(0xd0, UInt8(truncatingIfNeeded: number))
        } else if number >= -(1 << 15) {
            put(0xd1, bigEndian: UInt16(truncatingIfNeeded: number))
        } else if number >= -(1 << 31) {
            put(0xd2, bigEndian: UInt32(truncatingIfNeeded: number))
        } else {
            put(0xd3, bigEndian: UInt64(bitPattern: number))
        }
    }

    private mutating func writeString(_ utf8: UnsafeRawBufferPointer) {
        let length = utf8.count
        if length < 32 {
            reserve(1)
            put(0xa0 | UInt8(length))
        } else if length < 256 {
            put(0xd9, UInt8(length))
        } else if length < 65536 {
            put(0xda, bigEndian: UInt16(length))
        } else {
            put(0xdb, bigEndian: UInt32(truncatingIfNeeded: length))
        }
        put(body: utf8)
    }

    private mutating func writeLength(_ length: Int, small: UInt8, medium: UInt8, large: UInt8) {
        if length < 256 {
            put(small, UInt8(length))
        } else if length < 65536 {
            put(medium, bigEndian: UInt16(length))
        } else {
            put(large, bigEndian: UInt32(truncatingIfNeeded: length))
        }
    }

    private mutating func writeCount(_ count: Int, fix: UInt8, medium: UInt8, large: UInt8) {
        if count < 16 {
            reserve(1)
            put(fix | UInt8(count))
        } else if count < 65536 {
            put(medium, bigEndian: UInt16(count))
        } else {
            put(large, bigEndian: UInt32(truncatingIfNeeded: count))
        }
    }

    private mutating func writeExtHeader(length: Int, type: Int8) {
        let typeByte = UInt8(bitPattern: type)
        switch length {
        case 1: put(0xd4, typeByte)
        case 2: put(0xd5, typeByte)
        case 4: put(0xd6, typeByte)
        case 8: put(0xd7, typeByte)
        case 16: put(0xd8, typeByte)
        default:
            if length < 256 {
                reserve(3)
                put(0xc7)
                put(UInt8(length))
                put(typeByte)
            } else if length < 65536 {
                put(0xc8, bigEndian: UInt16(length))
                reserve(1)
                put(typeByte)
            } else {
                put(0xc9, bigEndian: UInt32(truncatingIfNeeded: length))
                reserve(1)
                put(typeByte)
            }
        }
    }
}
