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
        if readerIndex > 0, readerIndex >= storage.count / 2 {
            storage.removeSubrange(0..<readerIndex)
            readerIndex = 0
        }
        storage.append(contentsOf: bytes)
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
            storage.removeAll(keepingCapacity: true)
            readerIndex = 0
        }
    }
}
