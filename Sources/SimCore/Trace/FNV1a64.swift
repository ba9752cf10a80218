/// The 64-bit FNV-1a hash (Fowler, Noll, Vo; draft-eastlake-fnv), fed incrementally.
///
/// Chosen for the trace digest because it is fully specified and the same in every process and on every
/// machine, unlike Swift's `Hasher`, which is seeded per process.
public struct FNV1a64: Hashable, Sendable {
    /// The FNV-1a 64-bit offset basis.
    public static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    /// The FNV 64-bit prime.
    public static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// The hash of everything fed so far.
    public private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    /// A hasher that has been fed nothing (its value is the offset basis).
    public init() {}

    /// Feeds one byte.
    public mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* Self.prime
    }

    /// Feeds the UTF-8 bytes of `text`.
    public mutating func combine(_ text: String) {
        var hash = value
        // Over the contiguous bytes where the string has them (native and small strings): the UTF-8 view's
        // iterator cost an index step per byte, and every trace record's pieces pass through here.
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* Self.prime }
        }
        if done == nil {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* Self.prime }
        }
        value = hash
    }

    /// Feeds the bytes of a static string (a literal: no string object to look into).
    public mutating func combine(_ text: StaticString) {
        var hash = value
        // `withUTF8Buffer`, not `utf8Start`: a one-scalar literal may be stored as the scalar, not as bytes.
        text.withUTF8Buffer { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* Self.prime }
        }
        value = hash
    }

    /// Feeds `value` in decimal, the same bytes as `combine(String(value))` without building the string.
    public mutating func combine(decimal value: Int64) {
        var hash = self.value
        if value < 0 { hash = (hash ^ UInt64(UInt8(ascii: "-"))) &* Self.prime }
        var magnitude = value.magnitude
        // Digits come out least significant first, two per division (a virtual time in nanoseconds has about a
        // dozen): into a small buffer on the stack, then hashed in order.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            // A 64-bit division by 100 per pair; the pair's two digits come from cheap 32-bit ones.
            while magnitude >= 100 {
                let pair = UInt32(truncatingIfNeeded: magnitude % 100)
                magnitude /= 100
                start &-= 2
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
                digits[start &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
            }
            if magnitude >= 10 {
                let pair = UInt32(truncatingIfNeeded: magnitude)
                start &-= 2
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
                digits[start &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
            } else {
                start &-= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
            }
            for index in start..<digits.count { hash = (hash ^ UInt64(digits[index])) &* Self.prime }
        }
        self.value = hash
    }

    /// The hash of `text`'s UTF-8 bytes.
    public static func hash(_ text: String) -> UInt64 {
        var hasher = FNV1a64()
        hasher.combine(text)
        return hasher.value
    }

    /// The digest of several runs, from their trace digests (16 hex digits each) in the order given: FNV-1a 64 over
    /// each digest's text and a newline, as 16 lowercase hex digits. The same runs in the same order give the same
    /// value whatever the job count; `sweep` and `explore` print it beside runs whose own digests they do not list.
    public static func digestHex(ofDigests digests: [String]) -> String {
        var hasher = FNV1a64()
        for digest in digests {
            hasher.combine(digest)
            hasher.combine(UInt8(ascii: "\n"))
        }
        return hex(hasher.value)
    }

    /// The hash of `bytes` as 16 lowercase hex digits.
    public static func digestHex(ofBytes bytes: [UInt8]) -> String {
        var hasher = FNV1a64()
        for byte in bytes { hasher.combine(byte) }
        return hex(hasher.value)
    }

    /// `value` as 16 lowercase hex digits, zero-padded: how reports print a digest.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
