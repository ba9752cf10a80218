/// The virtual server of a scenario: its parameters and the history it holds before the run starts.
public struct ServerSpec: Hashable, Sendable {
    /// Server knobs (`"historyPageSize"`, `"loginMessagesPerChat"`, ...), handed to SyncServer.
    public var parameters: ParameterSet
    /// Messages each chat holds before the run, oldest first, written by its members in turn.
    public var history: [ChatHistorySeed]
    /// Offset of the server clock against true virtual time (the device clocks skew separately).
    public var clockOffset: SimDuration
    /// Where it was written.
    public var location: SourceLocation

    /// Creates a server spec; `clockOffset` shifts the server clock against virtual time (default zero).
    public init(
        parameters: ParameterSet = [:],
        history: [ChatHistorySeed] = [],
        clockOffset: SimDuration = .zero,
        location: SourceLocation = .generated
    ) {
        self.parameters = parameters
        self.history = history
        self.clockOffset = clockOffset
        self.location = location
    }
}

/// A chat's history that exists on the server before the run: `messages` messages, ids growing with time.
public struct ChatHistorySeed: Hashable, Sendable {
    /// The chat's name.
    public var chat: String
    /// How many messages it holds before the run.
    public var messages: Int

    /// Seeds `chat` (a chat's name) with `messages` messages before the run.
    public init(chat: String, messages: Int) {
        self.chat = chat
        self.messages = messages
    }
}

/// A simulated phone: its user name, link profile, engine parameters and, for checker tests, a mutant.
public struct ClientSpec: Hashable, Sendable {
    /// The user name, unique in the scenario (`"alice"`); chats named `"alice+bob"` refer to it.
    public var name: String
    /// The access link's profile at the start.
    public var profile: ProfileName
    /// Reference-engine parameters (`"historyPageSize"`, `"prefetchDistance"`, `"requestTimeout"`, ...).
    public var parameters: ParameterSet
    /// A deliberately broken engine variant (`"resend-new-cid"`), or nil for the reference engine.
    public var mutant: String?
    /// For a second device (`Device("alice", "tablet")`): the user it belongs to; nil for a user's own phone.
    public var user: String?
    /// Where it was written.
    public var location: SourceLocation

    /// Creates client `name` on link profile `profile`, with engine `parameters` and an optional `mutant` engine;
    /// `user` makes it a second device of that user.
    public init(
        name: String,
        profile: ProfileName,
        parameters: ParameterSet = [:],
        mutant: String? = nil,
        user: String? = nil,
        location: SourceLocation = .generated
    ) {
        self.name = name
        self.user = user
        self.profile = profile
        self.parameters = parameters
        self.mutant = mutant
        self.location = location
    }
}

extension ClientSpec {
    /// The user the client logs in as: `user` for a second device, else its own name.
    public var userName: String { user ?? name }
}

/// A chat declared with explicit members. Chats named `"a+b+c"` need no declaration: the name lists them.
public struct ChatSpec: Hashable, Sendable {
    /// The name.
    public var name: String
    /// Member user names, in the order given.
    public var members: [String]
    /// Where it was written.
    public var location: SourceLocation

    /// Declares chat `name` with the client names `members`.
    public init(name: String, members: [String], location: SourceLocation = .generated) {
        self.name = name
        self.members = members
        self.location = location
    }
}
