import SimCore
import Testing

@Suite struct RemoveAllKeepingCapacityTests {
    /// A class whose deinit counts, to see every element destroyed once.
    final class Counted {
        let onDeinit: () -> Void
        init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    @Test("empties the array, keeps its storage, destroys each element once; an empty array stays empty")
    func emptiesAndKeepsCapacity() {
        var destroyed = 0
        var array = (0..<5).map { _ in Counted { destroyed += 1 } }
        array.reserveCapacity(64)
        let capacity = array.capacity
        array.removeAllKeepingCapacity()
        #expect(array.isEmpty && array.capacity == capacity && destroyed == 5)
        array.removeAllKeepingCapacity()
        #expect(array.isEmpty && destroyed == 5)
        var numbers = [1, 2, 3]
        let shared = numbers
        numbers.removeAllKeepingCapacity()
        #expect(numbers.isEmpty && shared == [1, 2, 3], "a shared buffer is copied, not emptied under the other owner")
    }
}
