/// Named parameters of a client engine or the server, in the order they were written.
///
/// Keys are the engine's own (`"historyPageSize"`, `"requestTimeout"`); the world hands them to the engine,
/// which rejects the ones it does not know. Written as a dictionary literal:
/// `parameters: ["historyPageSize": 30, "requestTimeout": .duration(.seconds(20))]`. A key given twice keeps its
/// last value at its first position, so the order (and so every printout and digest) is the source order.
public struct ParameterSet: Hashable, Sendable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// The parameters as (key, value) pairs, each key once, in source order.
    public private(set) var entries: [Entry]

    /// One named parameter.
    public struct Entry: Hashable, Sendable {
        /// The parameter's name.
        public var key: String
        /// Its value.
        public var value: ParameterValue
    }

    /// An empty parameter set.
    public init() { entries = [] }

    /// Collects the pairs in source order; a key given twice keeps its last value at its first position.
    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        entries = []
        for (key, value) in elements { self[key] = value }
    }

    /// The value of `key`, or nil; setting nil removes it.
    public subscript(key: String) -> ParameterValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(key: key, value: newValue))
            }
        }
    }

    /// Whether no parameter is set.
    public var isEmpty: Bool { entries.isEmpty }

    /// `key=value` pairs joined by commas, in source order.
    public var description: String { entries.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
}
