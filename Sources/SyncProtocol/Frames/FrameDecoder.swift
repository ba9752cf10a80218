/// Turns a byte stream (one direction, frames back to back) into frames, however the bytes are split into chunks.
///
/// Incremental like NIO's `ByteToMessageDecoder`: append chunks to a `ByteReader` and call `decode(_:)` until it
/// returns nil ("need more bytes"); at the end of input call `finish(_:)`. A header is checked as soon as its 10
/// bytes are in, so a hostile length is refused before its payload arrives. Compressed payloads are decompressed
/// into at most `maxPayloadBytes`, whatever the flag byte says. After an error the stream cannot be resynchronised.
///
/// ```swift
/// var decoder = FrameDecoder()
/// var buffer = ByteReader()
/// buffer.append(contentsOf: chunk)
/// while let frame = try decoder.decode(&buffer) { handle(frame) }
/// ```
public struct FrameDecoder: Sendable {
    /// The default bound on a payload, on the wire and after decompression: 5 MiB, the cap field clients put on a
    /// decompressed payload (PyMax `pymax/protocol/tcp/compression.py`, `max_output`).
    public static let defaultMaxPayloadBytes = 5 << 20

    /// How bytes 1-3 of each header split between cmd and seq.
    public var layout: HeaderLayout
    /// The version byte every header must carry: 10 by default, 11 for PyMax 1.x's TCP dialect
    /// (`FrameHeader.pymax1Version`).
    public var version: UInt8 = FrameHeader.supportedVersion
    /// The largest payload accepted, in bytes, both as sent and after decompression.
    public var maxPayloadBytes: Int
    /// Bounds on each payload's MessagePack value.
    public var messagePackLimits: MessagePackLimits
    /// How many frames were decoded so far, with those a caller skipped (`countSkippedFrame()`).
    public private(set) var frameCount = 0
    /// Reused decompression buffer: grows to the largest guess needed so far, never past `maxPayloadBytes`.
    private var scratch: [UInt8] = []
    /// Map-key cache reused from frame to frame; created on first use, replaced when shared with
    /// a copy of this decoder.
    private var unpacker: MessagePackSerialization.Unpacker?
    /// Whether `unpacker` is shared on purpose (`decoderSharingKeyCache()`), and so kept when not unique.
    private var sharesUnpacker = false

    /// - Parameters:
    ///   - layout: header layout, `.cmd8Seq16` by default.
    ///   - maxPayloadBytes: payload bound in bytes, default 5 MiB.
    ///   - messagePackLimits: MessagePack nesting bound.
    public init(
        layout: HeaderLayout = .standard,
        maxPayloadBytes: Int = FrameDecoder.defaultMaxPayloadBytes,
        messagePackLimits: MessagePackLimits = MessagePackLimits()
    ) {
        precondition(maxPayloadBytes >= 0, "maxPayloadBytes must not be negative")
        self.layout = layout
        self.maxPayloadBytes = maxPayloadBytes
        self.messagePackLimits = messagePackLimits
    }

    /// A new decoder with this one's layout and limits (no frames decoded yet) that uses this decoder's map-key
    /// cache instead of one of its own: many streams decoded one after another on one thread (a simulated world's
    /// sockets) then hold one cache, about 2.5 KB, instead of one each. The cache never changes a decoded value (a
    /// hit returns exactly what would be built), only the speed. Decoders that share a cache must not decode at the
    /// same time on different threads.
    /// - Returns: the new decoder; from now on this decoder and every decoder made this way share one cache.
    public mutating func decoderSharingKeyCache() -> FrameDecoder {
        if unpacker == nil { unpacker = MessagePackSerialization.Unpacker() }
        sharesUnpacker = true
        var decoder = FrameDecoder(layout: layout, maxPayloadBytes: maxPayloadBytes,
                                   messagePackLimits: messagePackLimits)
        decoder.version = version
        decoder.unpacker = unpacker
        decoder.sharesUnpacker = true
        return decoder
    }

