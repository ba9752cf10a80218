import FuzzSupport
import SyncProtocol
import SyncTrace

/// WebSocket captures: input byte 0 picks a run size (bits 0-4, 1...32 bytes), whether the server's `101` agreed to
/// permessage-deflate (bit 5: RSV1 messages are inflated by zlib, RFC 7692), whether the capture begins
/// mid-connection (bit 6: no SYN, no HTTP head, so the bytes must be found to be WebSocket frames holding field
/// frames first; no extension is known then) and whether a gap follows the second run (bit 7); the rest is the
/// WebSocket bytes after an HTTP upgrade, given as both directions of one connection
/// (the client's masked frames parse on one side, a server's unmasked on the other) to `TraceDecoder`, which unwraps
/// them (`WebSocketStream`: `WebSocketFrame.parse`, `WebSocketMessageAssembler`, `PerMessageInflater`, `JSONFrame`)
/// and cuts the frames.
/// Faults are issues; anything else (trap, ASan report, hang) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzWebSocket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let control = input.byte()
    let runSize = Int(control & 0x1F) + 1
    let deflate = control & 0x20 != 0
    let midStream = control & 0x40 != 0
    let bytes = Array(input.rest())
    let time = CaptureTimestamp(nanosecondsSinceEpoch: 0)

    func stream(head: String) -> TCPStreamTrace {
        var stream = TCPStreamTrace()
        stream.sawSYN = !midStream
        var offset: Int64 = 0
        if !midStream {
            let headBytes = Array(head.utf8)
            stream.pieces.append(.data(ByteRun(offset: 0, bytes: headBytes, timestamp: time, packetNumber: 1)))
            offset = Int64(headBytes.count)
        }
        var start = 0
        var run = 0
        while start < bytes.count {
            let end = min(bytes.count, start + runSize)
            stream.pieces.append(.data(ByteRun(offset: offset, bytes: Array(bytes[start..<end]), timestamp: time,
                                               packetNumber: run + 2)))
            offset += Int64(end - start)
            start = end
            run += 1
            if run == 2 && control & 0x80 != 0 {
                stream.pieces.append(.gap(StreamGap(offset: offset, length: 7, cause: .notCaptured,
                                                    packetNumber: run + 1, timestamp: time)))
                offset += 7
            }
        }
        return stream
    }

    let endpoint = TCPEndpoint(address: .v4(0x7F00_0001), port: 7000)
    let connection = TCPConnectionTrace(
        number: 1, client: endpoint, server: endpoint, firstPacketNumber: 1, firstTimestamp: time,
        lastTimestamp: time, packetCount: 1,
        clientToServer: stream(head: "GET /websocket HTTP/1.1\r\nUpgrade: websocket\r\n\r\n"),
        serverToClient: stream(head: "HTTP/1.1 101 Switching Protocols\r\n"
            + (deflate ? "Sec-WebSocket-Extensions: permessage-deflate\r\n" : "") + "\r\n"))
    let frames = TraceDecoder(frameDecoder: FrameDecoder(maxPayloadBytes: 1 << 20)).decode(connection)
    for frame in frames.frames { _ = try? Packet(frame: frame.decoded.frame) }
    return 0
}

runFuzzer(fuzzWebSocket)
