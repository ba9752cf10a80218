import CLZ4

/// LZ4 block compression: the one file that calls into liblz4 (`CLZ4`).
///
/// A raw LZ4 block stores no decompressed size, so decompression first measures it with `LZ4BlockScanner`
/// (bounded by a limit, never trusting the frame's flag byte) and then lets `LZ4_decompress_safe` fill a buffer of
/// exactly that size. Block format: lz4/lz4 `doc/lz4_Block_format.md`.
enum LZ4Block {
    /// Compresses `input` with `LZ4_compress_default`.
    /// - Returns: the block, at most `LZ4_compressBound(input.count)` bytes; nil when liblz4 refuses the input
    ///   (larger than `LZ4_MAX_INPUT_SIZE`).
    static func compress(_ input: UnsafeRawBufferPointer) -> [UInt8]? {
        guard input.count <= Int(LZ4_MAX_INPUT_SIZE) else { return nil }
        let bound = Int(LZ4_compressBound(Int32(input.count)))
        guard bound > 0 else { return nil }
        var written: Int32 = 0
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            let source = input.baseAddress?.assumingMemoryBound(to: CChar.self)
            let destination = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            written = LZ4_compress_default(source, destination, Int32(input.count), Int32(bound))
            initialized = max(0, Int(written))
        }
        return written > 0 ? output : nil
    }

    /// Compresses `input` with `LZ4_compress_default` straight onto the end of `output`.
    /// - Returns: the block's size in bytes, appended to `output`; nil, with `output` unchanged, when liblz4 refuses
    ///   the input (larger than `LZ4_MAX_INPUT_SIZE`).
    static func compress(_ input: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) -> Int? {
        guard input.count <= Int(LZ4_MAX_INPUT_SIZE) else { return nil }
        let bound = Int(LZ4_compressBound(Int32(input.count)))
        guard bound > 0 else { return nil }
        let start = output.count
        // Room for the bound, then cut back to what was written (the array's capacity is reused frame to frame).
        output.append(contentsOf: repeatElement(0, count: bound))
        let written = output.withUnsafeMutableBytes { buffer in
            LZ4_compress_default(
                input.baseAddress?.assumingMemoryBound(to: CChar.self),
                (buffer.baseAddress! + start).assumingMemoryBound(to: CChar.self), Int32(input.count), Int32(bound))
        }
        guard written > 0 else {
            output.removeSubrange(start...)
            return nil
        }
        output.removeSubrange((start + Int(written))...)
        return Int(written)
    }

    /// Decompresses a block into `output` with `LZ4_decompress_safe`.
    /// - Returns: how many bytes were written, or nil when the block is corrupt or needs more than `output.count`.
    static func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int? {
        guard input.count > 0, input.count <= Int(Int32.max), output.count <= Int(Int32.max),
              let source = input.baseAddress, let destination = output.baseAddress else { return nil }
        let produced = LZ4_decompress_safe(
            source.assumingMemoryBound(to: CChar.self), destination.assumingMemoryBound(to: CChar.self),
            Int32(input.count), Int32(output.count)
        )
        return produced >= 0 ? Int(produced) : nil
    }

    /// Decompresses a block into exactly `decompressedByteCount` bytes with `LZ4_decompress_safe`.
    /// - Returns: the bytes, or nil when the block is corrupt or does not produce exactly that many bytes.
    static func decompress(_ input: UnsafeRawBufferPointer, decompressedByteCount: Int) -> [UInt8]? {
        guard input.count <= Int(Int32.max), decompressedByteCount <= Int(Int32.max), input.count > 0 else {
            return nil
        }
        var produced: Int32 = -1
        let output = [UInt8](unsafeUninitializedCapacity: max(decompressedByteCount, 1)) { buffer, initialized in
            let source = input.baseAddress!.assumingMemoryBound(to: CChar.self)
            let destination = UnsafeMutableRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            produced = LZ4_decompress_safe(source, destination, Int32(input.count), Int32(decompressedByteCount))
            initialized = max(0, Int(produced))
        }
        return Int(produced) == decompressedByteCount ? output : nil
    }
}
