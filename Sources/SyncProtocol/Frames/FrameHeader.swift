/// The 10-byte big-endian header in front of every payload (DESIGN.md §3).
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 1 | `ver` (10) |
/// | 1-3 | 3 | `cmd` u8 + `seq` u16, or `cmd` u16 + `seq` u8 (`HeaderLayout`) |
/// | 4 | 2 | `opcode` |
/// | 6 | 4 | top 8 bits compression flag (0 raw, non-zero LZ4 block), low 24 bits payload length on the wire |
public struct FrameHeader: Hashable, Sendable {
    /// Size of a header in bytes.
    public static let byteCount = 10
    /// The protocol version this codec speaks by default: 10 (PyMax 2.x `pymax/protocol/tcp/protocol.py`).
    public static let supportedVersion: UInt8 = 10
    /// The version PyMax's 1.x line writes on TCP: 11 (1.2.5 `pymax/interfaces.py`, `_make_message`, whose header
    /// `pymax/mixins/socket.py` packs with `cmd` u16 and `seq` u8, `HeaderLayout.cmd16Seq8`). A decoder or encoder
    /// set to it speaks that dialect (`syncsim serve` does, for a connection whose first byte is 11).
    public static let pymax1Version: UInt8 = 11
    /// The header layout of that dialect (1.2.5 `pymax/mixins/socket.py`, `_pack_packet`: `cmd` u16, `seq` u8).
    public static let pymax1Layout: HeaderLayout = .cmd16Seq8
    /// The largest payload length the 24-bit field can carry: 16 MiB - 1.
    public static let maxPayloadLengthField = 0xFF_FFFF
    /// The compression flag of a zstd-compressed payload; any other non-zero flag means an LZ4 block
    /// (PyMax `pymax/protocol/tcp/payload.py`, `TcpPayloadDecoder.decode`).
    public static let zstdFlag: UInt8 = 0xFF

    /// Protocol version (byte 0).
    public var version: UInt8
    /// Request, response, push or error.
    public var cmd: Command
    /// Ties a response to its request; wraps at 65536 (or 256 in `.cmd16Seq8`).
    public var seq: UInt16
    /// The frame's opcode (bytes 4-5 in the default layout).
    public var opcode: Opcode
    /// The top byte of the length word: 0 for a raw payload, anything else for an LZ4 block.
    public var compressionFlag: UInt8
    /// Payload length on the wire in bytes (compressed length for an LZ4 payload), 0...16 MiB - 1.
    public var payloadLength: Int

    /// Whether the payload is an LZ4 block.
    public var isCompressed: Bool { compressionFlag != 0 }

    /// Creates a header; `payloadLength` is the payload length on the wire in bytes.
    public init(
        version: UInt8 = FrameHeader.supportedVersion,
        cmd: Command,
        seq: UInt16,
        opcode: Opcode,
        compressionFlag: UInt8 = 0,
        payloadLength: Int
    ) {
        self.version = version
        self.cmd = cmd
        self.seq = seq
        self.opcode = opcode
        self.compressionFlag = compressionFlag
        self.payloadLength = payloadLength
    }

    /// Appends the 10 header bytes to `bytes`.
    /// - Throws: `WireError` (`.unencodable`) when seq or cmd do not fit `layout` or the length does not fit 24 bits.
    public func write(layout: HeaderLayout, to bytes: inout [UInt8]) throws {
        try withBytes(layout: layout) { bytes.append(contentsOf: $0) }
    }

