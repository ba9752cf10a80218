extension Array {
    /// Empties the array and keeps its storage for the next use: the effect of `removeAll(keepingCapacity: true)`.
    ///
    /// For the per-event buffers of the simulation, which hold a few elements between uses: the standard call goes
    /// through the general `replaceSubrange`, about a hundred instructions even for one element, where this
    /// destroys the elements from the end.
    /// - Complexity: O(n) in the count; O(1) when empty.
    @inlinable
    public mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}
