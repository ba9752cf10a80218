extension RandomAccessCollection where Index == Int {
    /// The first index whose element does not belong before the point, found by halving.
    ///
    /// The collection must be partitioned by `belongsBefore`: every element for which it holds comes before every
    /// element for which it does not (an ascending array asked for the first element at or above a key:
    /// `belongsBefore: { $0 < key }`). Works on slices (the result lies in `startIndex...endIndex`).
    /// - Returns: `endIndex` when every element belongs before; `startIndex` when none does.
    /// - Complexity: O(log n) calls of `belongsBefore`.
    @inlinable
    public func partitionPoint(where belongsBefore: (Element) throws -> Bool) rethrows -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if try belongsBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
