import SimCore
import Synchronization
import SyncProtocol

/// One chat's history cache: cached messages plus a sorted list of disjoint chunks.
///
/// Invariants (`checkInvariants()`): chunks are sorted, disjoint and non-empty; each chunk's bounds are cached
/// messages; every cached message lies in exactly one chunk. Two chunks are merged only when a page overlaps both
/// (shares a message id with each), since ids are sparse and adjacency of ids proves nothing.
///
/// Edits and deletes apply whatever their arrival order: a message is replaced only by a newer version (larger
/// `updateTime`), and a removal for a message not cached yet is kept as a tombstone until the message arrives,
/// which it then removes (invariant C7).
/// - Complexity: a page insertion is O(n) in the number of cached messages (sorted array insertions).
public struct ChunkStore: Hashable, Sendable {
    /// The store's parts, in one copy-on-write box: a copy of a store (a read of it out of a table of stores, a view
    /// the checks take) retains one object instead of each of its five collections and its lineage, whose headers
    /// were cold memory on every event at thousands of clients. Every write goes through the properties below,
    /// which first give this store a box of its own when another copy shares it (`makeBoxUnique`).
    private final class Parts: @unchecked Sendable {
        // Reached only through the store's properties, from one thread; their accesses never overlap (they were a
        // struct's stored properties, checked statically), so the dynamic exclusivity checks are off.
        @exclusivity(unchecked) var chunks: [Chunk] = []
        @exclusivity(unchecked) var messageIds: [Int64] = []
        @exclusivity(unchecked) var storedMessages: [ChatMessage] = []
        @exclusivity(unchecked) var tombstones: [Int64: Int64] = [:]
        @exclusivity(unchecked) var pendingEdits: [Int64: ChatMessage] = [:]
        @exclusivity(unchecked) var lineage = Lineage()
        @exclusivity(unchecked) var additions = 0
        @exclusivity(unchecked) var chunksAreOrdered = true

        init() {}

        init(copying other: Parts) {
            chunks = other.chunks
            messageIds = other.messageIds
            storedMessages = other.storedMessages
            tombstones = other.tombstones
            pendingEdits = other.pendingEdits
            lineage = other.lineage
            additions = other.additions
            chunksAreOrdered = other.chunksAreOrdered
        }
    }

    private var box = Parts()

