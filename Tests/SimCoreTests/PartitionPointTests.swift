import SimCore
import Testing

@Suite struct PartitionPointTests {
    @Test("the first index not below a key, on arrays, slices, empty and all-below collections, as a linear scan finds it")
    func matchesLinearScan() {
        let values = [1, 3, 3, 5, 8, 13, 13, 13, 21]
        for key in -1...23 {
            let expected = values.firstIndex { !($0 < key) } ?? values.endIndex
            #expect(values.partitionPoint { $0 < key } == expected, "key \(key)")
            #expect(values.partitionPoint { $0 <= key } == (values.firstIndex { $0 > key } ?? values.endIndex))
            let slice = values[2..<7]
            #expect(slice.partitionPoint { $0 < key } == (slice.firstIndex { !($0 < key) } ?? slice.endIndex))
        }
        #expect([Int]().partitionPoint { $0 < 1 } == 0)
        #expect(values[4..<4].partitionPoint { $0 < 100 } == 4)
    }
}
