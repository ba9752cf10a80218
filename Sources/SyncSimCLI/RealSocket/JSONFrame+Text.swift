import SyncSim
import SyncTrace

extension JSONFrame {
    /// The frame as one JSON text (JSONWriter's mapping of MessagePack to JSON for the payload).
    /// - Parameter seq: the `seq` to write instead of the frame's 16 bits (a JSON client's wider one), if any.
    static func text(for frame: Frame, seq: UInt64? = nil) -> [UInt8] {
        var line = "{\"ver\":\(version),\"cmd\":\(frame.cmd.rawValue),\"seq\":\(seq ?? UInt64(frame.seq)),"
            + "\"opcode\":\(frame.opcode.rawValue),\"payload\":"
        JSONWriter.write(frame.payload, into: &line)
        return Array((line + "}").utf8)
    }
}