    /// Gives this store a box no other copy shares, before a write.
    private mutating func makeBoxUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Parts(copying: box) }
    }

    /// The chunks, ascending by id.
    public private(set) var chunks: [Chunk] {
        get { box.chunks }
        set { makeBoxUnique(); box.chunks = newValue }
        _modify { makeBoxUnique(); yield &box.chunks }
    }
    /// Cached message ids, ascending.
    public private(set) var messageIds: [Int64] {
        get { box.messageIds }
        set { makeBoxUnique(); box.messageIds = newValue }
        _modify { makeBoxUnique(); yield &box.messageIds }
    }
    /// The cached messages, in the order of `messageIds` (a push lands at the top: an append). An array beside the
    /// ids rather than a dictionary by id: half the memory, and no hashing per message stored.
    private var storedMessages: [ChatMessage] {
        get { box.storedMessages }
        set { makeBoxUnique(); box.storedMessages = newValue }
        _modify { makeBoxUnique(); yield &box.storedMessages }
    }
    /// Removals of messages not cached yet: message id -> the removal's `updateTime`.
    public private(set) var tombstones: [Int64: Int64] {
        get { box.tombstones }
        set { makeBoxUnique(); box.tombstones = newValue }
        _modify { makeBoxUnique(); yield &box.tombstones }
    }
    /// Edited versions of messages not cached yet, by message id: applied when the message arrives in an older
    /// version. Persisted with the cache, as tombstones are.
    public private(set) var pendingEdits: [Int64: ChatMessage] {
        get { box.pendingEdits }
        set { makeBoxUnique(); box.pendingEdits = newValue }
        _modify { makeBoxUnique(); yield &box.pendingEdits }
    }
    /// The line of growth this store is on, and how far along it (see `Checkpoint`). Not part of the value: two
    /// stores with the same chunks, messages, tombstones and pending edits are equal whatever their lineage.
    private var lineage: Lineage {
        get { box.lineage }
        set { makeBoxUnique(); box.lineage = newValue }
    }
    private var additions: Int {
        get { box.additions }
        set { makeBoxUnique(); box.additions = newValue }
    }
    /// Whether `chunks` are sorted, disjoint and non-empty and none after the first claims the start of history (the
    /// chunk invariants): then the last chunk's upper bound is the highest, and a push above it opens a chunk at the
    /// top without a walk over every chunk. Set again by each change of `chunks`; derived from them, so not part of
    /// the value.
    private var chunksAreOrdered: Bool {
        get { box.chunksAreOrdered }
        set { makeBoxUnique(); box.chunksAreOrdered = newValue }
    }

    /// An empty cache: no chunks, no messages.
    public init() {}

    public static func == (lhs: ChunkStore, rhs: ChunkStore) -> Bool {
        lhs.chunks == rhs.chunks && lhs.messageIds == rhs.messageIds && lhs.storedMessages == rhs.storedMessages
            && lhs.tombstones == rhs.tombstones && lhs.pendingEdits == rhs.pendingEdits
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(chunks)
        hasher.combine(messageIds)
        hasher.combine(storedMessages)
        hasher.combine(tombstones)
        hasher.combine(pendingEdits)
    }

    /// A line of growth: copies of a store share it; the copy that grows at its tip moves the tip on, any other
    /// copy that grows starts a line of its own, and a change that is not growth starts a new one too. So a
    /// (lineage, additions) pair names one content, and a later pair on the same line names that content grown.
    final class Lineage: Sendable {
        /// The additions count of the newest store on this line.
        let tip = Atomic<Int>(0)
    }

    /// What a checker keeps of a store to tell later, without holding the store's storage (which would make the
    /// engine's next insert copy the whole message table), whether a store is this one unchanged or grown from it.
    ///
    /// Growth is: caching messages under ids not cached before (anywhere), changing the newest chunk, adding chunks
    /// above it, and changing tombstones or pending edits. Anything else (a cached message changed or removed, an
    /// older chunk changed, moved or removed, `removeAll`, a store restored from rows) is not growth.
    public struct Checkpoint: Sendable {
        fileprivate let lineage: Lineage
        fileprivate let additions: Int
        /// How many messages were cached, the newest cached id, and the chunks' count and newest chunk.
        public let messageCount: Int
        public let newestId: Int64?
        public let chunkCount: Int
        public let topChunk: Chunk?
        public let tombstones: [Int64: Int64]
        public let pendingEdits: [Int64: ChatMessage]
    }

    /// This store's checkpoint.
    public var checkpoint: Checkpoint {
        Checkpoint(lineage: lineage, additions: additions, messageCount: messageIds.count, newestId: messageIds.last,
                   chunkCount: chunks.count, topChunk: chunks.last, tombstones: tombstones,
                   pendingEdits: pendingEdits)
    }

    /// Whether this store is `checkpoint`'s store with no change since, or grown from it (see `Checkpoint`): then
    /// every message cached then is cached now unchanged, and every chunk then but the newest is at its place
    /// unchanged. False says nothing (the store may still equal it, for example one restored from its rows).
    /// - Complexity: O(1).
    public func hasOnlyGrown(since checkpoint: Checkpoint) -> Bool {
        lineage === checkpoint.lineage && additions >= checkpoint.additions
    }

    /// Whether this store is `checkpoint`'s store with no change at all since. False says nothing (as above).
    public func isUnchanged(since checkpoint: Checkpoint) -> Bool {
        lineage === checkpoint.lineage && additions == checkpoint.additions && tombstones == checkpoint.tombstones
            && pendingEdits == checkpoint.pendingEdits
    }

    /// What the client's store keeps of the chunks it last wrote, to tell which of a later store's chunks may differ
    /// (`firstChunkChanged(since:)`): the growth line (see `Checkpoint`), without the tombstones and pending edits a
    /// checkpoint copies.
    struct ChunkMark {
        fileprivate let lineage: Lineage
        fileprivate let additions: Int
        /// How many chunks there were, and the newest of them.
        let chunkCount: Int
        let topChunk: Chunk?
    }

    /// This store's chunk mark.
    var chunkMark: ChunkMark {
        ChunkMark(lineage: lineage, additions: additions, chunkCount: chunks.count, topChunk: chunks.last)
    }

    /// The index of the first chunk that may differ from `mark`'s store's, when this store is that store grown (see
    /// `Checkpoint`): every chunk below it is the same chunk at the same place. Nil when that is not known.
    /// - Complexity: O(1).
    func firstChunkChanged(since mark: ChunkMark) -> Int? {
        guard lineage === mark.lineage && additions >= mark.additions else { return nil }
        return max(0, mark.chunkCount - 1)
    }

    /// Marks a growth step (see `Checkpoint`).
    private mutating func grow() {
        if lineage.tip.compareExchange(expected: additions, desired: additions + 1, ordering: .relaxed).exchanged {
            additions += 1
        } else {
            // An older copy grows: a line of its own.
            lineage = Lineage()
            lineage.tip.store(1, ordering: .relaxed)
            additions = 1
        }
    }

    /// Marks a change that is not growth.
    private mutating func renew() {
        lineage = Lineage()
        additions = 0
    }

    /// A cached message by id.
    public func message(id: Int64) -> ChatMessage? {
        guard let index = position(of: id) else { return nil }
        return storedMessages[index]
    }

    /// Whether message `id` is cached: `message(id:) != nil` without copying the message out.
    /// - Complexity: O(log n); O(1) for the newest id and above.
    public func containsMessage(id: Int64) -> Bool { position(of: id) != nil }

    /// Every cached message in id order.
    public var messages: [ChatMessage] { storedMessages }

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
    public mutating func insertPage(_ page: [ChatMessage], isStartOfHistory: Bool) {
        let page = Self.sortedUnique(page)
        guard let first = page.first?.id, let last = page.last?.id else { return }
        // Growth (see `Checkpoint`) changes no chunk below the newest.
        let newest = chunks.count - 1
        let overlapping = chunks.indices.filter { chunks[$0].overlaps(first, last) }
        var merged = Chunk(lower: first, upper: last, isStartOfHistory: isStartOfHistory)
        for index in overlapping {
            merged.lower = min(merged.lower, chunks[index].lower)
            merged.upper = max(merged.upper, chunks[index].upper)
        }
        merged.isStartOfHistory = (isStartOfHistory && first == merged.lower)
            || overlapping.contains { chunks[$0].lower == merged.lower && chunks[$0].isStartOfHistory }
        for index in overlapping.reversed() { chunks.remove(at: index) }
        let position = chunks.firstIndex { $0.lower > merged.lower } ?? chunks.count
        chunks.insert(merged, at: position)
        var lowestChanged = min(overlapping.first ?? position, position)
        for index in chunks.indices.dropFirst() where chunks[index].isStartOfHistory {
            chunks[index].isStartOfHistory = false
            lowestChanged = min(lowestChanged, index)
        }
        chunksAreOrdered = Self.areOrdered(chunks)
        if lowestChanged < newest { renew() } else { grow() }
        for message in page { store(message) }
    }

    /// Inserts one message known on its own (a push, a send acknowledgement, a chat-list entry's last message).
    ///
    /// A message inside a chunk's range just updates the cache; otherwise it opens a new chunk of its own with a gap
    /// of unknown size below (and above, unless it is the newest).
    public mutating func insertSingle(_ message: ChatMessage) {
        if opensChunkAtTop(message.id) {
            // What `insertPage([message], isStartOfHistory: false)` does when no chunk reaches `id` and none but the
            // first is a start: a chunk of its own appended at the top, growth. A push lands there; the general path
            // took four passes over the chunks and an array per push, work that grew with the chat's history.
            chunks.append(Chunk(lower: message.id, upper: message.id, isStartOfHistory: false))
            grow()
            store(message)
            return
        }
        if chunk(containing: message.id) != nil {
            store(message)
            return
        }
        insertPage([message], isStartOfHistory: false)
    }

    /// Whether every chunk lies wholly below `id` and no chunk after the first claims the start of history: then
    /// `id` opens a chunk of its own above all of them. On ordered chunks (`chunksAreOrdered`) that is the last
    /// chunk's upper bound below `id`: a push used to walk every chunk of its chat, and a chat gains a chunk per
    /// push, so the walk grew with the run (a quarter of the chat's misses per push at the end of an hour). Chunks
    /// that are not ordered (a store restored from broken rows) get one pass checking what `insertPage` would look
    /// at, and take the general path.
    private func opensChunkAtTop(_ id: Int64) -> Bool {
        if chunksAreOrdered { return chunks.last.map { $0.upper < id } ?? true }
        return chunks.withUnsafeBufferPointer { chunks in
            for index in chunks.indices {
                let chunk = chunks[index]
                if chunk.upper >= id || chunk.lower > id || (index > 0 && chunk.isStartOfHistory) { return false }
            }
            return true
        }
    }

    /// Whether `chunks` keep the chunk invariants that `opensChunkAtTop` relies on (see `chunksAreOrdered`).
    private static func areOrdered(_ chunks: [Chunk]) -> Bool {
        chunks.withUnsafeBufferPointer { chunks in
            for index in chunks.indices {
                let chunk = chunks[index]
                if chunk.lower > chunk.upper || (index > 0 && (chunk.isStartOfHistory
                    || chunks[index - 1].upper >= chunk.lower)) { return false }
            }
            return true
        }
    }

    /// Drops every chunk and message (the user cleared the cache).
    public mutating func removeAll() {
        renew()
        chunksAreOrdered = true
        chunks = []
        messageIds = []
        storedMessages = []
        tombstones = [:]
        pendingEdits = [:]
    }

    /// Applies a removal (NOTIF_MSG_DELETE) at server time `updateTime`: a cached message becomes a `REMOVED`
    /// tombstone message unless it is already newer; an uncached one leaves a tombstone until it arrives.
    /// - Parameter keepsTombstone: false for the `removal-before-message-lost` mutant, which forgets a removal of a
    ///   message it has not cached.
    /// - Returns: whether the cache changed.
    @discardableResult
    public mutating func applyRemoval(messageId: Int64, updateTime: Int64, keepsTombstone: Bool = true) -> Bool {
        guard let index = position(of: messageId) else {
            if keepsTombstone { tombstones[messageId] = max(tombstones[messageId] ?? .min, updateTime) }
            return false
        }
        let cached = storedMessages[index]
        guard cached.version < updateTime else { return false }
        storedMessages[index] = Self.removed(cached, at: updateTime)
        renew()
        return true
    }

    /// Applies an edited (or removed) version of a message pushed on its own (NOTIF_MESSAGE with a `status`):
    /// a cached message takes it if it is newer; an uncached one waits in `pendingEdits` until the message arrives.
    /// - Parameter keepsTombstone: false for the `removal-before-message-lost` mutant.
    /// - Returns: whether the cache changed.
    @discardableResult
    public mutating func applyChange(_ message: ChatMessage, keepsTombstone: Bool = true) -> Bool {
        guard let cached = self.message(id: message.id) else {
            guard keepsTombstone else { return false }
            if message.isRemoved {
                tombstones[message.id] = max(tombstones[message.id] ?? .min, message.version)
            } else if (pendingEdits[message.id]?.version ?? .min) < message.version {
                pendingEdits[message.id] = message
            }
            return false
        }
        guard cached.version < message.version else { return false }
        store(message)
        return true
    }

    /// `message` as removed at `updateTime`: empty text, no attachments, `status` REMOVED.
    static func removed(_ message: ChatMessage, at updateTime: Int64) -> ChatMessage {
        var removed = message
        removed.text = ""
        removed.elements = []
        removed.attaches = nil
        removed.status = ChatMessage.removed
        removed.updateTime = updateTime
        return removed
    }

    /// Restores a store from persisted rows; rows need not be sorted.
    init(
        chunks: [Chunk], messages: [ChatMessage], tombstones: [Int64: Int64] = [:],
        pendingEdits: [Int64: ChatMessage] = [:]
    ) {
        self.chunks = chunks.sorted { $0.lower < $1.lower }
        chunksAreOrdered = Self.areOrdered(self.chunks)
        self.tombstones = tombstones
        self.pendingEdits = pendingEdits
        var byId: [Int64: ChatMessage] = [:]
        for message in messages { byId[message.id] = message }
        messageIds = byId.keys.sorted()
        storedMessages = messageIds.map { byId[$0]! }
    }

    /// Every broken invariant, described; empty when the store is sound.
    public func invariantViolations() -> [String] {
        var problems: [String] = []
        for (index, chunk) in chunks.enumerated() {
            if chunk.lower > chunk.upper { problems.append("chunk \(chunk) is empty") }
            if index > 0, chunks[index - 1].upper >= chunk.lower {
                problems.append("chunks \(chunks[index - 1]) and \(chunk) are unsorted or overlap")
            }
            if position(of: chunk.lower) == nil || position(of: chunk.upper) == nil {
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

    /// Caches a message, keeping whichever version is newer, and applies a waiting tombstone.
    private mutating func store(_ message: ChatMessage) {
        var message = message
        if let edited = pendingEdits.removeValue(forKey: message.id), edited.version > message.version {
            message = edited
        }
        if let removedAt = tombstones.removeValue(forKey: message.id), removedAt > message.version {
            message = Self.removed(message, at: removedAt)
        }
        let index = index(ofFirstAtOrAbove: message.id)
        if index < messageIds.count && messageIds[index] == message.id {
            let cached = storedMessages[index]
            if cached.version > message.version { return }
            if cached != message { renew() }
            storedMessages[index] = message
        } else {
            grow()
            if index == messageIds.count {
                messageIds.append(message.id)
                storedMessages.append(message)
            } else {
                messageIds.insert(message.id, at: index)
                storedMessages.insert(message, at: index)
            }
        }
    }

    /// The page in ascending id order with one message per id (the last copy wins, as `store` would keep it).
    private static func sortedUnique(_ page: [ChatMessage]) -> [ChatMessage] {
        guard zip(page, page.dropFirst()).contains(where: { $0.id >= $1.id }) else { return page }
        var lastCopy: [Int64: ChatMessage] = [:]
        for message in page { lastCopy[message.id] = message }
        return lastCopy.keys.sorted().map { lastCopy[$0]! }
    }

    /// The index of `id` in `messageIds` (and of its message in `storedMessages`), if cached.
    private func position(of id: Int64) -> Int? {
        let index = index(ofFirstAtOrAbove: id)
        return index < messageIds.count && messageIds[index] == id ? index : nil
    }

    private func index(ofFirstAtOrAbove id: Int64) -> Int {
        // A push lands above every cached id, and is then looked up as the newest.
        if let newest = messageIds.last {
            if newest < id { return messageIds.count }
            if newest == id { return messageIds.count - 1 }
        }
        return messageIds.partitionPoint { $0 < id }
    }
}