    /// Decodes the next frame from `buffer`, consuming its bytes.
    /// - Returns: the frame, or nil when `buffer` does not yet hold a whole frame.
    /// - Throws: `WireError` naming the frame, its offset and the fault.
    public mutating func decode(_ buffer: inout ByteReader) throws -> Frame? {
        try decodeFrame(&buffer)?.frame
    }

    /// Decodes the next frame with where it was and how it travelled (for `syncsim decode` and traces).
    /// - Returns: the decoded frame, or nil when `buffer` does not yet hold a whole frame.
    /// - Throws: `WireError` naming the frame, its offset and the fault.
    public mutating func decodeFrame(_ buffer: inout ByteReader) throws -> DecodedFrame? {
        let frameOffset = buffer.streamOffset
        let number = frameCount + 1
        let layout = self.layout
        let maxPayloadBytes = self.maxPayloadBytes
        let limits = messagePackLimits
        if unpacker == nil || (!sharesUnpacker && !isKnownUniquelyReferenced(&unpacker!)) {
            unpacker = MessagePackSerialization.Unpacker()
        }
        let unpacker = self.unpacker!
        let decoded: DecodedFrame?? = try buffer.withReadableBytes(atLeast: FrameHeader.byteCount) { bytes in
            let header = try FrameHeader(parsing: bytes, layout: layout, streamOffset: frameOffset,
                                         frameNumber: number, expectedVersion: version)
            guard header.payloadLength <= maxPayloadBytes else {
                throw WireError.inFrame(
                    .payloadTooLarge, number: number, frameOffset: frameOffset, offset: frameOffset + 7,
                    detail:
                        "payload length \(header.payloadLength) exceeds the \(describeByteLimit(maxPayloadBytes)) limit"
                )
            }
            guard bytes.count >= FrameHeader.byteCount + header.payloadLength else { return nil }
            let wirePayload = UnsafeRawBufferPointer(
                rebasing: bytes[FrameHeader.byteCount..<(FrameHeader.byteCount + header.payloadLength)]
            )
            let payloadStart = frameOffset + FrameHeader.byteCount
            do {
                let (value, payloadByteCount) = try Self.decodePayload(
                    wirePayload, isCompressed: header.isCompressed, maxPayloadBytes: maxPayloadBytes, limits: limits,
                    isZstd: header.compressionFlag == FrameHeader.zstdFlag,
                    scratch: &scratch, unpacker: unpacker
                )
                let frame = Frame(cmd: header.cmd, seq: header.seq, opcode: header.opcode, payload: value)
                return DecodedFrame(
                    frame: frame, header: header, number: number, offset: frameOffset,
                    payloadByteCount: payloadByteCount
                )
            } catch let error as WireError {
                throw error.anchored(
                    number: number, frameOffset: frameOffset, payloadStart: payloadStart,
                    isCompressed: header.isCompressed
                )
            }
        }
        guard let decoded, let frame = decoded else { return nil }
        buffer.consume(frame.wireByteCount)
        frameCount += 1
        return frame
    }

