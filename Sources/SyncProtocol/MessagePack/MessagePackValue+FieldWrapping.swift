/// The field's wrapped values: the official clients and server wrap 64-bit ids and times in MessagePack extension
/// type 1, whose data is itself one MessagePack value (PyMax 2.5.0 `pymax/protocol/tcp/payload.py`,
/// `MsgpackPayloadCodec.WRAPPED_VALUE_EXT_CODE = 1`, which `_decode_ext` unpacks as MessagePack, recursively), and a
/// map may be keyed by integers, which PyMax reads as their decimal strings (`TcpPayloadDecoder._normalize_key`).
extension MessagePackValue {
    /// The extension type that wraps a value (PyMax 2.5.0 `WRAPPED_VALUE_EXT_CODE`).
    public static let wrappedValueExtType: Int8 = 1

    /// How many wrappings inside wrappings are unwrapped; a deeper one is left as its extension value.
    static let maxWrappingDepth = 8

    /// The value as the typed model reads it: every extension-1 value replaced by the value its data encodes, and
    /// every integer map key by its decimal string; nil when the value holds neither (so callers keep their value
    /// as it is). An extension-1 value whose data is not exactly one MessagePack value is left as it is.
    public func unwrappingFieldWrapping() -> MessagePackValue? { unwrapped(depth: 0) }

    private func unwrapped(depth: Int) -> MessagePackValue? {
        switch self {
        case .ext(let type, let data) where type == Self.wrappedValueExtType && depth < Self.maxWrappingDepth:
            guard let inner = try? MessagePackValue(messagePack: data) else { return nil }
            return inner.unwrapped(depth: depth + 1) ?? inner
        case .array(let elements):
            var changed = false
            let result = elements.map { element -> MessagePackValue in
                guard let unwrapped = element.unwrapped(depth: depth) else { return element }
                changed = true
                return unwrapped
            }
            return changed ? .array(result) : nil
        case .map(let pairs):
            var changed = false
            let result = pairs.map { pair -> MessagePackPair in
                var key = pair.key
                switch pair.key {
                case .int(let number): key = .string(String(number))
                case .uint(let number): key = .string(String(number))
                default: break
                }
                if key != pair.key { changed = true }
                guard let value = pair.value.unwrapped(depth: depth) else { return MessagePackPair(key, pair.value) }
                changed = true
                return MessagePackPair(key, value)
            }
            return changed ? .map(result) : nil
        default:
            return nil
        }
    }
}
