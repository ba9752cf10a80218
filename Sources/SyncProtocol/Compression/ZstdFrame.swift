import CZstd

/// Zstandard frame compression: the one file that calls into libzstd (`CZstd`).
///
/// Field clients read a payload whose flag byte is 0xFF as one zstd frame and stream-decompress it to at most
/// 5 MiB (PyMax `pymax/protocol/tcp/payload.py` and `compression.py`); a frame need not store its decompressed size.
/// Decompression here streams too, into at most a caller's limit, so a hostile frame cannot make it allocate more.
/// Format: RFC 8878.
enum ZstdFrame {
    /// The compression level the encoder uses: libzstd's default, 3.
    static let level: Int32 = 3

    /// Compresses `input` into one zstd frame (content size stored) with `ZSTD_compress`.
    /// - Returns: the frame, or nil when libzstd reports an error.
    static func compress(_ input: UnsafeRawBufferPointer) -> [UInt8]? {
        let bound = ZSTD_compressBound(input.count)
        guard ZSTD_isError(bound) == 0, bound > 0 else { return nil }
        var written = 0
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            written = ZSTD_compress(buffer.baseAddress, bound, input.baseAddress, input.count, level)
            initialized = ZSTD_isError(written) == 0 ? written : 0
        }
        return ZSTD_isError(written) == 0 ? output : nil
    }

    /// A failure to decompress, with a readable detail.
    struct Failure: Error {
        /// Whether the frame expands past the limit (rather than being corrupt).
        var isOverLimit: Bool
        /// What went wrong, e.g. libzstd's error name.
        var detail: String
    }

    /// Decompresses one zstd frame (and any frames concatenated after it) into at most `limit` bytes.
    /// - Throws: `Failure` when the input is corrupt, truncated, or expands past `limit`.
    static func decompress(_ input: UnsafeRawBufferPointer, limit: Int) throws(Failure) -> [UInt8] {
        guard let context = ZSTD_createDCtx() else { throw Failure(isOverLimit: false, detail: "out of memory") }
        defer { ZSTD_freeDCtx(context) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(max(limit + 1, 1), 1 << 17))
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var lastResult = 0
        repeat {
            let produced: Int = chunk.withUnsafeMutableBytes { buffer in
                var destination = ZSTD_outBuffer(dst: buffer.baseAddress, size: buffer.count, pos: 0)
                lastResult = ZSTD_decompressStream(context, &destination, &source)
                return destination.pos
            }
            if ZSTD_isError(lastResult) != 0 {
                throw Failure(isOverLimit: false, detail: String(cString: ZSTD_getErrorName(lastResult)))
            }
            output += chunk.prefix(produced)
            if output.count > limit {
                throw Failure(isOverLimit: true, detail: "more than \(limit) bytes")
            }
            if produced == 0 && source.pos == source.size { break }
        } while source.pos < source.size || lastResult != 0
        if lastResult != 0 {
            throw Failure(isOverLimit: false, detail: "the frame is truncated")
        }
        return output
    }
}
