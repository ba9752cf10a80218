import Foundation
import SyncProtocol

/// Reports a broken property and aborts, so libFuzzer records the input as a crash (with this message above
/// the stack trace).
public func fuzzFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    FileHandle.standardError.write(Data("FUZZ FAILURE (\(file):\(line)): \(message)\n".utf8))
    abort()
}

/// Comparisons the round-trip properties need.
public enum FuzzChecks {
    /// Equality up to what packing may change by design: a NaN float equals a NaN with the same bit pattern
    /// (`==` says NaN != NaN), and integers compare by value, since `.int` records a signed encoding that packing
    /// replaces with the shortest one (MessagePackValue's doc).
    public static func sameValue(_ lhs: MessagePackValue, _ rhs: MessagePackValue) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .uint(let b)), (.uint(let b), .int(let a)): a >= 0 && UInt64(a) == b
        case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern || a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern || a == b
        case (.array(let a), .array(let b)):
            a.count == b.count && zip(a, b).allSatisfy { sameValue($0, $1) }
        case (.map(let a), .map(let b)):
            a.count == b.count && zip(a, b).allSatisfy { sameValue($0.key, $1.key) && sameValue($0.value, $1.value) }
        default: lhs == rhs
        }
    }

    /// Whether a NaN float appears anywhere in `value` (then typed values holding it never compare equal).
    public static func containsNaN(_ value: MessagePackValue) -> Bool {
        switch value {
        case .float(let a): a.isNaN
        case .double(let a): a.isNaN
        case .array(let a): a.contains { containsNaN($0) }
        case .map(let a): a.contains { containsNaN($0.key) || containsNaN($0.value) }
        default: false
        }
    }
}

/// Whether `FUZZ_VERBOSE=1` is set: targets then print each step, to read what a reproducer does.
public let fuzzVerbose = ProcessInfo.processInfo.environment["FUZZ_VERBOSE"] == "1"

/// Prints a line when `FUZZ_VERBOSE=1`.
public func fuzzLog(_ line: @autoclosure () -> String) {
    if fuzzVerbose { FileHandle.standardError.write(Data((line() + "\n").utf8)) }
}

/// Decodes one frame of `payload` behind a valid CHAT_HISTORY response header with `compressionFlag` and checks
/// the payload bounds every compressed frame must keep: a whole frame never reads as incomplete, a decoded payload
/// is never larger than `maxPayloadBytes`, and a fault is a `WireError`. Shared by the LZ4 and zstd targets.
public func checkCompressedFrame(compressionFlag: UInt8, payload: [UInt8], maxPayloadBytes: Int) {
    let header = FrameHeader(cmd: .response, seq: 7, opcode: .chatHistory, compressionFlag: compressionFlag,
                             payloadLength: payload.count)
    guard let headerBytes = try? header.bytes() else { return }
    var decoder = FrameDecoder(maxPayloadBytes: maxPayloadBytes)
    var buffer = ByteReader(headerBytes + payload)
    do {
        guard let decoded = try decoder.decodeFrame(&buffer) else {
            fuzzFailure("a whole frame (\(headerBytes.count + payload.count) bytes) decoded as incomplete")
        }
        if decoded.payloadByteCount > maxPayloadBytes {
            fuzzFailure("payload of \(decoded.payloadByteCount) bytes passed the \(maxPayloadBytes)-byte bound")
        }
    } catch is WireError {
        return
    } catch {
        fuzzFailure("decoder threw a non-WireError: \(error)")
    }
}
