/// Something that should become true during a run: data for the common cases, a closure for the rest.
///
/// Data conditions print back as DSL code and survive shrinking as they are; a custom closure prints as a
/// stub carrying its label (closures cannot be printed).
public enum Condition: Sendable, CustomStringConvertible {
    /// The chat's server history holds exactly `count` messages.
    case serverMessageCount(chat: String, count: Int)
    /// The chat's server history, oldest first, has exactly these texts.
    case serverTexts(chat: String, texts: [String])
    /// Each of these texts is on the server exactly once, in this relative order (other messages may sit between).
    case serverOrder(chat: String, texts: [String])
    /// The client's task queue holds no unfinished task.
    case queueDrained(client: String)
    /// No client holds an unfinished task.
    case allQueuesDrained
    /// The client's cache for the chat is one chunk holding every server message (C6's end state).
    case historyComplete(client: String, chat: String)
    /// The client is connected and logged in.
    case loggedIn(client: String)
    /// Every client's chat list and loaded history equal the server's.
    case converged
    /// Any other predicate over the world; `label` names it in reports and printouts.
    case custom(label: String, predicate: @Sendable (any WorldProbe) -> Bool)

    /// Whether the condition holds in `world` now.
    public func isSatisfied(in world: any WorldProbe) -> Bool {
        switch self {
        case .serverMessageCount(let chat, let count):
            return world.serverMessages(in: chat).count == count
        case .serverTexts(let chat, let texts):
            return world.serverMessages(in: chat).map(\.text) == texts
        case .serverOrder(let chat, let texts):
            let all = world.serverMessages(in: chat).map(\.text)
            var positions: [Int] = []
            for text in texts {
                let matches = all.indices.filter { all[$0] == text }
                guard matches.count == 1 else { return false }
                positions.append(matches[0])
            }
            return positions == positions.sorted()
        case .queueDrained(let client):
            return world.pendingTaskCount(of: client) == 0
        case .allQueuesDrained:
            return world.clientNames.allSatisfy { world.pendingTaskCount(of: $0) == 0 }
        case .historyComplete(let client, let chat):
            return world.chunkCount(of: client, in: chat) == 1
                && world.cachedMessages(of: client, in: chat).map(\.id)
                    == world.serverMessages(in: chat).map(\.id)
        case .loggedIn(let client):
            return world.isLoggedIn(client)
        case .converged:
            return world.hasConverged
        case .custom(_, let predicate):
            return predicate(world)
        }
    }

    /// A one-line rendering for reports: `server has 1 message in alice+bob`.
    public var description: String {
        switch self {
        case .serverMessageCount(let chat, let count): "server has \(count) message(s) in \(chat)"
        case .serverTexts(let chat, let texts): "server history of \(chat) is \(texts)"
        case .serverOrder(let chat, let texts): "server has \(texts) once each, in this order, in \(chat)"
        case .queueDrained(let client): "\(client)'s task queue is drained"
        case .allQueuesDrained: "every task queue is drained"
        case .historyComplete(let client, let chat): "\(client) holds all of \(chat) in one chunk"
        case .loggedIn(let client): "\(client) is logged in"
        case .converged: "every client has converged with the server"
        case .custom(let label, _): label
        }
    }
}
