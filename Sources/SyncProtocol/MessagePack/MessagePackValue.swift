/// One MessagePack value, as the wire carries it.
///
/// Maps keep their pairs in wire order (`[MessagePackPair]`), so decoding and re-encoding a payload keeps its bytes'
/// key order and output built from it is deterministic. Integers keep the signedness they were read with:
/// `.int` for negative values and signed encodings, `.uint` for unsigned ones.
public enum MessagePackValue: Hashable, Sendable {
    case `nil`
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case float(Float)
    case double(Double)
    case string(String)
    case binary([UInt8])
    case array([MessagePackValue])
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
