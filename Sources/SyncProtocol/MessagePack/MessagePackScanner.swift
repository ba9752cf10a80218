/// Walks MessagePack bytes so every fault becomes a typed error with its offset: `MessagePackBuilder` refuses a bad
/// value without saying why, and the decoder then runs this scan to name the fault.
///
/// msgpack-c reports little more than "parse error", trusts element counts when it allocates, and accepts any
/// bytes in strings. The scanner checks, in one pass without allocating per element: each type byte is valid
/// (0xc1 is never used), lengths fit in the bytes left, an array or map claims no more elements than bytes remain
/// (each element takes at least one byte), nesting stays within `MessagePackLimits.maxDepth`, strings are UTF-8,
/// timestamps (ext -1) have 4, 8 or 12 bytes and nanoseconds below 1e9, and nothing follows the value.
/// Format: msgpack/msgpack `spec.md`.
struct MessagePackScanner {
    /// What the scan learned that msgpack-c's objects do not keep.
    struct Result: Equatable {
        /// Pre-order indices (map key before value) of non-negative integers read from signed encodings (0xd0-0xd3),
        /// which msgpack-c folds into its unsigned type; `MessagePackValue` keeps them as `.int`.
        var signedNonNegativeIndices: [Int] = []
    }

    /// Scans `bytes`, which must hold exactly one value.
    /// - Parameter validatesUTF8: whether to check strings here. The decoder leaves it to the string conversion
    ///   (which validates anyway) and scans again with it on only to name the offset of a bad string.
    /// - Throws: `WireError` with `offset` and `payloadOffset` set to the offending byte.
    static func scan(
        _ bytes: UnsafeRawBufferPointer, limits: MessagePackLimits, validatesUTF8: Bool = true
    ) throws -> Result {
        // Items left in each open container; at most 32 are open (`MessagePackLimits.maxDepth`).
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: limits.maxDepth + 1) { stack in
            if !validatesUTF8, let result = quickScan(bytes, maxDepth: limits.maxDepth, openCounts: stack) {
                return result
            }
            return try scanInDetail(bytes, limits: limits, validatesUTF8: validatesUTF8, openCounts: stack)
        }
    }

    /// The same checks as the detailed scan (but for UTF-8 and timestamps) in a tight loop that only says yes or no.
    ///
    /// Well-formed payloads, the common case, pass here at a fraction of the detailed scan's cost; anything this loop
    /// refuses (a fault, or an ext -1 timestamp, which it leaves to the detailed scan) goes through the detailed scan,
    /// which names the fault. It must never accept what the detailed scan refuses (the mutation tests compare both).
    /// - Returns: the result, or nil to fall back to the detailed scan.
    static func quickScan(
        _ bytes: UnsafeRawBufferPointer, maxDepth: Int, openCounts: UnsafeMutableBufferPointer<Int>
    ) -> Result? {
        guard let raw = bytes.baseAddress, maxDepth < openCounts.count else { return nil }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let stack = openCounts.baseAddress!
        var result = Result()
        let end = bytes.count
        var offset = 0
        var valueIndex = 0
        var depth = 0
        var remaining = 1  // values left in the innermost open container (the root counts as one)

        /// The big-endian unsigned integer of `width` bytes at `position`; the caller checked they exist.
        @inline(__always) func uint(_ position: Int, _ width: Int) -> Int {
            switch width {
            case 1: return Int(base[position])
            case 2: return Int(base[position]) << 8 | Int(base[position + 1])
            default:
                return Int(base[position]) << 24 | Int(base[position + 1]) << 16 | Int(base[position + 2]) << 8
                    | Int(base[position + 3])
            }
        }

        while true {
            guard offset < end else { return nil }
            let byte = base[offset]
            var next = offset + 1
            var children = -1  // elements (map keys + values) of a container; -1 for a scalar
            switch byte {
            case 0x00...0x7f, 0xc0, 0xc2, 0xc3, 0xe0...0xff:
                break
            case 0xa0...0xbf:
                next += Int(byte & 0x1f)
            case 0x80...0x8f:
                children = Int(byte & 0x0f) &* 2
            case 0x90...0x9f:
                children = Int(byte & 0x0f)
            case 0xcc...0xcf:
                next += 1 << Int(byte - 0xcc)
            case 0xca:
                next += 4
            case 0xcb:
                next += 8
            case 0xd0...0xd3:
                if next < end, base[next] & 0x80 == 0 { result.signedNonNegativeIndices.append(valueIndex) }
                next += 1 << Int(byte - 0xd0)
            case 0xc4...0xc6, 0xd9...0xdb:
                let width = byte >= 0xd9 ? 1 << Int(byte - 0xd9) : 1 << Int(byte - 0xc4)
                guard end - next >= width else { return nil }
                next += width + uint(next, width)
            case 0xc7...0xc9:
                let width = 1 << Int(byte - 0xc7)
                guard end - next > width, base[next + width] != 0xff else { return nil }
                next += width + 1 + uint(next, width)
            case 0xd4...0xd8:
                guard next < end, base[next] != 0xff else { return nil }
                next += 1 + 1 << Int(byte - 0xd4)
            case 0xdc...0xdf:
                let width = byte & 1 == 0 ? 2 : 4
                guard end - next >= width else { return nil }
                let count = uint(next, width)
                next += width
                children = byte >= 0xde ? count &* 2 : count
            default:  // 0xc1
                return nil
            }
            valueIndex &+= 1
            guard next <= end else { return nil }
            offset = next
            if children > 0 {
                guard children <= end - offset, depth < maxDepth else { return nil }
                stack[depth] = remaining
                depth += 1
                remaining = children
                continue
            }
            // A scalar or an empty container is complete; close every container it completes.
            remaining -= 1
            while remaining == 0 {
                guard depth > 0 else { return offset == end ? result : nil }
                depth -= 1
                remaining = stack[depth] - 1
            }
        }
    }

    /// The detailed scan: every check, each fault named with its offset (`scan` runs it when `quickScan` refuses).
    /// - Parameter openCounts: room for at least `limits.maxDepth` counts.
    static func scanInDetail(
        _ bytes: UnsafeRawBufferPointer, limits: MessagePackLimits, validatesUTF8: Bool,
        openCounts: UnsafeMutableBufferPointer<Int>
    ) throws -> Result {
        var result = Result()
        let end = bytes.count
        var offset = 0
        var valueIndex = 0
        var depth = 0

        func fail(_ kind: WireError.Kind, at position: Int, _ detail: String) -> WireError {
            WireError(kind, offset: position, detail: detail, payloadOffset: position)
        }
        func uint(_ position: Int, _ width: Int) -> Int {
            var value = 0
            for index in position..<(position + width) { value = value << 8 | Int(bytes[index]) }
            return value
        }

        repeat {
            guard offset < end else {
                throw fail(.truncatedMessagePack, at: offset, "expected a value at byte \(offset), found the end")
            }
            let start = offset
            let byte = bytes[offset]
            var headerSize = 1
            var bodySize = 0
            var elementCount = -1  // array elements, or map keys + values; -1 for a scalar
            var isString = false
            var extType: Int8?
            switch byte {
            case 0x00...0x7f, 0xe0...0xff, 0xc0, 0xc2, 0xc3:
                break
            case 0x80...0x8f: elementCount = Int(byte & 0x0f) * 2
            case 0x90...0x9f: elementCount = Int(byte & 0x0f)
            case 0xa0...0xbf:
                bodySize = Int(byte & 0x1f)
                isString = true
            case 0xc1:
                throw fail(.invalidMessagePack, at: start, "byte 0xc1 at \(start) starts no value (never used)")
            case 0xc4, 0xc5, 0xc6, 0xd9, 0xda, 0xdb:
                let width = byte >= 0xd9 ? 1 << Int(byte - 0xd9) : 1 << Int(byte - 0xc4)
                headerSize = 1 + width
                isString = byte >= 0xd9
                guard end - start >= headerSize else {
                    throw fail(.truncatedMessagePack, at: start, "length of the value at byte \(start) is cut")
                }
                bodySize = uint(start + 1, width)
            case 0xc7, 0xc8, 0xc9:
                let width = 1 << Int(byte - 0xc7)
                headerSize = 2 + width
                guard end - start >= headerSize else {
                    throw fail(.truncatedMessagePack, at: start, "ext header at byte \(start) is cut")
                }
                bodySize = uint(start + 1, width)
                extType = Int8(bitPattern: bytes[start + 1 + width])
            case 0xca: bodySize = 4
            case 0xcb: bodySize = 8
            case 0xcc...0xcf: bodySize = 1 << Int(byte - 0xcc)
            case 0xd0...0xd3:
                bodySize = 1 << Int(byte - 0xd0)
                if end - start > 1, bytes[start + 1] & 0x80 == 0 {
                    result.signedNonNegativeIndices.append(valueIndex)
                }
            case 0xd4...0xd8:
                headerSize = 2
                bodySize = 1 << Int(byte - 0xd4)
                guard end - start >= 2 else {
                    throw fail(.truncatedMessagePack, at: start, "ext type at byte \(start) is cut")
                }
                extType = Int8(bitPattern: bytes[start + 1])
            case 0xdc, 0xdd, 0xde, 0xdf:
                let width = byte & 1 == 0 ? 2 : 4
                headerSize = 1 + width
                guard end - start >= headerSize else {
                    throw fail(.truncatedMessagePack, at: start, "element count at byte \(start) is cut")
                }
                let count = uint(start + 1, width)
                elementCount = byte >= 0xde ? count * 2 : count
            default:
                preconditionFailure("unreachable: every byte value is covered")
            }
            valueIndex += 1
            offset = start + headerSize
            if elementCount >= 0 {
                let remaining = end - offset
                guard elementCount <= remaining else {
                    let what =
                        byte >= 0xde || (0x80...0x8f).contains(byte)
                        ? "map at byte \(start) claims \(elementCount / 2) pairs"
                        : "array at byte \(start) claims \(elementCount) elements"
                    let left = remaining == 1 ? "1 byte remains" : "\(remaining) bytes remain"
                    throw fail(.countExceedsRemainingBytes, at: start, "\(what) but only \(left)")
                }
                if elementCount > 0 {
                    guard depth < limits.maxDepth else {
                        throw fail(
                            .nestedTooDeeply, at: start,
                            "container at byte \(start) nests deeper than \(limits.maxDepth) levels"
                        )
                    }
                    openCounts[depth] = elementCount
                    depth += 1
                    continue
                }
            } else {
                guard bodySize <= end - offset else {
                    throw fail(
                        .truncatedMessagePack, at: start,
                        "value at byte \(start) needs \(byteCountText(bodySize)) more, \(end - offset) remain"
                    )
                }
                if isString, validatesUTF8 {
                    try validateUTF8(bytes, from: offset, count: bodySize, valueStart: start)
                }
                if extType == -1 {
                    try validateTimestamp(bytes, from: offset, count: bodySize, valueStart: start)
                }
                offset += bodySize
            }
            // A scalar or an empty container is complete; close every container it completes.
            while depth > 0 {
                if openCounts[depth - 1] == 1 {
                    depth -= 1
                } else {
                    openCounts[depth - 1] -= 1
                    break
                }
            }
        } while depth > 0

        guard offset == end else {
            throw fail(
                .trailingBytes, at: offset,
                "\(byteCountText(end - offset)) after the value, which ends at byte \(offset)"
            )
        }
        return result
    }

    private static func validateUTF8(
        _ bytes: UnsafeRawBufferPointer, from start: Int, count: Int, valueStart: Int
    ) throws {
        var isASCII = true
        for index in start..<(start + count) where bytes[index] >= 0x80 {
            isASCII = false
            break
        }
        if isASCII { return }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
        guard String(validating: slice, as: UTF8.self) != nil else {
            throw WireError(
                .invalidMessagePack, offset: valueStart, detail: "string at byte \(valueStart) is not valid UTF-8",
                payloadOffset: valueStart
            )
        }
    }

    private static func validateTimestamp(
        _ bytes: UnsafeRawBufferPointer, from start: Int, count: Int, valueStart: Int
    ) throws {
        var nanoseconds: UInt32 = 0
        switch count {
        case 4:
            return
        case 8:
            nanoseconds =
                (UInt32(bytes[start]) << 24 | UInt32(bytes[start + 1]) << 16
                    | UInt32(bytes[start + 2]) << 8 | UInt32(bytes[start + 3])) >> 2
        case 12:
            nanoseconds =
                UInt32(bytes[start]) << 24 | UInt32(bytes[start + 1]) << 16
                | UInt32(bytes[start + 2]) << 8 | UInt32(bytes[start + 3])
        default:
            throw WireError(
                .invalidMessagePack, offset: valueStart,
                detail: "timestamp (ext -1) at byte \(valueStart) has \(count) bytes (expected 4, 8 or 12)",
                payloadOffset: valueStart
            )
        }
        guard nanoseconds < 1_000_000_000 else {
            throw WireError(
                .invalidMessagePack, offset: valueStart,
                detail: "timestamp at byte \(valueStart) has \(nanoseconds) nanoseconds (expected below 1e9)",
                payloadOffset: valueStart
            )
        }
    }
}
