import SimCore
import Testing

@testable import SyncProtocol

/// Seeded mutations of valid streams: every decode returns frames or throws a `WireError`, and never traps.
@Suite struct FrameDecoderMutationTests {
    static func baseStream(layout: HeaderLayout) throws -> [UInt8] {
        var generator = SeededGenerator(seed: 99)
        let encoder = FrameEncoder(layout: layout)
        var stream: [UInt8] = []
        for index in 0..<6 {
            let payload =
                index == 2
                ? TestSupport.compressiblePayload(count: 30, using: &generator)
                : .map([MessagePackPair(.string("v"), TestSupport.randomValue(depth: 3, using: &generator))])
            try encoder.encode(
                Frame(cmd: .push, seq: UInt16(index), opcode: .notifMessage, payload: payload), into: &stream)
        }
        return stream
    }

    @Test(
        "byte flips, truncations and insertions give frames or a WireError",
        arguments: [
            (HeaderLayout.cmd8Seq16, UInt64(2024)), (.cmd16Seq8, 2025),
        ])
    func mutations(layout: HeaderLayout, seed: UInt64) throws {
        let base = try Self.baseStream(layout: layout)
        var generator = SeededGenerator(seed: seed)
        var outcomes = (frames: 0, errors: 0)
        for iteration in 0..<1500 {
            var stream = base
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    let index = Int.random(in: 0..<stream.count, using: &generator)
                    stream[index] ^= UInt8.random(in: 1...255, using: &generator)
                case 1:
                    stream.removeLast(Int.random(in: 0..<stream.count, using: &generator))
                case 2:
                    let index = Int.random(in: 0...stream.count, using: &generator)
                    let inserted = (0..<Int.random(in: 1...16, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                    stream.insert(contentsOf: inserted, at: index)
                default:
                    // Aim at a header's length or flag bytes, where hostile values hurt most.
                    let index = Int.random(in: 0..<min(stream.count, 10), using: &generator) + 6
                    if index < stream.count { stream[index] = UInt8.random(in: 0...255, using: &generator) }
                }
                if stream.isEmpty { stream = [10] }
            }
            let splits = TestSupport.randomSplits(count: stream.count, maxChunk: 300, using: &generator)
            do {
                outcomes.frames += try TestSupport.decodeAll(
                    stream, chunkSizes: splits,
                    decoder: FrameDecoder(layout: layout)
                ).count
            } catch is WireError {
                outcomes.errors += 1
            } catch {
                Issue.record("seed \(seed) iteration \(iteration): unexpected error \(error)")
            }
        }
        #expect(outcomes.errors > 0 && outcomes.frames > 0, "seed \(seed)")
    }
}
