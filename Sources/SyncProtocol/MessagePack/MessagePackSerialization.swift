import CMsgPack
import Glibc  // malloc, realloc, free

/// MessagePack bytes <-> `MessagePackValue`: the one file that calls into `CMsgPack`.
///
/// Packing uses msgpack-c's `msgpack_packer` (a well-kept library; its bytes are the field's) writing into a stack
/// buffer (`PackSink`).
/// Unpacking builds values in Swift (`MessagePackBuilder`), which checks the bytes as it reads them and hands
/// anything it refuses to `MessagePackScanner` to name the fault; this replaced msgpack-c's unpack plus a second
/// pass over its object tree, and then a scan before the build (docs/performance.md, "Codec").
enum MessagePackSerialization {
    /// Packs `value`, choosing the shortest encoding for each integer, string, binary, array, map and timestamp.
    static func pack(_ value: MessagePackValue) -> [UInt8] {
        withPacked(value) { [UInt8]($0) }
    }

    /// Packs `value` as `pack(_:)` does and calls `body` with the bytes, valid only during the call (no copy into
    /// an array: the frame encoder appends or compresses them straight into its output).
    ///
    /// The packer writes into a buffer on the stack (`PackSink`), moving to the heap only past
    /// `PackSink.stackByteCount`: a `msgpack_sbuffer` allocated 8 KiB and freed it again for every value, even a
    /// PING's `{interactive: false}` or a response's `{}`.
    static func withPacked<R>(_ value: MessagePackValue, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: PackSink.stackByteCount, alignment: 16) { stack in
            var sink = PackSink(buffer: stack.baseAddress!, capacity: stack.count)
            defer { if sink.isOnHeap { free(sink.buffer) } }
            withUnsafeMutablePointer(to: &sink) { sinkPointer in
                var packer = msgpack_packer()
                msgpack_packer_init(&packer, UnsafeMutableRawPointer(sinkPointer), PackSink.write)
                withUnsafePointer(to: value) { pack($0, with: &packer) }
            }
            return try body(UnsafeRawBufferPointer(start: sink.buffer, count: sink.count))
        }
    }

    /// Where `msgpack_packer` writes: a stack buffer while the bytes fit, then a heap buffer (8 KiB at first,
    /// doubled as needed, as `msgpack_sbuffer` grows) holding them all.
    private struct PackSink {
        /// The stack buffer's size: at most 1 KiB, which `withUnsafeTemporaryAllocation` always puts on the stack
        /// (a larger one it may allocate on the heap); payloads this large are compressed anyway.
        static let stackByteCount = 1024

        /// The bytes written so far start here: the stack buffer, or a `malloc`ed one once `isOnHeap`.
        var buffer: UnsafeMutableRawPointer
        var capacity: Int
        var count = 0
        var isOnHeap = false

        init(buffer: UnsafeMutableRawPointer, capacity: Int) {
            self.buffer = buffer
            self.capacity = capacity
        }

        /// The packer's write callback; `data` is the `PackSink`. Fails (-1) only when memory runs out.
        static let write: msgpack_packer_write = { data, bytes, length in
            let sink = data!.assumingMemoryBound(to: PackSink.self)
            guard length > 0, let bytes else { return 0 }
            let count = sink.pointee.count
            if length > sink.pointee.capacity - count {
                var capacity = max(8192, sink.pointee.capacity * 2)
                while capacity - count < length { capacity *= 2 }
                if sink.pointee.isOnHeap {
                    guard let grown = realloc(sink.pointee.buffer, capacity) else { return -1 }
                    sink.pointee.buffer = grown
                } else {
                    guard let heap = malloc(capacity) else { return -1 }
                    heap.copyMemory(from: sink.pointee.buffer, byteCount: count)
                    sink.pointee.buffer = heap
                    sink.pointee.isOnHeap = true
                }
                sink.pointee.capacity = capacity
            }
            (sink.pointee.buffer + count).copyMemory(from: bytes, byteCount: length)
            sink.pointee.count = count + length
            return 0
        }
    }

    /// Packs the value at `value`, which stays alive and unchanged during the call (it is part of the tree that
    /// `withPacked` borrows).
    ///
    /// Values are read through pointers rather than passed by value: an element passed by value is copied out of
    /// its array before the call (the packer calls C in between, so the compiler cannot borrow it in place), which
    /// cost a retain and a release per element, a quarter of encode (docs/performance.md, "Sixth pass: codec").
    /// Each case reads what it needs before the first C call, so only containers (one retain each) and strings
    /// longer than 15 bytes are retained.
    private static func pack(_ value: UnsafePointer<MessagePackValue>, with packer: inout msgpack_packer) {
        switch value.pointee {
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
        case .string(let text):
            // Map keys are short: their bytes are copied out first, so the string needs no retain across C calls.
            var short: (UInt64, UInt64) = (0, 0)
            let shortCount = text.utf8.withContiguousStorageIfAvailable { utf8 -> Int in
                guard utf8.count < MemoryLayout.size(ofValue: short) else { return -1 }
                withUnsafeMutableBytes(of: &short) { $0.copyMemory(from: UnsafeRawBufferPointer(utf8)) }
                return utf8.count
            } ?? -1
            if shortCount >= 0 {
                msgpack_pack_str(&packer, shortCount)
                _ = withUnsafeBytes(of: &short) { msgpack_pack_str_body(&packer, $0.baseAddress, shortCount) }
            } else {
                packLongString(value, with: &packer)
            }
        case .binary(let bytes):
            msgpack_pack_bin(&packer, bytes.count)
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress { msgpack_pack_bin_body(&packer, base, raw.count) }
            }
        case .array(let elements):
            msgpack_pack_array(&packer, elements.count)
            elements.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for index in 0..<buffer.count { pack(base + index, with: &packer) }
            }
        case .map(let pairs):
            msgpack_pack_map(&packer, pairs.count)
            pairs.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for index in 0..<buffer.count {
                    let pair = base + index
                    pack(pair.pointer(to: \.key)!, with: &packer)
                    pack(pair.pointer(to: \.value)!, with: &packer)
                }
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

    /// Packs a string of 16 bytes or more (or one whose bytes are not contiguous), read in place.
    @inline(never)
    private static func packLongString(_ value: UnsafePointer<MessagePackValue>, with packer: inout msgpack_packer) {
        guard case .string(let text) = value.pointee else { preconditionFailure("packLongString of a non-string") }
        // A native string's bytes are read in place; `withUTF8` needs a mutable copy (a retain per string).
        let packedInPlace: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            msgpack_pack_str(&packer, utf8.count)
            if let base = utf8.baseAddress { msgpack_pack_str_body(&packer, base, utf8.count) }
        }
        if packedInPlace == nil {
            var copy = text
            copy.withUTF8 { utf8 in
                msgpack_pack_str(&packer, utf8.count)
                if let base = utf8.baseAddress { msgpack_pack_str_body(&packer, base, utf8.count) }
            }
        }
    }

    /// A string that is not UTF-8 (the scanner, run again with UTF-8 checks, names its offset).
    struct InvalidUTF8: Error {}

    /// Builds one value with a key cache of its own; see `Unpacker.unpack(_:limits:)`.
    /// - Throws: `WireError` for bytes that are not one well-formed value; `InvalidUTF8` for a string that is not
    ///   UTF-8.
    static func unpack(_ bytes: UnsafeRawBufferPointer, limits: MessagePackLimits) throws -> MessagePackValue {
        try Unpacker().unpack(bytes, limits: limits)
    }

    /// The map-key cache kept from one value to the next, so repeated keys (`id`, `time`, `text`) of a stream of
    /// frames become strings once.
    ///
    /// Values are built in Swift by `MessagePackBuilder` (msgpack-c's unpacker and a conversion of its object tree
    /// took twice the passes and a zone). A class because it owns unsafe memory; `FrameDecoder` holds one and
    /// replaces it when the decoder was copied (`isKnownUniquelyReferenced`), so two decoder copies never share it;
    /// that is why `@unchecked Sendable` holds.
    final class Unpacker: @unchecked Sendable {
        private let keyCache = MessagePackKeyCache()

        init() {}

        deinit { keyCache.deallocate() }

        /// Builds exactly one value from `bytes`. What the builder refuses goes to `MessagePackScanner`, whose
        /// detailed scan throws the fault it names (type byte, length, count, nesting, trailing bytes, timestamp).
        /// - Throws: `WireError` with the offending byte's offset for bytes that are not one well-formed value;
        ///   `InvalidUTF8` for a string that is not UTF-8 in an otherwise well-formed value.
        func unpack(_ bytes: UnsafeRawBufferPointer, limits: MessagePackLimits) throws -> MessagePackValue {
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                _ = try MessagePackScanner.scan(bytes, limits: limits, validatesUTF8: false)
                throw WireError(.truncatedMessagePack, offset: 0, detail: "expected a value, found no bytes",
                                payloadOffset: 0)
            }
            var builder = MessagePackBuilder(
                base: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, maxDepth: limits.maxDepth,
                keyCache: keyCache)
            let value: MessagePackValue
            do {
                value = try builder.value()
                guard builder.consumedByteCount == bytes.count else { throw MessagePackBuilder.Refusal() }
            } catch {
                _ = try MessagePackScanner.scan(bytes, limits: limits, validatesUTF8: false)
                // Not reached: the builder refuses only what the scanner refuses (`MessagePackBuilderTests`).
                throw WireError(
                    .invalidMessagePack, offset: 0,
                    detail: "the value builder refused bytes the scanner accepts", payloadOffset: 0)
            }
            if builder.sawInvalidUTF8 { throw InvalidUTF8() }
            return value
        }
    }
}
