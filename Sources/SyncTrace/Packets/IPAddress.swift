/// An IPv4 or IPv6 address as found in a packet header.
public enum IPAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// An IPv4 address, most significant byte first (`198.18.0.1` is `0xC612_0001`).
    case v4(UInt32)
    /// An IPv6 address as its 16 bytes in network order.
    case v6([UInt8])

    /// `198.18.0.1` or the RFC 5952 text form of an IPv6 address (`2001:db8::1`).
    public var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xff) }.joined(separator: ".")
        case .v6(let bytes):
            let groups = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
            // RFC 5952 §4.2: compress the longest run of two or more zero groups, the first one on a tie.
            var bestStart = -1
            var bestLength = 1
            var index = 0
            while index < 8 {
                guard groups[index] == 0 else {
                    index += 1
                    continue
                }
                var end = index
                while end < 8 && groups[end] == 0 { end += 1 }
                if end - index > bestLength {
                    bestStart = index
                    bestLength = end - index
                }
                index = end
            }
            let text = groups.map { String($0, radix: 16) }
            guard bestStart >= 0 else { return text.joined(separator: ":") }
            let head = text[..<bestStart].joined(separator: ":")
            let tail = text[(bestStart + bestLength)...].joined(separator: ":")
            return head + "::" + tail
        }
    }

    public static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        switch (lhs, rhs) {
        case (.v4(let left), .v4(let right)): left < right
        case (.v4, .v6): true
        case (.v6, .v4): false
        case (.v6(let left), .v6(let right)): left.lexicographicallyPrecedes(right)
        }
    }
}
