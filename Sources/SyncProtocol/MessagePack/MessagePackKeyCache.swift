/// Map keys seen so far, at most 15 bytes each, stored with their length in two words: payloads repeat a few
/// keys (`id`, `time`, `text`) thousands of times, and comparing two words is cheaper than building and
/// checking a string each time.
///
/// Direct-mapped: a key's words pick one of 64 slots and a newer key evicts an older one in the same slot. A hit
/// returns exactly the value the builder would build, so eviction order never reaches the output.
struct MessagePackKeyCache {
    static let slotCount = 64
    /// Per slot the key's two words; (0, 0) is never a key's (the length byte of a cached key is at least 1).
    /// Unsafe storage owned by a `MessagePackSerialization.Unpacker`, so lookups cost no reference counting or
    /// uniqueness checks.
    private let words: UnsafeMutablePointer<(low: UInt64, high: UInt64)>
    private let keys: UnsafeMutablePointer<MessagePackValue>

    /// Allocates empty storage; `deallocate()` must be called once.
    init() {
        words = .allocate(capacity: Self.slotCount)
        words.initialize(repeating: (0, 0), count: Self.slotCount)
        keys = .allocate(capacity: Self.slotCount)
        keys.initialize(repeating: .nil, count: Self.slotCount)
    }

    func deallocate() {
        words.deinitialize(count: Self.slotCount)
        words.deallocate()
        keys.deinitialize(count: Self.slotCount)
        keys.deallocate()
    }

    /// The two words for a string key of 1-15 bytes: its length in the first byte, then its bytes.
    @inline(__always)
    static func words(_ bytes: UnsafePointer<UInt8>, count: Int) -> (low: UInt64, high: UInt64) {
        // Byte by byte: keys are short, and a loop beats a memcpy call into a stack buffer here.
        var low = UInt64(truncatingIfNeeded: count)
        var high: UInt64 = 0
        var position = 0
        while position < count && position < 7 {
            low |= UInt64(bytes[position]) &<< UInt64(8 * (position + 1))
            position += 1
        }
        while position < count {
            high |= UInt64(bytes[position]) &<< UInt64(8 * (position - 7))
            position += 1
        }
        return (low, high)
    }

    @inline(__always)
    static func slot(_ low: UInt64, _ high: UInt64) -> Int {
        Int(truncatingIfNeeded: ((low ^ (high &* 0x9E37_79B9)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// The cached key with these words, if any.
    @inline(__always)
    func key(_ low: UInt64, _ high: UInt64) -> MessagePackValue? {
        let slot = Self.slot(low, high)
        return words[slot] == (low, high) ? keys[slot] : nil
    }

    func insert(_ key: MessagePackValue, _ low: UInt64, _ high: UInt64) {
        let slot = Self.slot(low, high)
        words[slot] = (low, high)
        keys[slot] = key
    }
}
