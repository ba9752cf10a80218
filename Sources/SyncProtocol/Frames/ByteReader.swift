/// Bytes received but not yet decoded, with the stream offset of the first unread byte.
///
/// A driver appends chunks as they arrive and calls `FrameDecoder.decode(_:)` until it returns nil, like NIO's
/// `ByteToMessageDecoder` with its cumulation buffer. Consumed bytes are dropped in amortised O(1).
public struct ByteReader: Sendable {
    private var storage: [UInt8] = []
    private var readerIndex = 0
    /// Stream offset of the first unread byte: how many bytes were consumed since the stream began.
    public private(set) var streamOffset: Int

    /// An empty reader whose first byte will be at `streamOffset` in the stream.
    public init(streamOffset: Int = 0) { self.streamOffset = streamOffset }

    /// A reader holding `bytes`, starting at stream offset 0.
    public init(_ bytes: some Sequence<UInt8>) {
        self.storage = Array(bytes)
        self.streamOffset = 0
    }

    /// How many bytes are buffered and not yet consumed.
    public var readableByteCount: Int { storage.count - readerIndex }

    /// Appends received bytes.
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        compactIfWorthIt()
        storage.append(contentsOf: bytes)
    }

    /// Appends received bytes: the same as the generic `append(contentsOf:)`, which a caller in another module
    /// runs unspecialized (an element at a time through the runtime's generic `Array.append(contentsOf:)`); this
    /// one copies the array's bytes in one go, and none at all when nothing is unread: then the reader holds
    /// `bytes` itself (a reference to the same storage), as for most segments, which carry whole frames.
    public mutating func append(contentsOf bytes: [UInt8]) {
        if storage.isEmpty {
            storage = bytes
            return
        }
        compactIfWorthIt()
        storage.append(contentsOf: bytes)
    }

    /// Drops consumed bytes once they are at least half the storage (amortised O(1) per byte).
    private mutating func compactIfWorthIt() {
        if readerIndex > 0, readerIndex >= storage.count / 2 {
            storage.removeSubrange(0..<readerIndex)
            readerIndex = 0
        }
    }

    /// Calls `body` with the unread bytes (possibly more than `count`), or returns nil when fewer than `count`.
    func withReadableBytes<R>(atLeast count: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard readableByteCount >= count else { return nil }
        return try storage.withUnsafeBytes { raw in
            try body(UnsafeRawBufferPointer(rebasing: raw[readerIndex...]))
        }
    }

    /// Drops `count` unread bytes.
    mutating func consume(_ count: Int) {
        precondition(count <= readableByteCount, "consuming more than is buffered")
        readerIndex += count
        streamOffset += count
        if readerIndex == storage.count {
            // Let go of the storage rather than empty it in place: it is often the caller's array (see
            // `append(contentsOf:)`), and emptying a shared array keeping its capacity allocates a new one.
            storage = []
            readerIndex = 0
        }
    }
}
