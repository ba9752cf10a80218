/// One MessagePack value, as the wire carries it.
///
/// Maps keep their pairs in wire order (`[MessagePackPair]`), so decoding and re-encoding a payload keeps its bytes'
/// key order and output built from it is deterministic. Integers keep the signedness they were read with:
/// `.int` for negative values and signed encodings, `.uint` for unsigned ones.
public enum MessagePackValue: Hashable, Sendable {
    /// The nil value (0xc0).
    case `nil`
    /// A Boolean (0xc2 false, 0xc3 true).
    case bool(Bool)
    /// A signed integer: a negative value or one read from a signed encoding.
    case int(Int64)
    /// An unsigned integer, read from a positive fixint or an unsigned encoding.
    case uint(UInt64)
    /// A 32-bit IEEE 754 float (0xca).
    case float(Float)
    /// A 64-bit IEEE 754 float (0xcb).
    case double(Double)
    /// A UTF-8 string (str family).
    case string(String)
    /// A byte array (bin family).
    case binary([UInt8])
    /// An array of values in wire order.
    case array([MessagePackValue])
    /// A map as key/value pairs in wire order.
    case map([MessagePackPair])
    /// An application extension type (`type` 0...127) or a reserved one (-128...-2) other than the timestamp.
    case ext(type: Int8, data: [UInt8])
    /// The timestamp extension (type -1): seconds since 1970-01-01 UTC and a nanosecond part below 1e9.
    case timestamp(seconds: Int64, nanoseconds: UInt32)
}

/// One key/value pair of a MessagePack map.
public struct MessagePackPair: Hashable, Sendable {
    /// The pair's key, any MessagePack value (usually a string).
    public var key: MessagePackValue
    /// The value stored under `key`.
    public var value: MessagePackValue

    /// Creates a map entry binding `key` to `value`.
    public init(_ key: MessagePackValue, _ value: MessagePackValue) {
        self.key = key
        self.value = value
    }
}
