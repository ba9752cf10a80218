/// A raw value inside a typed payload: a key the model does not know (an attachment kind's own keys, say) is kept as
/// the value the wire carried and written back unchanged.
///
/// `MessagePackDecoder` and `MessagePackEncoder` pass the value through as it is, bytes and integer signedness
/// included. Other coders (JSON, a property list) get the nearest shape they have: a map with string keys (a
/// non-string key is written as its MessagePack bytes in hex; read back, a map's keys are sorted by name, as such
/// coders keep no order), an array, a scalar; binary and extension values become arrays of byte numbers, a
/// timestamp `[seconds, nanoseconds]`, and read back as arrays.
extension MessagePackValue: Codable {

    /// Reads a value from a coder other than `MessagePackDecoder` (that one hands the value over without this).
    /// - Throws: `DecodingError.dataCorrupted` when the coder offers none of the shapes above.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: NamedKey.self) {
            // Such coders keep no key order (JSON's is a dictionary's, random per process): sorted by name.
            self = .map(try keyed.allKeys.sorted { $0.stringValue < $1.stringValue }.map { MessagePackPair(.string($0.stringValue),
                                                                try keyed.decode(MessagePackValue.self, forKey: $0)) })
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [MessagePackValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(MessagePackValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .nil
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = value < 0 ? .int(value) : .uint(UInt64(value))
        } else if let value = try? single.decode(UInt64.self) {
            self = .uint(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "not a map, array, boolean, number, string or nil"))
        }
    }

    /// Writes the value to a coder other than `MessagePackEncoder` (that one takes the value as it is).
    public func encode(to encoder: any Encoder) throws {
        func single(_ value: some Encodable) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
        switch self {
        case .nil:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value): try single(value)
        case .int(let value): try single(value)
        case .uint(let value): try single(value)
        case .float(let value): try single(value)
        case .double(let value): try single(value)
        case .string(let value): try single(value)
        case .binary(let bytes), .ext(_, let bytes):
            var unkeyed = encoder.unkeyedContainer()
            for byte in bytes { try unkeyed.encode(byte) }
        case .timestamp(let seconds, let nanoseconds):
            var unkeyed = encoder.unkeyedContainer()
            try unkeyed.encode(seconds)
            try unkeyed.encode(nanoseconds)
        case .array(let elements):
            var unkeyed = encoder.unkeyedContainer()
            for element in elements { try unkeyed.encode(element) }
        case .map(let pairs):
            var keyed = encoder.container(keyedBy: NamedKey.self)
            for pair in pairs {
                let name: String
                if case .string(let text) = pair.key {
                    name = text
                } else {
                    name = pair.key.messagePackBytes().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                }
                try keyed.encode(pair.value, forKey: NamedKey(stringValue: name))
            }
        }
    }
}
