import SimCore
import Testing
@testable import SimNet

@Suite struct SegmentTests {
    /// Flags as raw bits (SYN 1, ACK 2, FIN 4, RST 8): test arguments must be `Sendable`.
    @Test("the summary names the flags in a fixed order, then seq, ack and payload length", arguments: [
        (UInt8(3), "SYN,ACK seq=0 ack=1 len=3"),
        (15, "SYN,FIN,RST,ACK seq=0 ack=1 len=3"),
        (2, "ACK seq=0 ack=1 len=3"),
        (0, " seq=0 ack=1 len=3"),
    ])
    func summary(flagBits: UInt8, expected: String) {
        let segment = Segment(destination: SocketID(rawValue: 1), flags: Segment.Flags(rawValue: flagBits),
                              sequence: 0, acknowledgment: 1, payload: [1, 2, 3])
        #expect(segment.summary == expected)
        var hashed = TraceLog(keepsRecords: false)
        hashed.record(at: .start, kind: "tx", component: { $0.write("c") }, detail: { segment.writeSummary(to: &$0) })
        var joined = TraceLog(keepsRecords: false)
        joined.record(at: .start, component: "c", kind: "tx", detail: expected)
        #expect(hashed.digest == joined.digest)
    }

    @Test("a socket's trace component names its connection and end")
    func component() {
        let network = Network(seed: 1)
        #expect(network.component(SocketID(rawValue: 0)) == "tcp.0.i")
        #expect(network.component(SocketID(rawValue: 25)) == "tcp.12.a")
    }
}
