/// A map from `ServerConnectionID` to a value that costs an array index, not a hash, for the ids a driver hands
/// out one after another (the world numbers connections 1, 2, 3... in accept order).
///
/// The server core must not rely on that: an id is kept in the array only when it is non-negative and at most
/// `growthGapLimit` past the array's end (the array then grows to hold it); any other id (negative, or far ahead,
/// as a trace replayer or a real-socket driver may hand out) goes to a fallback dictionary. An id lives in exactly
/// one of the two places, so lookups, insertions and removals behave as a dictionary's. Iteration is only through
/// `sortedKeys`, ascending, as `Dictionary.keys.sorted()` gave.
struct ConnectionTable<Value> {
    /// The values of ids 0..<slots.count, nil where none.
    private var slots: [Value?] = []
    /// The values of ids outside 0..<slots.count.
    private var overflow: [ServerConnectionID: Value] = [:]

    /// How far past the array's end an id may be and still grow the array when a value is stored for it (so the
    /// array holds at most this many slots per id ever stored).
    static var growthGapLimit: Int { 64 }

    /// The value stored for `id`, or nil; assigning nil removes it.
    subscript(id: ServerConnectionID) -> Value? {
        get {
            let raw = id.rawValue
            if raw >= 0 && raw < slots.count { return slots[raw] }
            return overflow.isEmpty ? nil : overflow[id]
        }
        _modify {
            let raw = id.rawValue
            if raw >= 0 && raw < slots.count {
                yield &slots[raw]
            } else if raw >= 0 && raw - slots.count < Self.growthGapLimit {
                // The array grows only once a value is stored (an access that stores nothing leaves it as it was).
                var value = overflow.isEmpty ? nil : overflow.removeValue(forKey: id)
                yield &value
                if let value {
                    grow(toHold: raw)
                    slots[raw] = value
                }
            } else {
                yield &overflow[id]
            }
        }
    }

    /// Every id with a value, ascending.
    var sortedKeys: [ServerConnectionID] {
        let outside = overflow.keys.sorted()
        let belowCount = outside.firstIndex { $0.rawValue >= 0 } ?? outside.count
        var keys = Array(outside[..<belowCount])
        for raw in slots.indices where slots[raw] != nil { keys.append(ServerConnectionID(rawValue: raw)) }
        keys += outside[belowCount...]
        return keys
    }

    /// Removes every value (the array keeps its length, so ids handed out after keep their slots).
    mutating func removeAll() {
        for raw in slots.indices { slots[raw] = nil }
        overflow = [:]
    }

    /// Grows the array to hold `raw`, moving into it any value the fallback dictionary held for the new ids.
    private mutating func grow(toHold raw: Int) {
        let oldCount = slots.count
        slots.append(contentsOf: repeatElement(nil, count: raw + 1 - oldCount))
        guard !overflow.isEmpty else { return }
        for moved in oldCount...raw {
            if let value = overflow.removeValue(forKey: ServerConnectionID(rawValue: moved)) { slots[moved] = value }
        }
    }
}
