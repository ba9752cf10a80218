import FuzzSupport
import SyncProtocol

/// zstd payload bounds (compression flag 0xFF, RFC 8878 frames, PyMax `pymax/protocol/tcp/payload.py`).
///
/// Byte 0 picks the payload bound (256 B << (byte % 13), so 256 B ... 1 MiB); bit 0 of byte 1 picks the mode:
/// - 0 (decode): the rest is the payload of one zstd-flagged frame behind a valid header, so every input reaches
///   `ZstdFrame.decompress` (libzstd's streaming decoder into a bounded buffer). A whole frame never reads as
///   incomplete, a decoded payload never passes the bound, a fault is a `WireError`.
/// - 1 (round trip): the rest becomes a binary MessagePack value, encoded with the zstd codec (threshold 0) and
///   decoded again with the same bound: the decoder gives back the frame the encoder was handed, or a
///   `WireError` when the payload is over the bound; never a different value.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzZstd(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let maxPayloadBytes = 256 << Int(input.byte() % 13)
    let mode = input.byte() & 1
    let rest = Array(input.rest())
    if mode == 1 {
        roundTrip(rest, maxPayloadBytes: maxPayloadBytes)
        return 0
    }
    checkCompressedFrame(compressionFlag: FrameHeader.zstdFlag, payload: rest, maxPayloadBytes: maxPayloadBytes)
    return 0
}

/// Encodes `bytes` as a zstd-compressed frame and decodes it back.
func roundTrip(_ bytes: [UInt8], maxPayloadBytes: Int) {
    let frame = Frame(cmd: .response, seq: 9, opcode: .chatHistory, payload: .binary(bytes))
    var encoder = FrameEncoder(compressionThresholdBytes: 0)
    encoder.codec = .zstd
    let wire: [UInt8]
    do {
        wire = try encoder.encode(frame)
    } catch {
        fuzzFailure("encoding a \(bytes.count)-byte binary payload failed: \(error)")
    }
    var decoder = FrameDecoder(maxPayloadBytes: maxPayloadBytes)
    var buffer = ByteReader(wire)
    do {
        guard let decoded = try decoder.decodeFrame(&buffer) else {
            fuzzFailure("an encoded frame (\(wire.count) bytes) decoded as incomplete")
        }
        if decoded.frame != frame {
            fuzzFailure("round trip changed the frame (flag \(wire[6]), \(bytes.count) payload bytes)")
        }
        if decoded.payloadByteCount > maxPayloadBytes {
            fuzzFailure("payload of \(decoded.payloadByteCount) bytes passed the \(maxPayloadBytes)-byte bound")
        }
    } catch let error as WireError {
        // Only a payload over the bound may fail: the encoder wrote it, so it is neither corrupt nor truncated.
        let payloadCount = MessagePackValue.binary(bytes).messagePackBytes().count
        if payloadCount <= maxPayloadBytes {
            fuzzFailure("a \(payloadCount)-byte payload under the \(maxPayloadBytes)-byte bound failed: \(error)")
        }
    } catch {
        fuzzFailure("decoder threw a non-WireError: \(error)")
    }
}

runFuzzer(fuzzZstd)
