import SyncSim
import SyncTrace

extension JSONFrame {
    /// The frame as one JSON text (JSONWriter's mapping of MessagePack to JSON for the payload).
    static func text(for frame: Frame) -> [UInt8] {
        var line = "{\"ver\":\(version),\"cmd\":\(frame.cmd.rawValue),\"seq\":\(frame.seq),"
            + "\"opcode\":\(frame.opcode.rawValue),\"payload\":"
        JSONWriter.write(frame.payload, into: &line)
        return Array((line + "}").utf8)
    }
}
