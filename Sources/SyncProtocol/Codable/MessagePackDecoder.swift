/// Decodes `Decodable` values from `MessagePackValue`s: maps become structs, looked up by string key.
///
/// Integers accept `.int` and `.uint` that fit the target type; `Double` and `Float` accept floats and integers.
/// A missing key or `.nil` decodes an optional as nil. Errors are Swift's `DecodingError` with the full coding path.
/// While a nested value decodes, the `codingPath` its `init(from:)` sees (and its containers') is relative to that
/// value; a `DecodingError` it throws gets the outer path put in front on its way out, so no path is built unless
/// something fails.
public struct MessagePackDecoder: Sendable {
    /// A decoder; it holds no options.
    public init() {}

    /// Decodes a `T` from `value`.
    /// - Throws: `DecodingError` naming the coding path when `value` does not have `T`'s shape.
    public func decode<T: Decodable>(_ type: T.Type, from value: MessagePackValue) throws -> T {
        try MessagePackDecoding.Decoder(value: value, codingPath: []).decode(type)
    }
}

/// The containers behind `MessagePackDecoder`.
enum MessagePackDecoding {
    static func mismatch(_ type: Any.Type, _ value: MessagePackValue, _ path: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(codingPath: path, debugDescription: "expected \(type), found \(kindName(value))")
        )
    }

    /// `error` with `key` appended to its coding path (a scalar decoded without it, see `Keyed.primitive`).
    static func appending(_ key: any CodingKey, to error: DecodingError) -> DecodingError {
        func extended(_ context: DecodingError.Context) -> DecodingError.Context {
            DecodingError.Context(
                codingPath: context.codingPath + [key], debugDescription: context.debugDescription,
                underlyingError: context.underlyingError
            )
        }
        switch error {
        case .typeMismatch(let type, let context): return .typeMismatch(type, extended(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, extended(context))
        case .keyNotFound(let missing, let context): return .keyNotFound(missing, extended(context))
        case .dataCorrupted(let context): return .dataCorrupted(extended(context))
        @unknown default: return error
        }
    }

    static func kindName(_ value: MessagePackValue) -> String {
        switch value {
        case .nil: "nil"
        case .bool: "a boolean"
        case .int, .uint: "an integer"
        case .float, .double: "a float"
        case .string: "a string"
        case .binary: "binary"
        case .array: "an array"
        case .map: "a map"
        case .ext: "an ext value"
        case .timestamp: "a timestamp"
        }
    }

    static func integer<T: FixedWidthInteger>(
        _ type: T.Type, _ value: MessagePackValue, _ path: [any CodingKey]
    ) throws -> T {
        let result: T?
        switch value {
        case .int(let number): result = T(exactly: number)
        case .uint(let number): result = T(exactly: number)
        default: throw mismatch(type, value, path)
        }
        guard let result else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: path, debugDescription: "integer \(value) does not fit \(type)")
            )
        }
        return result
    }

    static func double(_ value: MessagePackValue, _ path: [any CodingKey]) throws -> Double {
        switch value {
        case .double(let number): number
        case .float(let number): Double(number)
        case .int(let number): Double(number)
        case .uint(let number): Double(number)
        default: throw mismatch(Double.self, value, path)
        }
    }

    /// Decodes `value` as a `T`; errors carry paths relative to `value` (see `nested`).
    ///
    /// Compares metatypes instead of casting (`T.self == String.self` is one pointer comparison; `is String.Type`
    /// and `as! T` were runtime casts on every field).
    static func decodeValue<T: Decodable>(
        _ type: T.Type, _ value: MessagePackValue, _ path: [any CodingKey]
    ) throws -> T {
        if T.self == String.self {
            guard case .string(let text) = value else { throw mismatch(type, value, path) }
            return unsafeBitCast(text, to: T.self)
        }
        if T.self == Int64.self { return unsafeBitCast(try integer(Int64.self, value, path), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(Int.self, value, path), to: T.self) }
        if T.self == Bool.self {
            guard case .bool(let flag) = value else { throw mismatch(type, value, path) }
            return unsafeBitCast(flag, to: T.self)
        }
        if T.self == Double.self { return unsafeBitCast(try double(value, path), to: T.self) }
        if T.self == MessagePackValue.self { return value as! T }
        if path.isEmpty { return try T(from: NestedDecoder(value: value)) }
        return try T(from: Decoder(value: value, codingPath: path))
    }

    /// Decodes the value found under `key` (an array index or a map key) of a container at `containerPath`.
    ///
    /// The value is decoded with an empty coding path, and a `DecodingError` coming out of it gets
    /// `containerPath + [key]` put in front of its path. Every error then names the same full path as when each
    /// nested decoder carried its path, but decoding that succeeds builds no path arrays (an array of existentials
    /// per nested value cost more than many of the values).
    @inline(__always)
    static func nested<T: Decodable>(
        _ type: T.Type, _ value: MessagePackValue, key: any CodingKey, containerPath: [any CodingKey]
    ) throws -> T {
        do {
            return try decodeValue(type, value, [])
        } catch let error as DecodingError {
            throw prefixing(containerPath + [key], to: error)
        }
    }

    /// `error` with `prefix` put in front of its coding path.
    static func prefixing(_ prefix: [any CodingKey], to error: DecodingError) -> DecodingError {
        func extended(_ context: DecodingError.Context) -> DecodingError.Context {
            DecodingError.Context(
                codingPath: prefix + context.codingPath, debugDescription: context.debugDescription,
                underlyingError: context.underlyingError
            )
        }
        switch error {
        case .typeMismatch(let type, let context): return .typeMismatch(type, extended(context))
        case .valueNotFound(let type, let context): return .valueNotFound(type, extended(context))
        case .keyNotFound(let missing, let context): return .keyNotFound(missing, extended(context))
        case .dataCorrupted(let context): return .dataCorrupted(extended(context))
        @unknown default: return error
        }
    }

    struct Decoder: Swift.Decoder {
        let value: MessagePackValue
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type, value, codingPath) }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            try MessagePackDecoding.container(keyedBy: type, value, codingPath)
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try MessagePackDecoding.unkeyedContainer(value, codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            Single(value: value, codingPath: codingPath)
        }
    }

    /// The decoder of a value nested under a key or index: `Decoder` with an empty coding path (see `nested`), which
    /// it does not store, so it fits an `any Decoder`'s inline buffer and handing it to `init(from:)` allocates
    /// nothing (`Decoder`, with its path, needed a heap box per nested value).
    struct NestedDecoder: Swift.Decoder {
        let value: MessagePackValue
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            try MessagePackDecoding.container(keyedBy: type, value, [])
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try MessagePackDecoding.unkeyedContainer(value, [])
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            Single(value: value, codingPath: [])
        }
    }

    static func container<Key: CodingKey>(
        keyedBy type: Key.Type, _ value: MessagePackValue, _ codingPath: [any CodingKey]
    ) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let pairs) = value else { throw mismatch([String: Any].self, value, codingPath) }
        return KeyedDecodingContainer(Keyed<Key>(pairs: pairs, codingPath: codingPath))
    }

    static func unkeyedContainer(
        _ value: MessagePackValue, _ codingPath: [any CodingKey]
    ) throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([Any].self, value, codingPath) }
        return Unkeyed(elements: elements, codingPath: codingPath)
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let pairs: [MessagePackPair]
        var codingPath: [any CodingKey]
        /// Where the next lookup starts: synthesized `init(from:)` reads keys in wire order, so this is usually a hit.
        private let cursor = Cursor()

        init(pairs: [MessagePackPair], codingPath: [any CodingKey]) {
            self.pairs = pairs
            self.codingPath = codingPath
        }

        var allKeys: [Key] {
            pairs.compactMap { pair in
                if case .string(let name) = pair.key { return Key(stringValue: name) }
                return nil
            }
        }

        /// The position of the first pair whose key is the string `key`, searching from the hint and wrapping around.
        private func index(of key: Key) -> Int? {
            let count = pairs.count
            guard count > 0 else { return nil }
            let name = key.stringValue
            return pairs.withUnsafeBufferPointer { buffer in
                var position = cursor.hint < count ? cursor.hint : cursor.hint % count
                for _ in 0..<count {
                    if case .string(let candidate) = buffer[position].key, candidate == name { return position }
                    position += 1
                    if position == count { position = 0 }
                }
                return nil
            }
        }

        private func value(for key: Key) throws -> MessagePackValue {
            guard let position = index(of: key) else {
                throw DecodingError.keyNotFound(
                    key,
                    DecodingError.Context(codingPath: codingPath, debugDescription: "no key \"\(key.stringValue)\"")
                )
            }
            cursor.hint = position + 1
            return pairs[position].value
        }

        func contains(_ key: Key) -> Bool { index(of: key) != nil }

        /// Decodes a scalar with `body`, building the coding path with `key` only when it throws: a path is an array
        /// of existentials, and building one per field cost more than the field itself.
        @inline(__always)
        private func primitive<T>(_ key: Key, _ body: (Single) throws -> T) throws -> T {
            let found = try value(for: key)
            do {
                return try body(Single(value: found, codingPath: codingPath))
            } catch let error as DecodingError {
                throw MessagePackDecoding.appending(key, to: error)
            }
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let position = index(of: key) else { return true }
            return pairs[position].value == .nil
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let found = try value(for: key)
            return try nested(type, found, key: key, containerPath: codingPath)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
            try primitive(key) { try $0.decode(type) }
        }

        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            try primitive(key) { try $0.decode(type) }
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let position = index(of: key) else { return nil }
            cursor.hint = position + 1
            let found = pairs[position].value
            if found == .nil { return nil }
            return try nested(type, found, key: key, containerPath: codingPath)
        }

        /// `decodeIfPresent` for a scalar in one lookup, with the results of the protocol's default implementation
        /// (`contains`, then `decodeNil`, then `decode`: three lookups): nil for a missing key or a nil value, which
        /// leave the lookup hint where it was.
        @inline(__always)
        private func primitiveIfPresent<T>(_ key: Key, _ body: (Single) throws -> T) throws -> T? {
            guard let position = index(of: key) else { return nil }
            let found = pairs[position].value
            if case .nil = found { return nil }
            cursor.hint = position + 1
            do {
                return try body(Single(value: found, codingPath: codingPath))
            } catch let error as DecodingError {
                throw MessagePackDecoding.appending(key, to: error)
            }
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
            try primitiveIfPresent(key) { try $0.decode(type) }
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try Decoder(value: try value(for: key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try Decoder(value: try value(for: key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Swift.Decoder {
            let position = pairs.firstIndex { $0.key == .string("super") }
            return Decoder(value: position.map { pairs[$0].value } ?? .nil, codingPath: codingPath)
        }

        func superDecoder(forKey key: Key) throws -> any Swift.Decoder {
            Decoder(value: try value(for: key), codingPath: codingPath + [key])
        }
    }

    /// The keyed container's lookup hint; a class because decoding containers are non-mutating.
    final class Cursor {
        var hint = 0
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [MessagePackValue]
        var codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        init(elements: [MessagePackValue], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        private mutating func next(_ type: Any.Type) throws -> (MessagePackValue, [any CodingKey]) {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type, DecodingError.Context(codingPath: codingPath, debugDescription: "array has no more elements")
                )
            }
            let path = codingPath + [MessagePackIndexKey(currentIndex)]
            let element = elements[currentIndex]
            currentIndex += 1
            return (element, path)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .nil else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type, DecodingError.Context(codingPath: codingPath, debugDescription: "array has no more elements")
                )
            }
            let index = currentIndex
            currentIndex += 1
            return try nested(type, elements[index], key: MessagePackIndexKey(index), containerPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            let (element, path) = try next([String: Any].self)
            return try Decoder(value: element, codingPath: path).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (element, path) = try next([Any].self)
            return try Decoder(value: element, codingPath: path).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Swift.Decoder {
            let (element, path) = try next(Any.self)
            return Decoder(value: element, codingPath: path)
        }
    }

    struct Single: SingleValueDecodingContainer {
        let value: MessagePackValue
        var codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .nil }
        func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type, value, codingPath) }
        func decode(_ type: String.Type) throws -> String { try decodeValue(type, value, codingPath) }
        func decode(_ type: Double.Type) throws -> Double { try double(value, codingPath) }
        func decode(_ type: Float.Type) throws -> Float { Float(try double(value, codingPath)) }
        func decode(_ type: Int.Type) throws -> Int { try integer(type, value, codingPath) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type, value, codingPath) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type, value, codingPath) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type, value, codingPath) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type, value, codingPath) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type, value, codingPath) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type, value, codingPath) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type, value, codingPath) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type, value, codingPath) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type, value, codingPath) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type, value, codingPath) }
    }
}
