import Foundation
import FuzzSupport
import SyncTrace

/// pcap/pcapng reader with TCP reassembly and frame extraction: the input is written to a scratch file (libpcap
/// reads files) and read with `TraceDecoder().decode(path:)`, once strict and once keeping a truncated tail.
/// A fault must be a `TraceError`; reading must not crash, hang or blow up.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzPcap(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let path = ScratchFile.path
    guard FileManager.default.createFile(atPath: path, contents: Data(input.bytes)) else {
        fuzzFailure("cannot write the scratch file \(path)")
    }
    for keepsTail in [false, true] {
        do {
            let decoding = try TraceDecoder().decode(path: path, readOptions: .init(keepsTruncatedTail: keepsTail))
            _ = decoding.allFrames.count
        } catch is TraceError {
            continue
        } catch {
            fuzzFailure("trace decoder threw a non-TraceError: \(error)")
        }
    }
    return 0
}

/// One scratch file per process, in the temporary directory.
enum ScratchFile {
    static let path = NSTemporaryDirectory() + "/syncsim-fuzz-pcap-\(getpid()).bin"
}

runFuzzer(fuzzPcap)
