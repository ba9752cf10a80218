/// Encodes `Encodable` values as `MessagePackValue`s: structs become maps in the order their keys are encoded.
///
/// Signed integers encode as `.uint` when non-negative and `.int` when negative (the shortest wire form either way),
/// unsigned ones as `.uint`, `Float` as `.float`, `Double` as `.double`. Optionals encoded with `encodeIfPresent`
/// (what synthesized `Codable` does) are omitted from the map when nil.
public struct MessagePackEncoder: Sendable {
    /// An encoder; it holds no options.
    public init() {}

    /// Encodes `value`.
    /// - Returns: the value tree; a type that encodes nothing gives an empty map.
    /// - Throws: whatever `value.encode(to:)` throws (this encoder itself never fails).
    public func encode(_ value: some Encodable) throws -> MessagePackValue {
        if let direct = MessagePackEncodingNode.primitive(value) { return direct }
        let node = MessagePackEncodingNode()
        try value.encode(to: MessagePackEncodingNode.Encoder(node: node, codingPath: []))
        return node.finish()
    }
}

/// A value under construction; a class so nested containers can fill it after they are handed out.
final class MessagePackEncodingNode {
    enum Slot {
        case value(MessagePackValue)
        case node(MessagePackEncodingNode)

        func finish() -> MessagePackValue {
            switch self {
            case .value(let value): value
            case .node(let node): node.finish()
            }
        }
    }

    enum Content {
        case none
        case single(Slot)
        case keyed(keys: [String], slots: [Slot])
        case unkeyed([Slot])
    }

    var content: Content = .none

    func finish() -> MessagePackValue {
        switch content {
        case .none: .map([])
        case .single(let slot): slot.finish()
        case .keyed(let keys, let slots):
            .map(zip(keys, slots).map { MessagePackPair(.string($0), $1.finish()) })
        case .unkeyed(let slots): .array(slots.map { $0.finish() })
        }
    }

    func setKeyed(_ key: String, _ slot: Slot) {
        guard case .keyed(var keys, var slots) = content else {
            content = .keyed(keys: [key], slots: [slot])
            return
        }
        content = .none
        if let existing = keys.firstIndex(of: key) {
            slots[existing] = slot
        } else {
            keys.append(key)
            slots.append(slot)
        }
        content = .keyed(keys: keys, slots: slots)
    }

    func appendUnkeyed(_ slot: Slot) {
        guard case .unkeyed(var slots) = content else {
            content = .unkeyed([slot])
            return
        }
        content = .none
        slots.append(slot)
        content = .unkeyed(slots)
    }

    var unkeyedCount: Int {
        if case .unkeyed(let slots) = content { return slots.count }
        return 0
    }

    /// The value of a type the format knows directly, or nil for anything that encodes itself.
    static func primitive(_ value: some Encodable) -> MessagePackValue? {
        switch value {
        case let value as String: .string(value)
        case let value as Int64: value < 0 ? .int(value) : .uint(UInt64(value))
        case let value as Int: value < 0 ? .int(Int64(value)) : .uint(UInt64(value))
        case let value as Bool: .bool(value)
        case let value as Double: .double(value)
        case let value as Float: .float(value)
        case let value as UInt64: .uint(value)
        case let value as MessagePackValue: value
        default: nil
        }
    }

    /// Encodes any value into a slot: primitives directly, others through a child node.
    static func slot(for value: some Encodable, codingPath: [any CodingKey]) throws -> Slot {
        if let direct = primitive(value) { return .value(direct) }
        let child = MessagePackEncodingNode()
        try value.encode(to: Encoder(node: child, codingPath: codingPath))
        return .node(child)
    }

    static func signed(_ value: some BinaryInteger) -> MessagePackValue {
        value < 0 ? .int(Int64(value)) : .uint(UInt64(value))
    }

