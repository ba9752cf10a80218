import SimCore

/// One broken invariant as a checker saw it: which, where (client, chat, virtual time), expected versus found.
///
/// SyncSim turns a finding into a `Violation` (adding the chat's scenario name, the last step and the trace tail).
public struct Finding: Hashable, Sendable, CustomStringConvertible {
    /// The invariant broken.
    public var invariant: InvariantID
    /// The client's name as the world registered it, or nil for a server-wide finding.
    public var client: String?
    /// The server chat id it concerns, or nil.
    public var chatId: Int64?
    /// Virtual time at which the checker saw it.
    public var time: SimInstant
    /// What the invariant expected (`"one server message for task 3"`).
    public var expected: String
    /// What the checker found (`"2 messages: ids 41, 42"`).
    public var found: String

    /// A finding.
    public init(
        invariant: InvariantID, client: String? = nil, chatId: Int64? = nil, time: SimInstant, expected: String,
        found: String
    ) {
        self.invariant = invariant
        self.client = client
        self.chatId = chatId
        self.time = time
        self.expected = expected
        self.found = found
    }

    /// One line: `T2 at 12.345s client alice chat 1: expected ..., found ...`.
    public var description: String {
        var place = "\(invariant) at \(time)"
        if let client { place += " client \(client)" }
        if let chatId { place += " chat \(chatId)" }
        return "\(place): expected \(expected), found \(found)"
    }
}
