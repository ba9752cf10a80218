import SimCore
import SyncClient
import SyncProtocol

/// The chunk invariants C1–C6 as pure functions over one chat's cache and the server's history of that chat.
///
/// Each returns problem descriptions (empty when the invariant holds); `InvariantChecker` turns them into findings.
/// - Complexity: O(c + n·log m) for c chunks, n cached messages and m server messages.
public enum ChunkChecks {
    /// C1: chunks are non-empty, sorted and disjoint, only the first may be "start of history", and the chunk
    /// list describes the cache (chunk bounds are cached messages, every cached message lies in a chunk).
    /// - Parameters:
    ///   - chunks: the chat's chunks in list order.
    ///   - cachedIds: the chat's cached message ids in storage order.
    public static func c1Problems(chunks: [Chunk], cachedIds: [Int64]) -> [String] {
        var problems: [String] = []
        for (index, chunk) in chunks.enumerated() {
            if chunk.lower > chunk.upper { problems.append("chunk \(chunk) is empty") }
            if index > 0, chunks[index - 1].upper >= chunk.lower {
                problems.append("chunks \(chunks[index - 1]) and \(chunk) are unsorted or overlap")
            }
            if chunk.isStartOfHistory && index != 0 { problems.append("start-of-history chunk \(chunk) is not first") }
        }
        let cached = Set(cachedIds)
        for chunk in chunks where !cached.contains(chunk.lower) || !cached.contains(chunk.upper) {
            problems.append("chunk \(chunk) has a bound that is not cached")
        }
        var chunkIndex = 0
        for id in cachedIds.sorted() {
            while chunkIndex < chunks.count && chunks[chunkIndex].upper < id { chunkIndex += 1 }
            if chunkIndex == chunks.count || chunks[chunkIndex].lower > id {
                problems.append("cached message \(id) lies in no chunk")
            }
        }
        return problems
    }

    /// C2: every server message strictly inside a chunk's range is cached.
    /// - Parameters:
    ///   - chunks: the chat's chunks, ascending (any sequence of them: the check over what a store added passes the
    ///     new ranges without gathering them into an array).
    ///   - isCached: whether the cache holds a message id.
    ///   - server: the chat's server history, ascending by id.
    public static func c2Problems(
        chunks: some Sequence<Chunk>, isCached: (Int64) -> Bool, server: [ChatMessage]
    ) -> [String] {
        var missing: [Int64] = []
        var problems: [String] = []
        for chunk in chunks where chunk.lower < chunk.upper {
            missing.removeAll()
            var index = firstIndex(in: server, atOrAbove: chunk.lower + 1)
            while index < server.count, server[index].id < chunk.upper {
                if !isCached(server[index].id) { missing.append(server[index].id) }
                index += 1
            }
            if !missing.isEmpty {
                problems.append("chunk \(chunk) lacks server message(s) \(listed(missing))")
            }
        }
        return problems
    }

    /// C3: every cached message exists on the server with the same id, sender, text and time (order follows from
    /// ids); an edited or removed message may be cached in any version the server has had (C7 says which is due).
    /// - Parameters:
    ///   - cached: the chat's cached messages, ascending by id (an array or a slice of one: the check over what a
    ///     store added passes its new messages in place).
    ///   - server: the chat's server history, ascending by id.
    ///   - versions: every version the server had of a message id, for messages the server changed.
    public static func c3Problems<Cached: RandomAccessCollection<ChatMessage>>(
        cached: Cached, server: [ChatMessage], versions: (Int64) -> [ChatMessage] = { _ in [] }
    ) -> [String] {
        var problems: [String] = []
        var previous: Int64?
        // By index, reading fields in place: a message copied out of either array is a retain and a release of
        // each of its strings and arrays, on every push checked.
        for position in cached.indices {
            let id = cached[position].id
            if let previous, previous >= id {
                problems.append("cached message \(id) is out of order after \(previous)")
            }
            previous = id
            let index = firstIndex(in: server, atOrAbove: id)
            guard index < server.count, server[index].id == id else {
                problems.append("cached message \(id) is not on the server")
                continue
            }
            let sameSender = server[index].sender == cached[position].sender
            let sameText = server[index].text == cached[position].text
            if sameSender, !sameText || server[index].version != cached[position].version, server[index].version > 0 {
                let message = cached[position]
                if versions(id).contains(where: { $0.text == message.text && $0.version == message.version }) {
                    continue
                }
            }
            if !sameText || !sameSender {
                problems.append(
                    "message \(id) cached as \(quoted(cached[position])), server has \(quoted(server[index]))")
            } else if server[index].time != cached[position].time {
                // Order by time must be the server's on every device (wire-desktop #352: own messages kept the
                // device clock's time and sorted above the replies to them).
                problems.append(
                    "message \(id) cached with time \(cached[position].time) ms, server has \(server[index].time) ms")
            }
        }
        return problems
    }

