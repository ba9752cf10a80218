/// A first-in first-out queue over an array with a moving head: amortized O(1) `append` and `popFirst`.
///
/// Popped slots stay in the array until the queue empties (the array is cleared, keeping its capacity) or the head
/// passes half of an array longer than 1,024 elements (the popped prefix is removed), so memory stays bounded
/// without shifting on every pop.
/// - Complexity: `append` and `popFirst` amortized O(1); `elements` O(1).
struct FIFOQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    /// How many elements wait (`storage.count - head`, kept in the queue itself: asking an empty queue whether it is
    /// empty read its array's header, a cache miss per packet offered at thousands of links).
    private(set) var count = 0

    /// Whether nothing waits.
    var isEmpty: Bool { count == 0 }

    /// The oldest element, if any.
    var first: Element? { isEmpty ? nil : storage[head] }

    /// The waiting elements, oldest first.
    var elements: ArraySlice<Element> { storage[head...] }

    /// Adds an element at the tail.
    mutating func append(_ element: Element) {
        storage.append(element)
        count += 1
    }

    /// Removes and returns the oldest element, or nil when empty.
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        head += 1
        count -= 1
        if count == 0 {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1_024 && head * 2 > storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}
