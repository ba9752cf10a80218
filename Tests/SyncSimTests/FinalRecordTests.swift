import SyncClient
import Testing
@testable import SyncSim

/// The run's final records list each client's chunks; session 41 writes the list into one string instead of joining
/// one interpolated string per chunk. The bytes must stay those of `Chunk.description` joined by commas: they are in
/// every run's trace digest.
@Suite struct FinalRecordTests {
    @Test("the chunk list of a final record is the chunks' descriptions joined by commas", arguments: [
        [],
        [Chunk(lower: 5, upper: 5, isStartOfHistory: false)],
        [Chunk(lower: -3, upper: 40, isStartOfHistory: true),
         Chunk(lower: 42, upper: 1_000_000_007, isStartOfHistory: false),
         Chunk(lower: .min, upper: .max, isStartOfHistory: true)],
    ])
    func chunkList(_ chunks: [Chunk]) {
        #expect(World.chunkList(chunks) == chunks.map(\.description).joined(separator: ","))
    }
}