    /// C4: no message id twice in the cache and no cid twice among local echoes.
    /// - Parameters:
    ///   - cachedIds: the chat's cached ids in storage order.
    ///   - echoCids: the cids of the chat's local echoes.
    public static func c4Problems(cachedIds: [Int64], echoCids: [Int64]) -> [String] {
        var problems: [String] = []
        for (id, count) in counted(cachedIds) where count > 1 { problems.append("message \(id) cached \(count) times") }
        for (cid, count) in counted(echoCids) where count > 1 { problems.append("cid \(cid) echoed \(count) times") }
        return problems
    }

    /// C5: a chunk marked "start of history" begins at the server's oldest message of the chat.
    /// - Parameters:
    ///   - chunks: the chat's chunks, ascending.
    ///   - server: the chat's server history, ascending by id.
    public static func c5Problems(chunks: [Chunk], server: [ChatMessage]) -> [String] {
        guard let oldest = server.first?.id else { return [] }
        return chunks.filter { $0.isStartOfHistory && oldest < $0.lower }.map {
            "start-of-history chunk \($0), but the server holds older message \(oldest)"
        }
    }

    /// C6: after scrolling to the top, one chunk marked "start of history" spans the server's whole history.
    /// - Parameters:
    ///   - chunks: the chat's chunks, ascending.
    ///   - server: the chat's server history, ascending by id.
    public static func c6Problems(chunks: [Chunk], server: [ChatMessage]) -> [String] {
        guard let oldest = server.first?.id, let newest = server.last?.id else {
            return chunks.isEmpty ? [] : ["chunks \(chunks) for a chat with no messages"]
        }
        guard chunks.count == 1, let only = chunks.first, only.isStartOfHistory, only.lower == oldest,
              only.upper == newest else {
            let cached = chunks.isEmpty ? "no chunk" : "chunks \(chunks.map(\.description).joined(separator: " "))"
            return ["\(cached), not one start chunk [\(oldest)...\(newest) start]"]
        }
        return []
    }

    /// The index of the first message with id at or above `id` (binary search).
    static func firstIndex(in messages: [ChatMessage], atOrAbove id: Int64) -> Int {
        messages.partitionPoint { $0.id < id }
    }

    /// `1, 2, 3` or `1, 2, 3 and 7 more`.
    static func listed(_ ids: [Int64], limit: Int = 8) -> String {
        let shown = ids.prefix(limit).map(String.init).joined(separator: ", ")
        return ids.count > limit ? "\(shown) and \(ids.count - limit) more" : shown
    }

    private static func quoted(_ message: ChatMessage) -> String {
        "(sender \(message.sender), \"\(message.text)\")"
    }

    private static func counted(_ values: [Int64]) -> [(Int64, Int)] {
        var counts: [Int64: Int] = [:]
        for value in values { counts[value, default: 0] += 1 }
        return counts.keys.sorted().map { ($0, counts[$0]!) }
    }
}
