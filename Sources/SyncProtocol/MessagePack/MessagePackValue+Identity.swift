extension MessagePackValue {
    /// Whether this value and `other` are the same MessagePack, so that packing them gives the same bytes.
    ///
    /// Stricter than `==`, which compares strings by canonical equivalence (`"caf\u{E9}" == "cafe\u{301}"`,
    /// different bytes): here strings compare by their UTF-8 bytes and floats by their bit patterns. A false answer
    /// for values that would pack the same (an `.int` against a `.uint` of the same number) is allowed; a true
    /// answer for values that would not is not.
    /// - Complexity: O(n) in the size of the value.
    package func isIdentical(to other: MessagePackValue) -> Bool {
        switch self {
        case .nil:
            if case .nil = other { return true }
        case .bool(let value):
            if case .bool(let otherValue) = other { return value == otherValue }
        case .int(let value):
            if case .int(let otherValue) = other { return value == otherValue }
        case .uint(let value):
            if case .uint(let otherValue) = other { return value == otherValue }
        case .float(let value):
            if case .float(let otherValue) = other { return value.bitPattern == otherValue.bitPattern }
        case .double(let value):
            if case .double(let otherValue) = other { return value.bitPattern == otherValue.bitPattern }
        case .string(let value):
            if case .string(let otherValue) = other { return value.utf8.elementsEqual(otherValue.utf8) }
        case .binary(let value):
            if case .binary(let otherValue) = other { return value == otherValue }
        case .array(let values):
            if case .array(let otherValues) = other {
                guard values.count == otherValues.count else { return false }
                for index in values.indices where !values[index].isIdentical(to: otherValues[index]) { return false }
                return true
            }
        case .map(let pairs):
            if case .map(let otherPairs) = other {
                guard pairs.count == otherPairs.count else { return false }
                for index in pairs.indices {
                    guard pairs[index].key.isIdentical(to: otherPairs[index].key),
                          pairs[index].value.isIdentical(to: otherPairs[index].value) else { return false }
                }
                return true
            }
        case .ext(let type, let data):
            if case .ext(let otherType, let otherData) = other { return type == otherType && data == otherData }
        case .timestamp(let seconds, let nanoseconds):
            if case .timestamp(let otherSeconds, let otherNanoseconds) = other {
                return seconds == otherSeconds && nanoseconds == otherNanoseconds
            }
        }
        return false
    }
}
