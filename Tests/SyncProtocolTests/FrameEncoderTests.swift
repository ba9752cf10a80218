import SimCore
import Testing

@testable import SyncProtocol

@Suite struct FrameEncoderTests {
    static func page(_ count: Int) -> MessagePackValue {
        var generator = SeededGenerator(seed: 3)
        return TestSupport.compressiblePayload(count: count, using: &generator)
    }

    @Test("a payload at or above the threshold is compressed when that saves bytes") func compressesAtThreshold() throws
    {
        let payload = Self.page(20)
        let size = payload.messagePackBytes().count
        let frame = Frame(cmd: .response, seq: 9, opcode: .chatHistory, payload: payload)
        let atThreshold = try FrameEncoder(compressionThresholdBytes: size).encode(frame)
        #expect(atThreshold[6] == 1)
        #expect(atThreshold.count < size + 10)
        let belowThreshold = try FrameEncoder(compressionThresholdBytes: size + 1).encode(frame)
        #expect(belowThreshold[6] == 0)
        #expect(belowThreshold.count == size + 10)
    }

    @Test("a payload LZ4 cannot shrink goes raw even above the threshold") func rawWhenCompressionDoesNotPay() throws {
        var generator = SeededGenerator(seed: 4)
        let noise = MessagePackValue.binary((0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let bytes = try FrameEncoder(compressionThresholdBytes: 0).encode(
            Frame(cmd: .request, seq: 1, opcode: .photoUpload, payload: noise)
        )
        #expect(bytes[6] == 0)
        #expect(bytes.count == noise.messagePackBytes().count + 10)
    }

    @Test("a seq that does not fit the cmd16-seq8 layout is refused, leaving the buffer as it was")
    func seqTooLargeForLayout() throws {
        var buffer: [UInt8] = [1, 2, 3]
        #expect {
            try FrameEncoder(layout: .cmd16Seq8).encode(
                Frame(
                    cmd: .request, seq: 256, opcode: .ping,
                    payload: .map([])), into: &buffer)
        } throws: { ($0 as! WireError).kind == .unencodable }
        #expect(buffer == [1, 2, 3])
    }

    @Test("a payload over the limit is refused") func payloadOverLimit() {
        let encoder = FrameEncoder(maxPayloadBytes: 100)
        #expect {
            try encoder.encode(Frame(cmd: .response, seq: 1, opcode: .chatHistory, payload: Self.page(20)))
        } throws: { ($0 as! WireError).kind == .unencodable }
    }
}