    /// Calls `body` with the 10 header bytes, written on the stack (valid only during the call).
    /// - Throws: `WireError` (`.unencodable`) as `write(layout:to:)`; `body` is then not called.
    func withBytes<R>(layout: HeaderLayout, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard seq <= layout.maxSeq else {
            throw WireError(.unencodable, offset: 2, detail: "seq \(seq) does not fit the \(layout) layout")
        }
        guard layout == .cmd16Seq8 || cmd.rawValue <= UInt8.max else {
            throw WireError(.unencodable, offset: 1, detail: "cmd \(cmd.rawValue) does not fit the \(layout) layout")
        }
        guard (0...FrameHeader.maxPayloadLengthField).contains(payloadLength) else {
            throw WireError(.unencodable, offset: 6, detail: "payload length \(payloadLength) does not fit 24 bits")
        }
        let second: UInt8
        let third: UInt8
        let fourth: UInt8
        switch layout {
        case .cmd8Seq16:
            second = UInt8(cmd.rawValue)
            third = UInt8(seq >> 8)
            fourth = UInt8(truncatingIfNeeded: seq)
        case .cmd16Seq8:
            second = UInt8(cmd.rawValue >> 8)
            third = UInt8(truncatingIfNeeded: cmd.rawValue)
            fourth = UInt8(seq)
        }
        let header: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            version, second, third, fourth,
            UInt8(opcode.rawValue >> 8), UInt8(truncatingIfNeeded: opcode.rawValue),
            compressionFlag,
            UInt8(truncatingIfNeeded: payloadLength >> 16), UInt8(truncatingIfNeeded: payloadLength >> 8),
            UInt8(truncatingIfNeeded: payloadLength)
        )
        return try withUnsafeBytes(of: header) { try body($0) }
    }

    /// The header as 10 bytes.
    /// - Throws: `WireError` (`.unencodable`) as `write(layout:to:)`.
    public func bytes(layout: HeaderLayout = .standard) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(FrameHeader.byteCount)
        try write(layout: layout, to: &bytes)
        return bytes
    }

    /// Reads a header from the first 10 bytes of `bytes`.
    /// - Parameters:
    ///   - bytes: at least 10 bytes.
    ///   - layout: how bytes 1-3 split between cmd and seq.
    ///   - streamOffset: the stream offset of `bytes`' first byte, for error messages.
    ///   - frameNumber: the frame's number in the stream (from 1), for error messages.
    ///   - expectedVersion: the version byte the stream must carry (10 by default).
    /// - Throws: `WireError` `.unsupportedVersion` or `.unknownCommand` naming the offending byte's offset.
    public init(
        parsing bytes: UnsafeRawBufferPointer,
        layout: HeaderLayout = .standard,
        streamOffset: Int = 0,
        frameNumber: Int = 1,
        expectedVersion: UInt8 = FrameHeader.supportedVersion
    ) throws {
        precondition(bytes.count >= FrameHeader.byteCount, "a header needs \(FrameHeader.byteCount) bytes")
        let version = bytes[0]
        guard version == expectedVersion else {
            throw WireError.inFrame(
                .unsupportedVersion, number: frameNumber, frameOffset: streamOffset, offset: streamOffset,
                detail: "unsupported version \(version) at offset \(streamOffset) "
                    + "(expected \(expectedVersion))"
            )
        }
        let rawCmd: UInt16
        switch layout {
        case .cmd8Seq16:
            rawCmd = UInt16(bytes[1])
            self.seq = UInt16(bytes[2]) << 8 | UInt16(bytes[3])
        case .cmd16Seq8:
            rawCmd = UInt16(bytes[1]) << 8 | UInt16(bytes[2])
            self.seq = UInt16(bytes[3])
        }
        guard let cmd = Command(rawValue: rawCmd) else {
            throw WireError.inFrame(
                .unknownCommand, number: frameNumber, frameOffset: streamOffset, offset: streamOffset + 1,
                detail: "unknown cmd \(rawCmd) at offset \(streamOffset + 1) "
                    + "(expected 0 request, 1 response, 2 push or 3 error; layout \(layout))"
            )
        }
        self.version = version
        self.cmd = cmd
        self.opcode = Opcode(rawValue: UInt16(bytes[4]) << 8 | UInt16(bytes[5]))
        self.compressionFlag = bytes[6]
        self.payloadLength = Int(bytes[7]) << 16 | Int(bytes[8]) << 8 | Int(bytes[9])
    }
}
