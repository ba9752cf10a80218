/// A cursor over one fuzz input: targets draw small choices (layouts, chunk sizes, event kinds) from it and hand
/// the rest to the parser under test, so libFuzzer's mutations steer both.
public struct FuzzInput {
    /// The input bytes.
    public let bytes: [UInt8]
    /// Index of the next unread byte.
    public private(set) var index = 0

    /// Copies `count` bytes at `data` (libFuzzer's buffer is only valid during the call).
    public init(_ data: UnsafePointer<UInt8>?, _ count: Int) {
        if let data, count > 0 {
            bytes = Array(UnsafeBufferPointer(start: data, count: count))
        } else {
            bytes = []
        }
    }

    /// Wraps bytes already in memory (unit tests, corpus tools).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// True when every byte was read.
    public var isAtEnd: Bool { index >= bytes.count }

    /// How many bytes remain.
    public var remainingCount: Int { bytes.count - index }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A big-endian UInt16 from the next two bytes (zero-filled past the end).
    public mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    /// The next `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> ArraySlice<UInt8> {
        let end = min(bytes.count, index + max(0, count))
        defer { index = end }
        return bytes[index..<end]
    }

    /// Every byte not yet read.
    public mutating func rest() -> ArraySlice<UInt8> { take(remainingCount) }
}
