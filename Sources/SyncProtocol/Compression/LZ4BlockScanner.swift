/// Measures how many bytes an LZ4 block decompresses to, by walking its sequence headers without copying data.
///
/// Each sequence is a token (high nibble literal length, low nibble match length - 4, 15 meaning "more bytes
/// follow, each 255 adding and a smaller one ending"), the literals, then a 2-byte little-endian offset and the
/// match; the last sequence has literals only (lz4/lz4 `doc/lz4_Block_format.md`). The walk stops as soon as the
/// size passes `limit`, so hostile length bytes cannot make anyone allocate.
enum LZ4BlockScanner {
    /// A fault found while scanning, with its offset inside the block.
    struct Fault: Error {
        var isOverLimit: Bool
        var offset: Int
        var detail: String
    }

    /// The decompressed size of `block`.
    /// - Throws: `Fault` for a malformed block (offset 0, a match reaching before the output, a cut sequence) or a
    ///   size above `limit`.
    static func decompressedByteCount(of block: UnsafeRawBufferPointer, limit: Int) throws(Fault) -> Int {
        guard !block.isEmpty else {
            throw Fault(isOverLimit: false, offset: 0, detail: "an LZ4 block cannot be empty")
        }
        var index = 0
        var produced = 0
        let end = block.count
        while true {
            let tokenOffset = index
            let token = block[index]
            index += 1
            var literalLength = Int(token >> 4)
            if literalLength == 15 {
                try extendLength(&literalLength, "literal", block, &index, limit: limit, tokenOffset: tokenOffset)
            }
            guard literalLength <= end - index else {
                throw Fault(
                    isOverLimit: false, offset: tokenOffset,
                    detail: "sequence at block byte \(tokenOffset) claims \(literalLength) literal bytes, "
                        + "\(end - index) remain"
                )
            }
            index += literalLength
            produced += literalLength
            if produced > limit {
                throw Fault(isOverLimit: true, offset: tokenOffset, detail: "output passes the limit")
            }
            if index == end { return produced }
            guard end - index >= 2 else {
                throw Fault(isOverLimit: false, offset: index, detail: "match offset cut at the block's end")
            }
            let matchOffset = Int(block[index]) | Int(block[index + 1]) << 8
            guard matchOffset != 0, matchOffset <= produced else {
                throw Fault(
                    isOverLimit: false, offset: index,
                    detail: "match offset \(matchOffset) at block byte \(index) reaches before the output "
                        + "(\(byteCountText(produced)) so far)"
                )
            }
            index += 2
            var matchLength = Int(token & 0x0F) + 4
            if token & 0x0F == 15 {
                try extendLength(&matchLength, "match", block, &index, limit: limit, tokenOffset: tokenOffset)
            }
            produced += matchLength
            if produced > limit {
                throw Fault(isOverLimit: true, offset: tokenOffset, detail: "output passes the limit")
            }
            guard index < end else {
                throw Fault(isOverLimit: false, offset: index, detail: "block ends after a match (expected literals)")
            }
        }
    }

    /// Adds a token's length extension bytes at `index` to `length` (each 255 adding and going on, a smaller one
    /// ending), moving `index` past them.
    /// - Parameter kind: "literal" or "match", for the fault's detail.
    /// - Throws: `Fault` when the bytes are cut at the block's end or the length passes `limit`.
    private static func extendLength(
        _ length: inout Int, _ kind: String, _ block: UnsafeRawBufferPointer, _ index: inout Int, limit: Int,
        tokenOffset: Int
    ) throws(Fault) {
        while true {
            guard index < block.count else {
                throw Fault(isOverLimit: false, offset: index, detail: "\(kind) length cut at the block's end")
            }
            let byte = block[index]
            index += 1
            length += Int(byte)
            if length > limit {
                throw Fault(isOverLimit: true, offset: tokenOffset, detail: "\(kind) run over the limit")
            }
            if byte != 255 { return }
        }
    }
}
