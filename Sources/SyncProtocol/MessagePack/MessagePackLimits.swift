/// Bounds a MessagePack decoder enforces on untrusted bytes.
public struct MessagePackLimits: Hashable, Sendable {
    /// The most containers (arrays, maps) that may be open around a value. Deeper input throws `.nestedTooDeeply`.
    ///
    /// At most 32: msgpack-c's C unpacker keeps a fixed stack of `MSGPACK_EMBED_STACK_SIZE` (32) open containers.
    public var maxDepth: Int

    /// The default: 32 open containers (the typed payloads nest 6 deep at most).
    public init(maxDepth: Int = 32) {
        precondition((1...32).contains(maxDepth), "maxDepth must be in 1...32 (msgpack-c's parser stack)")
        self.maxDepth = maxDepth
    }
}
