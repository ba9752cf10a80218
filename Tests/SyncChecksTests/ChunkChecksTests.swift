import SyncChecks
import SyncClient
import SyncProtocol
import Testing

private func chunk(_ lower: Int64, _ upper: Int64, start: Bool = false) -> Chunk {
    Chunk(lower: lower, upper: upper, isStartOfHistory: start)
}

private func messages(_ ids: [Int64]) -> [ChatMessage] {
    ids.map { ChatMessage(id: $0, time: 1_000 + $0, sender: 2, text: "m\($0)") }
}

@Suite struct ChunkChecksTests {
    @Test("C1 holds for sorted, disjoint chunks whose bounds and messages are cached") func c1Sound() {
        let chunks = [chunk(1, 3, start: true), chunk(7, 9)]
        #expect(ChunkChecks.c1Problems(chunks: chunks, cachedIds: [1, 2, 3, 7, 9]) == [])
    }

    @Test("C1 names a broken chunk list", arguments: [
        ([chunk(7, 9), chunk(1, 3)],
         [Int64(1), 3, 7, 9], "unsorted or overlap"),
        ([chunk(1, 5), chunk(5, 9)],
         [1, 5, 9], "unsorted or overlap"),
        ([chunk(5, 1)], [1, 5], "is empty"),
        ([chunk(1, 3), chunk(7, 9, start: true)],
         [1, 3, 7, 9], "is not first"),
        ([chunk(1, 3)], [1], "bound that is not cached"),
        ([chunk(1, 3)], [1, 3, 5], "lies in no chunk"),
    ])
    func c1Broken(chunks: [Chunk], cachedIds: [Int64], problem: String) {
        let problems = ChunkChecks.c1Problems(chunks: chunks, cachedIds: cachedIds)
        #expect(problems.contains { $0.contains(problem) }, "\(problems)")
    }

    @Test("C2 finds a server message strictly inside a chunk that the cache lacks, and ignores gaps") func c2() {
        let server = messages([1, 2, 3, 4, 5, 6, 7])
        let chunks = [chunk(1, 3, start: true), chunk(5, 7)]
        let full: Set<Int64> = [1, 2, 3, 5, 6, 7]
        #expect(ChunkChecks.c2Problems(chunks: chunks, isCached: { full.contains($0) }, server: server) == [])
        let holed: Set<Int64> = [1, 3, 5, 6, 7]
        let problems = ChunkChecks.c2Problems(chunks: chunks, isCached: { holed.contains($0) }, server: server)
        #expect(problems == ["chunk [1...3 start] lacks server message(s) 2"])
    }

    @Test("C3 finds cached messages the server does not hold, or holds differently") func c3() {
        let server = messages([1, 2, 3])
        #expect(ChunkChecks.c3Problems(cached: messages([1, 3]), server: server) == [])
        var edited = messages([2])
        edited[0].text = "edited"
        #expect(ChunkChecks.c3Problems(cached: edited, server: server).first?.contains("cached as") == true)
        #expect(ChunkChecks.c3Problems(cached: messages([4]), server: server)
            == ["cached message 4 is not on the server"])
        let unordered = ChunkChecks.c3Problems(cached: messages([3, 1]), server: server)
        #expect(unordered.first?.contains("out of order") == true)
    }

    /// Session 45: the check over what a store added passes its new chunks and messages as slices of the store's
    /// arrays, and its grown top range as a single chunk, where it built arrays of them.
    @Test("C2 and C3 judge a slice or a single chunk as they judge the same elements in an array") func slices() {
        let server = messages([1, 2, 3, 4, 5, 6, 7])
        let chunks = [chunk(1, 3, start: true), chunk(4, 5), chunk(6, 7)]
        let cachedIds: Set<Int64> = [1, 3, 4, 5, 6, 7]
        func isCached(_ id: Int64) -> Bool { cachedIds.contains(id) }
        #expect(ChunkChecks.c2Problems(chunks: CollectionOfOne(chunks[0]), isCached: isCached, server: server)
            == ChunkChecks.c2Problems(chunks: [chunks[0]], isCached: isCached, server: server))
        let single = ChunkChecks.c2Problems(chunks: CollectionOfOne(chunks[0]), isCached: isCached, server: server)
        #expect(single == ["chunk [1...3 start] lacks server message(s) 2"])
        #expect(ChunkChecks.c2Problems(chunks: chunks[1...], isCached: isCached, server: server) == [])
        var cached = messages([1, 3, 4, 5, 6])
        cached[4].text = "edited"
        let slice = cached[3...]
        #expect(slice.startIndex == 3)
        #expect(ChunkChecks.c3Problems(cached: slice, server: server)
            == ChunkChecks.c3Problems(cached: Array(slice), server: server))
        #expect(ChunkChecks.c3Problems(cached: slice, server: server).first?.contains("message 6 cached as") == true)
        #expect(ChunkChecks.c3Problems(cached: cached[..<4], server: server) == [])
    }

    @Test("C4 finds an id cached twice and a cid echoed twice") func c4() {
        #expect(ChunkChecks.c4Problems(cachedIds: [1, 2, 3], echoCids: [7, 8]) == [])
        #expect(ChunkChecks.c4Problems(cachedIds: [1, 2, 2], echoCids: [7, 7]) ==
            ["message 2 cached 2 times", "cid 7 echoed 2 times"])
    }

    @Test("C5 finds a start-of-history chunk with an older server message") func c5() {
        let server = messages([1, 2, 3])
        #expect(ChunkChecks.c5Problems(chunks: [chunk(1, 3, start: true)], server: server) == [])
        #expect(ChunkChecks.c5Problems(chunks: [chunk(2, 3, start: true)], server: server)
            .count == 1)
    }

    @Test("C6 wants one start chunk spanning the server's history") func c6() {
        let server = messages([1, 2, 3])
        #expect(ChunkChecks.c6Problems(chunks: [chunk(1, 3, start: true)], server: server) == [])
        // The expected chunk is printed with its mark: "[1...3], not one start chunk [1...3]" read as a contradiction.
        #expect(ChunkChecks.c6Problems(chunks: [chunk(1, 3)], server: server)
            == ["chunks [1...3], not one start chunk [1...3 start]"])
        #expect(ChunkChecks.c6Problems(chunks: [], server: server)
            == ["no chunk, not one start chunk [1...3 start]"])
        #expect(ChunkChecks.c6Problems(chunks: [chunk(1, 1, start: true),
                                                chunk(3, 3)], server: server)
            .count == 1)
        #expect(ChunkChecks.c6Problems(chunks: [], server: []) == [])
    }
}
