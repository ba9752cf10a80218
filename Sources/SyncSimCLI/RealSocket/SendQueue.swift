/// The bytes a connection of `syncsim serve` has to write that its socket has not taken yet, oldest first, each
/// chunk (a frame, an HTTP answer, a WebSocket control frame) with an optional tag that is handed back once its last
/// byte was written (the frame log and the summary count a frame when it left, not when it was queued).
///
/// Bytes leave in the order they were queued and whole: a write that takes part of a chunk leaves the rest at the
/// front, so no later chunk can overtake or cut into it. Sans-IO: `drain` hands the bytes to a write function.
struct SendQueue<Tag> {
    private var chunks: [(bytes: [UInt8], tag: Tag?)] = []
    /// Where the first chunk's unwritten bytes start.
    private var offset = 0
    /// Index of the first chunk not written yet (written chunks ahead of it are dropped in batches).
    private var head = 0
    /// How many bytes wait to be written.
    private(set) var byteCount = 0

    /// Whether every queued byte was written.
    var isEmpty: Bool { byteCount == 0 }

    /// Queues `bytes` behind what waits; an empty chunk without a tag is ignored.
    mutating func append(_ bytes: [UInt8], tag: Tag? = nil) {
        guard !bytes.isEmpty || tag != nil else { return }
        chunks.append((bytes, tag))
        byteCount += bytes.count
    }

    /// Writes queued bytes, oldest first, until `write` takes fewer than it was offered (the socket's buffer is
    /// full), fails, or the queue is empty.
    /// - Parameter write: writes the bytes of its array from the offset on; returns how many it wrote (0: none now),
    ///   or nil when the write failed (the queue keeps what was not written).
    /// - Returns: the tags of the chunks whose last byte was written, in order, and whether `write` failed.
    mutating func drain(_ write: ([UInt8], Int) -> Int?) -> (written: [Tag], failed: Bool) {
        var done: [Tag] = []
        defer { compact() }
        while head < chunks.count {
            let chunk = chunks[head].bytes
            if offset < chunk.count {
                guard let written = write(chunk, offset) else { return (done, true) }
                offset += written
                byteCount -= written
                guard offset == chunk.count else { return (done, false) }
            }
            if let tag = chunks[head].tag { done.append(tag) }
            chunks[head] = ([], nil)
            head += 1
            offset = 0
        }
        return (done, false)
    }

    /// Forgets what waits (the connection is closed); returns how many bytes were never written.
    mutating func removeAll() -> Int {
        let dropped = byteCount
        chunks = []
        head = 0
        offset = 0
        byteCount = 0
        return dropped
    }

    private mutating func compact() {
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64 {
            chunks.removeFirst(head)
            head = 0
        }
    }
}