    /// Decodes the next frame from `buffer` into a packet (`Packet(frame:)`), answering a frame `cache` holds from
    /// the cache instead of decoding it again, and the commonest small frames (`commonPacket(_:frame:)`: a PING, an
    /// empty response) from their bytes.
    ///
    /// Returns and throws exactly what `decode(_:)` followed by `Packet(frame:)` would, consuming the same bytes
    /// and counting the frame the same way: a hit is a frame that decoded without error before, under the same
    /// layout and limits. A cache made for a decoder configured otherwise is not used.
    /// - Returns: the packet, or nil when `buffer` does not yet hold a whole frame.
    /// - Throws: `WireError` naming the frame, its offset and the fault; whatever `Packet(frame:)` throws.
    public mutating func decodePacket(_ buffer: inout ByteReader, cache: inout RepeatedFrameCache) throws -> Packet? {
        guard cache.serves(self) else {
            guard let frame = try decode(&buffer) else { return nil }
            return try Packet(frame: frame)
        }
        let layout = self.layout
        let maxPayloadBytes = self.maxPayloadBytes
        // What the bytes buffered say: a frame still incomplete (`decode(_:)` would return nil: its header parsed
        // and its length is within bounds), a frame answered without decoding (`hit`, of that many bytes), or a
        // frame for `decode(_:)` (which also throws every error). The packet of a hit is written once, into `hit`.
        var hit: Packet?
        // (hash, bytes to store) of a frame to store after decoding.
        var toStore: (hash: Int, bytes: [UInt8])?
        let hitByteCount: Int? = buffer.withReadableBytes(atLeast: FrameHeader.byteCount) { bytes -> Int? in
            // A header that does not parse is left to `decode(_:)`, which throws its error.
            guard let header = try? FrameHeader(parsing: bytes, layout: layout, expectedVersion: version),
                  header.payloadLength <= maxPayloadBytes else { return nil }
            let byteCount = FrameHeader.byteCount + header.payloadLength
            guard bytes.count >= byteCount else { return 0 }
            let frame = UnsafeRawBufferPointer(rebasing: bytes[0..<byteCount])
            if let packet = Self.commonPacket(header, frame: frame) {
                hit = packet
                return byteCount
            }
            guard cache.stores(header) else { return nil }
            let hash = RepeatedFrameCache.hash(frame)
            if let packet = cache.packet(for: frame, hash: hash) {
                hit = packet
                return byteCount
            }
            toStore = (hash, Array(frame))
            return nil
        } ?? 0
        if let hitByteCount {
            // Fewer than a header's bytes, or an incomplete frame: what `decode(_:)` returns then.
            guard hitByteCount > 0, let hit else { return nil }
            buffer.consume(hitByteCount)
            frameCount += 1
            return hit
        }
        guard let frame = try decode(&buffer) else { return nil }
        let packet = try Packet(frame: frame)
        if let toStore { cache.insert(toStore.bytes, hash: toStore.hash, packet: packet) }
        return packet
    }

    /// The packet of a frame carrying one of the two commonest payloads, read from its bytes: a response whose
    /// payload is the empty map (`.empty`: a PING's answer, among others) and a PING request of exactly
    /// `{interactive: <bool>}` (each keep-alive ping). Nil for any other frame, which is decoded as usual.
    ///
    /// What `decode(_:)` and `Packet(frame:)` make of those bytes, without building and freeing the MessagePack
    /// tree: an uncompressed map of depth 1 fits every `MessagePackLimits`, and the caller has checked the header
    /// and the payload bound as `decodeFrame(_:)` does. (`Packet(frame:)` types a response's `{}` as `.empty`
    /// whatever the opcode, and a PING request's one-key map through `PingRequest(fastPayload:)`.)
    static func commonPacket(_ header: FrameHeader, frame: UnsafeRawBufferPointer) -> Packet? {
        guard header.compressionFlag == 0 else { return nil }
        let payloadCount = frame.count - FrameHeader.byteCount
        if payloadCount == 1, header.cmd == .response, frame[FrameHeader.byteCount] == 0x80 {
            return Packet(cmd: .response, seq: header.seq, opcode: header.opcode, body: .empty)
        }
        guard payloadCount == pingPayloadPrefix.count + 1, header.cmd == .request, header.opcode == .ping else {
            return nil
        }
        for (index, byte) in pingPayloadPrefix.enumerated() where frame[FrameHeader.byteCount + index] != byte {
            return nil
        }
        let flag: Bool
        switch frame[frame.count - 1] {
        case 0xC2: flag = false
        case 0xC3: flag = true
        default: return nil
        }
        return Packet(cmd: .request, seq: header.seq, opcode: .ping, body: .ping(PingRequest(interactive: flag)))
    }

    /// A map of one pair (0x81) whose key is the fixstr `interactive` (0xAB and 11 bytes): a PING's payload but its
    /// last byte (the value).
    private static let pingPayloadPrefix: [UInt8] = [0x81, 0xAB] + Array("interactive".utf8)

