/// Map keys seen so far, at most 15 bytes each, stored with their type byte in two words: payloads repeat a few
/// keys (`id`, `time`, `text`) thousands of times, and comparing two words is cheaper than building and
/// checking a string each time.
///
/// Direct-mapped: a key's words pick one of 64 slots and a newer key evicts an older one in the same slot. A hit
/// returns exactly the value the builder would build, so eviction order never reaches the output.
struct MessagePackKeyCache {
    static let slotCount = 64
    /// Per slot the key's two words; (0, 0) is never a key's (its type byte is 0xa1-0xaf).
    /// Unsafe storage owned by a `MessagePackSerialization.Unpacker`, so lookups cost no reference counting or
    /// uniqueness checks.
    private let words: UnsafeMutablePointer<(low: UInt64, high: UInt64)>
    /// Per slot the key's text: a key is always a string, and a string of at most 15 bytes is stored inline, so
    /// handing one out copies two words and retains nothing (a whole `MessagePackValue` took an outlined copy
    /// that switched over every case).
    private let keys: UnsafeMutablePointer<String>

    /// Allocates empty storage; `deallocate()` must be called once.
    init() {
        words = .allocate(capacity: Self.slotCount)
        words.initialize(repeating: (0, 0), count: Self.slotCount)
        keys = .allocate(capacity: Self.slotCount)
        keys.initialize(repeating: "", count: Self.slotCount)
    }

    func deallocate() {
        words.deinitialize(count: Self.slotCount)
        words.deallocate()
        keys.deinitialize(count: Self.slotCount)
        keys.deallocate()
    }

    /// The two words for a fixstr key of 1-15 bytes: its type byte (0xa1-0xaf, which holds the length), then its
    /// bytes, little-endian, zero past the end.
    /// - Parameters:
    ///   - value: the key's type byte, followed by its bytes.
    ///   - readable: how many bytes may be read from `value` (the key needs 1 + length; 16 allow two loads).
    @inline(__always)
    static func words(_ value: UnsafePointer<UInt8>, readable: Int) -> (low: UInt64, high: UInt64) {
        let byteCount = Int(value[0] & 0x1f) + 1
        if readable >= 16 {
            // Two unaligned loads, then the bytes past the key masked off.
            let raw = UnsafeRawPointer(value)
            var low = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            var high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            if byteCount < 8 {
                low &= (1 &<< UInt64(8 * byteCount)) &- 1
                high = 0
            } else if byteCount < 16 {
                high &= (1 &<< UInt64(8 * (byteCount - 8))) &- 1
            }
            return (low, high)
        }
        var low: UInt64 = 0
        var high: UInt64 = 0
        for position in 0..<byteCount {
            if position < 8 {
                low |= UInt64(value[position]) &<< UInt64(8 * position)
            } else {
                high |= UInt64(value[position]) &<< UInt64(8 * (position - 8))
            }
        }
        return (low, high)
    }

    @inline(__always)
    static func slot(_ low: UInt64, _ high: UInt64) -> Int {
        Int(truncatingIfNeeded: ((low ^ (high &* 0x9E37_79B9)) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// The cached key with these words, if any.
    @inline(__always)
    func key(_ low: UInt64, _ high: UInt64) -> String? {
        let slot = Self.slot(low, high)
        return words[slot] == (low, high) ? keys[slot] : nil
    }

    /// Remembers `key`, the string whose fixstr encoding has these words.
    func insert(_ key: String, _ low: UInt64, _ high: UInt64) {
        let slot = Self.slot(low, high)
        words[slot] = (low, high)
        keys[slot] = key
    }
}
