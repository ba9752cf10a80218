/// A coding key named at run time: a map key the model reads by name it only knows then (an attachment's untyped
/// keys, a quality key such as `MP4_720`, a map keyed by ids written as decimal strings). An integer key reads as
/// its decimal string.
struct NamedKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
}

extension KeyedEncodingContainer {
    /// Writes `map` under `key` as a map with its keys in ascending order (no dictionary order reaches the wire);
    /// writes nothing for an empty map (the key is then absent, as for a nil optional).
    /// - Throws: what the nested container's `encode` throws.
    mutating func encodeInKeyOrder(_ map: [String: Bool], forKey key: Key) throws {
        guard !map.isEmpty else { return }
        var nested = nestedContainer(keyedBy: NamedKey.self, forKey: key)
        for name in map.keys.sorted() { try nested.encode(map[name]!, forKey: NamedKey(name)) }
    }
}
