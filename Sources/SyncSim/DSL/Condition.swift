/// Something that should become true during a run: data for the common cases, a closure for the rest.
///
/// Data conditions print back as DSL code and survive shrinking as they are; a custom closure prints as a
/// stub carrying its label (closures cannot be printed). Two custom conditions are equal when their labels and
/// client lists are (closures cannot be compared).
public enum Condition: Hashable, Sendable, CustomStringConvertible {
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
    /// `chat` is open on `client`'s screen and shows `text`, as a local echo or as a visible message.
    case textOnScreen(client: String, chat: String, text: String)
    /// The server's read mark of `client`'s user in `chat` is the chat's newest message id.
    case readUpToNewest(client: String, chat: String)
    /// Every message of the chat's server history whose text is `caption` carries exactly `photos` photos; true
    /// while there is none. A safety condition for `Always`: a message with several photos goes out whole or not at
    /// all (`send-before-all-uploads` sends it short).
    case photosComplete(chat: String, caption: String, photos: Int)
    /// The server holds exactly `count` open connections logged in as `client`'s user (server-side liveness and
    /// one session per device).
    case serverSessions(client: String, count: Int)
    /// Any other predicate over the world; `label` names it in reports and printouts; `clients` lists the clients it
    /// looks at (shrinking keeps them), nil when unknown (shrinking then keeps every client).
    case custom(label: String, clients: [String]? = nil, predicate: @Sendable (any WorldProbe) -> Bool)

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
        case .textOnScreen(let client, let chat, let text):
            let screen = world.screen(of: client)
            guard screen.openChat == chat else { return false }
            if screen.localEchoes.contains(where: { $0.chat == chat && $0.text == text }) { return true }
            let visible = Set(screen.visibleMessageIds)
            return world.cachedMessages(of: client, in: chat).contains { visible.contains($0.id) && $0.text == text }
        case .readUpToNewest(let client, let chat):
            guard let newest = world.serverMessages(in: chat).last?.id else { return true }
            return world.readMark(of: client, in: chat) == newest
        case .photosComplete(let chat, let caption, let photos):
            return world.serverMessages(in: chat).allSatisfy { $0.text != caption || ($0.attaches?.count ?? 0) == photos }
        case .serverSessions(let client, let count):
            return world.serverSessionCount(of: client) == count
        case .custom(_, _, let predicate):
            return predicate(world)
        }
    }

    /// The clients the condition names; nil for a custom condition that did not say (it may look at any client).
    public var clients: [String]? {
        switch self {
        case .queueDrained(let client), .historyComplete(let client, _), .loggedIn(let client),
            .textOnScreen(let client, _, _), .readUpToNewest(let client, _), .serverSessions(let client, _):
            [client]
        case .serverMessageCount, .serverTexts, .serverOrder, .allQueuesDrained, .converged, .photosComplete: []
        case .custom(_, let clients, _): clients
        }
    }

    /// The chat the condition is about, or nil.
    public var chat: String? {
        switch self {
        case .serverMessageCount(let chat, _), .serverTexts(let chat, _), .serverOrder(let chat, _),
            .historyComplete(_, let chat), .textOnScreen(_, let chat, _), .readUpToNewest(_, let chat),
            .photosComplete(let chat, _, _):
            chat
        default: nil
        }
    }

    public static func == (lhs: Condition, rhs: Condition) -> Bool { lhs.identity == rhs.identity }

    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }

    /// What equality compares: the description, plus the client list of a custom condition.
    private var identity: String {
        if case .custom(let label, let clients, _) = self { return "custom:\(label):\(clients ?? ["*"])" }
        return "\(self)"
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
        case .textOnScreen(let client, let chat, let text): "\(client) shows \(text.debugDescription) in open \(chat)"
        case .readUpToNewest(let client, let chat): "\(client)'s read mark in \(chat) is its newest message"
        case .photosComplete(let chat, let caption, let photos):
            "every message \(caption.debugDescription) in \(chat) on the server carries \(photos) photos"
        case .serverSessions(let client, let count): "the server holds \(count) session(s) of \(client)"
        case .custom(let label, _, _): label
        }
    }
}