    /// Counts a whole frame the caller stepped over after `decodeFrame(_:)` threw on its payload (a reader that
    /// goes on past an undecodable frame, as `syncsim decode` does), so later frames keep their place in the
    /// stream in their numbers and errors.
    public mutating func countSkippedFrame() { frameCount += 1 }

    /// Steps over the next frame when its header is sound and the whole frame is buffered, so that a reader can go
    /// on after `decodeFrame(_:)` threw on that frame's payload (invalid UTF-8 in a string, bad MessagePack, a corrupt
    /// compressed block): the header's length still says where the next frame begins, so the stream stays in step.
    /// The frame is consumed and counted (`countSkippedFrame()`).
    /// - Returns: the skipped frame's header, or nil, consuming nothing, when the header does not parse, its length is
    ///   over `maxPayloadBytes` or the frame is not all buffered yet: then the stream cannot be followed past it.
    public mutating func skipFrameWithUndecodablePayload(_ buffer: inout ByteReader) -> FrameHeader? {
        let layout = self.layout
        let version = self.version
        let maxPayloadBytes = self.maxPayloadBytes
        let header: FrameHeader?? = buffer.withReadableBytes(atLeast: FrameHeader.byteCount) { bytes in
            guard let header = try? FrameHeader(parsing: bytes, layout: layout, expectedVersion: version),
                  header.payloadLength <= maxPayloadBytes,
                  bytes.count >= FrameHeader.byteCount + header.payloadLength else { return nil }
            return header
        }
        guard let header, let header else { return nil }
        buffer.consume(FrameHeader.byteCount + header.payloadLength)
        countSkippedFrame()
        return header
    }

    /// Checks that the stream ended on a frame boundary; call it at end of input, after `decode(_:)` returned nil.
    /// - Throws: `WireError` `.truncatedHeader` or `.truncatedPayload` when `buffer` holds part of a frame
    ///   (or a header error if the partial frame's header is already bad).
    public func finish(_ buffer: ByteReader) throws {
        let available = buffer.readableByteCount
        guard available > 0 else { return }
        let frameOffset = buffer.streamOffset
        let number = frameCount + 1
        guard available >= FrameHeader.byteCount else {
            throw WireError.inFrame(
                .truncatedHeader, number: number, frameOffset: frameOffset, offset: frameOffset + available,
                detail: "stream ends at offset \(frameOffset + available) inside the header: "
                    + "\(available) of \(FrameHeader.byteCount) bytes"
            )
        }
        var copy = buffer
        var decoder = self
        // Surface a bad header first; otherwise the payload is what is missing.
        let whole = try decoder.decodeFrame(&copy)
        precondition(whole == nil, "finish(_:) called with a whole frame buffered: call decode(_:) until it returns nil")
        let header = try buffer.withReadableBytes(atLeast: FrameHeader.byteCount) {
            try FrameHeader(parsing: $0, layout: layout, streamOffset: frameOffset, frameNumber: number,
                            expectedVersion: version)
        }!
        let payloadAvailable = available - FrameHeader.byteCount
        throw WireError.inFrame(
            .truncatedPayload, number: number, frameOffset: frameOffset, offset: frameOffset + available,
            detail: "stream ends at offset \(frameOffset + available) inside the payload: "
                + "\(payloadAvailable) of \(header.payloadLength) bytes"
        )
    }

