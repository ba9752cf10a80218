import FuzzSupport
import SyncProtocol

/// LZ4 payload bounds: byte 0 picks the payload bound (256 B << (byte % 13), so 256 B ... 1 MiB), byte 1 the
/// compression flag (forced non-zero); the rest is the payload of one compressed frame behind a valid header, so
/// every input reaches the LZ4 block scanner and `LZ4_decompress_safe`. A frame that decodes must have come
/// from at most the bound's worth of decompressed bytes; a fault must be a `WireError`.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzLZ4(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let maxPayloadBytes = 256 << Int(input.byte() % 13)
    let flag = max(1, input.byte())
    let block = Array(input.rest())
    checkCompressedFrame(compressionFlag: flag, payload: block, maxPayloadBytes: maxPayloadBytes)
    return 0
}

runFuzzer(fuzzLZ4)
