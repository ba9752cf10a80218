import FuzzSupport
import SyncProtocol

/// MessagePack value scanner and unpacker: the whole input is one value for `MessagePackValue(messagePack:)`
/// (depth bound 32, as the frame decoder uses). A value that decodes must survive a round trip: packing it and
/// decoding the bytes again gives an equal value (NaN floats compared by bit pattern).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzMessagePack(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    guard let value = try? MessagePackValue(messagePack: input.bytes) else { return 0 }
    let packed = value.messagePackBytes()
    let again: MessagePackValue
    do {
        again = try MessagePackValue(messagePack: packed)
    } catch {
        fuzzFailure("packed value does not decode again: \(error)\nvalue: \(value)")
    }
    if !FuzzChecks.sameValue(value, again) {
        fuzzFailure("round trip changed the value\nfirst:  \(value)\nsecond: \(again)")
    }
    return 0
}

runFuzzer(fuzzMessagePack)
