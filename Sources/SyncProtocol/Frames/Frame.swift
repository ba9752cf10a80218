/// One frame of the wire protocol with its payload decoded: `cmd`, `seq`, `opcode` and one MessagePack value.
///
/// Whether the payload travels LZ4-compressed is the encoder's choice (`FrameEncoder.compressionThresholdBytes`),
/// so it is not part of a frame's value; `DecodedFrame` records what was actually on the wire.
public struct Frame: Hashable, Sendable {
    /// Request, response, push or error (byte 1).
    public var cmd: Command
    /// Ties a response to its request.
    public var seq: UInt16
    /// What the frame is about (PING, LOGIN, ...); unknown values are kept as they are.
    public var opcode: Opcode
    /// The payload, normally a map (DESIGN.md §3).
    public var payload: MessagePackValue

    /// A frame of the given fields and payload.
    public init(cmd: Command, seq: UInt16, opcode: Opcode, payload: MessagePackValue) {
        self.cmd = cmd
        self.seq = seq
        self.opcode = opcode
        self.payload = payload
    }
}
