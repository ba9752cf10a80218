extension MessagePackValue {
    /// Decodes exactly one value from `bytes`, checking them first (see `MessagePackScanner`).
    /// - Parameters:
    ///   - bytes: the encoded value, nothing before or after it.
    ///   - limits: nesting bound.
    /// - Throws: `WireError` (`.invalidMessagePack`, `.truncatedMessagePack`, `.nestedTooDeeply`,
    ///   `.countExceedsRemainingBytes`, `.trailingBytes`) whose `offset` is the offending byte in `bytes`.
    public init(messagePack bytes: [UInt8], limits: MessagePackLimits = MessagePackLimits()) throws {
        self = try bytes.withUnsafeBytes { try MessagePackValue(messagePack: $0, limits: limits) }
    }

    /// Decodes exactly one value from raw bytes; see `init(messagePack:limits:)`.
    /// - Throws: `WireError` naming the offending byte's offset in `bytes`.
    public init(messagePack bytes: UnsafeRawBufferPointer, limits: MessagePackLimits = MessagePackLimits()) throws {
        try self.init(messagePack: bytes, limits: limits, unpacker: nil)
    }

    /// Decodes exactly one value from raw bytes with `unpacker`'s key cache (a fresh one when nil).
    /// - Throws: `WireError` naming the offending byte's offset in `bytes`.
    init(
        messagePack bytes: UnsafeRawBufferPointer, limits: MessagePackLimits,
        unpacker: MessagePackSerialization.Unpacker?
    ) throws {
        do {
            if let unpacker {
                self = try unpacker.unpack(bytes, limits: limits)
            } else {
                self = try MessagePackSerialization.unpack(bytes, limits: limits)
            }
        } catch is MessagePackSerialization.InvalidUTF8 {
            // Rare: scan again, checking strings, to name the bad string's offset.
            _ = try MessagePackScanner.scan(bytes, limits: limits, validatesUTF8: true)
            throw WireError(.invalidMessagePack, offset: 0, detail: "a string is not valid UTF-8", payloadOffset: 0)
        }
    }

    /// The value encoded as MessagePack, each integer, string, container and timestamp in its shortest form.
    ///
    /// `.int` of a non-negative number packs as an unsigned integer (so it decodes back as `.uint`).
    public func messagePackBytes() -> [UInt8] { MessagePackSerialization.pack(self) }
}