    struct Encoder: Swift.Encoder {
        let node: MessagePackEncodingNode
        var codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .keyed = node.content {} else { node.content = .keyed(keys: [], slots: []) }
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node, codingPath: codingPath)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: MessagePackEncodingNode
        var codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { node.setKeyed(key.stringValue, .value(.nil)) }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(.bool(value)))
        }
        mutating func encode(_ value: String, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(.string(value)))
        }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(.double(value)))
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(.float(value)))
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(signed(value)))
        }
        mutating func encode(_ value: Int8, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(signed(value)))
        }
        mutating func encode(_ value: Int16, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(signed(value)))
        }
        mutating func encode(_ value: Int32, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(signed(value)))
        }
        mutating func encode(_ value: Int64, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(signed(value)))
        }
        mutating func encode(_ value: UInt, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(.uint(UInt64(value))))
        }
        mutating func encode(_ value: UInt8, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(.uint(UInt64(value))))
        }
        mutating func encode(_ value: UInt16, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(.uint(UInt64(value))))
        }
        mutating func encode(_ value: UInt32, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(.uint(UInt64(value))))
        }
        mutating func encode(_ value: UInt64, forKey key: Key) throws {
            node.setKeyed(key.stringValue, .value(.uint(value)))
        }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            node.setKeyed(key.stringValue, try slot(for: value, codingPath: codingPath + [key]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = MessagePackEncodingNode()
            node.setKeyed(key.stringValue, .node(child))
            return Encoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = MessagePackEncodingNode()
            node.setKeyed(key.stringValue, .node(child))
            return Encoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Swift.Encoder {
            let child = MessagePackEncodingNode()
            node.setKeyed("super", .node(child))
            return Encoder(node: child, codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Swift.Encoder {
            let child = MessagePackEncodingNode()
            node.setKeyed(key.stringValue, .node(child))
            return Encoder(node: child, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: MessagePackEncodingNode
        var codingPath: [any CodingKey]
        var count: Int { node.unkeyedCount }

        mutating func encodeNil() throws { node.appendUnkeyed(.value(.nil)) }
        mutating func encode(_ value: Bool) throws { node.appendUnkeyed(.value(.bool(value))) }
        mutating func encode(_ value: String) throws { node.appendUnkeyed(.value(.string(value))) }
        mutating func encode(_ value: Double) throws { node.appendUnkeyed(.value(.double(value))) }
        mutating func encode(_ value: Float) throws { node.appendUnkeyed(.value(.float(value))) }
        mutating func encode(_ value: Int) throws { node.appendUnkeyed(.value(signed(value))) }
        mutating func encode(_ value: Int64) throws { node.appendUnkeyed(.value(signed(value))) }
        mutating func encode(_ value: UInt64) throws { node.appendUnkeyed(.value(.uint(value))) }
        mutating func encode(_ value: some Encodable) throws {
            node.appendUnkeyed(try slot(for: value, codingPath: codingPath + [MessagePackIndexKey(count)]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = MessagePackEncodingNode()
            let path = codingPath + [MessagePackIndexKey(count)]
            node.appendUnkeyed(.node(child))
            return Encoder(node: child, codingPath: path).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = MessagePackEncodingNode()
            let path = codingPath + [MessagePackIndexKey(count)]
            node.appendUnkeyed(.node(child))
            return Encoder(node: child, codingPath: path).unkeyedContainer()
        }

        mutating func superEncoder() -> any Swift.Encoder {
            let child = MessagePackEncodingNode()
            let path = codingPath + [MessagePackIndexKey(count)]
            node.appendUnkeyed(.node(child))
            return Encoder(node: child, codingPath: path)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: MessagePackEncodingNode
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.content = .single(.value(.nil)) }
        mutating func encode(_ value: Bool) throws { node.content = .single(.value(.bool(value))) }
        mutating func encode(_ value: String) throws { node.content = .single(.value(.string(value))) }
        mutating func encode(_ value: Double) throws { node.content = .single(.value(.double(value))) }
        mutating func encode(_ value: Float) throws { node.content = .single(.value(.float(value))) }
        mutating func encode(_ value: Int) throws { node.content = .single(.value(signed(value))) }
        mutating func encode(_ value: Int8) throws { node.content = .single(.value(signed(value))) }
        mutating func encode(_ value: Int16) throws { node.content = .single(.value(signed(value))) }
        mutating func encode(_ value: Int32) throws { node.content = .single(.value(signed(value))) }
        mutating func encode(_ value: Int64) throws { node.content = .single(.value(signed(value))) }
        mutating func encode(_ value: UInt) throws { node.content = .single(.value(.uint(UInt64(value)))) }
        mutating func encode(_ value: UInt8) throws { node.content = .single(.value(.uint(UInt64(value)))) }
        mutating func encode(_ value: UInt16) throws { node.content = .single(.value(.uint(UInt64(value)))) }
        mutating func encode(_ value: UInt32) throws { node.content = .single(.value(.uint(UInt64(value)))) }
        mutating func encode(_ value: UInt64) throws { node.content = .single(.value(.uint(value))) }
        mutating func encode(_ value: some Encodable) throws {
            node.content = .single(try slot(for: value, codingPath: codingPath))
        }
    }
}
