import SyncProtocol

/// One chat's history cache: cached messages plus a sorted list of disjoint chunks.
///
/// Invariants (`checkInvariants()`): chunks are sorted, disjoint and non-empty; each chunk's bounds are cached
/// messages; every cached message lies in exactly one chunk. Two chunks are merged only when a page overlaps both
/// (shares a message id with each), since ids are sparse and adjacency of ids proves nothing.
/// - Complexity: a page insertion is O(n) in the number of cached messages (sorted array insertions).
public struct ChunkStore: Hashable, Sendable {
    /// The chunks, ascending by id.
    public private(set) var chunks: [Chunk] = []
    /// Cached message ids, ascending.
    public private(set) var messageIds: [Int64] = []
    private var messagesById: [Int64: ChatMessage] = [:]

    /// An empty cache: no chunks, no messages.
    public init() {}

    /// A cached message by id.
    public func message(id: Int64) -> ChatMessage? { messagesById[id] }

    /// Every cached message in id order.
    public var messages: [ChatMessage] { messageIds.map { messagesById[$0]! } }

    /// The newest chunk (the one at the top of the chat), if any.
    public var topChunk: Chunk? { chunks.last }

    /// The chunk containing `id` in its range, if any.
    public func chunk(containing id: Int64) -> Chunk? {
        chunks.first { $0.lower <= id && id <= $0.upper }
    }

    /// Cached message ids of a chunk, ascending.
    public func messageIds(in chunk: Chunk) -> ArraySlice<Int64> {
        // Ids come from the server: the upper bound may be Int64.max, so no `upper + 1`.
        let end = chunk.upper == .max ? messageIds.count : index(ofFirstAtOrAbove: chunk.upper + 1)
        return messageIds[index(ofFirstAtOrAbove: chunk.lower)..<end]
    }

    /// Inserts a page of messages the server returned as one contiguous run.
    ///
    /// A broken or malicious server may send anything, and the cache must stay sound: the page is sorted by id
    /// first (a repeated id keeps its last copy), and only the oldest chunk may be the start of history (a
    /// "start" page above cached older messages, or a message below a start chunk, clears the claim).
    /// - Parameters:
    ///   - page: messages, normally in ascending id order (a CHAT_HISTORY response); an empty page changes nothing.
    ///   - isStartOfHistory: true when the page reached the oldest message of the chat.
    ///   - skipsBridge: the `merge-skips-bridge` mutant: when the page bridges chunks, the bridging messages in the
    ///     gap are not cached although the chunks merge.
    public mutating func insertPage(_ page: [ChatMessage], isStartOfHistory: Bool, skipsBridge: Bool = false) {
        let page = Self.sortedUnique(page)
        guard let first = page.first?.id, let last = page.last?.id else { return }
        let overlapping = chunks.indices.filter { chunks[$0].overlaps(first, last) }
        var merged = Chunk(lower: first, upper: last, isStartOfHistory: isStartOfHistory)
        for index in overlapping {
            merged.lower = min(merged.lower, chunks[index].lower)
            merged.upper = max(merged.upper, chunks[index].upper)
        }
        merged.isStartOfHistory = (isStartOfHistory && first == merged.lower)
            || overlapping.contains { chunks[$0].lower == merged.lower && chunks[$0].isStartOfHistory }
        var bridgeGaps: [(Int64, Int64)] = []
        if skipsBridge, overlapping.count >= 2 {
            for (a, b) in zip(overlapping, overlapping.dropFirst()) {
                bridgeGaps.append((chunks[a].upper, chunks[b].lower))
            }
        }
        for index in overlapping.reversed() { chunks.remove(at: index) }
        chunks.insert(merged, at: chunks.firstIndex { $0.lower > merged.lower } ?? chunks.count)
        for index in chunks.indices.dropFirst() where chunks[index].isStartOfHistory {
            chunks[index].isStartOfHistory = false
        }
        for message in page where !bridgeGaps.contains(where: { $0.0 < message.id && message.id < $0.1 }) {
            store(message)
        }
    }

    /// Inserts one message known on its own (a push, a send acknowledgement, a chat-list entry's last message).
    ///
    /// A message inside a chunk's range just updates the cache; otherwise it opens a new chunk of its own with a gap
    /// of unknown size below (and above, unless it is the newest).
    /// - Parameter extendsTopChunk: the `gap-ignored-after-login` mutant: a message above the top chunk extends it,
    ///   as if nothing could lie in between.
    public mutating func insertSingle(_ message: ChatMessage, extendsTopChunk: Bool = false) {
        if chunk(containing: message.id) != nil {
            store(message)
            return
        }
        if extendsTopChunk, let top = chunks.last, top.upper < message.id {
            chunks[chunks.count - 1].upper = message.id
        } else {
            insertPage([message], isStartOfHistory: false)
            return
        }
        store(message)
    }

    /// Drops every chunk and message (the user cleared the cache).
    public mutating func removeAll() {
        chunks = []
        messageIds = []
        messagesById = [:]
    }

    /// Restores a store from persisted rows; rows need not be sorted.
    init(chunks: [Chunk], messages: [ChatMessage]) {
        self.chunks = chunks.sorted { $0.lower < $1.lower }
        for message in messages { messagesById[message.id] = message }
        messageIds = messagesById.keys.sorted()
    }

    /// Every broken invariant, described; empty when the store is sound.
    public func invariantViolations() -> [String] {
        var problems: [String] = []
        for (index, chunk) in chunks.enumerated() {
            if chunk.lower > chunk.upper { problems.append("chunk \(chunk) is empty") }
            if index > 0, chunks[index - 1].upper >= chunk.lower {
                problems.append("chunks \(chunks[index - 1]) and \(chunk) are unsorted or overlap")
            }
            if messagesById[chunk.lower] == nil || messagesById[chunk.upper] == nil {
                problems.append("chunk \(chunk) has a bound that is not cached")
            }
            if chunk.isStartOfHistory && index != 0 { problems.append("start-of-history chunk \(chunk) is not first") }
        }
        for id in messageIds where chunk(containing: id) == nil {
            problems.append("cached message \(id) lies in no chunk")
        }
        if messageIds != messageIds.sorted() || Set(messageIds).count != messageIds.count {
            problems.append("message ids are not sorted and unique")
        }
        return problems
    }

    /// Stops with a description of the first broken invariant (a programmer error), like swift-collections.
    public func checkInvariants() {
        let problems = invariantViolations()
        precondition(problems.isEmpty, "ChunkStore invariant broken: \(problems.joined(separator: "; "))")
    }

    private mutating func store(_ message: ChatMessage) {
        if messagesById.updateValue(message, forKey: message.id) == nil {
            messageIds.insert(message.id, at: index(ofFirstAtOrAbove: message.id))
        }
    }

    /// The page in ascending id order with one message per id (the last copy wins, as `store` would keep it).
    private static func sortedUnique(_ page: [ChatMessage]) -> [ChatMessage] {
        guard zip(page, page.dropFirst()).contains(where: { $0.id >= $1.id }) else { return page }
        var lastCopy: [Int64: ChatMessage] = [:]
        for message in page { lastCopy[message.id] = message }
        return lastCopy.keys.sorted().map { lastCopy[$0]! }
    }

    private func index(ofFirstAtOrAbove id: Int64) -> Int {
        var low = 0
        var high = messageIds.count
        while low < high {
            let mid = (low + high) / 2
            if messageIds[mid] < id { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
