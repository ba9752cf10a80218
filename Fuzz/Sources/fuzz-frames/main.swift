import FuzzSupport
import SyncProtocol

/// Frame stream decoder: input byte 0 picks the header layout (bit 0) and a chunk size (bits 1-7, 1...128 bytes);
/// the rest is a byte stream fed to `FrameDecoder` in chunks of that size, decoding after each append, then
/// `finish`. Every decoded frame is also typed with `Packet(frame:)`. A `WireError` ends the stream (as in a driver);
/// anything else (trap, ASan report, hang) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let control = input.byte()
    let layout: HeaderLayout = control & 1 == 0 ? .cmd8Seq16 : .cmd16Seq8
    let chunkSize = Int(control >> 1) + 1
    let stream = input.rest()
    var decoder = FrameDecoder(layout: layout, maxPayloadBytes: 1 << 20)
    var buffer = ByteReader()
    var start = stream.startIndex
    do {
        while start < stream.endIndex {
            let end = min(stream.endIndex, start + chunkSize)
            buffer.append(contentsOf: stream[start..<end])
            start = end
            while let frame = try decoder.decode(&buffer) {
                _ = try Packet(frame: frame)
            }
        }
        try decoder.finish(buffer)
    } catch {
        return 0
    }
    return 0
}

runFuzzer(fuzzFrames)