    /// Decompresses (if needed) and decodes a payload; errors carry offsets relative to the payload.
    ///
    /// A payload of no bytes is the empty map whatever the compression flag, and so is one that decompresses to no
    /// bytes: PyMax 2.5.0 writes a request without a payload as no bytes (`pymax/protocol/tcp/payload.py`,
    /// `encode(None)` is `b""`), reads no bytes as `{}` before looking at the flag (`TcpPayloadDecoder.decode`:
    /// `if not payload_bytes: return {}`), and again after decompressing (`MsgpackPayloadCodec.decode`).
    static func decodePayload(
        _ wirePayload: UnsafeRawBufferPointer, isCompressed: Bool, maxPayloadBytes: Int, limits: MessagePackLimits,
        isZstd: Bool = false, scratch: inout [UInt8], unpacker: MessagePackSerialization.Unpacker? = nil
    ) throws -> (MessagePackValue, Int) {
        if wirePayload.isEmpty { return (.map([]), 0) }
        if isZstd {
            // Flag 0xFF: one zstd frame, as field clients read it (PyMax `pymax/protocol/tcp/payload.py`).
            let bytes: [UInt8]
            do {
                bytes = try ZstdFrame.decompress(wirePayload, limit: maxPayloadBytes)
            } catch {
                if error.isOverLimit {
                    throw WireError(
                        .decompressedTooLarge, offset: 0,
                        detail: "zstd frame expands past the \(describeByteLimit(maxPayloadBytes)) limit")
                }
                throw WireError(.corruptCompression, offset: 0, detail: "corrupt zstd frame: \(error.detail)")
            }
            let value = try bytes.withUnsafeBytes { try payloadValue($0, limits: limits, unpacker: unpacker) }
            return (value, bytes.count)
        }
        guard isCompressed else {
            let value = try MessagePackValue(messagePack: wirePayload, limits: limits, unpacker: unpacker)
            return (value, wirePayload.count)
        }
        // Fast path: most blocks expand less than 8x, so try a buffer of that size first; only when that fails
        // walk the block's sequences for its exact size (or the fault) and decompress into exactly that.
        let guess = min(maxPayloadBytes, max(wirePayload.count * 8, 4096))
        if scratch.count < guess {
            // Grown geometrically: a stream of ever larger pages then costs a few zero-filled buffers, not one each.
            scratch = [UInt8](repeating: 0, count: min(maxPayloadBytes, max(guess, scratch.count * 2)))
        }
        let fast = try scratch.withUnsafeMutableBytes { output -> (MessagePackValue, Int)? in
            let window = UnsafeMutableRawBufferPointer(rebasing: output[0..<guess])
            guard let produced = LZ4Block.decompress(wirePayload, into: window) else { return nil }
            let bytes = UnsafeRawBufferPointer(rebasing: output[0..<produced])
            return (try payloadValue(bytes, limits: limits, unpacker: unpacker), produced)
        }
        if let fast { return fast }
        let size: Int
        do {
            size = try LZ4BlockScanner.decompressedByteCount(of: wirePayload, limit: maxPayloadBytes)
        } catch {
            if error.isOverLimit {
                throw WireError(
                    .decompressedTooLarge, offset: error.offset,
                    detail: "LZ4 block expands past the \(describeByteLimit(maxPayloadBytes)) limit "
                        + "(\(error.detail) at compressed byte \(error.offset))"
                )
            }
            throw WireError(
                .corruptCompression, offset: error.offset,
                detail: "corrupt LZ4 block at compressed byte \(error.offset): \(error.detail)"
            )
        }
        guard let bytes = LZ4Block.decompress(wirePayload, decompressedByteCount: size) else {
            throw WireError(
                .corruptCompression, offset: 0,
                detail: "corrupt LZ4 block: liblz4 could not decompress it to the \(size) bytes its sequences describe"
            )
        }
        let value = try bytes.withUnsafeBytes { try payloadValue($0, limits: limits, unpacker: unpacker) }
        return (value, size)
    }

    /// The value of a decompressed payload: `{}` for no bytes, as PyMax reads them (above), else its one MessagePack
    /// value.
    private static func payloadValue(
        _ bytes: UnsafeRawBufferPointer, limits: MessagePackLimits, unpacker: MessagePackSerialization.Unpacker?
    ) throws -> MessagePackValue {
        bytes.isEmpty ? .map([]) : try MessagePackValue(messagePack: bytes, limits: limits, unpacker: unpacker)
    }
}
